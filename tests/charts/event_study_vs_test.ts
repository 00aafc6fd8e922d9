/**
 * eventStudyChart(study, { vs: "baseline" }): each group's difference from
 * the baseline with the interval of the difference, the baseline's own row
 * left out; the default draws the means. Hand-made studies whose means and
 * differences lie far apart show which one is drawn; a real study through
 * the emulator draws every group but the baseline.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { connect, eventStudy, eventStudyChart, tradeClass } from "../../mod.ts";

/** Tick labels of the x axis (Plot writes them in the `x-axis tick label` group). */
function xTicks(svg: string): number[] {
  const group = svg.match(/<g [^>]*aria-label="x-axis tick label"[^>]*>(.*?)<\/g>/)?.[1] ?? "";
  return [...group.matchAll(/>([^<]+)</g)].map((m) => Number(m[1].replace("−", "-")));
}

/** Marks of a class drawn, over every facet (one group of them per horizon). */
const marks = (svg: string, cls: string) =>
  [...svg.matchAll(new RegExp(`class="${cls}"[^>]*>(.*?)</g>`, "g"))]
    .map((m) => m[1].match(/<(line|text)/g)?.length ?? 0).reduce((a, b) => a + b, 0);
const intervals = (svg: string) => marks(svg, "interval");

const study = pl.DataFrame({
  group: ["Base", "A", "B", "Base", "A", "B"],
  horizon: ["1m", "1m", "1m", "3m", "3m", "3m"],
  horizon_days: [30, 30, 30, 91, 91, 91],
  mean_excess: [12, 10, 11, 12.5, 10.5, 11.5],
  ci_low: [11, 9, 10, 11.5, 9.5, 10.5],
  ci_high: [13, 11, 12, 13.5, 11.5, 12.5],
  thin: [false, false, false, false, false, true],
  baseline: ["Base", "Base", "Base", "Base", "Base", "Base"],
  diff_vs_baseline: [null, -2, -1, null, -2, -1],
  diff_ci_low: [null, -3, -1.8, null, -3.2, null],
  diff_ci_high: [null, -1, -0.2, null, -0.8, null],
});

Deno.test("eventStudyChart vs baseline: draws the differences and their intervals, not the means", () => {
  const means = eventStudyChart(study).svg;
  const diffs = eventStudyChart(study, { vs: "baseline" }).svg;
  // the means lie at 9.5–13.5, the differences at −3.2 to −0.2
  assert.ok(Math.max(...xTicks(means)) >= 10, `means axis ${xTicks(means)}`);
  assert.ok(
    Math.max(...xTicks(diffs)) <= 0 && Math.min(...xTicks(diffs)) <= -3,
    `diffs axis ${xTicks(diffs)}`,
  );
  assert.match(diffs, /Difference from Base \(pp\)/);
  assert.match(diffs, /Mean excess return minus Base's \(percentage points\)/);
  assert.match(diffs, /bar: 95% interval of the difference/);
  assert.match(diffs, /Event study: excess return vs Base/);
  // A and B at two horizons; B at 3m has no difference interval: hollow, no bar
  assert.equal(intervals(diffs), 3);
  assert.equal(marks(diffs, "thin-label"), 1);
  // the baseline's own row is not drawn: its name is no row label
  assert.ok(!/>Base</.test(diffs), "no Base row");
  assert.ok(/>Base</.test(means), "Base is a row of the means");
});

Deno.test("eventStudyChart vs: a study without a baseline, or a bad vs, is an error naming it", () => {
  const none = study.withColumns(pl.lit(null).cast(pl.Utf8).alias("baseline"));
  assert.throws(
    () => eventStudyChart(none, { vs: "baseline" }),
    /eventStudyChart: vs "baseline" needs a study with a baseline group: eventStudy\(trades, \{ baseline: "…" \}\); this study has none/,
  );
  assert.throws(
    () => eventStudyChart(study, { vs: "market" as never }),
    /^RangeError: eventStudyChart: vs "market" is not allowed; allowed: zero, baseline/,
  );
});

Deno.test("eventStudyChart vs baseline on a study of the emulator's trades", async () => {
  const { insider } = await connect({ quiet: true });
  const trades = tradeClass(
    await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 4000 }),
  )
    .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
  const s = eventStudy(trades, {
    groupBy: "role",
    baseline: "Director",
    horizons: ["1m", "3m"],
    minClusters: 8,
  });
  const chart = eventStudyChart(s, { vs: "baseline" });
  const groups = [...new Set(s.getColumn("group").toArray() as string[])];
  for (const g of groups.filter((g) => g !== "Director")) {
    assert.match(chart.svg, new RegExp(`>${g}<`));
  }
  assert.doesNotMatch(chart.svg, />Director</);
  const withInterval =
    (s.toRecords() as Record<string, unknown>[]).filter((r) =>
      typeof r.diff_ci_low === "number" && r.thin !== true
    ).length;
  assert.ok(withInterval > 0, "some differences have an interval");
  assert.equal(intervals(chart.svg), withInterval);
});
