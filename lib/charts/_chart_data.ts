/**
 * Input checks and row extraction shared by the chart helpers: a helper
 * given the wrong object, an empty frame, or one missing a column it
 * needs, throws an error naming the helper, what to pass and the column.
 *
 * @module
 */
import { expectFrame, type Wanted } from "../shared/wrong_input.ts";
import { noteDemoData, SIDE_COLORS } from "./chart.ts";
import { notice } from "../shared/notice.ts";
import { sideLabels, sideNote, type Sides } from "../families/side.ts";

/**
 * Rows of the needed columns (`wanted.columns`, plus optional ones when
 * present), after checks: a value that is not a frame, or a frame of
 * another kind, gets the one wrong-object error (lib/shared/wrong_input.ts:
 * the helper's name, what to pass, what it got, then the columns). A demo
 * frame (the offline emulator's) makes the chart drawn from these rows say
 * so ({@link noteDemoData}).
 */
export function rowsOf(
  fn: string,
  value: unknown,
  wanted: Wanted & { columns: readonly string[] },
  optional: readonly string[] = [],
): Record<string, unknown>[] {
  const df = expectFrame(fn, value, wanted);
  noteDemoData(df);
  if (df.height === 0) throw new Error(`${fn}: the frame is empty (0 rows); nothing to draw`);
  const cols = [
    ...wanted.columns,
    ...optional.filter((c) => df.columns.includes(c) && !wanted.columns.includes(c)),
  ];
  return df.select(...cols).toRecords() as Record<string, unknown>[];
}

/**
 * The needed columns as arrays (`wanted.columns`, after the same checks as
 * {@link rowsOf}): for charts of many points, which then make no object per
 * row.
 */
export function columnsOf(
  fn: string,
  value: unknown,
  wanted: Wanted & { columns: readonly string[] },
): Record<string, unknown[]> {
  const df = expectFrame(fn, value, wanted);
  noteDemoData(df);
  if (df.height === 0) throw new Error(`${fn}: the frame is empty (0 rows); nothing to draw`);
  return Object.fromEntries(wanted.columns.map((c) => [c, df.getColumn(c).toArray() as unknown[]]));
}

/**
 * The labels of `[order, label]` pairs, one per order, by ascending order
 * (e.g. horizons in time order from `[horizon_days, horizon]`).
 *
 * @example
 * ```ts
 * import { inOrder } from "./_chart_data.ts";
 * inOrder([[365, "1y"], [30, "1m"], [365, "1y"]]); // ["1m", "1y"]
 * ```
 */
export function inOrder<T>(pairs: [number, T][]): T[] {
  return [...new Map(pairs)].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

/** Mean and 95 % interval (normal approximation) of finite values. */
export function meanCi(values: number[]): { n: number; mean: number; lo: number; hi: number } {
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  const mean = n ? xs.reduce((a, b) => a + b, 0) / n : NaN;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : NaN;
  const half = n > 1 ? 1.96 * sd / Math.sqrt(n) : NaN;
  return { n, mean, lo: mean - half, hi: mean + half };
}

/**
 * Items (rows, or row indexes of a chart drawn from columns) with a side
 * label under `sides` (see lib/families/side.ts: by default "Buy" is code
 * `P`, "Sell" code `S`; `sideAt` gives an item's side), items of neither
 * side left out and counted: the items kept, in order, and each one's side
 * label; the colour scale of the two labels; and the subtitle: the chart's
 * own line, then what the sides are and how many trades were left out. A
 * caller's own subtitle is kept as given, and the count is then said in a
 * notice, so it is never dropped unsaid. `count` turns the items left out
 * into a number of trades (default: one item per trade).
 */
export function sidedBy<T>(
  fn: string,
  items: readonly T[],
  sideAt: (item: T) => 1 | -1 | 0,
  sides: Sides,
  base: string,
  subtitle: string | undefined,
  count: (leftOut: T[]) => number = (l) => l.length,
): {
  kept: T[];
  side: string[];
  color: { domain: string[]; range: string[]; label: string; legend: true };
  subtitle: string;
} {
  const labels = sideLabels(sides);
  const at = items.map(sideAt);
  const kept = items.filter((_, i) => at[i] !== 0);
  const side = at.filter((s) => s !== 0).map((s) => labels[s === 1 ? 0 : 1]);
  const none = items.filter((_, i) => at[i] === 0);
  const leftOut = count(none);
  if (kept.length === 0 && none.length > 0) {
    throw new Error(
      `${fn}: none of the ${leftOut} trades is a ${labels[0].toLowerCase()} or a ${
        labels[1].toLowerCase()
      } (${sideNote(sides, 0)})${
        sides === "tradeClass" ? '; sides: "acquiredDisposed" draws them by their A/D code' : ""
      }`,
    );
  }
  if (subtitle !== undefined && leftOut > 0) notice(`${fn}: ${sideNote(sides, leftOut)}.`);
  return {
    kept,
    side,
    color: {
      domain: [...labels],
      range: [...SIDE_COLORS.range],
      label: sides === "acquiredDisposed" ? "A/D code" : "Side",
      legend: true,
    },
    subtitle: subtitle ?? `${base}\n${sideNote(sides, leftOut)}`,
  };
}
