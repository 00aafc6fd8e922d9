/**
 * The empirical-Bayes win rate of authorWinRates: the beta prior's fit
 * against closed forms and against an independent likelihood, the shrunk
 * rate by hand, the frame's order, the winner's curse against the
 * emulator's truth, and the as-of rule.
 */
import assert from "node:assert/strict";
import { authorWinRateChart, authorWinRates, CatalogClient } from "../../mod.ts";
import { fitBetaPrior, shrunkRate } from "../../lib/families/_beta_binomial.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { shrinkageCheck } from "../../bench/author_shrinkage_lib.ts";

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

/** Authors of 2 pitches each, `f0`, `f1`, `f2` of them with 0, 1, 2 wins. */
const twos = (f0: number, f1: number, f2: number) => {
  const wins = [...Array(f0).fill(0), ...Array(f1).fill(1), ...Array(f2).fill(2)];
  return { wins, pitches: wins.map(() => 2) };
};

Deno.test("fitBetaPrior: authors of 2 pitches, where the beta-binomial MLE has a closed form", () => {
  // with n = 2 the model is saturated: μ = (f1/2 + f2)/N and the intra-class correlation
  // ρ = 1/(M+1) = 1 − P(1 win)/(2μ(1−μ)), so M = 1/ρ − 1
  const cases: [number, number, number][] = [[30, 40, 30], [420, 360, 220], [25, 30, 45]];
  for (const [f0, f1, f2] of cases) {
    const { wins, pitches } = twos(f0, f1, f2);
    const n = f0 + f1 + f2;
    const mu = (f1 / 2 + f2) / n;
    const rho = 1 - f1 / n / (2 * mu * (1 - mu));
    const prior = fitBetaPrior(wins, pitches);
    close(prior.mean, mu, 1e-6, `mean ${f0}/${f1}/${f2}`);
    close(prior.strength, 1 / rho - 1, 1e-4 * (1 / rho - 1), `strength ${f0}/${f1}/${f2}`);
  }
  // 30/40/30: μ = 0.5, ρ = 0.2, M = 4, so α = β = 2 and 2 wins of 2 shrink to (2 + 2)/(2 + 4)
  const prior = fitBetaPrior(...Object.values(twos(30, 40, 30)) as [number[], number[]]);
  close(shrunkRate(2, 2, prior), 4 / 6, 1e-6, "2 of 2");
  close(shrunkRate(0, 2, prior), 2 / 6, 1e-6, "0 of 2");
});

/** ln L of a beta-binomial prior by the textbook product, author by author (no shared sums). */
function logLikelihood(wins: number[], pitches: number[], mean: number, strength: number): number {
  const [a, b] = [mean * strength, (1 - mean) * strength];
  let s = 0;
  wins.forEach((k, i) => {
    for (let j = 0; j < k; j++) s += Math.log(a + j);
    for (let j = 0; j < pitches[i] - k; j++) s += Math.log(b + j);
    for (let j = 0; j < pitches[i]; j++) s -= Math.log(a + b + j);
  });
  return s;
}

Deno.test("fitBetaPrior: uneven counts: the fit is the likelihood's maximum, moving either parameter lowers it", () => {
  const pitches = Array.from({ length: 60 }, (_, i) => 5 + ((i * 37) % 90));
  const wins = pitches.map((n, i) => Math.round(n * (0.25 + 0.5 * (((i * 13) % 10) / 10))));
  const p = fitBetaPrior(wins, pitches);
  assert.ok(Number.isFinite(p.strength) && p.strength > 0, `strength ${p.strength}`);
  const best = logLikelihood(wins, pitches, p.mean, p.strength);
  for (const [dm, ds] of [[0.01, 1], [-0.01, 1], [0, 1.05], [0, 0.95], [0.002, 1.01]]) {
    assert.ok(
      logLikelihood(wins, pitches, p.mean + dm, p.strength * ds) < best,
      `moved by ${dm}, ×${ds}`,
    );
  }
});

Deno.test("fitBetaPrior: authors no more spread than chance: no spread, every shrunk rate is the pooled rate", () => {
  const none = fitBetaPrior([5, 5, 5, 5, 4, 6], [10, 10, 10, 10, 10, 10]);
  assert.deepEqual(none, { mean: 0.5, strength: Infinity });
  assert.equal(shrunkRate(9, 10, none), 0.5);
  // 2 pitches each, 10/60/30 authors with 0/1/2 wins: ρ = 1 − 0.6/0.48 < 0, fewer splits than chance gives
  assert.equal(
    fitBetaPrior(...Object.values(twos(10, 60, 30)) as [number[], number[]]).strength,
    Infinity,
  );
  assert.deepEqual(fitBetaPrior([3, 7], [3, 7]), { mean: 1, strength: Infinity });
  assert.deepEqual(fitBetaPrior([0, 0], [3, 7]), { mean: 0, strength: Infinity });
});

const stub = createStub({ seed: 1 });
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://s/catalog",
  fetch: stub.fetch,
});

type Row = {
  author_username: string;
  pitches: number;
  wins: number;
  win_rate: number;
  win_rate_shrunk: number;
};

Deno.test("authorWinRates: win_rate_shrunk is each author's posterior mean under the prior fitted to the frame, and orders it", async () => {
  const result = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 5 });
  const rows = result.frame.toRecords() as unknown as Row[];
  const prior = fitBetaPrior(rows.map((r) => r.wins), rows.map((r) => r.pitches));
  assert.deepEqual(result.prior, prior);
  assert.ok(
    Number.isFinite(prior.strength),
    "the emulator's authors differ in skill: the prior has a spread",
  );
  for (const r of rows) {
    const hand = (r.wins + prior.mean * prior.strength) / (r.pitches + prior.strength);
    close(r.win_rate_shrunk, hand, 1e-12, r.author_username);
    // between the raw rate and the prior mean, strictly unless they are equal
    const [lo, hi] = [Math.min(r.win_rate, prior.mean), Math.max(r.win_rate, prior.mean)];
    assert.ok(lo <= r.win_rate_shrunk && r.win_rate_shrunk <= hi, r.author_username);
    if (r.win_rate !== prior.mean) {
      assert.notEqual(r.win_rate_shrunk, r.win_rate, r.author_username);
    }
  }
  const shrunk = rows.map((r) => r.win_rate_shrunk);
  assert.deepEqual(shrunk, [...shrunk].sort((a, b) => b - a), "ordered by win_rate_shrunk");
  // the order differs from the raw one: a short lucky record ranks lower than by its raw rate
  const byRaw = [...rows].sort((a, b) => b.win_rate - a.win_rate || b.pitches - a.pitches);
  assert.notDeepEqual(
    byRaw.slice(0, 10).map((r) => r.author_username),
    rows.slice(0, 10).map((r) => r.author_username),
  );
  const lucky = rows.find((r) => r.win_rate === 1 && r.pitches <= 6);
  if (lucky) {
    assert.ok(rows.indexOf(lucky) > byRaw.indexOf(lucky), `${lucky.author_username} ranks lower`);
  }
  // the chart ranks by it too, and says so; rankBy: "raw" draws the raw order
  const svg = authorWinRateChart(result, { top: 10 }).svg;
  let at = 0;
  for (const r of rows.slice(0, 10)) {
    const i = svg.indexOf(`>${r.author_username}<`);
    assert.ok(i > at, `${r.author_username} drawn in shrunk order`);
    at = i;
  }
  assert.match(svg, /ranked by the shrunk rate/);
  const raw = authorWinRateChart(result, { top: 10, rankBy: "raw" }).svg;
  at = 0;
  for (const r of byRaw.slice(0, 10)) {
    const i = raw.indexOf(`>${r.author_username}<`);
    assert.ok(i > at, `${r.author_username} drawn in raw order`);
    at = i;
  }
  assert.throws(
    () => authorWinRateChart(result, { rankBy: "luck" as never }),
    /rankBy "luck" is not allowed; allowed: shrunk, raw/,
  );
});

Deno.test("authorWinRates: against the emulator's truth, the shrunk top overstates less than the raw top (seeds 1-2)", async () => {
  for (const seed of [1, 2]) {
    const c = await shrinkageCheck(seed, 1);
    console.log(
      `seed ${seed}: top 3 raw +${c.top[3].rawOver.toFixed(1)}, shrunk ${
        c.top[3].shrunkOver.toFixed(1)
      }; top 20 raw +${c.top[20].rawOver.toFixed(1)}, shrunk ${
        c.top[20].shrunkOver.toFixed(1)
      } points; all authors ${c.allOver.toFixed(2)}`,
    );
    assert.ok(Math.abs(c.allOver) < 2, `the truth is calibrated: ${c.allOver}`);
    for (const k of ["3", "20"]) {
      assert.ok(c.top[k].rawOver > 5, `the raw top ${k} overstates: ${c.top[k].rawOver}`);
      const { rawOver, shrunkOver } = c.top[k];
      assert.ok(shrunkOver < rawOver - 5, `shrunk top ${k} overstates less: ${shrunkOver}`);
      assert.ok(Math.abs(shrunkOver) < rawOver, `shrunk top ${k} is off by less: ${shrunkOver}`);
    }
  }
});

Deno.test("authorWinRates: an asOf after the data's as-of is an error naming both days", async () => {
  const result = await authorWinRates(catalog, {}, { period: "1y", kind: "abs" });
  const later = new Date(Date.parse(`${result.asOf}T00:00:00Z`) + 200 * 86_400_000).toISOString()
    .slice(0, 10);
  await assert.rejects(
    () => authorWinRates(catalog, {}, { period: "1y", kind: "abs", asOf: later }),
    new RegExp(
      `^RangeError: authorWinRates: asOf ${later} is after the data's as-of ${result.asOf} \\(the catalog's latest added_on\\)`,
    ),
  );
  // the data's own as-of is allowed, and gives the default's result
  const same = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", asOf: result.asOf });
  assert.equal(same.frame.height, result.frame.height);
});

Deno.test("authorWinRates: a filter does not move the data's as-of (the catalog's, not the filtered pitches')", async () => {
  const all = await authorWinRates(catalog, {}, { period: "1y", kind: "abs" });
  for (const sentiment of ["bearish", "neutral"] as const) {
    const opts = { period: "1y", kind: "abs" } as const;
    const some = await authorWinRates(catalog, { sentiment: [sentiment] }, opts);
    assert.equal(some.asOf, all.asOf, sentiment);
    const same = await authorWinRates(catalog, { sentiment: [sentiment] }, {
      ...opts,
      asOf: all.asOf,
    });
    assert.equal(same.tooRecent, some.tooRecent, sentiment);
  }
});
