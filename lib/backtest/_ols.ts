/**
 * Ordinary least squares with Newey-West (HAC, Bartlett weights)
 * standard errors, for the market and multi-factor alphas of a portfolio backtest:
 * cov = (X'X)⁻¹ S (X'X)⁻¹ with S = Σ_k w_k Σ_t (x_t e_t)(x_{t−k} e_{t−k})'
 * (both orders for k > 0), w_k = 1 − k/(L+1), L = ⌊4·(n/100)^(2/9)⌋ by
 * default — statsmodels' `cov_type="HAC"` without small-sample correction.
 *
 * @module
 */

/** An OLS fit: coefficients, their Newey-West standard errors, and the lags. */
export interface Fit {
  /** Coefficients, in the order of the columns of X. */
  coef: number[];
  /** Newey-West standard errors. */
  se: number[];
  /** Lags used. */
  lags: number;
  /** The sum of squared residuals (for classical standard errors: `ssr / df · inv[i][i]`). */
  ssr: number;
  /** (X'X)⁻¹. */
  inv: number[][];
}

/** Inverse of a small symmetric positive-definite matrix (Gauss-Jordan with pivoting). */
function invert(a: number[][]): number[][] {
  const k = a.length;
  const m = a.map((row, i) => [...row, ...Array.from({ length: k }, (_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) < 1e-12) {
      throw new RangeError(
        "portfolioBacktest: the factor regression is singular (a factor is constant or a copy of another)",
      );
    }
    [m[c], m[p]] = [m[p], m[c]];
    const d = m[c][c];
    for (let j = 0; j < 2 * k; j++) m[c][j] /= d;
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = m[r][c];
      for (let j = 0; j < 2 * k; j++) m[r][j] -= f * m[c][j];
    }
  }
  return m.map((row) => row.slice(k));
}

/** The transpose of a matrix. */
const tr = (a: readonly (readonly number[])[]) => a[0].map((_, j) => a.map((row) => row[j]));

/** The matrix product a·b. */
const mul = (a: readonly (readonly number[])[], b: readonly (readonly number[])[]) =>
  a.map((row) => b[0].map((_, j) => row.reduce((s, v, r) => s + v * b[r][j], 0)));

/**
 * OLS of `y` on the rows of `X` (include a column of 1s for an intercept)
 * with Newey-West standard errors.
 *
 * @example
 * ```ts
 * import { olsNeweyWest } from "./_ols.ts";
 * const x = [1, 2, 3, 4, 5, 6, 7, 8];
 * const fit = olsNeweyWest(x.map((v) => 1 + 2 * v + (v % 2 ? 0.1 : -0.1)), x.map((v) => [1, v]));
 * fit.coef[1].toFixed(2); // "2.00"
 * ```
 */
export function olsNeweyWest(y: readonly number[], X: readonly number[][], lags?: number): Fit {
  const n = y.length;
  const L = lags ?? Math.floor(4 * (n / 100) ** (2 / 9));
  const Xt = tr(X);
  const xtx = mul(Xt, X);
  const inv = invert(xtx);
  const coef = mul(inv, mul(Xt, y.map((v) => [v]))).map(([c]) => c);
  const e = y.map((v, t) => v - X[t].reduce((s, x, j) => s + x * coef[j], 0));
  const ssr = e.reduce((s, v) => s + v * v, 0);
  const u = X.map((row, t) => row.map((v) => v * e[t]));
  // S = Σ_lag w_lag (Γ + Γ'), Γ = Σ_t u_t' u_{t−lag}, with w_0 = ½ (so Γ_0 counts once)
  const S = xtx.map((row) => row.map(() => 0));
  for (let lag = 0; lag <= Math.min(L, n - 1); lag++) {
    const w = lag === 0 ? 0.5 : 1 - lag / (L + 1);
    const g = mul(tr(u.slice(lag)), u.slice(0, n - lag));
    g.forEach((row, i) => row.forEach((v, j) => S[i][j] += w * (v + g[j][i])));
  }
  const cov = mul(mul(inv, S), inv);
  return { coef, se: cov.map((row, i) => Math.sqrt(Math.max(row[i], 0))), lags: L, ssr, inv };
}
