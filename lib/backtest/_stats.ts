/**
 * Small statistics shared by the event study and the portfolio backtest:
 * mean, sample standard deviation, trimmed mean and percentile, and the
 * median from jStat ({@link jStat}; the Newey-West standard errors are
 * `_ols.ts`'s).
 *
 * @module
 */
import jStatModule from "npm:jstat@1.9.6";

/**
 * What signalbook uses of jStat (`npm:jstat`; the package ships no types):
 * the median (of a sorted copy; the middle value, or the mean of the two
 * middle ones; NaN for no values), and the starting points of `_quantiles.ts`.
 */
export const jStat = jStatModule as unknown as {
  median(xs: readonly number[]): number;
  studentt: { inv(p: number, df: number): number };
  normal: { inv(p: number, mean: number, sd: number): number };
};

/** Arithmetic mean (NaN for no values). */
export function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length ? s / xs.length : NaN;
}

/** Sample standard deviation (n − 1; NaN below two values). */
export function sd(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < n; i++) s += (xs[i] - m) ** 2;
  return Math.sqrt(s / (n - 1));
}

/**
 * Trimmed mean: the mean after dropping `floor(share · n)` values at each
 * end (default share 0.1, i.e. a 10 % trimmed mean).
 */
export function trimmedMean(xs: readonly number[], share = 0.1): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(share * s.length);
  return mean(s.slice(k, s.length - k));
}

/** Percentile with linear interpolation between order statistics of a sorted array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (!n) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
