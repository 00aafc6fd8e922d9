/**
 * Input checks and row extraction shared by the chart helpers: a helper
 * given an empty frame, or one missing a column it needs, throws an error
 * naming the helper and the column.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { requireColumns } from "../frames/columns.ts";
import { noteDemoData } from "./chart.ts";

/**
 * Rows of the needed columns (plus optional ones when present), after
 * checks. A demo frame (the offline emulator's) makes the chart drawn from
 * these rows say so ({@link noteDemoData}).
 */
export function rowsOf(
  fn: string,
  df: pl.DataFrame,
  needed: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown>[] {
  requireColumns(fn, df, needed);
  noteDemoData(df);
  if (df.height === 0) throw new Error(`${fn}: the frame is empty (0 rows); nothing to draw`);
  const cols = [
    ...needed,
    ...optional.filter((c) => df.columns.includes(c) && !needed.includes(c)),
  ];
  return df.select(...cols).toRecords() as Record<string, unknown>[];
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

/** "Buy" for acquisitions (A), "Sell" for dispositions (D). */
export function side(code: unknown): string {
  return code === "A" ? "Buy" : code === "D" ? "Sell" : "Other";
}
