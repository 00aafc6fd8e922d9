/**
 * Estimators against the truth (the CI-sized version of
 * `bench/coverage_bench.ts`): over 10 small emulator worlds, the headline
 * event study's issuer-clustered 95 % intervals must cover the effect the
 * emulator built in about 95 % of the time (a binomial band, no wall clock),
 * the i.i.d. intervals must be narrower and cover less, the estimates must be
 * unbiased, and the 1-month portfolio alpha must match the noise-free one.
 * (The 6-month portfolio is biased low by its geometric interpolation; the
 * bench measures that and the README reports it.)
 */
import assert from "node:assert/strict";
import { type AlphaCheck, type Check, checkWorld } from "../../bench/coverage_lib.ts";

const SEEDS = 10;
const checks: Check[] = [];
const alphas: AlphaCheck[] = [];
// the first seeds of bench/coverage_bench.ts (which runs 40)
for (let seed = 1; seed <= SEEDS; seed++) {
  const w = checkWorld(seed, 0.5, ["issuer", "none"]);
  checks.push(...w.intervals);
  alphas.push(...w.alphas);
}
const covered = (cs: Check[]) => cs.filter((c) => c.low <= c.truth && c.truth <= c.high).length;
const of = (cluster: string) => checks.filter((c) => c.cluster === cluster);

Deno.test("coverage: issuer-clustered 95% intervals cover the built-in effect at a binomially sensible rate", () => {
  const cs = of("issuer");
  // 10 worlds × (3 groups + 1 difference) × 4 horizons
  assert.equal(cs.length, SEEDS * 4 * 4);
  const k = covered(cs);
  // 160 intervals at a true 95 %: mean 152, sd ≈ 2.8 (more with the intervals' correlation);
  // 140 (87.5 %) is > 4 sd below and would flag a real failure, 160 would flag over-wide intervals
  assert.ok(k >= 140 && k <= 160, `issuer intervals cover ${k} of ${cs.length}`);
  const diff = cs.filter((c) => c.target === "CEO buys − All purchases");
  assert.ok(covered(diff) >= 34, `difference intervals cover ${covered(diff)} of ${diff.length}`);
});

Deno.test("coverage: i.i.d. intervals are narrower than issuer-clustered ones and cover less", () => {
  const iss = of("issuer");
  const none = of("none");
  const width = (cs: Check[]) => cs.reduce((a, c) => a + c.high - c.low, 0) / cs.length;
  const groups = (cs: Check[]) => cs.filter((c) => !c.target.includes("−"));
  assert.ok(
    width(groups(none)) < width(groups(iss)),
    `${width(groups(none))} vs ${width(groups(iss))}`,
  );
  assert.ok(
    covered(groups(none)) < covered(groups(iss)),
    `i.i.d. ${covered(groups(none))} vs issuer ${covered(groups(iss))}`,
  );
});

Deno.test("coverage: the event study's estimates are unbiased for the truth", () => {
  for (const target of ["CEO buys", "All purchases", "CEO buys − All purchases"]) {
    const cs = of("issuer").filter((c) => c.target === target && c.horizon === "3m");
    const errs = cs.map((c) => c.estimate - c.truth);
    const mean = errs.reduce((a, b) => a + b, 0) / errs.length;
    const se = cs.reduce((a, c) => a + (c.high - c.low) / 3.92, 0) / cs.length /
      Math.sqrt(cs.length);
    // the mean error across worlds is within 3 standard errors of 0
    assert.ok(Math.abs(mean) < 3 * se, `${target}: mean error ${mean}, se ${se}`);
  }
  // the truth itself: CEO buys beat all purchases in every world at every horizon
  for (const c of of("issuer").filter((c) => c.target === "CEO buys − All purchases")) {
    assert.ok(c.truth > 0, `seed ${c.seed} ${c.horizon}: true gap ${c.truth}`);
  }
});

Deno.test("coverage: the 1-month portfolio alpha matches the noise-free backtest across seeds", () => {
  const xs = alphas.filter((a) => a.horizon === "1m");
  const diff = xs.map((a) => a.alpha - a.truth);
  const mean = diff.reduce((a, b) => a + b, 0) / diff.length;
  const sd = Math.sqrt(diff.reduce((a, b) => a + (b - mean) ** 2, 0) / (diff.length - 1));
  const se = sd / Math.sqrt(diff.length);
  // single-stock returns are heavy-tailed and 10 seeds estimate the SE roughly: a two-sided
  // 99.9 % band of Student's t with 9 degrees of freedom (4.78 SE)
  assert.ok(Math.abs(mean) < 4.78 * se, `alpha − truth: mean ${mean}, se ${se}`);
  for (const a of xs) assert.ok(a.truth > 0, `seed ${a.seed}: true alpha ${a.truth}`);
});
