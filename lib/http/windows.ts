/**
 * Window-parallel pulls of a date-ordered list: the list's date range is cut
 * into windows (a date-range filter plus the normal cursor paging inside
 * it), `parallel` windows are paged at once, and their pages are stitched
 * back in order. The result is the serial pull's: same rows, same order, no
 * duplicate at a window edge.
 *
 * Why only date-ordered lists: a window is a filter on the date, so the
 * serial order of a range is the windows' orders one after the other only
 * when the list is sorted by that date (`filedAt` for the insider search,
 * newest filing first for feeds, `post_date` — the day the catalog added the
 * pitch — for pitches). Under any other sort (returns, value) the rows of
 * every window interleave, and a parallel pull would have to read every
 * window to the end before it could hand out its first row; those sorts stay
 * serial.
 *
 * How the plan is made without knowing the data's density:
 * - The first window is the list itself (the same request as the serial
 *   pull's first page, so a short list costs exactly what it costs
 *   serially). Its range is the filter's date range; an end the filter does
 *   not bound stays open (the request simply leaves that bound out).
 * - A window's share is the pages still to read (the rows still needed,
 *   with a row limit; else the rest of the windows' ranges at their
 *   density) divided among the `parallel` slots, so that the windows started
 *   now end with those running: at least {@link MIN_PART}, at most
 *   {@link TARGET_PAGES} pages, and the target when what is left is unknown
 *   (an open end without a row limit). While only the list's first page is
 *   known, its rows give the density; when they span two days or less they
 *   say only that a day holds half a page or more, and a page a day is
 *   assumed (a window cut too wide is read past the row limit; one cut too
 *   narrow costs a part-filled page, and those after it are cut with what
 *   the first windows saw).
 * - After each page of a window that still has more, the rows read so far
 *   give its density (rows per day, from the days before its last one). A
 *   window whose rest is projected at more than twice its share is split:
 *   it goes on with its own cursor and its rows end after one share at
 *   that density; one new window takes the rest of its range. When slots
 *   would stay idle (the end of the list or of the row limit is near, or
 *   the windows ahead hold enough pages), a rest of at least 2 ×
 *   {@link MIN_PART} pages is split the same way into a part per idle slot
 *   (what the rows fetched before it leave, not those expected: the
 *   estimates may be high), so the windows finish together instead of one
 *   long window finishing alone. The list's own walk is split so after its
 *   first page: nothing is read twice.
 * - A window not yet started is cut to its share when a slot takes it, at
 *   the density of every window read so far: the rest of its range becomes
 *   the next window, cut in turn. So each window is sized with what is known
 *   when it starts, not when the list was first split, and the last window
 *   a row limit needs is sized to the rows left (with a fifth more, so that
 *   no short rest is read alone at the end). After an empty window the
 *   rest is read whole (split again if it has rows): an open end costs one
 *   empty request, not one per window cut from it.
 * - Requests take slots: at most `parallel` are in flight, and a free slot
 *   goes to the window nearest the reader that may go (see
 *   {@link MAX_BUFFERED_PAGES}). The reader is woken on the next turn of
 *   the event loop, after the windows granted a slot have sent their
 *   requests: handing out a page (or building a frame from it) does not
 *   hold them back.
 * - The seam is exact whatever the client thinks a row's day is: a window
 *   a split ended keeps its requests' filter, so its last page goes on past
 *   its new end; the rows there are the next window's first rows, and the
 *   reader checks them by key, in order, before it hands out that last page.
 *   If they do not match — the service dates rows otherwise than the client
 *   reads them — the split is undone: those rows are the window's own again,
 *   the windows inside its filter are dropped, and it goes on serially with
 *   its own cursor (a warning says so once). Rows are never lost or
 *   duplicated.
 * - A window never crosses the list's own bounds: its filter is the list's
 *   filter with the date range narrowed.
 *
 * What the windows do not take on trust (a parallel pull never returns what
 * the serial pull would not):
 * - Range guard: every row a window receives must fall inside the window's
 *   date range as the window asked for it (read with the source's `day`).
 *   One that does not — or one without a readable day — means the service
 *   reads the date filter otherwise (ignores a bound, filters on another
 *   date, another time zone). The pull then goes serial, with one warning,
 *   before that page is handed out: every other window is dropped and the
 *   list's own cursor walk goes on from where its first window was split,
 *   skipping, by key, every row already handed out (the keys of rows handed
 *   out from split windows are kept for this, about 40 bytes a row). So no
 *   row is handed out twice and none is lost. The same holds when the one
 *   row a cut-off probe reads is out of its range.
 * - A pull resumed at a window cursor has no walk of the list to go back
 *   to: there the guard fails the pull with an {@link InvalidResponseError}
 *   (start the pull again without the cursor).
 * - Cursors: each window keeps the digests of its cursors (see
 *   `cursorDigest`), kept across its serial continuations, so a cycle of
 *   any length inside a walk ends in a `PaginationError`. A cursor sent to
 *   two different windows means the service's cursors do not name their
 *   filter (offsets, or a cycle across windows): that cannot be told apart
 *   from a loop, so the pull goes serial as above, where a cycle is caught
 *   as in any serial pull. A window never follows a cursor longer than
 *   `MAX_CURSOR_CHARS`.
 * - Rows: each window's walk is checked as a serial walk is
 *   (`WalkCheck` in `paginate.ts`, kept across its continuations): a page
 *   whose rows all came before in it, under a new cursor, is a loop
 *   (`PaginationError`, `"repeated-rows"`), and a row sent again out of
 *   place (not in an overlap with the rows just before it) stops the pull
 *   with `"skipped-rows"`; a row handed out before under the same key (in a
 *   page, across pages or windows) is not handed out again, and the pull
 *   ends with one warning counting them.
 * - Early ends: a window whose walk ends (no more pages) on a full page, or
 *   short of its range's end by what its density says is a quarter page
 *   or more, while a later window has rows, gets one probe of one row over
 *   that rest; a row there stops the pull (`"early-end"`) with the rows
 *   before the hole and a window cursor at the cut. The probe is sent when
 *   the walk ends, in a slot no window wants (else by the reader when it
 *   reaches that page): sent by the reader, each was a round trip of its
 *   own, and a list with quiet weekends has one at most windows' ends. Sent
 *   early, it goes before the later windows are known to have rows, so a
 *   window ending on a gap followed only by empty windows (a range that
 *   starts before the data) costs one probe the reader would have skipped;
 *   the rows are the same either way.
 * - Skipped pages: a window whose walk reads a page wholly past its end
 *   after its last row of its own, short of that end by a quarter page or
 *   more, has the same probe over the rest, before its seam is checked: a
 *   row there was skipped by its walk (`"skipped-rows"`, not a seam read
 *   otherwise). A skip inside one walk (serial, or within a window's range)
 *   leaves no trace: no row comes again, and neither service states a
 *   total count to compare with.
 *
 * Cost: every window ends on a part-filled page (a split one on the page
 * that shows its end), so a parallel pull makes a few percent more requests
 * than the serial one (measured in `bench/parallel_bench.ts`). Memory: windows ahead of the
 * one being handed out keep their pages; at most {@link MAX_BUFFERED_PAGES}
 * per parallel window are held, then those windows wait.
 *
 * With a row limit (`take(n)`, `.frame({ maxRows })`) no window is started
 * once the rows before it are known to reach the limit, and no page is
 * requested once they do; when the cut-off falls exactly on the end of a
 * window and the next window was not read, one probe of one row over the
 * rest of the range says whether `truncated` is true.
 *
 * Resuming: the `next` of a page handed out, and `error.partial.cursor` of a
 * failed parallel pull, is a window cursor (`sbw1.…`) that the same list
 * (same filter, `parallel` or not) accepts as its `cursor` option. It
 * carries the service's cursor exactly, whatever text it is (any Unicode,
 * lone surrogates too); a `sbw1.` cursor this list did not hand out (not
 * decodable, days that are not calendar days) is refused before any request
 * with a `RequestValidationError` naming `cursor` (`_window_cursor.ts`).
 *
 * Parts: the plan (`_window_plan.ts`, pure), the guards (`_window_guard.ts`,
 * pure), the slots (`_window_slots.ts`), a window and its state changes
 * (`_window.ts`), the changes that span windows (`_window_pull.ts`); this
 * file holds the rules and the reader.
 *
 * @module
 */
import { duplicateWarning, failedCursor, type Page, setFailedCursor } from "./paginate.ts";
import { joinGroup } from "./retry.ts";
import { decodeWindowCursor } from "./_window_cursor.ts";
import { WindowPull } from "./_window_pull.ts";
import type { DayRange, PageSender, WindowedOptions, WindowSource } from "./_window.ts";

export { decodeWindowCursor } from "./_window_cursor.ts";
export { MAX_BUFFERED_PAGES, MIN_PART, TARGET_PAGES } from "./_window_plan.ts";
export type { DayRange, PageSender, WindowedOptions, WindowSource } from "./_window.ts";

/**
 * A list's identity for its window cursors ({@link WindowSource}'s `list`):
 * its endpoint and parameters, but the page size and cursor, in key order
 * at every level (`{ a, b }` and `{ b, a }` are one list).
 *
 * @example
 * ```ts
 * import { listId } from "./windows.ts";
 * listId("GET /feeds", { to: "2025-01-31", feed_id: [1], limit: 50 }) ===
 *   listId("GET /feeds", { feed_id: [1], to: "2025-01-31" }); // true
 * ```
 */
export function listId(endpoint: string, params: object): string {
  return JSON.stringify(
    [endpoint, params],
    (k, v) =>
      ["limit", "pageSize", "cursor"].includes(k)
        ? undefined
        : v?.constructor === Object
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1))
        : v,
  );
}

/** `range` narrowed to a list's own bounds; undefined when nothing is left. */
export function narrow(range: DayRange, own: DayRange): DayRange | undefined {
  const from = [range.from, own.from].filter((d) => d !== undefined).sort().at(-1);
  const to = [range.to, own.to].filter((d) => d !== undefined).sort()[0];
  return from !== undefined && to !== undefined && from > to ? undefined : { from, to };
}

/**
 * The {@link WindowSource} of a list whose windows are its own request with
 * the date range narrowed: `send` is given a window's range narrowed to the
 * list's `bounds` ({@link narrow}), or undefined for the list's own request
 * (both ends undefined); a window outside the bounds is an empty page, sent
 * nowhere.
 *
 * @example
 * ```ts
 * import { datedSource } from "./windows.ts";
 * const src = datedSource<string>({
 *   pageSize: 10,
 *   bounds: { from: "2025-01-01" },
 *   day: (r) => r,
 *   key: (r) => r,
 * }, (range) => Promise.resolve({ rows: [JSON.stringify(range)], next: null, raw: null }));
 * console.log((await src.fetch({ to: "2025-02-01" }, null, new AbortController().signal)).rows);
 * ```
 */
export function datedSource<Row>(
  src: Omit<WindowSource<Row>, "fetch">,
  send: PageSender<DayRange | undefined, Row>,
): WindowSource<Row> {
  const fetch: WindowSource<Row>["fetch"] = (range, cursor, signal, size) => {
    if (range.from === undefined && range.to === undefined) {
      return send(undefined, cursor, signal, size);
    }
    const r = narrow(range, src.bounds ?? {});
    return r ? send(r, cursor, signal, size) : Promise.resolve({ rows: [], next: null, raw: null });
  };
  return { ...src, fetch };
}

/**
 * Milliseconds of the reader's own work (between pages) after which it lets
 * the event loop turn once: the windows' answers are read between its pages,
 * not only after the pages ready are all handed out.
 */
const READER_SLICE_MS = 5;
/** One turn of the event loop; resolves to the time after it. */
const turn = () => new Promise<number>((r) => setTimeout(() => r(performance.now()), 0));

/**
 * Pages of a date-ordered list pulled in parallel windows, in the serial
 * order (see the module doc). The `next` of each page is a cursor the same
 * list accepts to resume there.
 *
 * @example
 * ```ts
 * import { windowedPages } from "./windows.ts";
 * const rows = ["2025-01-03#1", "2025-01-03#2", "2025-01-02#3", "2025-01-01#4"];
 * const pages = windowedPages<string>({
 *   pageSize: 2,
 *   order: "desc",
 *   day: (r) => r.slice(0, 10),
 *   key: (r) => r,
 *   fetch: (range, cursor) => {
 *     const all = rows.filter((r) =>
 *       (!range.from || r.slice(0, 10) >= range.from) && (!range.to || r.slice(0, 10) <= range.to)
 *     );
 *     const at = Number(cursor ?? 0);
 *     const next = at + 2 < all.length ? String(at + 2) : null;
 *     return Promise.resolve({ rows: all.slice(at, at + 2), next, raw: {} });
 *   },
 * }, { parallel: 2 });
 * for await (const page of pages) console.log(page.rows);
 * ```
 */
export async function* windowedPages<Row>(
  src: WindowSource<Row>,
  opts: WindowedOptions,
): AsyncGenerator<Page<Row>, void, undefined> {
  const outer = new AbortController();
  // the whole pull, every window, is one call group: one retry budget (see `retry.ts`)
  const signal = joinGroup(outer.signal, opts.signal);
  const start = opts.cursor === undefined ? undefined : decodeWindowCursor(opts.cursor, src.list);
  const pull = new WindowPull(src, opts, signal, start);
  const { windows, slots, limit } = pull;
  let handedOut = 0;
  /** When the reader last let the loop turn (waiting for a page, or after a slice of work). */
  let turned = performance.now();
  /** The `next` of the last page handed out: where a failure that names no cursor resumes. */
  let lastNext: string | null = opts.cursor ?? null;
  const onAbort = () => {
    pull.notify();
    slots.dispatch();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    slots.dispatch();
    for (let i = 0;;) {
      if (pull.restart) {
        // a fallback left the root alone: the reader goes on with it
        pull.restart = false;
        i = 0;
      }
      if (i >= windows.length) break;
      const w = windows[i];
      pull.waitFor(w); // the head always runs
      if (
        w.spill && w.state === "done" && w.pages.length === 1 &&
        handedOut + w.pages[0].rows.length < limit
      ) {
        // the last page of a window a split ended: the rows it read past its end must be the
        // next windows' first rows (else the service dates rows otherwise: it goes on serially)
        const holds = await pull.seam(i);
        if (pull.restart || windows[i] !== w || !w.spill) continue;
        if (typeof holds === "object") {
          // its last page is not handed out: a resume reads it again, within its own filter
          throw setFailedCursor(holds.error, pull.position(w, w.spill.at));
        }
        if (holds) {
          w.spill = undefined;
          w.check.forget();
        } else {
          // a page wholly past its end after a quiet stretch: rows there (a probe says) are rows
          // its walk skipped, lost rows, not rows dated otherwise
          const early = w.gap && !pull.serial ? await pull.earlyEnd(w) : undefined;
          if (early) throw setFailedCursor(early, early.cursor);
          pull.unsplit(w);
          slots.dispatch();
          continue;
        }
      }
      const page = w.pages.shift();
      if (page) {
        const rows = pull.unique(page.rows, w.pageKeys.shift()!);
        handedOut += rows.length;
        slots.dispatch();
        // a window's last page: the pull goes on when any later window has a row
        let next = page.next !== null
          ? pull.position(w, page.next)
          : await pull.rowsAfter(i, handedOut >= limit);
        // ... unless the window ended early: rows after it would leave a hole
        const early = page.next === null && next !== null && w.gap && !pull.serial &&
            handedOut < limit
          ? await pull.earlyEnd(w)
          : undefined;
        if (early) next = early.cursor;
        yield { ...page, rows, next };
        // the reader's own work since it last waited (a frame's appends, a chunk's build) holds
        // the loop thread: past a slice of it, one turn lets the answers that came meanwhile
        // send their windows' next requests before it goes on with the pages ready
        if (performance.now() - turned > READER_SLICE_MS) turned = await turn();
        lastNext = next;
        if (early) throw setFailedCursor(early, early.cursor);
        if (handedOut >= limit) return;
        continue;
      }
      if (w.state === "failed") {
        // after a fallback the list's own walk skips the rows other windows handed out: a
        // resume at its cursor skips them too
        const ahead = pull.serial && w === pull.root ? Math.max(0, handedOut - w.received) : 0;
        throw setFailedCursor(w.error, pull.position(w, w.cursor, ahead || undefined));
      }
      if (w.state === "done") {
        i++;
        continue;
      }
      if (signal.aborted) throw signal.reason;
      await pull.changed();
      turned = performance.now();
    }
  } catch (e) {
    // (a probe's request, or the walk a fallback reads, fails outside any window's walk)
    if (failedCursor(e) === undefined) setFailedCursor(e, lastNext);
    throw e;
  } finally {
    if (pull.twice > 0) console.warn(duplicateWarning(pull.twice));
    signal.removeEventListener("abort", onAbort);
    outer.abort(new DOMException("pull stopped", "AbortError"));
    for (const w of windows) slots.answer(w, false);
  }
}
