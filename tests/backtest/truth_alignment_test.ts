/**
 * Where an event-study estimate can part from the emulator's truth, checked
 * exactly (issue 32, CEO buys reading low at 3–6 months): every row's excess
 * return is the stock's return minus the market's over the same days from
 * the trade date; the truth is E[market growth] · (e^(Δ effect) − 1) over
 * those days; the headline study's `mean_excess` is the plain mean of
 * exactly the rows the truth is averaged over (trade entry, no trade
 * dropped); and the trade schedule is drawn before, and apart from, the
 * price noise (the price path of every stock is fixed before any trade is
 * scheduled, and adding the trades' signals changes prices only through
 * `World.effect`). So E[estimate − truth] is 0 by construction, and a
 * shortfall in one run is noise; `bench/truth_rows_bench.ts` measures it
 * on 120 worlds.
 */
import assert from "node:assert/strict";
import { createStub } from "../../lib/stub/mod.ts";
import { assembleWorld, generateWorld } from "../../lib/stub/world.ts";
import { transactionsFrame } from "../../lib/insider/transaction_frames.ts";
import { headlineStudy } from "../../lib/backtest/headline.ts";

const DAYS = { "1m": 30, "3m": 91, "6m": 182, "1y": 365 } as const;
const stub = createStub({ seed: 4242, scale: 0.2 });
const { world, truth } = stub;
const ceo = stub.insider.trades.filter((t) =>
  t.row.code === "P" && t.row.is_anomalous_transaction === false && t.row.is_ceo === true
);

Deno.test("truth alignment: a row's excess is the stock's return minus the market's over the same days from the trade date", () => {
  let worst = 0;
  let checked = 0;
  for (const t of stub.insider.trades) {
    for (const [h, days] of Object.entries(DAYS)) {
      const ex = (t.row as unknown as Record<string, number | null>)[`excess_returns_${h}`];
      if (ex === null) continue;
      const direct = 100 * (world.price(t.company, t.day + days) / world.price(t.company, t.day) -
        world.market(t.day + days) / world.market(t.day));
      worst = Math.max(worst, Math.abs(direct - ex));
      checked++;
    }
  }
  assert.ok(checked > 1000, `${checked}`);
  assert.ok(worst <= 5e-5 + 1e-9, `rows are rounded to 1e-4 points; worst ${worst}`);
});

Deno.test("truth alignment: the truth is E[market growth] · (e^(Δ effect) − 1) over the same window", () => {
  for (const t of ceo) {
    for (const [h, days] of Object.entries(DAYS)) {
      const e = truth.expected(t.row, h as keyof typeof DAYS);
      if (e === null) continue;
      const want = 100 * world.expectedMarketGrowth(days) *
        (Math.exp(world.effect(t.company, t.day + days) - world.effect(t.company, t.day)) - 1);
      assert.equal(e, want);
    }
  }
});

Deno.test("truth alignment: the headline study's CEO mean is the mean of exactly the rows the truth averages", () => {
  const study = headlineStudy(transactionsFrame(stub.insider.trades.map((t) => t.row)), [
    "1m",
    "3m",
    "6m",
    "1y",
  ]).toRecords() as Record<string, unknown>[];
  for (const h of Object.keys(DAYS)) {
    const rows = ceo.map((t) => t.row).filter((r) =>
      (r as unknown as Record<string, unknown>)[`excess_returns_${h}`] !== null
    );
    const xs = rows.map((r) => (r as unknown as Record<string, number>)[`excess_returns_${h}`]);
    const got = study.find((r) => r.group === "CEO buys" && r.horizon === h)!;
    assert.equal(got.n, rows.length, `${h}: no CEO buy dropped`);
    assert.equal(got.n_nonfinite, 0);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    assert.ok(Math.abs((got.mean_excess as number) - mean) < 1e-9, `${h}`);
    const es = rows.map((r) => truth.expected(r, h as keyof typeof DAYS)!);
    const truthMean = truth.mean(rows, h as keyof typeof DAYS)!;
    assert.ok(Math.abs(truthMean - es.reduce((a, b) => a + b, 0) / es.length) < 1e-9);
  }
});

Deno.test("truth alignment: the trades' schedule leaves the price noise alone (prices of a world without trades are the same but for the effects)", () => {
  // the same seed's world before any signal is added: its prices divided out
  // of the full world's leave exactly e^effect, so the trades touched the
  // prices through World.effect only, never through the noise
  const bare = assembleWorld(generateWorld({ seed: 4242, scale: 0.2 }));
  for (const t of ceo.slice(0, 200)) {
    for (const d of [t.day, t.day + 91, t.day + 182]) {
      assert.equal(bare.abnormal(t.company, d), 0, "a world no trade has touched");
      const ratio = world.price(t.company, d) / bare.price(t.company, d);
      const want = Math.exp(world.effect(t.company, d) - bare.effect(t.company, d));
      assert.ok(Math.abs(ratio / want - 1) < 1e-12, `${t.company} day ${d}: ${ratio} vs ${want}`);
    }
  }
});
