/**
 * Small statistics shared by the event study and the portfolio backtest:
 * mean, sample standard deviation, median, trimmed mean and percentile (the
 * Newey-West standard errors are `_ols.ts`'s).
 *
 * @module
 */

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

/** Median (NaN for no values). */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
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
