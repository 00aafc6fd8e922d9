/**
 * The state of one parallel pull and the changes that span windows: the
 * windows in order, the order and bounds they are read in, cutting and
 * splitting them (by `_window_plan.ts`), the seam and range guards' outcomes
 * (undo a split, go serial), each window's walk, and what the reader asks
 * at a window's end (where the next row is, an early end). The reader
 * itself is `windowedPages` in `windows.ts`; the rules are its module doc.
 *
 * @module
 */
import { cursorDigest, type Page, WalkCheck } from "./paginate.ts";
import { InvalidResponseError, PaginationError } from "./errors.ts";
import { joinGroup } from "./retry.ts";
import { dayText, isoDay } from "../shared/values/mod.ts";
import { encodeWindowCursor, type Position } from "./_window_cursor.ts";
import { endGap, inRange, type PosRange, seamVerdict } from "./_window_guard.ts";
import { cutAt, eligible, type PlanContext, splitAt, sumBefore } from "./_window_plan.ts";
import { WindowSlots } from "./_window_slots.ts";
import { Window } from "./_window.ts";
import type { DayRange, PlanCut, WindowedOptions, WindowSource } from "./_window.ts";

/**
 * The day number of a `YYYY-MM-DD…` text (calendar-checked by the date
 * grammar's allocation-free fast path, `isoDay`), or undefined.
 */
export function dayNumber(day: string | undefined): number | undefined {
  const d = day === undefined ? NaN : isoDay(day.slice(0, 10));
  return d === d ? d : undefined;
}

/** One parallel pull's windows and the changes that span them (see the module doc). */
export class WindowPull<Row> {
  readonly limit: number;
  /** The list's order (`value` undefined until known: learned from the rows). */
  readonly order: { value?: "asc" | "desc" };
  readonly windows: Window<Row>[] = [];
  /** The list's own walk, when the pull was not resumed at a window cursor. */
  readonly root?: Window<Row>;
  readonly slots: WindowSlots<Window<Row>>;
  /** The window the reader waits on (it always goes). */
  head: Window<Row>;
  splittable = true;
  /** True once the pull went serial; no window is then split or checked. */
  serial = false;
  /** Set by a fallback: the reader starts again from the first window (the root). */
  restart = false;
  /** Keys of every row handed out, and rows sent again under one of them. */
  readonly sent: Set<string> = new Set<string>();
  twice = 0;
  /** Which window was sent each cursor (by digest). */
  readonly owner: Map<string, Window<Row>> = new Map();
  #wake: (() => void) | null = null;

  /** The pull of `src` with `opts`, under `signal`, from `start` (a decoded window cursor) or the list's start. */
  constructor(
    readonly src: WindowSource<Row>,
    readonly opts: WindowedOptions,
    readonly signal: AbortSignal,
    start: Position | undefined,
  ) {
    this.limit = opts.limit ?? Infinity;
    this.order = { value: src.order };
    this.slots = new WindowSlots(opts.parallel, {
      eligible: () => eligible(this.windows, this.head, this.context()),
      stopped: (w, fetched) =>
        signal.aborted || w.ac.signal.aborted || fetched + w.rows >= this.limit,
      start: (w) => {
        // a window about to start is cut to its share
        this.#apply(w, cutAt(w, this.windows, this.context()));
        this.walk(w);
      },
    });
    if (start) {
      // a resumed window and everything after it
      this.order.value = start.o === "a" ? "asc" : "desc";
      const { a, b } = this.bound({ from: start.f, to: start.t });
      const w = new Window<Row>(a, b);
      w.cursor = start.c;
      w.skip = w.skipTotal = start.s;
      this.windows.push(w);
      const own = this.bound().b;
      if (w.b !== undefined && (own === undefined || w.b < own)) {
        this.windows.push(new Window(w.b + 1));
      }
    } else {
      const w = new Window<Row>();
      w.cursor = opts.cursor ?? null;
      w.root = true;
      this.root = w;
      this.windows.push(w);
    }
    this.head = this.windows[0];
  }

  sign(): 1 | -1 {
    return this.order.value === "asc" ? 1 : -1;
  }
  toPos(day: number | undefined): number | undefined {
    return day === undefined ? undefined : this.sign() * day;
  }
  posOf = (row: Row): number | undefined => this.toPos(dayNumber(this.src.day(row)));

  /** The list's own bounds (or range `r`), in position space once the order is known. */
  bound(r: DayRange | undefined = this.src.bounds): PosRange {
    const [lo, hi] = [dayNumber(r?.from), dayNumber(r?.to)];
    return this.order.value === "asc" ? { a: lo, b: hi } : { a: this.toPos(hi), b: this.toPos(lo) };
  }

  /** What the plan knows of the pull now. */
  context(): PlanContext {
    return {
      sign: this.sign(),
      ordered: this.order.value !== undefined,
      splittable: this.splittable && !this.serial,
      bound: this.bound(),
      pageSize: this.src.pageSize,
      parallel: this.opts.parallel,
      limit: this.limit,
    };
  }

  rangeOf(w: PosRange): DayRange {
    const [x, y] = [w.a, w.b].map((p) => (p === undefined ? undefined : dayText(this.sign() * p)));
    return this.order.value === "asc" ? { from: x, to: y } : { from: y, to: x };
  }

  /** A window cursor: `range` (a window's requests' filter), cursor `c` in it, `skip` rows. */
  cursorAt(range: PosRange, c: string | null, skip: number): string {
    const { from: f, to: t } = this.rangeOf(range);
    return encodeWindowCursor(
      { o: this.order.value === "asc" ? "a" : "d", f, t, c, s: skip },
      this.src.list,
    );
  }

  /**
   * A cursor names the filter it was sent with: a position keeps that range
   * (a resume reads the windows split from it as one); at a window's start,
   * the rows a resume there skipped.
   */
  position(w: Window<Row>, c: string | null, skip = c ? 0 : w.skipTotal): string {
    return this.cursorAt(w.filter ?? w, c, skip);
  }

  /** Rows fetched before `w` (a lower bound of the rows that come before it). */
  rowsBefore(w: Window<Row>): number {
    return sumBefore(this.windows, w, (x) => x.rows);
  }

  /** `rows` (with their `keys`) without those whose key was handed out before (added to `sent`). */
  unique(rows: Row[], keys: readonly string[]): Row[] {
    const out = rows.filter((_, i) => {
      const key = keys[i];
      if (key === "") return true; // no key: never a duplicate
      const again = this.sent.has(key);
      this.sent.add(key);
      return !again;
    });
    this.twice += rows.length - out.length;
    // none dropped: the page's own list, and what marks it (rows keyed as declared: `markDeclared`)
    return out.length === rows.length ? rows : out;
  }

  /**
   * Wakes the reader on the next turn of the event loop, not now: the
   * requests that windows were just granted go out first (handing out a
   * page, or building a frame from it, holds the loop thread for
   * milliseconds, and a request queued behind it would wait as long).
   */
  notify(): void {
    const f = this.#wake;
    this.#wake = null;
    if (f) setTimeout(f, 0);
  }
  changed(): Promise<void> {
    return new Promise<void>((r) => (this.#wake = r));
  }
  /** The reader waits for `w`: it goes whatever the windows ahead hold. */
  waitFor(w: Window<Row>): void {
    if (this.head === w) return;
    this.head = w;
    this.slots.dispatch();
  }

  /**
   * Applies a cut of the plan to `w` (`cutAt` when it starts, `splitAt` after
   * a page): the rest becomes the window after it.
   */
  #apply(w: Window<Row>, cut: PlanCut | undefined): void {
    if (cut) this.windows.splice(this.windows.indexOf(w) + 1, 0, w.cut(cut));
  }

  /** Drops `list`'s windows (aborted, their slot waits answered). */
  #drop(list: readonly Window<Row>[], why: string): void {
    for (const x of list) {
      x.drop(why);
      this.slots.answer(x, false);
    }
  }

  /**
   * Whether the rows window `i` (done, ended by a split) read past its end
   * are the first rows of the windows after it: waits for their pages;
   * a window that failed before saying is returned.
   */
  async seam(i: number): Promise<boolean | Window<Row>> {
    for (;;) {
      const after = this.windows.slice(i + 1);
      const v = seamVerdict(this.windows[i].spill!.keys, after);
      if (!("at" in v)) return v.verdict === "holds";
      if (v.verdict === "failed") return after[v.at];
      if (this.signal.aborted) throw this.signal.reason;
      this.waitFor(after[v.at]);
      await this.changed();
    }
  }

  /**
   * Ends the split of `w` at a seam that does not match: its rows past its
   * end are its own again (its last page whole), every window inside the
   * range of its requests is dropped, and it goes on serially with its own
   * cursor. No row is lost or repeated: none of theirs was handed out.
   */
  unsplit(w: Window<Row>): void {
    const spill = w.takeBack();
    const { windows } = this;
    const at = windows.indexOf(w) + 1;
    // the windows after it that start past the end of its requests' range stay
    const stay = windows.slice(at).findIndex((x) => w.b !== undefined && (x.a ?? -Infinity) > w.b);
    this.#drop(windows.splice(at, stay < 0 ? Infinity : stay), "window dropped");
    if (spill.next !== null) {
      w.state = "queued";
      w.whole = true;
      w.gap = undefined;
    } else if (spill.rows.length > 0) {
      // its walk ended there: short of the end of its filter, the rest may hold rows
      w.lastPos = this.posOf(spill.rows.at(-1)!);
      w.gap = this.endGap(w, w.pages.at(-1)!.rows);
    }
    this.splittable = false;
    this.opts.onFallback?.(
      "signalbook: parallel windows turned off for this pull: the rows a window read past " +
        "its end are not the next window's first rows (the service dates rows otherwise " +
        "than the client reads them, or ended a window early); going on serially",
    );
  }

  /**
   * The service reads the date filter (or its cursors) otherwise: drop every
   * window but the root and go on with the root's own cursor walk, skipping
   * the rows already handed out; a resumed pull fails instead.
   */
  fallback(why: string): void {
    const root = this.root;
    if (!root) {
      // a resumed pull has no list walk to go back to
      throw new InvalidResponseError(
        `a parallel pull resumed at a window cursor cannot go on: ${why}; ` +
          "start the pull again without the cursor (or with parallel: 1)",
      );
    }
    if (this.serial) return;
    this.serial = true;
    this.splittable = false;
    this.#drop(this.windows.filter((x) => x !== root), "window dropped");
    this.windows.splice(0, this.windows.length, root);
    // rows its walk read past its end, not handed out, are its own again, and it reads on
    if (root.spill) root.takeBack();
    else if (root.filter) root.b = root.filter.b;
    // the rows handed out from other windows: all but the root's own
    root.dedupe = new Set([...this.sent].filter((key) => !root.check.has(key)));
    if (root.state === "done") root.state = root.cursor === null ? "done" : "queued";
    this.head = root;
    this.restart = true;
    this.opts.onFallback?.(
      `signalbook: parallel windows turned off for this pull: ${why}; going on serially ` +
        "(rows already handed out are not repeated)",
    );
  }

  /** The rest of `w`'s range where rows may still be after its walk ended on `raw` (`endGap`). */
  endGap(w: Window<Row>, raw: readonly Row[]): Window<Row>["gap"] {
    if (this.serial || this.order.value === undefined) return undefined;
    return endGap(w, raw.map(this.posOf), this.src.pageSize, this.sign());
  }

  /**
   * After window `w` ended with a gap while a later window has rows: one
   * probe of one row over that rest. A row there means the service ended
   * the window early; the error to stop with (going on would hand out a
   * hole), else undefined.
   */
  async earlyEnd(w: Window<Row>): Promise<PaginationError | undefined> {
    const gap = w.gap!;
    // the probe sent when its walk ended, or, when it still waits for a slot, one sent now
    if (w.probing) this.slots.answer(w, false);
    const page = (await w.probe) ?? await this.src.fetch(this.rangeOf(gap), null, this.signal, 1);
    if (page.rows.length === 0 || !inRange(gap, page.rows, this.posOf)) return undefined;
    const { from, to } = this.rangeOf(w);
    const cut = this.rangeOf({ a: gap.a - 1, b: gap.b });
    const range = `${from ?? "…"} to ${to ?? "…"}`;
    const what = gap.skipped
      ? `skipped pages of the date window ${range}: a page wholly past its end came right`
      : `ended the date window ${range} (no more pages)`;
    return new PaginationError(
      `the service ${what} ` +
        `after its rows of ${this.order.value === "asc" ? cut.from : cut.to}, but it holds ` +
        `rows after that day (a one-row probe found one); stopped instead of leaving a hole ` +
        `(error.partial.cursor resumes at the cut)`,
      gap.skipped ? "skipped-rows" : "early-end",
      this.cursorAt({ a: gap.a - 1, b: gap.b }, null, gap.skip),
    );
  }

  /**
   * Pages window `w` serially, one slot per request; it ends when done, past
   * its end, dropped or failed (it never rejects: a failure is the window's).
   */
  async walk(w: Window<Row>): Promise<void> {
    w.state = "running";
    const filter = w.filter ??= { a: w.a, b: w.b };
    // one walk is one call group: its requests share a retry budget (see `retry.ts`)
    const signal = joinGroup(w.ac.signal, this.signal);
    w.check.sent(w.cursor);
    try {
      for (;;) {
        if (!(await this.slots.take(w))) {
          if (this.signal.aborted) throw this.signal.reason;
          // stopped by an earlier window's failure: not done (its rows stop short of its end)
          if (w.ac.signal.aborted) throw w.ac.signal.reason;
          break; // the rows before it reach the limit
        }
        let page: Page<Row>;
        try {
          page = await this.src.fetch(this.rangeOf(filter), w.cursor, signal);
        } finally {
          this.slots.release();
        }
        if (!this.#receive(w, filter, page)) return; // a fallback: the pull goes on without it
        if (
          page.next === null && w.gap && !this.serial && this.rowsBefore(w) + w.rows < this.limit
        ) {
          // the probe of the rest goes now if a slot is free, while the other windows read: sent
          // when the reader reached this page, it took a round trip of its own at each such
          // window (a week's quiet weekend), most of them at the end of the pull
          const probe = w.probe = this.#probe(w);
          // (its error, if any, is the reader's to throw, as when the reader sent it)
          await probe.catch(() => undefined);
        }
        if (page.next === null || w.spill || this.rowsBefore(w) + w.rows >= this.limit) break;
        // the rest of a running window is split after a page when the plan says so
        this.#apply(w, splitAt(w, this.windows, this.context(), () => this.slots.idle(w)));
      }
      w.state = "done";
      // a walk a split ended may go on (its seam undone): its keys stay until the seam holds
      if (!w.spill) w.check.forget();
    } catch (e) {
      // (a window dropped by an undo is gone: its failure is no one's)
      if (this.windows.includes(w)) {
        w.fail(e);
        // nothing after a failure is needed: the pull stops there
        this.#drop(this.windows.slice(this.windows.indexOf(w) + 1), "an earlier window failed");
      }
    } finally {
      // the slots it frees (and a split's children) go out before anything else runs
      this.notify();
      this.slots.dispatch();
    }
  }

  /** Keeps one page of `w`'s walk; false when a fallback ended its walk (the pull goes on without it). */
  #receive(w: Window<Row>, filter: PosRange, page: Page<Row>): boolean {
    w.pagesRead++;
    w.received += page.rows.length;
    if (!this.serial && !inRange(filter, page.rows, this.posOf)) {
      this.fallback(
        "the service returned a row outside the date range a window asked for " +
          "(it reads the date filter otherwise)",
      );
      return false;
    }
    /** A cursor of this walk sent again, or too many empty pages: thrown after the page is kept. */
    const stop = w.check.next(page.rows.length, page.next);
    if (!stop && page.next !== null && !this.serial) {
      const digest = cursorDigest(page.next);
      const other = this.owner.get(digest);
      if (other !== undefined && other !== w) {
        this.fallback(
          "the service sent the same cursor to two date windows " +
            "(its cursors do not name their filter, or loop across windows)",
        );
        return false;
      }
      this.owner.set(digest, w);
    }
    // each row's key, once: the walk's checks, the seam, the run and the hand-out read it
    const keys = page.rows.map((r) => this.src.key(r));
    // rows past its end (a split moved it): the next window's, held for the seam
    let own = page.rows.length;
    if (w.b !== undefined && w.b !== filter.b) {
      while (own > 0 && (this.posOf(page.rows[own - 1]) ?? -Infinity) > w.b) own--;
    }
    if (own > 0) w.lastPos = this.posOf(page.rows[own - 1]);
    // a loop, or rows sent again out of place (the rows sent again stay: the hand-out drops them)
    w.check.rows(page.rows, keys, w.cursor, page.next === null);
    // the skipped rows are this window's first rows too: they belong to its run
    if (this.splittable) {
      const days = page.rows.slice(0, own).map((r) => dayNumber(this.src.day(r)));
      if (!w.track(days, keys, this.order)) this.splittable = false;
    }
    w.keep(page, keys, own);
    if (page.next === null && !w.spill) w.gap = this.endGap(w, page.rows);
    // a page wholly past its end: its walk ended between two pages, where a page the service
    // skipped would leave no trace but a quiet stretch (its rest is probed as at an end)
    else if (own === 0 && w.spill) {
      const gap = this.endGap(w, []);
      w.gap = gap && { ...gap, skipped: true };
    }
    if (page.next === null && w.rows === 0 && !w.spill) this.#mergeRest(w);
    this.notify();
    if (stop) throw stop;
    return true;
  }

  /** The one-row probe of `w`'s gap, in a slot no window wants (undefined: stopped first). */
  async #probe(w: Window<Row>): Promise<Page<Row> | undefined> {
    w.probing = true;
    const go = await this.slots.take(w);
    w.probing = false;
    if (!go) return undefined;
    try {
      return await this.src.fetch(this.rangeOf(w.gap!), null, this.signal, 1);
    } finally {
      this.slots.release();
    }
  }

  /**
   * After an empty window the data may have ended: the rest of the list, not
   * yet started, is read whole (split again if it has rows), so an open end
   * costs one empty request, not one per window cut from it.
   */
  #mergeRest(w: Window<Row>): void {
    const last = this.windows[this.windows.length - 1];
    if (last !== w && last.state === "queued") last.whole = true;
  }

  /**
   * After a probe found the service reading ranges otherwise: where the
   * list's own walk, after the root's last page, has its first row not yet
   * handed out (a position), or null when it has none.
   */
  async serialRest(): Promise<string | null> {
    let c = this.root!.cursor;
    const check = new WalkCheck(c);
    while (c !== null) {
      const page = await this.src.fetch({}, c, this.signal);
      // (the keys of rows handed out from windows other than the root, made by the fallback)
      const j = page.rows.findIndex((r) => !this.root!.dedupe!.has(this.src.key(r)));
      if (j >= 0) return this.cursorAt({}, c, j);
      const stop = check.next(page.rows.length, page.next);
      if (stop) throw stop;
      c = page.next;
    }
    return null;
  }

  /**
   * The position of the first row after window `i`, or null when none
   * follows. Past the cut-off (`probe`), a window not started is not read:
   * one probe of one row over the rest says.
   */
  async rowsAfter(i: number, probe: boolean): Promise<string | null> {
    const { windows } = this;
    // rows read past a window's end say the next window has rows
    if (windows[i].spill && windows[i + 1]) return this.position(windows[i + 1], null);
    for (;;) {
      const w = windows[i + 1];
      if (!w) return null;
      if (w.rows > 0) return this.position(w, null);
      if (w.state === "done") {
        i++;
        continue;
      }
      if ((w.state === "queued" || w.state === "failed") && probe) {
        const rest = { a: w.a, b: windows[windows.length - 1].b };
        const page = await this.src.fetch(this.rangeOf(rest), null, this.signal, 1);
        if (this.serial || inRange(rest, page.rows, this.posOf)) {
          return page.rows.length > 0 ? this.position(w, null) : null;
        }
        this.fallback(
          "the service returned a row outside the date range a probe asked for " +
            "(it reads the date filter otherwise)",
        );
        return await this.serialRest();
      }
      // a window that failed before its first row: the page before it goes out, and the
      // reader fails at that window (its cursor resumes there); past the limit, a probe says
      if (w.state === "failed" && !probe) return this.position(w, null);
      this.waitFor(w);
      await this.changed();
    }
  }
}
