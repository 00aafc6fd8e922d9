/**
 * authorWinRates against a count done by hand on the emulator's own pitches:
 * a win is a pitch whose return over the period is at least 0 % (the 0 %
 * floor), counted only once the period has ended by the as-of day; locked
 * pitches included; Wilson intervals checked against printed values.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  authorWinRateChart,
  authorWinRates,
  CatalogClient,
  connect,
  isDemo,
  PERIOD_DAYS,
  wilsonInterval,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch } from "../_util.ts";

const stub = createStub({ seed: 1, scale: 0.5 }); // 0.5: the smallest world with locked pitches
const { fetch: counting, count } = countingFetch(stub);
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://s/catalog",
  fetch: counting,
});

type Row = { author_username: string; pitches: number; wins: number; win_rate: number };

/** The hand count: the emulator's pitches, their realized returns, the as-of rule. */
function byHand(period: "6m" | "1y", kind: "abs" | "excess", asOf: string, min: number) {
  const asOfDay = Date.parse(`${asOf}T00:00:00Z`) / 86_400_000;
  const tally = new Map<string, { pitches: number; wins: number; locked: number }>();
  let tooRecent = 0;
  for (const p of stub.catalog.pitches) {
    if (p.day + PERIOD_DAYS[period] > asOfDay) {
      tooRecent++;
      continue;
    }
    const r = p.returns[`${period}_${kind}`];
    assert.notEqual(r, undefined, "a counted pitch has a realized return");
    const name = stub.catalog.authors[p.author].username;
    const t = tally.get(name) ?? { pitches: 0, wins: 0, locked: 0 };
    t.pitches++;
    if (r >= 0) t.wins++;
    if (stub.catalog.locked(p) && r >= 0) t.locked++;
    tally.set(name, t);
  }
  const rows = [...tally].filter(([, t]) => t.pitches >= min);
  return { tooRecent, few: tally.size - rows.length, rows: new Map(rows) };
}

Deno.test("authorWinRates: every row equals the hand count on the emulator's pitches (1y abs)", async () => {
  count.n = 0;
  const result = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 5 });
  const { frame } = result;
  assert.equal(result.requests, count.n, "requests reported");
  assert.deepEqual(frame.columns, [
    "author_username",
    "pitches",
    "wins",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
    "win_rate_shrunk",
  ]);
  for (const c of ["win_rate", "win_rate_low", "win_rate_high", "win_rate_shrunk"]) {
    assert.ok(frame.getColumn(c).dtype.equals(pl.Float64), c);
  }
  assert.ok(frame.getColumn("pitches").dtype.equals(pl.Int64));
  const hand = byHand("1y", "abs", result.asOf, 5);
  assert.equal(result.tooRecent, hand.tooRecent);
  assert.equal(result.fewPitches, hand.few);
  assert.equal(frame.height, hand.rows.size);
  assert.ok(frame.height >= 20, `authors: ${frame.height}`);
  let lockedWins = 0;
  for (const r of frame.toRecords() as Row[]) {
    const want = hand.rows.get(r.author_username)!;
    assert.ok(want, r.author_username);
    assert.equal(r.pitches, want.pitches, r.author_username);
    assert.equal(r.wins, want.wins, r.author_username);
    assert.equal(r.win_rate, want.wins / want.pitches);
    lockedWins += want.locked;
  }
  assert.ok(lockedWins > 0, "locked pitches' wins come from the filtered query");
  // ranked: best shrunk win rate first
  const shrunk = frame.getColumn("win_rate_shrunk").toArray() as number[];
  assert.deepEqual(shrunk, [...shrunk].sort((a, b) => b - a));
  const rates = frame.getColumn("win_rate").toArray() as number[];
  assert.ok(rates.some((r) => r > 0 && r < 1), "fractions, not integer division");
  console.log(
    `authorWinRates 1y abs: ${frame.height} authors, ${count.n} requests, ${result.tooRecent} pitches too recent, as of ${result.asOf}`,
  );
});

Deno.test("authorWinRates: 6m excess, minPitches 3; the period's end is what counts", async () => {
  const result = await authorWinRates(catalog, {}, { period: "6m", kind: "excess", minPitches: 3 });
  const hand = byHand("6m", "excess", result.asOf, 3);
  assert.equal(result.frame.height, hand.rows.size);
  assert.equal(result.tooRecent, hand.tooRecent);
  for (const r of result.frame.toRecords() as Row[]) {
    assert.equal(r.wins, hand.rows.get(r.author_username)!.wins);
  }
  const pitches = result.frame.getColumn("pitches").toArray() as number[];
  assert.ok(Math.min(...pitches) >= 3);
  // an earlier as-of day leaves more pitches out
  const early = await authorWinRates(catalog, {}, {
    period: "6m",
    kind: "excess",
    minPitches: 3,
    asOf: "2024-06-30",
  });
  assert.equal(early.asOf, "2024-06-30");
  assert.ok(early.tooRecent > result.tooRecent);
  assert.equal(early.tooRecent, byHand("6m", "excess", "2024-06-30", 3).tooRecent);
});

Deno.test("wilsonInterval: printed values; inside [0, 1]; keeps a width at 0 and all wins", () => {
  const r3 = (xs: number[]) => xs.map((x) => Number(x.toFixed(4)));
  // Wilson 95 % (no continuity correction), e.g. R's prop.test(8, 10, correct = FALSE)
  assert.deepEqual(r3(wilsonInterval(8, 10)), [0.4902, 0.9433]);
  assert.deepEqual(r3(wilsonInterval(0, 10)), [0, 0.2775]);
  assert.deepEqual(r3(wilsonInterval(10, 10)), [0.7225, 1]);
  assert.deepEqual(wilsonInterval(0, 0).map(Number.isNaN), [true, true]);
  // the default z is the standard normal's 97.5 % quantile (mpmath: 1.95996398454005423552…),
  // read as its nearest double, as the backtests' Z975
  for (const [wins, n] of [[8, 10], [1, 3], [37, 41]]) {
    assert.deepEqual(wilsonInterval(wins, n), wilsonInterval(wins, n, 1.95996398454005423552));
  }
});

Deno.test("authorWinRates: bad options name the value and the allowed ones", async () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [
      { period: "12m", kind: "abs" },
      /authorWinRates: period "12m" is not allowed; allowed: 6m, 1y, 2y/,
    ],
    [
      { period: "1y", kind: "excesss" },
      /kind "excesss" is not allowed; allowed: abs, excess \(did you mean "excess"\?\)/,
    ],
    [
      { period: "1y", kind: "abs", minPitches: 0 },
      /minPitches 0 is not allowed; allowed: an integer >= 1/,
    ],
    [
      { period: "1y", kind: "abs", asOf: "2024-13-01" },
      /asOf "2024-13-01" is not allowed; allowed: a calendar date YYYY-MM-DD, years 100–9999/,
    ],
    [
      { period: "1y", kind: "abs", asOf: "0099-01-01" },
      /asOf "0099-01-01" is not allowed; allowed: a calendar date YYYY-MM-DD, years 100–9999/,
    ],
  ];
  count.n = 0;
  for (const [opts, re] of bad) {
    await assert.rejects(() => authorWinRates(catalog, {}, opts as never), re);
  }
  assert.equal(count.n, 0, "bad options never reach the network");
});

Deno.test("authorWinRateChart: authors ranked, an interval each, the pooled rate marked", async () => {
  const result = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 5 });
  const svg = authorWinRateChart(result, { top: 12 }).svg;
  const names = result.frame.head(12).getColumn("author_username").toArray() as string[];
  let at = 0;
  for (const n of names) {
    const i = svg.indexOf(`>${n}<`);
    assert.ok(i > at, `${n} drawn in rank order`);
    at = i;
  }
  assert.ok(!svg.includes(`>${result.frame.getColumn("author_username").get(12)}<`));
  assert.match(svg, /Win rate \(%\)/);
  assert.match(svg, /of \d+ authors with ≥ 5 pitches/);
  const one = authorWinRateChart({
    ...result,
    frame: result.frame.filter(pl.col("author_username").eq(pl.lit(names[0]))) as never,
  }).svg;
  assert.match(one, new RegExp(`>${names[0]}<`));
  const none = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 500 });
  assert.equal(none.frame.height, 0);
  assert.throws(
    () => authorWinRateChart(none),
    /^Error: authorWinRateChart: no author has 500 counted pitches \(\d+ have fewer, \d+ pitches too recent\); lower minPitches/,
  );
});

Deno.test("authorWinRates on the offline emulator: the frame and its chart say demo data", async () => {
  const { catalog } = await connect({ quiet: true });
  const result = await authorWinRates(catalog, { sentiment: ["bullish"] }, {
    period: "1y",
    kind: "abs",
  });
  assert.equal(result.minPitches, 5);
  assert.ok(isDemo(result.frame));
  assert.match(authorWinRateChart(result).svg, /DEMO DATA/);
});
