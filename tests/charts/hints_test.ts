/**
 * The usual slip with chart helpers — a result object passed where its frame
 * is expected — gets an error naming the field to pass, not a TypeError
 * from inside the chart.
 */
import assert from "node:assert/strict";
import {
  bucketChart,
  clusterChart,
  connect,
  drawdownChart,
  equityCurveChart,
  eventStudyChart,
  feedComparison,
  forwardReturnsChart,
  pitchesOverTime,
  pitchReturnBuckets,
  portfolioBacktest,
  tradeTimeline,
  winRateHeatmap,
} from "../../mod.ts";

const { insider, catalog } = await connect({ quiet: true });
const trades = await insider.search({}).frame({ maxRows: 800, progress: false });
const result = portfolioBacktest(trades, { horizon: "1m" });

Deno.test("equityCurveChart(result) and drawdownChart(result) say to pass result.monthly", () => {
  for (
    const [name, fn] of [["equityCurveChart", equityCurveChart], [
      "drawdownChart",
      drawdownChart,
    ]] as const
  ) {
    assert.throws(
      () => fn(result as never),
      (e: Error) =>
        e instanceof TypeError &&
        e.message ===
          `${name}: got a portfolioBacktest result ({ monthly, stats }); pass its monthly frame: ${name}(result.monthly)`,
    );
    assert.throws(
      () => fn({ "CEO buys": result } as never),
      new RegExp(
        `${name}: "CEO buys" is a portfolioBacktest result; pass its monthly frame: ${name}\\(\\{ "CEO buys": result\\.monthly`,
      ),
    );
    // the right call draws
    assert.match(fn(result.monthly).svg, /<svg/);
    assert.match(fn({ "CEO buys": result.monthly }).svg, /<svg/);
  }
});

Deno.test("every other chart helper names the frame field of a result object, or what it got", async () => {
  const buckets = await pitchReturnBuckets(catalog, {}, { period: "1y", kind: "abs" });
  assert.throws(
    () => bucketChart(buckets as never),
    /bucketChart: buckets must be a DataFrame, got an object whose "frame" field is a DataFrame; pass it: bucketChart\(buckets\.frame\)/,
  );
  const hydrated = { frame: trades, failed: [] };
  const helpers: [string, (x: never) => unknown, string][] = [
    ["tradeTimeline", tradeTimeline, "trades"],
    ["clusterChart", clusterChart, "trades"],
    ["feedComparison", feedComparison, "trades"],
    ["eventStudyChart", eventStudyChart, "stats"],
    ["winRateHeatmap", winRateHeatmap, "data"],
    ["forwardReturnsChart", forwardReturnsChart, "data"],
    ["pitchesOverTime", pitchesOverTime, "pitches"],
  ];
  for (const [name, fn, param] of helpers) {
    assert.throws(
      () => fn(hydrated as never),
      new RegExp(
        `^TypeError: ${name}: ${param} must be a DataFrame, got an object whose "frame" field is a DataFrame; pass it: ${name}\\(${param}\\.frame\\)`,
      ),
      name,
    );
    assert.throws(
      () => fn(result as never),
      new RegExp(
        `${name}: ${param} must be a DataFrame, got a portfolioBacktest result \\(\\{ monthly, stats \\}\\)`,
      ),
      name,
    );
    assert.throws(
      () => fn(undefined as never),
      new RegExp(`${name}: ${param} must be a DataFrame, got undefined`),
    );
    assert.throws(
      () => fn([] as never),
      new RegExp(`${name}: ${param} must be a DataFrame, got an array of 0`),
    );
  }
});
