/**
 * Portfolio risk figures against the emulator's true daily paths (the
 * CI-sized version of `bench/portfolio_truth_bench.ts`, which runs 40
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
