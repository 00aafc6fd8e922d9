/**
 * The window plan as pure functions: from what the windows have shown (a
 * snapshot of each, {@link WindowView}, and of the pull, {@link PlanContext})
 * to where a window is cut and which windows may send a request. No time,
 * no I/O: `tests/http/window_plan_test.ts` drives them in rounds. The rules
 * are the module doc of `windows.ts`.
 *
 * Positions: a day number times the order's sign (`sign` 1 oldest first, -1
 * newest first), so positions grow in the list's order whatever it is.
 *
 * @module
 */
import type { PlanCut, Window } from "./_window.ts";

/** Most pages a window is given (its share, see the module doc of `windows.ts`); windows of an open end without a row limit get this many. */
export const TARGET_PAGES = 12;

/**
 * Pages held per parallel window ahead of the one being handed out: the
 * windows nearest the reader go on while those from the reader up to them
 * hold fewer than this × `parallel` pages, and no window fetches once all
 * hold twice that. 16 × 8 pages of 100 insider search rows are about 40 MB
 * (rows of 174 fields are held compact, about 0.3 MB a page; see
 * `lib/shared/wide_rows.ts`). Why 16 and not 8: `docs/performance.md`.
 */
export const MAX_BUFFERED_PAGES = 16;

/** Fewest pages (projected) a window is given: smaller parts cost more partial pages than they save. */
export const MIN_PART = 1.5;

/** Widest window planned at an open end, in days (a sparse list's estimate can be near 0 rows a day). */
const MAX_WIDTH = 3_660;

/**
 * What the plan reads of a window: a snapshot of one (its fields: see
 * `Window`). It reads the range (`a`, `b`), `state`, the rows fetched and
 * expected, the first day and the trailing run, whether a probe of its rest
 * is out, the pages held and read, whether it is the list's own request,
 * the density its parent saw (`hint`) and `whole`.
 */
export type WindowView = Readonly<Window<unknown>>;

/** What the plan knows of the pull. */
export interface PlanContext {
  /** 1: oldest first; -1: newest first (also while the order is not known). */
  readonly sign: 1 | -1;
  /** Whether the order is known. */
  readonly ordered: boolean;
  /** Whether windows may still be cut or split (not serial, the rows' days in order). */
  readonly splittable: boolean;
  /** The list's own bounds, in positions. */
  readonly bound: { readonly a?: number; readonly b?: number };
  readonly pageSize: number;
  /** Slots (`parallel`). */
  readonly parallel: number;
  /** Rows wanted (Infinity: all). */
  readonly limit: number;
}

/**
 * Rows per day a window has shown: the rows before its last day (whose
 * rows may go on in the next page) over the days they span; all its rows
 * over one day while they are all on one day. The window must have a run.
 */
export function densityOf(x: WindowView, c: PlanContext): number {
  const p = c.sign * x.run!.day;
  const start = x.a ?? c.bound.a ?? c.sign * x.firstDay!;
  // (the whole span's rows over its days bound it from below: the last day may hold most rows)
  const all = x.rows / (Math.max(0, p - start) + 1);
  return p > start ? Math.max(all, (x.rows - x.run!.keys.length) / (p - start)) : x.rows;
}

/**
 * Rows expected of a window: what it holds when done; while it runs, its
 * rows plus the rest of its range at its own density; before that, what
 * its parent projected for it.
 */
export function expectedRows(x: WindowView, c: PlanContext): number {
  if (x.state === "done" || x.probe) return x.rows;
  const b = x.b ?? c.bound.b;
  if (x.run === undefined || x.firstDay === undefined || b === undefined || !c.ordered) {
    return Math.max(x.rows, x.expect);
  }
  return x.rows + densityOf(x, c) * Math.max(0, b - c.sign * x.run.day);
}

/** The sum of `f` over the windows before `w`. */
export function sumBefore(
  windows: readonly WindowView[],
  w: WindowView,
  f: (x: WindowView) => number,
): number {
  const i = windows.indexOf(w);
  return (i < 0 ? windows : windows.slice(0, i)).reduce((n, x) => n + f(x), 0);
}

/** Rows per day over every window read so far, each weighted by the days it spans; undefined before any. */
export function overallDensity(windows: readonly WindowView[], c: PlanContext): number | undefined {
  let rows = 0;
  let days = 0;
  for (const x of windows) {
    if (x.run === undefined || x.firstDay === undefined) continue;
    const start = x.a ?? c.bound.a ?? c.sign * x.firstDay;
    const span = Math.max(1, c.sign * x.run.day - start);
    rows += densityOf(x, c) * span;
    days += span;
  }
  return days > 0 ? rows / days : undefined;
}

/**
 * Pages a window is given when it starts: the pages still to read shared
 * among the slots (so the windows started now end with those running), at
 * least {@link MIN_PART}, at most {@link TARGET_PAGES}; the target when what
 * is left is unknown (an open end without a row limit).
 */
export function share(windows: readonly WindowView[], c: PlanContext): number {
  let rest = 0;
  if (c.limit < Infinity) {
    const fetched = windows.reduce((n, x) => n + x.rows, 0);
    rest = Math.max(0, c.limit - fetched) / c.pageSize;
  } else {
    for (const x of windows) {
      if (x.state === "done" || x.state === "failed") continue;
      if ((x.b ?? c.bound.b) === undefined) return TARGET_PAGES;
      rest += Math.max(0, expectedRows(x, c) - x.rows) / c.pageSize;
    }
  }
  return Math.min(TARGET_PAGES, Math.max(MIN_PART, rest / c.parallel));
}

/** Days of `pages` pages at `density` rows a day (at least 1, at most the widest window). */
export function daysOf(pages: number, density: number, pageSize: number): number {
  return Math.min(MAX_WIDTH, Math.max(1, Math.ceil((pages * pageSize) / Math.max(density, 1e-6))));
}

/**
 * Where a window about to start is cut: to its {@link share} (and, with a
 * row limit, to the rows still needed after the windows before it), at the
 * density of every window read so far; undefined when it is read whole.
 */
export function cutAt(
  x: WindowView,
  windows: readonly WindowView[],
  c: PlanContext,
): PlanCut | undefined {
  if (!c.splittable || !c.ordered || x.a === undefined || x.whole) return undefined;
  const b = x.b ?? c.bound.b;
  const span = b === undefined ? Infinity : b - x.a + 1;
  if (span < 2) return undefined;
  // what the pull has seen (its parent's density before any window read a page)
  let density = overallDensity(windows, c) ?? x.hint;
  if (density === undefined) return undefined;
  // while only the list's first page is known and its rows span two days or less, they say
  // only that a day holds at least half a page: a page a day is assumed. A window cut too
  // wide is read past the row limit, one cut too narrow costs a part-filled page
  const first = windows.every((w) => w.root || w.pagesRead === 0) ? windows[0] : undefined;
  if (first?.root && first.run && first.firstDay !== undefined) {
    if (Math.abs(first.firstDay - first.run.day) <= 1) density = Math.max(density, c.pageSize);
  }
  let pages = share(windows, c);
  if (c.limit < Infinity) {
    // the last window the limit needs takes what is left, with a margin: a short rest
    // would be read alone at the end
    const left = (c.limit - sumBefore(windows, x, (w) => expectedRows(w, c))) / c.pageSize;
    if (left > 0 && left < 2 * pages) pages = (left * 1.2) / Math.ceil(left / pages);
  }
  const days = daysOf(pages, density, c.pageSize);
  if (days >= span) return undefined;
  const expect = b === undefined ? density * days : density * (span - days);
  return { end: x.a + days - 1, expect: density * days, restExpect: expect, hint: density };
}

/**
 * Where a running window is split after a page: when its rest is more than
 * twice its {@link share}, after that share; when slots would stay idle
 * (`idle()` of them) and its rest holds at least 2 × {@link MIN_PART}
 * pages, after the rest divided among them (what the rows fetched before it
 * leave, not those expected). Undefined: it goes on whole.
 */
export function splitAt(
  w: WindowView,
  windows: readonly WindowView[],
  c: PlanContext,
  idle: () => number,
): PlanCut | undefined {
  const run = w.run;
  if (!c.splittable || !c.ordered || !run || w.firstDay === undefined) return undefined;
  const p = c.sign * run.day;
  const b = w.b ?? c.bound.b;
  const remaining = b === undefined ? undefined : b - p + 1;
  if (remaining !== undefined && remaining < 2) return undefined;
  const density = densityOf(w, c); // rows per day
  const projected = remaining === undefined ? Infinity : (density * remaining) / c.pageSize;
  // pages still needed before the row limit (all of them without one)
  const before = sumBefore(windows, w, (x) => expectedRows(x, c));
  const needed = Math.min(projected, (c.limit - before - w.rows) / c.pageSize);
  // at most: what the rows fetched before it leave (slots that would stay idle are given to it)
  const fetched = sumBefore(windows, w, (x) => x.rows);
  const most = Math.min(projected, (c.limit - fetched - w.rows) / c.pageSize);
  const slots = idle();
  const fair = share(windows, c);
  let pages: number;
  if (needed > 2 * fair) pages = fair;
  else if (slots > 0 && most >= 2 * MIN_PART) pages = Math.max(MIN_PART, most / (slots + 1));
  else return undefined;
  // the rows of its last day still to come are its own: the share counts from the first
  const days = daysOf(pages + run.keys.length / c.pageSize, density, c.pageSize);
  if (remaining !== undefined && days >= remaining) return undefined;
  const expect = density * (remaining === undefined ? days : remaining - days);
  return { end: p + days - 1, restExpect: expect, hint: density };
}

/** A window visited by {@link eligible}: whether it may send now, and the rows fetched before it. */
export interface Eligible<W> {
  readonly w: W;
  readonly ok: boolean;
  readonly fetched: number;
}

/**
 * The windows that may send their next request now, nearest the head
 * first, lazily (a window cut while visited is seen with its new end): not
 * beyond the row limit (by the rows expected before them), and not holding
 * too many pages — a window waits while the pages held from the head up to
 * it reach {@link MAX_BUFFERED_PAGES} × `parallel`, or while all windows
 * hold twice that. So the windows the reader needs next are never held up
 * by ones far ahead; and the window the reader waits for, with no page
 * ready before it, always goes. Done windows are not visited; nothing after
 * a failed one is.
 */
export function* eligible<W extends WindowView>(
  windows: readonly W[],
  head: W,
  c: PlanContext,
): Generator<Eligible<W>, void, undefined> {
  const cap = MAX_BUFFERED_PAGES * c.parallel;
  let total = 0;
  for (const w of windows) total += w === head ? 0 : w.pages.length;
  let before = 0;
  let fetched = 0;
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
    // (the pages held from the head up to it, the head's own not counted)
    const held = ready - head.pages.length;
    const ok = waitedFor || (before + w.rows < c.limit && held < cap && total < 2 * cap);
    if (active) first = false;
    if (w.state !== "done") yield { w, ok, fetched };
    before += expectedRows(w, c);
    fetched += w.rows;
  }
}
