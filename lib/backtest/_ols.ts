/**
 * Ordinary least squares with Newey-West (HAC, Bartlett weights)
 * standard errors, for the market and multi-factor alphas of a portfolio backtest:
 * cov = (X'X)⁻¹ S (X'X)⁻¹ with S = Σ_k w_k Σ_t (x_t e_t)(x_{t−k} e_{t−k})'
 * (both orders for k > 0), w_k = 1 − k/(L+1), L = ⌊4·(n/100)^(2/9)⌋ by
 * default — statsmodels' `cov_type="HAC"` without small-sample correction.
 *
 * @module
 */
import jStatModule from "npm:jstat@1.9.6";

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

/** jStat's matrix inverse (the package ships no types). */
const jStat = jStatModule as unknown as { inv(a: number[][]): number[][] };

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
  // Gauss-Jordan with partial pivoting; a column that is constant or a combination of others
  // (or fewer rows than columns) leaves no inverse: (X'X)⁻¹·X'X is then not the identity
  const inv = jStat.inv(xtx);
  const eye = mul(inv, xtx);
  if (!eye.every((row, i) => row.every((v, j) => Math.abs(v - Number(i === j)) < 1e-6))) {
    throw new RangeError(
      "portfolioBacktest: the factor regression is singular (a factor is constant or a copy of another)",
    );
  }
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
