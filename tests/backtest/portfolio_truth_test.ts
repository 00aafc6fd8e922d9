/**
 * Portfolio risk figures against the emulator's true daily paths (the
 * CI-sized version of `bench/portfolio_truth_bench.ts`, which runs 60
 * worlds): in one world, the default booking's vol and max drawdown are
 * close to the truth and much closer than whole-segment step booking, and
 * the market path rebuilt from the trades' windows is the index's.
 */
import assert from "node:assert/strict";
import { riskChecks } from "../../bench/portfolio_truth_lib.ts";
import { marketPath } from "../../lib/backtest/_market_path.ts";
import { createStub } from "../../lib/stub/mod.ts";

const market = riskChecks(5, 0.3, ["6m"], ["trade"], "trim", "market");
const step = riskChecks(5, 0.3, ["6m"], ["trade"], "trim", "step");

Deno.test("portfolio truth: the default booking's vol and drawdown are close to the true paths", () => {
  for (const c of market) {
    const rel = (f: "vol" | "maxDrawdown") => Math.abs(c.estimate[f] / c.truth[f] - 1);
    // 60 worlds: mean bias −3.0 to −0.1 % (vol), −3.5 to −0.2 % (drawdown); one world varies more
    assert.ok(rel("vol") < 0.15, `${c.target} vol ${c.estimate.vol} vs ${c.truth.vol}`);
    assert.ok(
      rel("maxDrawdown") < 0.3,
      `${c.target} drawdown ${c.estimate.maxDrawdown} vs ${c.truth.maxDrawdown}`,
    );
    const s = step.find((x) => x.target === c.target)!;
    // booking whole segments smooths the market out of the months: vol far too low
    assert.ok(
      Math.abs(s.estimate.vol - s.truth.vol) > 2 * Math.abs(c.estimate.vol - c.truth.vol),
      `step ${s.estimate.vol} vs market ${c.estimate.vol}, truth ${c.truth.vol}`,
    );
    assert.ok(Math.abs(c.estimate.alpha - c.truth.alpha) < 3, `${c.target} alpha`);
  }
});

Deno.test("marketPath: the index's level rebuilt from the trades' windows", () => {
  const stub = createStub({ seed: 5, scale: 0.3 });
  const rows = stub.insider.trades.map((
    t,
  ) => ({ ...t.row, day: t.day } as Record<string, unknown> & { day: number }));
  const L = marketPath(rows)!;
  const { world } = stub;
  // month-end to month-end over the last three years
  let worst = 0;
  for (let d = world.asOf - 3 * 365; d + 30 <= world.asOf - 400; d += 30) {
    const est = Math.exp(L(d + 30) - L(d));
    const truth = world.market(d + 30) / world.market(d);
    worst = Math.max(worst, Math.abs(est - truth));
  }
  assert.ok(worst < 0.002, `worst monthly error ${worst}`);
  assert.equal(marketPath([{ day: 0 }]), null);
});

Deno.test("portfolio truth bench: the summary gives per holding the range of the mean bias over portfolios", async () => {
  const { biasSummary } = await import("../../bench/portfolio_truth_bench.ts");
  const { NO_TEN_BAGGER } = await import("../../bench/portfolio_truth_lib.ts");
  const fig = (v: number) => ({
    vol: v,
    maxDrawdown: -v,
    hitRate: v,
    sharpe: v,
    informationRatio: v,
    meanExcess: v,
    excessSd: v,
    alpha: v,
    meanReturn: v,
    autocorrelation: 0,
    lastMonth: 0,
  });
  const check = (target: string, entry: "trade" | "filing", est: number, seed = 1) => ({
    seed,
    target,
    horizon: "1y" as const,
    entry,
    estimate: fig(est),
    truth: fig(10),
  });
  // two worlds per portfolio: the mean bias and its standard error across worlds
  const out = biasSummary([
    check("CEO buys", "trade", 10.5),
    check("CEO buys", "trade", 11.5, 2),
    check("All purchases", "filing", 9.25),
    check("All purchases", "filing", 9.75, 2),
    check(NO_TEN_BAGGER, "trade", 10.1),
    check(NO_TEN_BAGGER, "trade", 10.3, 2),
  ], "t");
  // headline: +10 ± 5 % and −5 ± 2.5 % of the truth (SE: sd of estimate − truth / √2, over the
  // truth); alpha in points: +1.00 ± 0.50 and −0.50 ± 0.25
  assert.match(out, /headline \(2 groups × 2 entries\) \| 1y\s+\| −5\.0 ± 2\.5 to \+10\.0 ± 5\.0 /);
  assert.match(out, /−0\.50 ± 0\.25 to \+1\.00 ± 0\.50/);
  assert.match(out, new RegExp(`${NO_TEN_BAGGER}\\s+\\| 1y\\s+\\| \\+2\\.0 ± 1\\.0 `));
});

Deno.test("portfolio truth bench: the diagnostic portfolios leave out the ten-bagger and overlapping positions in one stock", async () => {
  const { diagnosticGroups, NO_TEN_BAGGER, ONE_PER_ISSUER } = await import(
    "../../bench/portfolio_truth_lib.ts"
  );
  const stub = createStub({ seed: 5, scale: 0.3 });
  const buys = stub.insider.trades.filter((t) => t.row.code === "P");
  const landmark = stub.world.companies.findIndex((_, c) =>
    stub.world.effect(c, stub.world.asOf) !== stub.world.abnormal(c, stub.world.asOf)
  );
  assert.ok(buys.some((t) => t.company === landmark), "the ten-bagger has purchases");
  const g = diagnosticGroups(stub.world, buys);
  assert.equal(g[NO_TEN_BAGGER].length, buys.filter((t) => t.company !== landmark).length);
  const last = new Map<number, number>();
  for (const t of g[ONE_PER_ISSUER]) {
    assert.notEqual(t.company, landmark);
    assert.ok(t.day >= (last.get(t.company) ?? -Infinity) + 365, `company ${t.company} overlaps`);
    last.set(t.company, t.day);
  }
  assert.ok(g[ONE_PER_ISSUER].length > 50 && g[ONE_PER_ISSUER].length < buys.length / 2);
});
