/**
 * One window of a parallel pull: a range in position space (increasing in
 * the list's order), paged serially, and the state changes it owns — a page
 * kept (rows past its end held for the seam, rows to skip dropped), a split
 * (its rows end sooner), the rows past its end taken back, a drop.
 *
 * @module
 */
import { type Page, WalkCheck } from "./paginate.ts";

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
  /** The list's identity (`listId`), sealed into its window cursors: one resumes only its list. */
  list?: string;
}

/** Options of `windowedPages`. */
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

/** Rows a walk read past its window's end: the next window's first rows, their keys, the cursor after them and the cursor of their page. */
export interface Spill<Row> {
  rows: Row[];
  keys: string[];
  next: string | null;
  at: string | null;
}

/**
 * A cut of the plan (`_window_plan.ts`): the window's rows end at `end`
 * (with `expect` rows, when given); the window after it takes the rest of
 * its range, from `end + 1`, expected to hold `restExpect` rows at `hint`
 * rows a day.
 */
export interface PlanCut {
  readonly end: number;
  readonly expect?: number;
  readonly restExpect: number;
  readonly hint: number;
}

/** The rest of a window where rows may still be, and the rows on its first day already read (`endGap` in `_window_guard.ts`). */
export interface Gap {
  a: number;
  b: number;
  skip: number;
  /** Set when its walk read a page wholly past its end: rows there were skipped (`"skipped-rows"`). */
  skipped?: boolean;
}

/** One window (see the module doc). */
export class Window<Row> {
  /** The range its requests are sent with, fixed when it starts (a cursor names its filter). */
  filter?: { a?: number; b?: number };
  /** Rows its walk read past `b`: checked against the next window's rows at the seam, or taken back. */
  spill?: Spill<Row>;
  state: "queued" | "running" | "done" | "failed" = "queued";
  /** Pages fetched, not yet handed out (skipped rows removed), and the keys of their rows. */
  pages: Page<Row>[] = [];
  pageKeys: string[][] = [];
  /** Cursor of the first page not yet fetched (null: its start). */
  cursor: string | null = null;
  /** Rows still to skip at the start (a resume inside a page), and skipped in all. */
  skip = 0;
  skipTotal = 0;
  /** Rows fetched (after skipping). */
  rows = 0;
  /** Day number of the first row fetched. */
  firstDay?: number;
  /** Trailing run: the day of the last row fetched and the keys of the rows on it. */
  run?: { day: number; keys: string[] };
  /** Set while the window waits for a slot (see `WindowSlots`). */
  want?: (go: boolean) => void;
  error?: unknown;
  ac: AbortController = new AbortController();
  /** The list's own request (the first window of a pull not resumed). */
  root?: boolean;
  /** The checks of its walk (cursors, empty pages, rows sent again), kept across its continuations. */
  check: WalkCheck = new WalkCheck();
  /** Pages this window has read, and rows its walk received (the list's own walk: where its cursor stands). */
  pagesRead = 0;
  received = 0;
  /** After a fallback (root only): keys of rows already handed out, skipped when they come again. */
  dedupe?: Set<string>;
  /** Position of the last row of its own received. */
  lastPos?: number;
  /** Rows per day its parent saw (a window not yet read is cut with it). */
  hint?: number;
  /** The rest after an empty window (the data may have ended there): read whole, not cut. */
  whole?: boolean;
  /** Set when the walk ended where rows may still follow in its range. */
  gap?: Gap;
  /** The one-row probe of that rest, sent as soon as the walk ended in a slot no window wants. */
  probe?: Promise<Page<Row> | undefined>;
  /** Set while that probe waits for a slot. */
  probing?: boolean;

  /** A window over positions `a`..`b`, expected to hold `expect` rows. */
  constructor(
    /**
     * First and last position (undefined: the list's own bound). `b` is where
     * the window's rows end; a split may move it nearer while the window runs
     * (its requests keep their `filter`).
     */
    public a?: number,
    public b?: number,
    /** Rows expected, from the density its parent saw. */
    public expect = 0,
  ) {}

  /** Applies a cut of the plan: its rows end at `cut.end`; the window after it is returned. */
  cut(cut: PlanCut): Window<Row> {
    const rest = new Window<Row>(cut.end + 1, this.b, cut.restExpect);
    rest.hint = cut.hint;
    this.b = cut.end;
    if (cut.expect !== undefined) this.expect = cut.expect;
    return rest;
  }

  /**
   * Keeps a page its walk received: `own` rows are its own (the rest are
   * past its end: held for the seam), rows already handed out (`dedupe`) and
   * rows to skip are dropped. Returns the page as held.
   */
  keep(page: Page<Row>, keys: string[], own: number): void {
    let rows = page.rows;
    let rowKeys = keys;
    if (own < rows.length) {
      this.spill = {
        rows: rows.slice(own),
        keys: keys.slice(own),
        next: page.next,
        at: this.cursor,
      };
    }
    if (own < rows.length || this.dedupe?.size || this.skip) {
      // after a fallback, on the root: the rows already handed out are skipped; a resume inside
      // a page: the rows before it were handed out
      const kept: number[] = [];
      for (let i = 0; i < own; i++) {
        if (this.dedupe?.delete(keys[i])) continue;
        if (this.skip > 0) this.skip--;
        else kept.push(i);
      }
      [rows, rowKeys] = [kept.map((i) => page.rows[i]), kept.map((i) => keys[i])];
    }
    this.rows += rows.length;
    // its last page (rows past its end) leads the reader to the next window
    this.pages.push({ ...page, rows, next: this.spill ? null : page.next });
    this.pageKeys.push(rowKeys);
    this.cursor = page.next;
  }

  /**
   * Reads a page's own rows (with their `keys`, their day numbers `days`)
   * into its run; false when they are not in date order. `order` is the
   * pull's (learned here from the first change of day when not known).
   */
  track(
    days: readonly (number | undefined)[],
    keys: readonly string[],
    order: { value?: "asc" | "desc" },
  ): boolean {
    for (let i = 0; i < days.length; i++) {
      const day = days[i];
      if (day === undefined) return false;
      this.firstDay ??= day;
      if (this.run && day !== this.run.day) {
        if (order.value === undefined) order.value = day < this.run.day ? "desc" : "asc";
        if ((order.value === "asc" ? 1 : -1) * (day - this.run.day) < 0) return false;
      }
      if (this.run?.day === day) this.run.keys.push(keys[i]);
      else this.run = { day, keys: [keys[i]] };
    }
    return true;
  }

  /**
   * The rows its walk read past its end, its own again: its last page (held
   * until the seam is checked) whole as the service sent it, and its end the
   * end of its requests' range.
   */
  takeBack(): Spill<Row> {
    const spill = this.spill!;
    this.spill = undefined;
    const last = this.pages.pop() ?? { rows: [], next: null, raw: null };
    this.pages.push({ ...last, rows: [...last.rows, ...spill.rows], next: spill.next });
    this.pageKeys.push([...(this.pageKeys.pop() ?? []), ...spill.keys]);
    this.rows += spill.rows.length;
    this.cursor = spill.next;
    this.b = this.filter!.b;
    return spill;
  }

  /** Stops its walk (dropped, or stopped by an earlier failure). */
  drop(why: string): void {
    this.ac.abort(new DOMException(why, "AbortError"));
  }

  /** Its walk failed with `e`. */
  fail(e: unknown): void {
    this.error = e;
    this.state = "failed";
  }
}
