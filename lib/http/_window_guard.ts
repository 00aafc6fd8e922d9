/**
 * What a parallel pull does not take on trust, as pure functions (the
 * rules are the module doc of `windows.ts`):
 * - {@link inRange}: every row a window receives falls inside the range it
 *   asked for;
 * - {@link seamVerdict}: the rows a window read past the end a split gave
 *   it are the next windows' first rows, in order;
 * - {@link endGap}: a walk that ended (no more pages) short of its range's
 *   end, where rows may still be.
 *
 * @module
 */
import type { Gap, Window } from "./_window.ts";

/** A range of positions (undefined: an open end, not checked). */
export interface PosRange {
  readonly a?: number;
  readonly b?: number;
}

/**
 * Whether every row of `rows` falls in `range` (`posOf`: a row's position,
 * undefined when its day cannot be read, which is never in range).
 *
 * @example
 * ```ts
 * import { inRange } from "./_window_guard.ts";
 * console.log(inRange({ a: 1, b: 3 }, [1, 3], (p) => p), inRange({ a: 1, b: 3 }, [4], (p) => p)); // true false
 * ```
 */
export function inRange<Row>(
  range: PosRange,
  rows: readonly Row[],
  posOf: (row: Row) => number | undefined,
): boolean {
  if (range.a === undefined && range.b === undefined) return true;
  const { a = -Infinity, b = Infinity } = range;
  return rows.every((row) => {
    const p = posOf(row);
    return p !== undefined && p >= a && p <= b;
  });
}

/** What the seam check reads of a window after the split one: the keys of its pages, and its state. */
export type SeamWindow = Readonly<Pick<Window<unknown>, "pageKeys" | "state">>;

/**
 * The verdict on a seam: `holds` (the keys read past the split window's end
 * are the next windows' first keys, in order), `differs` (other keys, or too
 * few before the list ends), `wait` (window `at` of `after` has not shown
 * enough yet) or `failed` (window `at` failed before saying, the keys so far
 * matching).
 */
export type SeamVerdict =
  | { readonly verdict: "holds" | "differs" }
  | { readonly verdict: "wait" | "failed"; readonly at: number };

/**
 * The seam after a window a split ended: `want` the keys its walk read past
 * its end, `after` the windows after it, in order.
 *
 * @example
 * ```ts
 * import { seamVerdict } from "./_window_guard.ts";
 * const next = { pageKeys: [["a", "b"]], state: "running" as const };
 * console.log(seamVerdict(["a"], [next]).verdict, seamVerdict(["b"], [next]).verdict); // holds differs
 * ```
 */
export function seamVerdict(want: readonly string[], after: readonly SeamWindow[]): SeamVerdict {
  const got: string[] = [];
  for (let j = 0; j < after.length && got.length < want.length; j++) {
    const x = after[j];
    for (const keys of x.pageKeys) got.push(...keys);
    if (got.length >= want.length || x.state === "done") continue;
    if (x.state !== "failed") return { verdict: "wait", at: j };
    return got.every((key, n) => want[n] === key)
      ? { verdict: "failed", at: j }
      : { verdict: "differs" };
  }
  return { verdict: want.every((key, n) => got[n] === key) ? "holds" : "differs" };
}

/**
 * When window `w`'s walk ends (has-more false) on a page whose rows are at
 * `rawPos` (positions), the rest of its range where rows may still be, worth
 * one probe if a later window has rows: the walk ended on a full page, or
 * its density says the rest should hold a quarter of a page (at least 4
 * rows). Undefined when nothing is left or it looks like a real end (a
 * quiet day or two). `sign` is the order's (see `_window_plan.ts`).
 */
export function endGap(
  w: Readonly<Window<unknown>>,
  rawPos: readonly (number | undefined)[],
  pageSize: number,
  sign: 1 | -1,
): Gap | undefined {
  if (w.b === undefined || w.lastPos === undefined) return undefined;
  const last = w.lastPos;
  if (w.b - last < 1) return undefined;
  const days = last - (w.a ?? last) + 1;
  // a walk that ended on its first page says little of its density: the one it was cut at
  // (its parent's, or the pull's) says too
  const planned = w.pagesRead <= 1 && w.a !== undefined ? w.expect / (w.b - w.a + 1) : 0;
  const density = Math.max((w.rows + w.skipTotal) / Math.max(1, days), planned);
  const expect = density * (w.b - last);
  if (rawPos.length < pageSize && expect < Math.max(4, pageSize / 4)) return undefined;
  // the rows on the last day already read (a resume there skips them)
  const skip = w.run && sign * w.run.day === last
    ? w.run.keys.length
    : rawPos.length - 1 - rawPos.findLastIndex((p) => p !== last);
  return { a: last + 1, b: w.b, skip };
}
