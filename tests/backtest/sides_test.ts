/**
 * One meaning of "buy" and "sell" (issue 32): trade classes by default —
 * code P buys, code S sells, other codes neither (left out and counted) —
 * in `groupBy: "side"`, the `side` column, the hit rate's sign and
 * `direction: "follow"`; the acquired/disposed code under its own name.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { captureStderr } from "./_capture.ts";
import {
  createStub,
  eventStudy,
  portfolioBacktest,
  portfolioConclusion,
  portfolioTable,
  transactionsFrame,
} from "../../mod.ts";
import { sideOf } from "../../lib/backtest/event_study.ts";

/** Trades: [code, acquired/disposed, excess 1m]; one a month at its own issuer. */
function frame(rows: [string, "A" | "D", number][]): pl.DataFrame {
  return pl.DataFrame({
    transaction_date: rows.map((_, i) =>
      `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-10`
    ),
    issuer_cik: rows.map((_, i) => `c${i}`),
    code: rows.map((r) => r[0]),
    acquired_disposed_code: rows.map((r) => r[1]),
    returns_1m: rows.map((r) => r[2] + 1),
    excess_returns_1m: rows.map((r) => r[2]),
  });
}

// 30 purchases (P, A) up 2, 25 sales (S, D) down 3, 20 option exercises (M, A) down 1
const rows: [string, "A" | "D", number][] = [
  ...Array.from({ length: 30 }, (_, i) => ["P", "A", 2 + (i % 3)] as [string, "A", number]),
  ...Array.from({ length: 25 }, (_, i) => ["S", "D", -3 - (i % 2)] as [string, "D", number]),
  ...Array.from({ length: 20 }, (_, i) => ["M", "A", -1 - (i % 2)] as [string, "A", number]),
];
const trades = frame(rows);

Deno.test('groupBy "side": code P buys, code S sells; other codes left out and counted', () => {
  const { value: s, said } = captureStderr(() =>
    eventStudy(trades, { groupBy: "side", horizons: ["1m"], minClusters: 2 })
  );
  const recs = s.toRecords() as Record<string, unknown>[];
  assert.deepEqual(recs.map((r) => [r.group, r.n, r.side]), [["buy", 30, "buy"], [
    "sell",
    25,
    "sell",
  ]]);
  // every purchase rose, every sale was followed by a fall: both hit 100 %
  assert.deepEqual(recs.map((r) => r.hit_rate), [100, 100]);
  assert.ok(
    said.some((m) => /20 of 75 trades have no group under groupBy "side" .*code P.*code S/.test(m)),
    said.join("\n"),
  );
});

Deno.test('groupBy "acquiredDisposed": the A/D code under its own name, exercises among "acquired"', () => {
  const s = eventStudy(trades, { groupBy: "acquiredDisposed", horizons: ["1m"], minClusters: 2 });
  const recs = s.toRecords() as Record<string, unknown>[];
  assert.deepEqual(recs.map((r) => [r.group, r.n]), [["acquired", 50], ["disposed", 25]]);
  const acq = recs[0];
  // trade classes (default sides): 30 buys hit, 20 exercises have no side
  assert.equal(acq.side, "mixed");
  assert.equal(acq.n_no_side, 20);
  assert.equal(acq.hit_rate, 100);
  // with sides "acquiredDisposed", the exercises count as buys that missed
  const ad = eventStudy(trades, {
    groupBy: "acquiredDisposed",
    horizons: ["1m"],
    minClusters: 2,
    sides: "acquiredDisposed",
  }).toRecords()[0] as Record<string, unknown>;
  assert.equal(ad.side, "buy");
  assert.equal(ad.n_no_side, 0);
  assert.equal(ad.hit_rate, 60);
});

Deno.test("side column: buy, sell, mixed, other; a frame without the code column has none", () => {
  const s = eventStudy(trades, {
    groupBy: (r) => String(r.code),
    horizons: ["1m"],
    minClusters: 2,
  }).toRecords() as Record<string, unknown>[];
  assert.deepEqual(s.map((r) => [r.group, r.side, r.n_no_side]), [
    ["P", "buy", 0],
    ["S", "sell", 0],
    ["M", "other", 20],
  ]);
  // no side at all: hit rate null rather than a guess
  assert.equal(s[2].hit_rate, null);
  const all = eventStudy(trades, { horizons: ["1m"], minClusters: 2 }).toRecords()[0];
  assert.equal(all.side, "mixed");
  assert.equal(all.hit_rate, 100 * 55 / 55);
  const bare = eventStudy(trades.drop("code"), { horizons: ["1m"], minClusters: 2 }).toRecords()[0];
  assert.equal(bare.side, null);
  // without the column every trade is scored as a buy: 30 of 75 rose
  assert.equal(bare.hit_rate, 40);
  assert.equal(bare.n_no_side, 75);
  assert.throws(
    () => eventStudy(trades, { sides: "ad" as "tradeClass" }),
    /sides "ad" is not allowed; allowed: tradeClass, acquiredDisposed/,
  );
});

Deno.test("sideOf: trade classes by default, the A/D code on request", () => {
  assert.equal(sideOf({ code: "P", acquired_disposed_code: "A" }), 1);
  assert.equal(sideOf({ code: "S", acquired_disposed_code: "D" }), -1);
  assert.equal(sideOf({ code: "M", acquired_disposed_code: "A" }), 0);
  assert.equal(sideOf({ code: "F", acquired_disposed_code: "D" }, "acquiredDisposed"), -1);
});

Deno.test('direction "follow": long code P, short code S, other codes left out and counted', () => {
  // returns at every horizon: the portfolio needs 1m…1y columns
  const withAll = trades.withColumns(
    ...["3m", "6m", "1y"].flatMap((h) => [
      pl.col("returns_1m").alias(`returns_${h}`),
      pl.col("excess_returns_1m").alias(`excess_returns_${h}`),
    ]),
  );
  const { stats } = portfolioBacktest(withAll, { horizon: "1m", direction: "follow" });
  assert.equal(stats.trades, 55);
  assert.equal(stats.noSideTrades, 20);
  const ad = portfolioBacktest(withAll, {
    horizon: "1m",
    direction: "follow",
    sides: "acquiredDisposed",
  });
  assert.equal(ad.stats.trades, 75);
  assert.equal(ad.stats.noSideTrades, 0);
  // long only takes every trade
  assert.equal(portfolioBacktest(withAll, { horizon: "1m" }).stats.trades, 75);
  // a short of a falling stock earns: the follow portfolio's months with sales gain
  const m = portfolioBacktest(withAll, { horizon: "1m", direction: "follow", edges: "keep" })
    .monthly.getColumn("excess_return").toArray() as number[];
  assert.ok(m.slice(30, 54).every((x) => x > 0), JSON.stringify(m.slice(30, 54)));
});

Deno.test("a short book: the market column is the market itself, beta against it near −1, tables say short", () => {
  const stub = createStub({ seed: 5, scale: 0.2 });
  const sales = transactionsFrame(
    stub.insider.trades.map((t) => t.row).filter((r) => r.code === "S"),
  );
  const long = portfolioBacktest(sales, { horizon: "1m" });
  const short = portfolioBacktest(sales, { horizon: "1m", direction: "follow" });
  assert.equal(short.stats.shortTrades, short.stats.trades);
  assert.equal(long.stats.shortTrades, 0);
  const col = (r: typeof long, c: string) => r.monthly.getColumn(c).toArray() as number[];
  // the same positions against the same market: the market column does not flip with the side
  const [lm, sm] = [col(long, "market_return"), col(short, "market_return")];
  lm.forEach((m, i) => assert.ok(Math.abs(m - sm[i]) < 1e-9, `month ${i}: ${m} vs ${sm[i]}`));
  // the benchmark the excess is measured against does: a short's is the market's negative
  const sb = col(short, "benchmark_return");
  const months = col(short, "n_positions");
  sb.forEach((b, i) => months[i] && assert.ok(Math.abs(b + sm[i]) < 1e-9));
  assert.ok(long.stats.alphaFit && short.stats.alphaFit, JSON.stringify(short.stats.nullReasons));
  assert.ok(long.stats.alphaFit.beta > 0.5, `long beta ${long.stats.alphaFit.beta}`);
  assert.ok(short.stats.alphaFit.beta < -0.5, `short beta ${short.stats.alphaFit.beta}`);
  const table = String(portfolioTable({ sales: short, "sales held long": long }));
  assert.match(table, /sales \(short\)/);
  assert.doesNotMatch(table, /held long \(short\)/);
  const text = portfolioConclusion({ sales: short });
  assert.match(text, /^sales \(short\) — /);
  assert.match(text, /beta -\d\.\d\d against the market/);
});
