/**
 * Quantiles of Student's t, to double precision, and the standard normal's
 * 97.5 % quantile ({@link Z975}, the one normal quantile the library uses).
 *
 * The t quantile starts from jStat's (`npm:jstat`, one file, about 1 MiB imported, where
 * stdlib's t quantile brought about a hundred packages and 11 MiB into
 * every process that imported signalbook; jStat's is within 1.3e-6
 * relative over the grid below) and takes Newton steps on the t
 * distribution, read to a few ulps: the front factor of the incomplete beta
 * is a product of terms each exact to an ulp or two (no difference of
 * log-Gammas, whose cancellation cost jStat's betaln 1e-10 at large df);
 * each step solves the smaller of the tail P(T > |t|) and the centre
 * P(0 < T < |t|), so neither is read as a difference near 1; and at df ≥ 20
 * the tail comes from ln x, not from x = df/(df + t²), which near 1 loses
 * a·ε to rounding. Quantiles past 1e150 (only below about 0.05 df) come from
 * the tail's leading term, and are ±Infinity past the largest double.
 *
 * What `tests/backtest/quantiles_test.ts` checks: `tQuantile` against a
 * table computed once with stdlib's t quantile
 * (`@stdlib/stats-base-dists-t-quantile` 0.2.3) to 1e-13 relative, at 24
 * p from 0.0005 to 0.9995 and 20 df from 0.5 to 100,000, fractional ones
 * included (the worst there is 8.5e-15; over 150 df × 1,999 p it is 1.2e-14);
 * below 0.1 df, against stdlib's at nine points to 1e-13 (1e-12 at 0.01 df)
 * and against mpmath where stdlib overflows; the closed forms at 1, 2 and
 * 4 df to 1e-12; symmetry, large df tending to {@link Z975}, and NaN
 * outside the domain. Printed table values from 1 to 1,000 df are checked
 * in `intervals_test.ts`.
 *
 * @module
 */
import { jStat } from "./_stats.ts";

/**
 * Stirling's series of ln Γ(z) past (z − ½)·ln z − z + ½·ln 2π: the
 * Bernoulli terms B₂ₖ / (2k(2k − 1)·z^(2k−1)), k = 1..8 (Abramowitz and
 * Stegun 6.1.40). At z ≥ 12 the next term is below 1e-19.
 */
function stirlingTail(z: number): number {
  const w = 1 / (z * z);
  return (1 / 12 +
    w * (-1 / 360 +
        w * (1 / 1260 +
            w * (-1 / 1680 +
                w * (1 / 1188 + w * (-691 / 360360 + w * (1 / 156 + w * (-3617 / 122400)))))))) / z;
}

/**
 * Γ(a + ½) / (Γ(a)·√a), which tends to 1 as a grows. For a ≥ 12, from
 * Stirling's series: ln of it = a·ln(1 + 1/(2a)) − ½ + S(a + ½) − S(a);
 * below, from Γ(z + 1) = z·Γ(z) applied n times:
 * g(a) = g(a + n)·√((a + n)/a) / ∏ₖ (a + k + ½)/(a + k).
 */
function gammaHalfRatio(a: number): number {
  let z = a;
  let product = 1;
  while (z < 12) {
    product *= (z + 0.5) / z;
    z += 1;
  }
  const large = Math.exp(z * Math.log1p(0.5 / z) - 0.5 + stirlingTail(z + 0.5) - stirlingTail(z));
  return z === a ? large : large * Math.sqrt(z / a) / product;
}

/**
 * The continued fraction of the incomplete beta I_x(a, b) (modified Lentz),
 * given x and y = 1 − x (each exact), to double precision. Its first term,
 * 1 − (a + b)·x/(a + 1), is read as ((1 − b)·x + (a + 1)·y)/(a + 1), which
 * does not cancel when x is near 1 and b < 1.
 */
function betaFraction(x: number, y: number, a: number, b: number): number {
  const tiny = 1e-300;
  const fix = (v: number) => (Math.abs(v) < tiny ? tiny : v);
  let c = 1;
  let d = 1 / fix(((1 - b) * x + (a + 1) * y) / (a + 1));
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    const even = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
    d = 1 / fix(1 + even * d);
    c = fix(1 + even / c);
    h *= d * c;
    const odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
    d = 1 / fix(1 + odd * d);
    c = fix(1 + odd / c);
    h *= d * c;
    if (Math.abs(d * c - 1) < 1e-16) break;
  }
  return h;
}

/**
 * Q(½, u) = erfc(√u), the regularized upper incomplete gamma at ½: the
 * series of P(½, u) below u = 1.2 (Q > 0.12 there, so 1 − P loses at most
 * three bits), Legendre's continued fraction (modified Lentz) above
 * (Numerical Recipes, 3rd ed., 6.2.5 and 6.2.7); within 5e-15 of mpmath's
 * erfc from u = 0.05 to 6.
 */
function upperGammaHalf(u: number): number {
  if (u < 1.2) {
    let term = 1;
    let sum = 1;
    for (let n = 1; n < 100; n++) {
      term *= u / (0.5 + n);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - sum * Math.exp(-u) * Math.sqrt(u) * 2 / Math.sqrt(Math.PI);
  }
  const tiny = 1e-300;
  let b = u + 0.5;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - 0.5);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return Math.exp(-u) * Math.sqrt(u) / Math.sqrt(Math.PI) * h;
}

/**
 * I_x(a, ½) for large a, from ln x = −ln(1 + s²/df) (x itself, rounded
 * near 1, would cost a·ε): DiDonato and Morris's asymptotic expansion BGRAT
 * (ACM TOMS 18, 1992, 360–373, algorithm 708), as Boost.Math writes it
 * (`beta_small_b_large_a_series`) with b = ½.
 */
function largeATail(a: number, lx: number): number {
  const b = 0.5;
  const t = a + (b - 1) / 2;
  const u = -t * lx;
  const h = Math.sqrt(u) * Math.exp(-u) / Math.sqrt(Math.PI);
  const prefix = h * gammaHalfRatio(a) * Math.sqrt(a / t);
  let j = upperGammaHalf(u) / h;
  let sum = prefix * j;
  const p = [1];
  const lx2 = (lx / 2) * (lx / 2);
  const t4 = 4 * t * t;
  let lxp = 1;
  let b2n = b;
  let oddFactorial = 1; // (2n + 1)!
  const factorials = [1]; // (2m + 1)! for m = 0, 1, …
  for (let n = 1; n < 30; n++) {
    oddFactorial *= (2 * n) * (2 * n + 1);
    factorials[n] = oddFactorial;
    let pn = 0;
    for (let m = 1; m < n; m++) pn += (m * b - n) * p[n - m] / factorials[m];
    p[n] = pn / n + (b - 1) / oddFactorial;
    j = (b2n * (b2n + 1) * j + (u + b2n + 1) * lxp) / t4;
    lxp *= lx2;
    b2n += 2;
    const r = prefix * p[n] * j;
    sum += r;
    if (Math.abs(r) < 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}

/**
 * For s ≥ 0: the tail P(T > s) or the centre P(0 < T < s) of Student's t
 * with `df` degrees of freedom (they add up to ½), whichever `centre` asks
 * for, each read where it is the smaller one so that neither comes from a
 * difference near 1, and the density at s. With x = df/(df + s²),
 * y = s²/(df + s²), a = df/2: the tail is ½·I_x(a, ½), the centre
 * ½·I_y(½, a), and the continued fractions share the front factor
 * x^a·√y / B(a, ½) = (1 + s²/df)^(−a) · √(a·y/π) · g(a). The tail at
 * a ≥ 10 with x ≥ ½ comes from BGRAT, whose input is ln x, not x.
 */
function tPart(
  s: number,
  df: number,
  centre: boolean,
): { centre: boolean; value: number; density: number } {
  const a = df / 2;
  const logPower = Math.log1p(s * s / df);
  const g = gammaHalfRatio(a);
  const density = Math.exp(-(a + 0.5) * logPower) * g / Math.sqrt(2 * Math.PI);
  const y = s * s / (df + s * s);
  const x = df / (df + s * s);
  if (!centre && a >= 10 && x >= 0.5) {
    return { centre, value: largeATail(a, -logPower) / 2, density };
  }
  const front = Math.exp(-a * logPower) * Math.sqrt(a * y / Math.PI) * g;
  const value = centre
    ? front * betaFraction(y, x, 0.5, a) / 0.5 / 2
    : front * betaFraction(x, y, a, 0.5) / a / 2;
  return { centre, value, density };
}

/**
 * The `p` quantile of Student's t with `df` degrees of freedom (`df` may be
 * fractional and finite; ±Infinity at p = 0 and 1; NaN for df ≤ 0, df =
 * Infinity or p outside [0, 1]).
 *
 * @example
 * ```ts
 * import { tQuantile } from "./_quantiles.ts";
 * tQuantile(0.975, 1).toFixed(3); // "12.706"
 * ```
 */
export function tQuantile(p: number, df: number): number {
  if (!(df > 0 && df < Infinity) || !(p >= 0 && p <= 1)) return NaN;
  if (p === 0 || p === 1) return p === 0 ? -Infinity : Infinity;
  if (p === 0.5) return 0;
  const sign = p < 0.5 ? -1 : 1;
  const tail = p < 0.5 ? p : 1 - p; // exact
  const a = df / 2;
  // Far out (below about 0.05 df), from the tail's leading term x^a / (2a·B(a, ½)) (its
  // next is x times smaller): past 1e150, where s² would overflow, or past the largest double
  const lnX = (Math.log(2 * a * tail) + Math.log(Math.PI) / 2 - Math.log(gammaHalfRatio(a)) -
    Math.log(a) / 2) / a;
  const lnFar = (Math.log(df) - lnX) / 2;
  if (lnFar > 345) return sign * Math.exp(lnFar);
  let s = Math.abs(jStat.studentt.inv(p, df));
  if (!(s > 0 && s < 1e150)) s = Math.abs(jStat.normal.inv(p, 0, 1));
  // Newton steps on whichever of the tail P(T > s) and the centre P(0 < T < s) is the smaller
  // (the centre only when the tail is above ¼, and while its continued fraction converges
  // fast, y < (b + 1)/(a + b + 2); `tPart` says which it read)
  const centre = Math.abs(p - 0.5); // exact
  for (let k = 0; k < 100; k++) {
    const at = tPart(s, df, tail > 0.25 && s * s / (df + s * s) < 1.5 / (a + 2.5));
    const step = (at.centre ? centre - at.value : at.value - tail) / at.density;
    if (!Number.isFinite(step)) break;
    const next = Math.max(s + step, s / 8);
    const moved = Math.abs(next - s);
    s = next;
    if (moved <= 4e-16 * s) break;
  }
  return sign * s;
}

/**
 * The 97.5 % quantile of the standard normal, 1.95996398454005423552…, as
 * the nearest double: the multiplier of a two-sided 95 % interval on a
 * normal approximation (the Sharpe ratio's).
 */
export const Z975 = 1.9599639845400543;

/**
 * The 97.5 % quantile of Student's t with `df` degrees of freedom: the
 * multiplier of a two-sided 95 % interval.
 *
 * @example
 * ```ts
 * import { t975 } from "./_quantiles.ts";
 * t975(20).toFixed(3); // "2.086"
 * ```
 */
export function t975(df: number): number {
  return tQuantile(0.975, df);
}
