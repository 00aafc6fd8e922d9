/**
 * `olsNeweyWest` (the market and factor alphas' regression) against the
 * textbook formula computed once in exact rational arithmetic (Python
 * `fractions`: (X'X)⁻¹ by the 2×2 closed form, S = Σ_k w_k Σ_t (x_t e_t)(x_{t−k} e_{t−k})'
 * with both orders for k > 0 and w_k = 1 − k/(L + 1), as statsmodels'
 * `cov_type="HAC"` without small-sample correction), and its refusal of a
 * singular regression.
 */
import assert from "node:assert/strict";
import { olsNeweyWest } from "../../lib/backtest/_ols.ts";

const x = [1.5, -0.4, 2.2, 0.3, -1.7, 0.9, 3.1, -2.5, 0.6, 1.2, -0.8, 2.7];
const y = [2.1, 0.2, 3.0, 0.5, -1.9, 1.8, 4.4, -2.2, 1.0, 2.4, -0.3, 3.1];

const close = (got: number, want: number) =>
  assert.ok(Math.abs(got - want) <= 1e-12 * Math.abs(want), `${got} vs ${want}`);

Deno.test("olsNeweyWest: coefficients, Newey-West standard errors and SSR match the exact formula", () => {
  const fit = olsNeweyWest(y, x.map((v) => [1, v]), 2);
  close(fit.coef[0], 0.4897674418604651);
  close(fit.coef[1], 1.158139534883721);
  close(fit.se[0], 0.08494939234217705);
  close(fit.se[1], 0.05611547604332861);
  close(fit.ssr, 1.1456744186046512);
  assert.equal(fit.lags, 2);
});

Deno.test("olsNeweyWest: a constant factor, a copy of another or too few rows is refused", () => {
  const singular = /the factor regression is singular/;
  assert.throws(() => olsNeweyWest(y, x.map((v) => [1, v, 3])), singular);
  assert.throws(() => olsNeweyWest(y, x.map((v) => [1, v, 2 * v])), singular);
  assert.throws(
    () => olsNeweyWest(y.slice(0, 2), x.slice(0, 2).map((v) => [1, v, v * v])),
    singular,
  );
});
