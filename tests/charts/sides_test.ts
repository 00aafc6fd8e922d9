/**
 * One meaning of buy and sell in the charts: a buy is an open-market
 * purchase (code P), a sell a sale (code S); other codes are left out and
 * counted in the subtitle (or a notice, under a caller's own subtitle);
 * `sides: "acquiredDisposed"` keeps the A/D split under its own labels.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { clusterChart, forwardReturns, forwardReturnsChart, tradeTimeline } from "../../mod.ts";

const BUY = "#0072B2";
const SELL = "#D55E00";
// two purchases, one sale, an option exercise (acquired) and a tax withholding (disposed)
const codes = ["P", "P", "S", "M", "F"];
const ad = ["A", "A", "D", "A", "D"];
const trades = pl.DataFrame({
  filed_at: [1, 2, 3, 4, 5].map((d) => new Date(Date.UTC(2024, 0, d))),
  transaction_value: [1e5, 2e5, 3e5, 4e5, 5e5],
  code: codes,
  acquired_disposed_code: ad,
  ticker_symbol: ["AAA", "AAA", "AAA", "AAA", "AAA"],
  is_cluster_trade_30d: [true, true, true, true, true],
  cluster_insider_count_30d: [2, 2, 2, 2, 2],
  ...Object.fromEntries(
    ["1w", "1m", "3m", "6m", "1y", "latest"].flatMap((h, i) => [
      [`returns_${h}`, [1, 2, 3, 40, 5].map((v) => v * (i + 1))],
      [`excess_returns_${h}`, [1, 2, -3, 40, -5].map((v) => v * (i + 1))],
    ]),
  ),
});

/** Fill or stroke colours of the drawn dots (circles), in order. */
function dotColours(svg: string): string[] {
  return [...svg.matchAll(/<circle[^>]*?(?:fill|stroke)="(#[0-9A-Fa-f]{6})"/g)].map((m) =>
    m[1].toUpperCase()
  );
}
const count = (xs: string[], c: string) => xs.filter((x) => x === c).length;

Deno.test("tradeTimeline: buys are code P, sells code S, an exercise and a withholding are left out and counted", () => {
  const chart = tradeTimeline(trades);
  const dots = dotColours(chart.svg);
  assert.equal(count(dots, BUY), 2, "two purchases drawn as buys (the exercise is not a buy)");
  assert.equal(count(dots, SELL), 1, "one sale drawn as a sell (the withholding is not a sell)");
  assert.match(
    chart.svg,
    /Buy: open-market purchase \(code P\); sell: sale \(code S\); 2 trades of other codes/,
  );
});

Deno.test("tradeTimeline sides: acquiredDisposed labels the A/D split Acquired / Disposed, never Buy / Sell", () => {
  const chart = tradeTimeline(trades, { sides: "acquiredDisposed" });
  const dots = dotColours(chart.svg);
  assert.equal(count(dots, BUY), 3);
  assert.equal(count(dots, SELL), 2);
  assert.match(chart.svg, />Acquired</);
  assert.match(chart.svg, />Disposed</);
  assert.doesNotMatch(chart.svg, />Buy</);
});

Deno.test("clusterChart: cluster trades of other codes are left out and counted", () => {
  const chart = clusterChart(trades);
  const dots = dotColours(chart.svg);
  assert.equal(count(dots, BUY), 2);
  assert.equal(count(dots, SELL), 1);
  assert.match(chart.svg, /2 trades of other codes/);
});

Deno.test("forwardReturnsChart: boxes and means are over codes P and S only; forwardReturns keeps the code", () => {
  assert.ok(forwardReturns(trades).columns.includes("code"));
  const chart = forwardReturnsChart(trades);
  assert.match(chart.svg, /2 trades of other codes/);
  // the exercise (a 40 % excess) and the withholding change nothing but the subtitle
  const onlyPS = forwardReturnsChart(trades.filter(pl.col("code").isIn(["P", "S"])));
  const body = (svg: string) => svg.replace(/<text[^>]*>Buy: open-market[^<]*<\/text>/, "");
  assert.equal(body(chart.svg), body(onlyPS.svg));
  const ad = forwardReturnsChart(trades, { sides: "acquiredDisposed" }).svg;
  assert.match(ad, />Acquired</);
  assert.notEqual(body(ad), body(onlyPS.svg));
});

Deno.test("charts: a frame with no buy or sell is refused with the count and the other option", () => {
  const awards = trades.filter(pl.col("code").eq(pl.lit("M")));
  assert.throws(
    () => tradeTimeline(awards),
    /tradeTimeline: none of the 1 trades is a buy or a sell .*sides: "acquiredDisposed"/,
  );
});

Deno.test("charts: a bad sides value names the parameter, the value and a close match", () => {
  assert.throws(
    () => tradeTimeline(trades, { sides: "tradeclass" as never }),
    /tradeTimeline: sides "tradeclass" is not allowed; allowed: tradeClass, acquiredDisposed \(did you mean "tradeClass"\?\)/,
  );
});

Deno.test("charts: a caller's own subtitle is kept and the left-out count goes to a notice", () => {
  const said: string[] = [];
  const orig = console.error;
  console.error = (m: string) => said.push(m);
  try {
    const chart = tradeTimeline(trades, { subtitle: "Mine" });
    assert.match(chart.svg, />Mine</);
    assert.doesNotMatch(chart.svg, /code P/);
  } finally {
    console.error = orig;
  }
  assert.ok(said.some((m) => /tradeTimeline: .*2 trades of other codes/.test(m)), said.join("\n"));
});
