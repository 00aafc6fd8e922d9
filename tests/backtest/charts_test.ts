/**
 * The backtest charts: snapshots (tests/charts/_snapshot.ts, as the other charts), the
 * many-groups layout of the event-study chart, and the saved files'
 * explicit background.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  type Chart,
  drawdownChart,
  equityCurveChart,
  eventStudyChart,
  portfolioBacktest,
  saveChart,
  standaloneSvg,
} from "../../mod.ts";
import { snapshotTests } from "../charts/_snapshot.ts";

/** A deterministic hand-made trades frame: 30 months, two trades a month. */
function trades(shift: number): pl.DataFrame {
  const n = 60;
  const dates = Array.from({ length: n }, (_, i) => {
    const m = Math.floor(i / 2);
    return `${2022 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}-1${i % 2}`;
  });
  const wave = (i: number, k: number) => Math.sin(i / 3 + k) * 4 + shift;
  return pl.DataFrame({
    transaction_date: dates,
    returns_1m: dates.map((_, i) => wave(i, 0)),
    excess_returns_1m: dates.map((_, i) => wave(i, 0) - 1),
    returns_3m: dates.map((_, i) => wave(i, 1) * 1.5),
    excess_returns_3m: dates.map((_, i) => wave(i, 1) * 1.5 - 2),
  });
}

const a = portfolioBacktest(trades(1), { horizon: "3m", costBps: 10 }).monthly;
const b = portfolioBacktest(trades(0), { horizon: "3m", costBps: 10 }).monthly;
const groups = Array.from({ length: 9 }, (_, i) => `group ${i + 1}`);
const many = pl.DataFrame({
  group: groups.flatMap((g) => [g, g, g]),
  horizon: groups.flatMap(() => ["1m", "3m", "6m"]),
  horizon_days: groups.flatMap(() => [30, 91, 182]),
  mean_excess: groups.flatMap((_, i) => [i * 0.2, i * 0.5, i * 0.9 - 2]),
  ci_low: groups.flatMap((
    _,
    i,
  ) => (i === 8 ? [null, null, null] : [i * 0.2 - 1, i * 0.5 - 2, i - 5])),
  ci_high: groups.flatMap((
    _,
    i,
  ) => (i === 8 ? [null, null, null] : [i * 0.2 + 1, i * 0.5 + 2, i + 3])),
  thin: groups.flatMap((_, i) => [i === 8, i === 8, i === 8]),
  n: groups.flatMap((_, i) => (i === 8 ? [5, 5, 5] : [40, 40, 40])),
});

const CASES: [string, () => Chart][] = [
  ["equity-curve", () => equityCurveChart({ "CEO buys": a, "All purchases": b })],
  ["drawdown", () => drawdownChart(a)],
  ["event-study-many", () => eventStudyChart(many)],
];

snapshotTests(CASES);

Deno.test("event-study chart: many groups get a row each; thin rows are hollow and labelled", () => {
  const svg = eventStudyChart(many).svg;
  for (const g of groups) assert.ok(svg.includes(`>${g}<`), g);
  // group 9 is thin at its three horizons: three hollow dots labelled "thin", no bar
  assert.equal((svg.match(/>thin</g) ?? []).length, 3);
  assert.match(svg, /too few trades or months for an interval/);
  assert.match(svg, /Horizon after the trade/);
  assert.doesNotMatch(svg, /after the filing/);
});

Deno.test("equity and drawdown charts: one or several portfolios; bad input named", () => {
  assert.match(equityCurveChart(a).svg, /Equity \(growth of 1\)/);
  assert.match(drawdownChart({ x: a, y: b }).svg, />x</);
  assert.throws(
    () => equityCurveChart(a.drop("equity")),
    /equityCurveChart: the frame lacks column "equity"/,
  );
  assert.throws(() => drawdownChart({}), /drawdownChart: no portfolios given/);
});

Deno.test("saved SVG and PNG files carry an explicit background and text colour", async () => {
  const dir = await Deno.makeTempDir();
  const chart = drawdownChart(a);
  const svg = await Deno.readTextFile(await saveChart(chart, `${dir}/d.svg`));
  assert.equal(svg, standaloneSvg(chart));
  assert.match(svg, /^<svg color="#1a1a1a" /);
  assert.match(svg, /<rect class="background" width="100%" height="100%" fill="#ffffff"\/>/);
  assert.ok(!chart.svg.includes('class="background"'), "inline charts keep following the theme");
  const png = await Deno.readFile(await saveChart(chart, `${dir}/d.png`));
  assert.deepEqual([...png.slice(1, 4)], [80, 78, 71]);
  await Deno.remove(dir, { recursive: true });
});
