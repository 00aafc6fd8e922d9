/**
 * `stats.alpha` is Jensen's alpha: the monthly return over the risk-free
 * rate regressed on the market's return over the same rate, checked against
 * a closed-form OLS on a hand-built book, and moved by `riskFree` as
 * Jensen's alpha must be (by −(1 − beta) · rf a year).
 */
import assert from "node:assert/strict";
import { portfolioFromPositions, type PortfolioPosition } from "../../lib/backtest/portfolio.ts";

const DAY = 86_400_000;
const N = 36;
// a short-like book: beta near −1 on a varying market, plus its own monthly noise
const market = Array.from({ length: N }, (_, t) => 1.5 * Math.sin(t * 1.3) + 0.4);
const stock = market.map((x, t) => 0.3 - 0.96 * x + 0.8 * Math.cos(t * 2.1));

/** One position per calendar month from January 2020, earning `stock[t]` while its market earns `market[t]`. */
function book(): PortfolioPosition[] {
  return stock.map((y, t) => {
    const start = Date.UTC(2020, t, 1) / DAY - 1;
    const end = Date.UTC(2020, t + 1, 1) / DAY - 1;
    const span = end - start;
    return {
      start,
      end,
      sign: 1,
      size: 1,
      stock: [[0, 1], [span, 1 + y / 100]],
      market: [[0, 1], [span, 1 + market[t] / 100]],
    };
  });
}

/** Closed-form OLS of y on x: [intercept, slope]. */
function ols(y: number[], x: number[]): [number, number] {
  const mx = x.reduce((a, b) => a + b, 0) / x.length;
  const my = y.reduce((a, b) => a + b, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  for (let t = 0; t < x.length; t++) {
    sxy += (x[t] - mx) * (y[t] - my);
    sxx += (x[t] - mx) ** 2;
  }
  return [my - (sxy / sxx) * mx, sxy / sxx];
}

Deno.test("alpha is Jensen's: returns over the risk-free rate on the market over the same rate", () => {
  const rfm = (1.04 ** (1 / 12) - 1) * 100; // 4 % a year as a monthly rate in percent
  const { stats, monthly } = portfolioFromPositions(book(), { edges: "keep", riskFree: 4 });
  assert.equal(stats.months, N);
  const ret = monthly.getColumn("return").toArray() as number[];
  const mkt = monthly.getColumn("market_return").toArray() as number[];
  for (let t = 0; t < N; t++) assert.ok(Math.abs(ret[t] - stock[t]) < 1e-9);
  const [a, b] = ols(ret.map((r) => r - rfm), mkt.map((m) => m - rfm));
  assert.ok(Math.abs(stats.alpha! - 12 * a) < 1e-9, `${stats.alpha} vs ${12 * a}`);
  assert.ok(Math.abs(stats.alphaFit!.beta - b) < 1e-9);
  assert.ok(Math.abs(stats.alphaFit!.monthly - a) < 1e-9);
  const [lo, hi] = stats.alphaInterval!;
  assert.ok(lo < stats.alpha! && stats.alpha! < hi);
});

Deno.test("riskFree moves alpha by −(1 − beta) · rf, as Jensen's alpha does", () => {
  const at0 = portfolioFromPositions(book(), { edges: "keep" }).stats;
  const at4 = portfolioFromPositions(book(), { edges: "keep", riskFree: 4 }).stats;
  const rfm = (1.04 ** (1 / 12) - 1) * 100;
  const beta = at0.alphaFit!.beta;
  assert.ok(beta < -0.8, `beta ${beta}`);
  // beta does not depend on the rate; the intercept falls by (1 − beta) · rf a month
  assert.ok(Math.abs(at4.alphaFit!.beta - beta) < 1e-9);
  const want = at0.alpha! - 12 * (1 - beta) * rfm;
  assert.ok(Math.abs(at4.alpha! - want) < 1e-9, `${at4.alpha} vs ${want}`);
  assert.ok(
    at0.alpha! - at4.alpha! > 7,
    "a short book's alpha falls by about 7.6 points a year at 4 %",
  );
});
