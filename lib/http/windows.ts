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
 * - Rows: a page whose rows all came before in its window's walk, under a
 *   new cursor, is a loop (`PaginationError`, `"repeated-rows"`); a row
 *   handed out before under the same key (in a page, across pages or
 *   windows) is not handed out again, and the pull ends with one warning
 *   counting them.
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
 * (same filter, `parallel` or not) accepts as its `cursor` option.
 *
 * @module
 */
import {
  checkCursor,
  cursorDigest,
  dropSeen,
  duplicateWarning,
  failedCursor,
  type Page,
  Paginated,
  quoteCursor,
  setFailedCursor,
} from "./paginate.ts";
import { InvalidResponseError, PaginationError } from "./errors.ts";
import { joinGroup } from "./retry.ts";
import { KeySet } from "./_key_set.ts";
import { dayText, isoDay } from "../shared/values/mod.ts";
import { decodeWindowCursor, encodeWindowCursor } from "./_window_cursor.ts";

export { decodeWindowCursor } from "./_window_cursor.ts";

/** Most pages a window is given (its share, see the module doc); windows of an open end without a row limit get this many. */
export const TARGET_PAGES = 12;

/**
 * Pages held per parallel window ahead of the one being handed out: the
 * windows nearest the reader go on while those from the reader up to them
 * hold fewer than this × `parallel` pages, and no window fetches once all
 * hold twice that. 16 × 8 pages of 100 insider search rows are about 40 MB
 * (rows of 174 fields are held compact, about 0.3 MB a page; see
 * `lib/shared/wide_rows.ts`). Measured at 100 ms and `parallel: 8`, 16
 * rather than 8 pages took the 20k-row search from 4.0–4.2 s to 3.7–3.9 s:
 * with fewer, the windows far ahead of the reader were held back and then
 * finished alone at the end of the pull.
 */
export const MAX_BUFFERED_PAGES = 16;

/** Fewest pages (projected) a window is given: smaller parts cost more partial pages than they save. */
export const MIN_PART = 1.5;

/** An inclusive range of days (`YYYY-MM-DD`); a missing end is the list's own bound. */
export interface DayRange {
  /** First day, inclusive. */
  from?: string;
  /** Last day, inclusive. */
  to?: string;
}

/**
 * Sends one page of a list for a window: the window's own parameters `P`
 * (a filter, list parameters or a day range), the cursor inside it, and the
 * page size to ask for (undefined: the list's own).
 */
export type PageSender<P, Row> = (
  params: P,
  cursor: string | null,
  signal: AbortSignal,
  size: number | undefined,
) => Promise<Page<Row>>;

/** How a list is pulled in windows (built by each client for its list). */
export interface WindowSource<Row> {
  /**
   * One page of the list narrowed to `range` (both ends undefined: exactly
   * the list's own request), at `cursor`; `size` overrides the page size
   * (probes ask for 1 row).
   */
  fetch(
    range: DayRange,
    cursor: string | null,
    signal: AbortSignal,
    size?: number,
  ): Promise<Page<Row>>;
  /** The day of a row (`YYYY-MM-DD`) as the service filters it, or undefined. */
  day(row: Row): string | undefined;
  /** A key unique to a row within the list ("" when the row has none: never a duplicate). */
  key(row: Row): string;
  /** Date order when known from the request (`desc`: newest first); else learned from the rows. */
  order?: "asc" | "desc";
  /** Rows per page asked for. */
  pageSize: number;
  /** The list's own date range, from its filter (a missing end is open). */
  bounds?: DayRange;
}

/** Options of {@link windowedPages}. */
export interface WindowedOptions {
  /** Windows paged at once (1–32). */
  parallel: number;
  /** Stop once this many rows are handed out (no request beyond them). */
  limit?: number;
  /** Caller's abort signal: aborts every window. */
  signal?: AbortSignal;
  /** Resume at a window cursor (`sbw1.…`) or at a cursor of the list itself. */
  cursor?: string;
  /** Called when a split is undone (the service dates rows otherwise than the client). */
  onFallback?: (message: string) => void;
}

/** `range` narrowed to a list's own bounds; undefined when nothing is left. */
export function narrow(range: DayRange, own: DayRange): DayRange | undefined {
  const from = [range.from, own.from].filter((d) => d !== undefined).sort().at(-1);
  const to = [range.to, own.to].filter((d) => d !== undefined).sort()[0];
  return from !== undefined && to !== undefined && from > to ? undefined : { from, to };
}

/** Widest window planned at an open end, in days (a sparse list's estimate can be near 0 rows a day). */
const MAX_WIDTH = 3_660;

/** Day numbers of the days read so far (rows of a pull share few days; bounded: cleared when full). */
const dayNumbers = new Map<string, number | undefined>();

function dayNumber(day: string | undefined): number | undefined {
  if (day === undefined) return undefined;
  if (dayNumbers.has(day)) return dayNumbers.get(day);
  // the date grammar's calendar-checked reader (`shared/values/`)
  const d = isoDay(day.slice(0, 10));
  const n = d === d ? d : undefined;
  if (dayNumbers.size >= 10_000) dayNumbers.clear();
  dayNumbers.set(day, n);
  return n;
}

/** One window: a range in position space (increasing in the list's order), paged serially. */
interface Win<Row> {
  /**
   * First and last position (undefined: the list's own bound). `b` is where
   * the window's rows end; a split may move it nearer while the window runs
   * (its requests keep their `filter`).
   */
  a?: number;
  b?: number;
  /** The range its requests are sent with, fixed when it starts (a cursor names its filter). */
  filter?: { a?: number; b?: number };
  /**
   * Rows its walk read past `b` (the next window's first rows), their keys
   * and the cursor after them: checked against
   * the next window's rows at the seam, or taken back when a split is undone.
   */
  spill?: { rows: Row[]; keys: string[]; next: string | null; at: string | null };
  state: "queued" | "running" | "done" | "failed";
  /** Pages fetched, not yet handed out (skipped rows removed). */
  pages: Page<Row>[];
  /** The keys of the rows of each page in `pages`. */
  pageKeys: string[][];
  /** Cursor of the first page not yet fetched (null: its start). */
  cursor: string | null;
  /** Rows still to skip at the start (a resume inside a page). */
  skip: number;
  /** Rows skipped at the start in all. */
  skipTotal: number;
  /** Rows fetched (after skipping). */
  rows: number;
  /** Rows expected, from the density its parent saw. */
  expect: number;
  /** Day of the first row fetched. */
  firstDay?: number;
  /** Trailing run: the day of the last row fetched and the keys of the rows on it. */
  run?: { day: number; keys: string[] };
  /** Set while the window waits for a slot: called with true when granted, false to stop. */
  want?: (go: boolean) => void;
  error?: unknown;
  ac: AbortController;
  /** The list's own request (the first window of a pull not resumed). */
  root?: boolean;
  /** Digests of the cursors this window's walk was sent (kept across its continuations). */
  seen: Set<string>;
  /** Pages this window has read. */
  pagesRead: number;
  /** Rows its walk received, all of them (the list's own walk: where its cursor stands). */
  received: number;
  /** After a fallback (root only): keys of rows already handed out, skipped when they come again. */
  dedupe?: KeySet;
  /** Keys of the rows this window's walk received (kept across its continuations): the loop check. */
  keys: KeySet;
  /** Position of the last row received. */
  lastPos?: number;
  /** Rows per day its parent saw (a window not yet read is cut with it, see `cut`). */
  hint?: number;
  /** The rest after an empty window (the data may have ended there): read whole, not cut. */
  whole?: boolean;
  /** Set when the walk ended where rows may still follow in its range: that rest, and the rows on its first day already read. */
  gap?: { a: number; b: number; skip: number };
  /**
   * The one-row probe of that rest, sent as soon as the walk ended in a slot
   * no window wants (undefined when it got none: the reader sends it then).
   */
  probe?: Promise<Page<Row> | undefined>;
  /** Set while that probe waits for a slot. */
  probing?: boolean;
}

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
  const k = opts.parallel;
  const limit = opts.limit ?? Infinity;
  const outer = new AbortController();
  // the whole pull, every window, is one call group: one retry budget (see `retry.ts`)
  const signal = joinGroup(
    opts.signal ? AbortSignal.any([opts.signal, outer.signal]) : outer.signal,
    opts.signal,
  );
  let order: "asc" | "desc" | undefined = src.order;
  let splittable = true;
  const sign = () => (order === "asc" ? 1 : -1);
  const toPos = (day: number | undefined) => (day === undefined ? undefined : sign() * day);
  // the list's own bounds, in position space once the order is known
  const bound = () => {
    const [lo, hi] = [dayNumber(src.bounds?.from), dayNumber(src.bounds?.to)];
    return order === "asc" ? { a: lo, b: hi } : { a: toPos(hi), b: toPos(lo) };
  };
  const rangeOf = (w: { a?: number; b?: number }): DayRange => {
    const [x, y] = [w.a, w.b].map((p) => (p === undefined ? undefined : dayText(sign() * p)));
    return order === "asc" ? { from: x, to: y } : { from: y, to: x };
  };
  // a cursor names the filter it was sent with: a position keeps that range (a resume reads the
  // windows split from it as one); at a window's start, the rows a resume there skipped
  const position = (w: Win<Row>, c: string | null, skip = c ? 0 : w.skipTotal): string => {
    const { from: f, to: t } = rangeOf(w.filter ?? w);
    return encodeWindowCursor({ o: order === "asc" ? "a" : "d", f, t, c, s: skip });
  };
  const newWin = (a?: number, b?: number, expect = 0): Win<Row> => ({
    a,
    b,
    state: "queued",
    pages: [],
    pageKeys: [],
    cursor: null,
    skip: 0,
    skipTotal: 0,
    rows: 0,
    expect,
    ac: new AbortController(),
    seen: new Set(),
    pagesRead: 0,
    received: 0,
    keys: new KeySet(),
  });

  // the list itself, or a resumed window and everything after it
  const windows: Win<Row>[] = [];
  const start = opts.cursor === undefined ? undefined : decodeWindowCursor(opts.cursor);
  if (start) {
    order = start.o === "a" ? "asc" : "desc";
    const [x, y] = [dayNumber(start.f), dayNumber(start.t)];
    const w = order === "asc" ? newWin(x, y) : newWin(toPos(y), toPos(x));
    w.cursor = start.c;
    w.skip = w.skipTotal = start.s;
    windows.push(w);
    if (w.b !== undefined && (bound().b === undefined || w.b < bound().b!)) {
      windows.push(newWin(w.b + 1));
    }
  } else {
    const w = newWin();
    w.cursor = opts.cursor ?? null;
    w.root = true;
    windows.push(w);
  }
  /** The list's own walk, when the pull was not resumed at a window cursor. */
  const root: Win<Row> | undefined = windows[0].root ? windows[0] : undefined;
  /** True once the pull went serial (see the module doc); no window is then split or checked. */
  let serial = false;
  /** Set by a fallback: the reader starts again from the first window (the root). */
  let restart = false;
  /**
   * Keys of rows handed out from windows other than the root, made by a
   * fallback (its root walk skips them once, in silence: it re-reads them
   * on purpose).
   */
  let handed = new KeySet();
  /**
   * Keys of every row handed out: a row the service sends again under the
   * same key (in a page, across pages or windows) is handed out once and
   * counted in `twice` (one warning at the end).
   */
  const sent = new KeySet();
  let twice = 0;
  /** `rows` (with their `keys`) without those whose key was handed out before (added to `sent`). */
  const unique = (rows: Row[], keys: readonly string[]): Row[] => {
    const out = dropSeen(rows, (i) => keys[i], sent);
    twice += rows.length - out.length;
    return out;
  };
  /** Which window was sent each cursor (by digest). */
  const owner = new Map<string, Win<Row>>();

  let wake: (() => void) | null = null;
  /**
   * Wakes the reader on the next turn of the event loop, not now: the
   * requests that windows were just granted go out first (handing out a
   * page, or building a frame from it, holds the loop thread for
   * milliseconds, and a request queued behind it would wait as long).
   */
  const notify = () => {
    const f = wake;
    wake = null;
    if (f) setTimeout(f, 0);
  };
  const changed = () => new Promise<void>((r) => (wake = r));
  /** Requests in flight (slots of the `parallel` granted). */
  let inFlight = 0;
  let head: Win<Row> = windows[0];
  /** Pages held by windows after the head (the head's are handed out at once). */
  const buffered = () => windows.reduce((n, w) => n + (w === head ? 0 : w.pages.length), 0);
  /** Rows fetched before `w` (a lower bound of the rows that come before it). */
  const rowsBefore = (w: Win<Row>) => {
    let n = 0;
    for (const x of windows) {
      if (x === w) return n;
      n += x.rows;
    }
    return n;
  };
  /**
   * Rows per day a window has shown: the rows before its last day (whose
   * rows may go on in the next page) over the days they span; all its rows
   * over one day while they are all on one day.
   */
  const densityOf = (x: Win<Row>) => {
    const p = sign() * x.run!.day;
    const start = x.a ?? bound().a ?? sign() * x.firstDay!;
    // (the whole span's rows over its days bound it from below: the last day may hold most rows)
    const all = x.rows / (Math.max(0, p - start) + 1);
    return p > start ? Math.max(all, (x.rows - x.run!.keys.length) / (p - start)) : x.rows;
  };
  /**
   * Rows expected of a window: what it holds when done; while it runs, its
   * rows plus the rest of its range at its own density; before that, what
   * its parent projected for it.
   */
  const expected = (x: Win<Row>) => {
    if (x.state === "done" || x.probe) return x.rows;
    const b = x.b ?? bound().b;
    if (x.run === undefined || x.firstDay === undefined || b === undefined || order === undefined) {
      return Math.max(x.rows, x.expect);
    }
    const p = sign() * x.run.day;
    return x.rows + densityOf(x) * Math.max(0, b - p);
  };
  /** Rows expected before `w`. */
  const expectedBefore = (w: Win<Row>) => {
    let n = 0;
    for (const x of windows) {
      if (x === w) return n;
      n += expected(x);
    }
    return n;
  };

  /**
   * The windows that may send their next request now, nearest the head
   * first: not beyond the row limit (by the rows expected before them), and
   * not holding too many pages — a window waits while the pages held from
   * the head up to it reach {@link MAX_BUFFERED_PAGES} × `parallel`, or
   * while all windows hold twice that. So the windows the reader needs next
   * are never held up by ones far ahead; and the window the reader waits
   * for, with no page ready before it, always goes. `visit` is called for
   * each with whether it may go and the rows fetched before it; it returns
   * false to stop.
   */
  const eligible = (
    visit: (w: Win<Row>, ok: boolean, fetched: number) => boolean,
  ) => {
    const cap = MAX_BUFFERED_PAGES * k;
    const total = buffered();
    let before = 0;
    let fetched = 0;
    let held = 0;
    let seen = false;
    let first = true;
    /** Pages the reader can take before the window visited. */
    let ready = 0;
    for (const w of windows) {
      if (w === head) seen = true;
      if (!seen) {
        before += w.rows;
        fetched += w.rows;
        continue;
      }
      if (w.state === "failed") return; // nothing after a failure is needed
      // the reader waits for the first window not complete from the head on, when it holds
      // no page before it (a split head's first child): that one always goes
      const active = w.state === "queued" || w.state === "running";
      const waitedFor = active && first && ready === 0;
      ready += w.pages.length;
      if (w !== head) held += w.pages.length;
      const ok = waitedFor || (before + w.rows < limit && held < cap && total < 2 * cap);
      if (active) first = false;
      if (w.state !== "done" && !visit(w, ok, fetched)) return;
      before += expected(w);
      fetched += w.rows;
    }
  };

  /** Grants free slots to the windows waiting for one (and starts queued ones), nearest the head first. */
  let dispatching = false;
  let again = false;
  const dispatch = () => {
    if (dispatching) {
      again = true;
      return;
    }
    dispatching = true;
    try {
      do {
        again = false;
        grant();
      } while (again);
    } finally {
      dispatching = false;
    }
  };
  const grant = () => {
    /** Windows whose gap probe waits: they take only the slots no window wants. */
    const probes: Win<Row>[] = [];
    eligible((w, ok, fetched) => {
      if (inFlight >= k) return false;
      if (w.want && (signal.aborted || w.ac.signal.aborted || fetched + w.rows >= limit)) {
        // done (the rows before it reach the limit) or stopped: let its loop end
        answer(w, false);
        return true;
      }
      if (!ok) return false;
      if (w.probing) {
        probes.push(w);
        return true;
      }
      if (w.state === "queued") {
        cut(w);
        run(w);
      }
      if (w.want) {
        inFlight++;
        answer(w, true);
      }
      return true;
    });
    for (const w of probes) {
      if (inFlight >= k) break;
      if (w.want) {
        inFlight++;
        answer(w, true);
      }
    }
  };

  /** Answers a window waiting for a slot (if it is): go (true) or stop (false). */
  const answer = (w: Win<Row>, go: boolean) => {
    const f = w.want;
    w.want = undefined;
    f?.(go);
  };

  /** Waits for a slot for `w`'s next request; false: the window stops. */
  const slot = (w: Win<Row>) =>
    new Promise<boolean>((r) => {
      w.want = r;
      dispatch();
    });

  /** Slots no window near the head would use now (besides `w`, about to ask for one). */
  const idleSlots = (w: Win<Row>) => {
    let busy = inFlight + 1;
    eligible((x, ok) => {
      if (x !== w && ok && (x.state === "queued" || x.want)) busy++;
      return ok;
    });
    return Math.max(0, k - busy);
  };

  /**
   * Rows per day over every window read so far: each window's density
   * ({@link densityOf}) weighted by the days it spans; undefined before any.
   */
  const overallDensity = (): number | undefined => {
    let rows = 0;
    let days = 0;
    for (const x of windows) {
      if (x.run === undefined || x.firstDay === undefined) continue;
      const start = x.a ?? bound().a ?? sign() * x.firstDay;
      const span = Math.max(1, sign() * x.run.day - start);
      rows += densityOf(x) * span;
      days += span;
    }
    return days > 0 ? rows / days : undefined;
  };

  /**
   * Pages a window is given when it starts: the pages still to read shared
   * among the slots (so the windows started now end with those running),
   * at least {@link MIN_PART}, at most {@link TARGET_PAGES}; the target
   * when what is left is unknown (an open end without a row limit).
   */
  const share = (): number => {
    let rest = 0;
    if (limit < Infinity) {
      let fetched = 0;
      for (const x of windows) fetched += x.rows;
      rest = Math.max(0, limit - fetched) / src.pageSize;
    } else {
      for (const x of windows) {
        if (x.state === "done" || x.state === "failed") continue;
        if ((x.b ?? bound().b) === undefined) return TARGET_PAGES;
        rest += Math.max(0, expected(x) - x.rows) / src.pageSize;
      }
    }
    return Math.min(TARGET_PAGES, Math.max(MIN_PART, rest / k));
  };

  /** Days of `pages` pages at `density` rows a day (at least 1). */
  const daysOf = (pages: number, density: number) =>
    Math.min(MAX_WIDTH, Math.max(1, Math.ceil((pages * src.pageSize) / Math.max(density, 1e-6))));

  /**
   * Cuts a window about to start to its {@link share} (and, with a row
   * limit, to the rows still needed after the windows before it): the rest
   * of its range becomes the next window, itself cut when it starts. So the
   * windows are sized with what is known when each starts, not when the
   * list was first split.
   */
  const cut = (x: Win<Row>) => {
    if (serial || !splittable || order === undefined || x.a === undefined || x.whole) return;
    const b = x.b ?? bound().b;
    const span = b === undefined ? Infinity : b - x.a + 1;
    if (span < 2) return;
    // what the pull has seen (its parent's density before any window read a page)
    let density = overallDensity() ?? x.hint;
    if (density === undefined) return;
    // while only the list's first page is known and its rows span two days or less, they say
    // only that a day holds at least half a page: a page a day is assumed. A window cut too
    // wide is read past the row limit, one cut too narrow costs a part-filled page
    const first = windows.every((w) => w.root || w.pagesRead === 0) ? windows[0] : undefined;
    if (first?.root && first.run && first.firstDay !== undefined) {
      if (Math.abs(first.firstDay - first.run.day) <= 1) density = Math.max(density, src.pageSize);
    }
    let pages = share();
    if (limit < Infinity) {
      // the last window the limit needs takes what is left, with a margin: a short rest
      // would be read alone at the end
      const left = (limit - expectedBefore(x)) / src.pageSize;
      if (left > 0 && left < 2 * pages) pages = (left * 1.2) / Math.ceil(left / pages);
    }
    const days = daysOf(pages, density);
    if (days >= span) return;
    const rest = newWin(
      x.a + days,
      x.b,
      b === undefined ? density * days : density * (span - days),
    );
    rest.hint = density;
    x.b = x.a + days - 1;
    x.expect = density * days;
    windows.splice(windows.indexOf(x) + 1, 0, rest);
  };

  /**
   * Splits the rest of `w` after a page whose last day is `run.day`, when
   * that rest is more than twice its {@link share}, or when slots would
   * stay idle and it holds at least 2 × {@link MIN_PART} pages: `w` goes on
   * with its own cursor and ends after its share (or, for idle slots, the
   * rest divided among them) — its rows stop there, its requests keep
   * their filter — and one new window takes the rest of the range, cut
   * again as it starts ({@link cut}). Nothing is read twice: the rows `w`'s
   * last page holds past its new end are the next window's first rows,
   * checked against them at the seam ({@link seamHolds}).
   */
  const split = (w: Win<Row>): void => {
    const run = w.run;
    if (!splittable || order === undefined || !run || w.firstDay === undefined) return;
    const p = sign() * run.day;
    const b = w.b ?? bound().b;
    const remaining = b === undefined ? undefined : b - p + 1;
    if (remaining !== undefined && remaining < 2) return;
    const density = densityOf(w); // rows per day
    const projected = remaining === undefined ? Infinity : (density * remaining) / src.pageSize;
    // pages still needed before the row limit (all of them without one)
    const needed = Math.min(projected, (limit - expectedBefore(w) - w.rows) / src.pageSize);
    // at most: what the rows fetched before it leave (slots that would stay idle are given to it)
    const most = Math.min(projected, (limit - rowsBefore(w) - w.rows) / src.pageSize);
    const idle = idleSlots(w);
    const fair = share();
    let pages: number;
    if (needed > 2 * fair) pages = fair;
    else if (idle > 0 && most >= 2 * MIN_PART) pages = Math.max(MIN_PART, most / (idle + 1));
    else return;
    // the rows of its last day still to come are its own: the share counts from the first
    const days = daysOf(pages + run.keys.length / src.pageSize, density);
    if (remaining !== undefined && days >= remaining) return;
    const rest = newWin(
      p + days,
      w.b,
      density * (remaining === undefined ? days : remaining - days),
    );
    rest.hint = density;
    w.b = p + days - 1;
    windows.splice(windows.indexOf(w) + 1, 0, rest);
  };

  /**
   * Whether the rows `w` (done, ended by a split) read past its end are the
   * first rows of the windows after it, in order: the service dates rows as
   * the client reads them at that seam. Waits for those windows' pages;
   * false when they hold other rows or too few. A window that failed before
   * saying is returned: the pull fails with its error (undoing the split
   * would drop it), resumable at `w`'s last page.
   */
  const seamHolds = async (i: number): Promise<boolean | Win<Row>> => {
    const want = windows[i].spill!.keys;
    for (;;) {
      const got: string[] = [];
      let waitFor: Win<Row> | undefined;
      for (let j = i + 1; j < windows.length && got.length < want.length; j++) {
        const x = windows[j];
        for (const keys of x.pageKeys) got.push(...keys);
        if (got.length >= want.length || x.state === "done") continue;
        if (x.state === "failed") return got.every((key, n) => want[n] === key) && x;
        waitFor = x;
        break;
      }
      if (!waitFor) return want.every((key, n) => got[n] === key);
      if (signal.aborted) throw signal.reason;
      // the reader waits for that window: it goes whatever the windows ahead hold
      if (head !== waitFor) {
        head = waitFor;
        dispatch();
      }
      await changed();
    }
  };

  /**
   * The rows `w`'s walk read past its end, its own again: its last page
   * (held until the seam is checked) whole as the service sent it, and its
   * end the end of its requests' range.
   */
  const takeBack = (w: Win<Row>) => {
    const spill = w.spill!;
    w.spill = undefined;
    const last = w.pages.pop() ?? { rows: [], next: null, raw: null };
    w.pages.push({ ...last, rows: [...last.rows, ...spill.rows], next: spill.next });
    w.pageKeys.push([...(w.pageKeys.pop() ?? []), ...spill.keys]);
    w.rows += spill.rows.length;
    w.cursor = spill.next;
    w.b = w.filter!.b;
    return spill;
  };

  /**
   * Ends the split of `w` at a seam that does not match: its rows past its
   * end are its own again (its last page whole), every window inside the
   * range of its requests is dropped, and it goes on serially with its own
   * cursor. No row is lost or repeated: none of theirs was handed out.
   */
  const unsplit = (w: Win<Row>) => {
    const spill = takeBack(w);
    const at = windows.indexOf(w) + 1;
    let end = at;
    while (end < windows.length && (w.b === undefined || (windows[end].a ?? -Infinity) <= w.b)) {
      end++;
    }
    for (const c of windows.splice(at, end - at)) {
      c.ac.abort(new DOMException("window dropped", "AbortError"));
      answer(c, false);
    }
    if (spill.next !== null) {
      w.state = "queued";
      w.whole = true;
    } else if (spill.rows.length > 0) {
      // its walk ended there: short of the end of its filter, the rest may hold rows
      w.lastPos = toPos(dayNumber(src.day(spill.rows.at(-1)!)));
      w.gap = endGap(w, w.pages.at(-1)!.rows);
    }
    splittable = false;
    opts.onFallback?.(
      "signalbook: parallel windows turned off for this pull: the rows a window read past " +
        "its end are not the next window's first rows (the service dates rows otherwise " +
        "than the client reads them, or ended a window early); going on serially",
    );
  };

  /** Whether every row of `rows` falls in the range of `w` (in position space; an open end is not checked). */
  const inRange = (w: { a?: number; b?: number }, rows: readonly Row[]): boolean => {
    if (w.a === undefined && w.b === undefined) return true;
    for (const row of rows) {
      const p = toPos(dayNumber(src.day(row)));
      if (p === undefined || (w.a !== undefined && p < w.a) || (w.b !== undefined && p > w.b)) {
        return false;
      }
    }
    return true;
  };

  /** The error of a resumed pull whose windows cannot be trusted (there is no list walk to go back to). */
  const resumedMisread = (why: string) =>
    new InvalidResponseError(
      `a parallel pull resumed at a window cursor cannot go on: ${why}; ` +
        "start the pull again without the cursor (or with parallel: 1)",
    );

  /**
   * The service reads the date filter (or its cursors) otherwise: drop every
   * window but the root and go on with the root's own cursor walk, skipping
   * the rows already handed out (see the module doc).
   */
  const fallback = (why: string) => {
    if (serial || !root) return;
    serial = true;
    splittable = false;
    for (const x of windows) {
      if (x === root) continue;
      x.ac.abort(new DOMException("window dropped", "AbortError"));
      answer(x, false);
    }
    windows.splice(0, windows.length, root);
    // rows its walk read past its end, not handed out, are its own again, and it reads on
    if (root.spill) takeBack(root);
    else if (root.filter) root.b = root.filter.b;
    // the rows handed out from other windows: all but the root's own
    handed = new KeySet([...sent].filter((key) => !root.keys.has(key)));
    root.dedupe = handed;
    if (root.state === "done") root.state = root.cursor === null ? "done" : "queued";
    head = root;
    restart = true;
    opts.onFallback?.(
      `signalbook: parallel windows turned off for this pull: ${why}; going on serially ` +
        "(rows already handed out are not repeated)",
    );
  };

  /**
   * After an empty window the data may have ended: the rest of the list, not
   * yet started, is read whole (split again if it has rows), so an open end
   * costs one empty request, not one per window cut from it.
   */
  const mergeRest = (w: Win<Row>) => {
    const last = windows[windows.length - 1];
    if (last !== w && last.state === "queued") last.whole = true;
  };

  /** Reads a page's rows (with their `keys`) into `w`'s day bookkeeping; false when they are not in date order. */
  const track = (w: Win<Row>, rows: readonly Row[], keys: readonly string[]): boolean => {
    for (let i = 0; i < rows.length; i++) {
      const day = dayNumber(src.day(rows[i]));
      if (day === undefined) return false;
      w.firstDay ??= day;
      if (w.run && day !== w.run.day) {
        if (order === undefined) order = day < w.run.day ? "desc" : "asc";
        if (sign() * day < sign() * w.run.day) return false;
      }
      if (w.run?.day === day) w.run.keys.push(keys[i]);
      else w.run = { day, keys: [keys[i]] };
    }
    return true;
  };

  /**
   * When window `w`'s walk ends (has-more false) on `raw`, the rest of its
   * range where rows may still be, worth one probe if a later window has
   * rows: the walk ended on a full page, or its density says the rest
   * should hold a quarter of a page (at least 4 rows). Undefined when
   * nothing is left or it looks like a real end (a quiet day or two).
   */
  const endGap = (w: Win<Row>, raw: readonly Row[]): Win<Row>["gap"] => {
    if (serial || order === undefined || w.b === undefined || w.lastPos === undefined) {
      return undefined;
    }
    const last = w.lastPos;
    if (w.b - last < 1) return undefined;
    const days = last - (w.a ?? last) + 1;
    // a walk that ended on its first page says little of its density: the one it was cut at
    // (its parent's, or the pull's) says too
    const planned = w.pagesRead <= 1 && w.a !== undefined ? w.expect / (w.b - w.a + 1) : 0;
    const density = Math.max((w.rows + w.skipTotal) / Math.max(1, days), planned);
    const expect = density * (w.b - last);
    if (raw.length < src.pageSize && expect < Math.max(4, src.pageSize / 4)) return undefined;
    // the rows on the last day already read (a resume there skips them)
    let skip = 0;
    if (w.run && sign() * w.run.day === last) skip = w.run.keys.length;
    else {
      for (let i = raw.length - 1; i >= 0 && toPos(dayNumber(src.day(raw[i]))) === last; i--) {
        skip++;
      }
    }
    return { a: last + 1, b: w.b, skip };
  };

  /**
   * After window `w` ended with a {@link endGap} while a later window has
   * rows: one probe of one row over that rest. A row there means the
   * service ended the window early; the error to stop with (going on would
   * hand out a hole), else undefined.
   */
  const earlyEnd = async (w: Win<Row>): Promise<PaginationError | undefined> => {
    const gap = w.gap!;
    // the probe sent when its walk ended, or, when it still waits for a slot, one sent now
    if (w.probing) answer(w, false);
    const page = (await w.probe) ?? await src.fetch(rangeOf(gap), null, signal, 1);
    if (page.rows.length === 0 || !inRange(gap, page.rows)) return undefined;
    const { from, to } = rangeOf({ a: w.a, b: w.b });
    const cut = rangeOf({ a: gap.a - 1, b: gap.b });
    const resume = encodeWindowCursor({
      o: order === "asc" ? "a" : "d",
      f: cut.from,
      t: cut.to,
      c: null,
      s: gap.skip,
    });
    return new PaginationError(
      `the service ended the date window ${from ?? "…"} to ${to ?? "…"} (no more pages) ` +
        `after its rows of ${order === "asc" ? cut.from : cut.to}, but it holds rows after ` +
        `that day (a one-row probe found one); stopped instead of leaving a hole ` +
        `(error.partial.cursor resumes at the cut)`,
      "early-end",
      resume,
    );
  };

  /** Pages window `w` serially, one slot per request; it ends when done, past its end, dropped or failed. */
  const run = (w: Win<Row>) => {
    w.state = "running";
    const filter = w.filter ??= { a: w.a, b: w.b };
    const list = new Paginated<Row>(
      (cursor, s) => src.fetch(rangeOf(filter), cursor, s),
      {
        signal: joinGroup(AbortSignal.any([signal, w.ac.signal]), signal),
        prefetch: false,
        ...(w.cursor !== null ? { cursor: w.cursor } : {}),
      },
    );
    const it = list.pages();
    (async () => {
      try {
        for (;;) {
          if (!(await slot(w))) {
            if (signal.aborted) throw signal.reason;
            // stopped by an earlier window's failure: not done (its rows stop short of its end)
            if (w.ac.signal.aborted) throw w.ac.signal.reason;
            break; // the rows before it reach the limit
          }
          let next: IteratorResult<Page<Row>, void>;
          try {
            next = await it.next();
          } finally {
            inFlight--;
          }
          if (next.done) break;
          const page = next.value;
          w.pagesRead++;
          w.received += page.rows.length;
          if (!serial && !inRange(filter, page.rows)) {
            const why = "the service returned a row outside the date range a window asked for " +
              "(it reads the date filter otherwise)";
            if (!root) throw resumedMisread(why);
            fallback(why);
            return;
          }
          /** A cursor of this walk sent again (kept across its continuations): thrown after the page is kept. */
          let repeat: PaginationError | undefined;
          if (page.next !== null) {
            checkCursor(page.next);
            const digest = cursorDigest(page.next);
            const other = owner.get(digest);
            if (w.seen.has(digest)) {
              repeat = new PaginationError(
                `the service sent cursor ${quoteCursor(page.next)} again after ${w.pagesRead} ` +
                  `pages of one walk; stopped instead of paging in a loop`,
                "repeated-cursor",
                page.next,
              );
            } else if (!serial && other !== undefined && other !== w) {
              const why = "the service sent the same cursor to two date windows " +
                "(its cursors do not name their filter, or loop across windows)";
              if (!root) throw resumedMisread(why);
              fallback(why);
              return;
            }
            w.seen.add(digest);
            owner.set(digest, w);
          }
          // each row's key, once: the loop check, the seam, the run and the hand-out read it
          const keys = page.rows.map((r) => src.key(r));
          // rows past its end (a split moved it): the next window's, held for the seam
          let own = page.rows.length;
          if (w.b !== undefined && w.b !== filter.b) {
            while (own > 0 && (toPos(dayNumber(src.day(page.rows[own - 1]))) ?? -Infinity) > w.b) {
              own--;
            }
          }
          if (own > 0) w.lastPos = toPos(dayNumber(src.day(page.rows[own - 1])));
          // a page whose rows all came before in this walk (their keys are kept for the walk)
          if (page.rows.length > 0 && dropSeen(page.rows, (i) => keys[i], w.keys).length === 0) {
            // every row already came in this walk, under a new cursor: a loop
            throw new PaginationError(
              `the service sent a page of ${page.rows.length} rows all sent before in this ` +
                `walk, under a new cursor, after ${w.pagesRead} pages; stopped instead of ` +
                `paging in a loop`,
              "repeated-rows",
              w.cursor ?? "",
            );
          }
          let rows = page.rows;
          let rowKeys = keys;
          if (own < rows.length) {
            w.spill = {
              rows: rows.slice(own),
              keys: keys.slice(own),
              next: page.next,
              at: w.cursor,
            };
            [rows, rowKeys] = [rows.slice(0, own), keys.slice(0, own)];
          }
          if (w.dedupe?.size) {
            // after a fallback, on the root: the rows already handed out are skipped
            const keep = keys.map((key) => !w.dedupe!.delete(key));
            rows = rows.filter((_, i) => keep[i]);
            rowKeys = keys.filter((_, i) => keep[i]);
          }
          if (w.skip) {
            // a resume inside a page: the rows before it were handed out
            const i = Math.min(w.skip, rows.length);
            w.skip -= i;
            [rows, rowKeys] = [rows.slice(i), rowKeys.slice(i)];
          }
          // the skipped rows are this window's first rows too: they belong to its run
          if (splittable && !track(w, page.rows.slice(0, own), keys)) splittable = false;
          w.rows += rows.length;
          // its last page (rows past its end) leads the reader to the next window
          w.pages.push({ ...page, rows, next: w.spill ? null : page.next });
          w.pageKeys.push(rowKeys);
          w.cursor = page.next;
          if (page.next === null && !w.spill) w.gap = endGap(w, page.rows);
          if (page.next === null && w.rows === 0 && !w.spill) mergeRest(w);
          notify();
          if (repeat) throw repeat;
          if (page.next === null && w.gap && !serial && rowsBefore(w) + w.rows < limit) {
            // the probe of the rest goes now if a slot is free, while the other windows read:
            // sent when the reader reached this page, it took a round trip of its own at
            // each such window (a week's quiet weekend), most of them at the end of the pull
            const probe = w.probe = (async () => {
              w.probing = true;
              const go = await slot(w);
              w.probing = false;
              if (!go) return undefined;
              try {
                return await src.fetch(rangeOf(w.gap!), null, signal, 1);
              } finally {
                inFlight--;
              }
            })();
            // (its error, if any, is the reader's to throw, as when the reader sent it)
            await probe.catch(() => undefined);
          }
          if (page.next === null || w.spill || rowsBefore(w) + w.rows >= limit) break;
          split(w);
        }
        w.state = "done";
        w.keys.clear();
      } finally {
        // the slots it frees (and a split's children) go out before anything else runs: closing
        // the walk awaits, and meanwhile the reader may take a page (the first builds a frame)
        notify();
        dispatch();
        await it.return(undefined);
      }
    })().catch((e) => {
      if (!windows.includes(w)) return; // dropped by an undo
      w.error = e;
      w.state = "failed";
      // nothing after a failure is needed: the pull stops there
      for (const x of windows.slice(windows.indexOf(w) + 1)) {
        x.ac.abort(new DOMException("an earlier window failed", "AbortError"));
        answer(x, false);
      }
    }).finally(() => {
      notify();
      dispatch();
    });
  };

  /**
   * After a probe found the service reading ranges otherwise: where the
   * list's own walk, after the root's last page, has its first row not yet
   * handed out (a position), or null when it has none.
   */
  const serialRest = async (): Promise<string | null> => {
    const seen = new Set<string>();
    let c = root!.cursor;
    while (c !== null) {
      const page = await src.fetch({}, c, signal);
      const j = page.rows.findIndex((r) => !handed.has(src.key(r)));
      if (j >= 0) return encodeWindowCursor({ o: order === "asc" ? "a" : "d", c, s: j });
      if (page.next === null) return null;
      const digest = cursorDigest(checkCursor(page.next));
      if (seen.has(digest)) {
        throw new PaginationError(
          `the service sent cursor ${quoteCursor(page.next)} again; stopped`,
          "repeated-cursor",
          page.next,
        );
      }
      seen.add(digest);
      c = page.next;
    }
    return null;
  };

  /**
   * The position of the first row after window `i`, or null when none
   * follows. Past the cut-off (`probe`), a window not started is not read:
   * one probe of one row over the rest says.
   */
  const rowsAfter = async (i: number, probe: boolean): Promise<string | null> => {
    // rows read past a window's end say the next window has rows
    if (windows[i].spill && windows[i + 1]) return position(windows[i + 1], null);
    for (;;) {
      const w = windows[i + 1];
      if (!w) return null;
      if (w.rows > 0) return position(w, null);
      if (w.state === "done") {
        i++;
        continue;
      }
      if ((w.state === "queued" || w.state === "failed") && probe) {
        const last = windows[windows.length - 1];
        const rest = { a: w.a, b: last.b };
        const page = await src.fetch(rangeOf(rest), null, signal, 1);
        if (serial || inRange(rest, page.rows)) {
          return page.rows.length > 0 ? position(w, null) : null;
        }
        const why = "the service returned a row outside the date range a probe asked for " +
          "(it reads the date filter otherwise)";
        if (!root) throw resumedMisread(why);
        fallback(why);
        return await serialRest();
      }
      // a window that failed before its first row: the page before it goes out, and the
      // reader fails at that window (its cursor resumes there); past the limit, a probe says
      if (w.state === "failed" && !probe) return position(w, null);
      // the reader waits for this window: it goes whatever the windows ahead hold
      if (head !== w) {
        head = w;
        dispatch();
      }
      await changed();
    }
  };

  let handedOut = 0;
  /** The `next` of the last page handed out: where a failure that names no cursor resumes. */
  let lastNext: string | null = opts.cursor ?? null;
  const onAbort = () => {
    notify();
    dispatch();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    dispatch();
    for (let i = 0;;) {
      if (restart) {
        // a fallback left the root alone: the reader goes on with it
        restart = false;
        i = 0;
      }
      if (i >= windows.length) break;
      const w = windows[i];
      if (head !== w) {
        head = w;
        dispatch(); // the head always runs
      }
      if (
        w.spill && w.state === "done" && w.pages.length === 1 &&
        handedOut + w.pages[0].rows.length < limit
      ) {
        // the last page of a window a split ended: the rows it read past its end must be the
        // next windows' first rows (else the service dates rows otherwise: it goes on serially)
        const holds = await seamHolds(i);
        if (restart || windows[i] !== w || !w.spill) continue;
        if (typeof holds === "object") {
          // its last page is not handed out: a resume reads it again, within its own filter
          setFailedCursor(holds.error, position(w, w.spill.at));
          throw holds.error;
        }
        if (holds) w.spill = undefined;
        else {
          unsplit(w);
          dispatch();
          continue;
        }
      }
      const page = w.pages.shift();
      if (page) {
        const rows = unique(page.rows, w.pageKeys.shift()!);
        handedOut += rows.length;
        dispatch();
        // a window's last page: the pull goes on when any later window has a row
        let next = page.next !== null
          ? position(w, page.next)
          : await rowsAfter(i, handedOut >= limit);
        // ... unless the window ended early: rows after it would leave a hole
        const early = page.next === null && next !== null && w.gap && !serial && handedOut < limit
          ? await earlyEnd(w)
          : undefined;
        if (early) next = early.cursor;
        yield { ...page, rows, next };
        lastNext = next;
        if (early) {
          setFailedCursor(early, early.cursor);
          throw early;
        }
        if (handedOut >= limit) return;
        continue;
      }
      if (w.state === "failed") {
        // after a fallback the list's own walk skips the rows other windows handed out: a
        // resume at its cursor skips them too
        const ahead = serial && w === root ? Math.max(0, handedOut - w.received) : 0;
        setFailedCursor(w.error, position(w, w.cursor, ahead || undefined));
        throw w.error;
      }
      if (w.state === "done") {
        i++;
        continue;
      }
      if (signal.aborted) throw signal.reason;
      await changed();
    }
  } catch (e) {
    // (a probe's request, or the walk a fallback reads, fails outside any window's walk)
    if (failedCursor(e) === undefined) setFailedCursor(e, lastNext);
    throw e;
  } finally {
    if (twice > 0) console.warn(duplicateWarning(twice));
    signal.removeEventListener("abort", onAbort);
    outer.abort(new DOMException("pull stopped", "AbortError"));
    for (const w of windows) {
      answer(w, false);
    }
  }
}
