/**
 * Snapshot tests in Plot's manner: each helper renders deterministic data to
 * SVG, compared with tests/fixtures/charts/<name>.svg after normalising
 * numbers (one decimal) and Plot's generated class names. Run with
 * UPDATE_SNAPSHOTS=1 to rewrite the stored files.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  bucketChart,
  type Chart,
  chartPng,
  clusterChart,
  eventStudyChart,
  feedComparison,
  forwardReturnsChart,
  pitchesFrame,
  pitchesOverTime,
  saveChart,
  standaloneSvg,
  tradeTimeline,
  transactionsFrame,
  winRateHeatmap,
} from "../../mod.ts";
import { displayBundle } from "../_util.ts";
import { snapshotTests } from "./_snapshot.ts";
import { createStub } from "../../lib/stub/mod.ts";
import { pitchRow } from "../../lib/stub/catalog/pitch_rows.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const trades = transactionsFrame(stub.insider.trades.slice(0, 600).map((t) => t.row));
const pitches = pitchesFrame(
  stub.catalog.pitches.map((p) => pitchRow(p, stub.catalog, stub.world)) as never,
);
const buckets = pitches.withColumns(
  pl.when(pl.col("sentiment").eq(pl.lit("bullish"))).then(pl.lit("pct25")).otherwise(
    pl.lit("below 0"),
  ).alias("pitch_return_bucket"),
  pl.when(pl.col("sentiment").eq(pl.lit("bullish"))).then(pl.lit(1)).otherwise(pl.lit(-1)).cast(
    pl.Int64,
  ).alias("pitch_return_bucket_order"),
);
const study = pl.DataFrame({
  group: ["CEO buys", "CEO buys", "CEO buys", "All buys", "All buys", "All buys"],
  horizon: ["1m", "3m", "6m", "1m", "3m", "6m"],
  horizon_days: [30, 91, 182, 30, 91, 182],
  mean_excess: [1.2, 3.4, 5.1, 0.3, 0.8, 1.1],
  ci_low: [0.1, 1.2, 2.0, -0.4, -0.2, -0.5],
  ci_high: [2.3, 5.6, 8.2, 1.0, 1.8, 2.7],
});
const feeds = trades.withColumns(
  pl.when(pl.col("is_ceo")).then(pl.lit("ceo-trades")).otherwise(pl.lit("other")).alias("feed"),
);

const CASES: [string, () => Chart][] = [
  ["trade-timeline", () => tradeTimeline(trades)],
  ["win-rate-heatmap", () => winRateHeatmap(trades)],
  ["forward-returns", () => forwardReturnsChart(trades)],
  ["event-study", () => eventStudyChart(study)],
  ["cluster", () => clusterChart(trades)],
  ["pitches-over-time", () => pitchesOverTime(pitches)],
  ["buckets", () => bucketChart(buckets)],
  ["feed-comparison", () => feedComparison(feeds)],
];

snapshotTests(CASES);

Deno.test("every helper rejects an empty frame and names a missing column", () => {
  const empty = trades.head(0);
  const helpers: [string, (df: pl.DataFrame) => Chart, pl.DataFrame, string][] = [
    ["tradeTimeline", tradeTimeline, trades, "transaction_value"],
    ["winRateHeatmap", (df) => winRateHeatmap(df), trades, "win_rate_1y_pct"],
    ["forwardReturnsChart", forwardReturnsChart, trades, "returns_3m"],
    ["eventStudyChart", eventStudyChart, study, "ci_low"],
    ["clusterChart", clusterChart, trades, "is_cluster_trade_30d"],
    ["pitchesOverTime", pitchesOverTime, pitches, "sentiment"],
    ["bucketChart", bucketChart, buckets, "pitch_return_bucket_order"],
    ["feedComparison", feedComparison, feeds, "feed"],
  ];
  for (const [name, fn, full, col] of helpers) {
    const emptyOf = name === "eventStudyChart"
      ? study.head(0)
      : name === "pitchesOverTime" || name === "bucketChart"
      ? (name === "bucketChart" ? buckets.head(0) : pitches.head(0))
      : name === "feedComparison"
      ? feeds.head(0)
      : empty;
    assert.throws(() => fn(emptyOf), /empty|lacks/, `${name} on an empty frame`);
    assert.throws(
      () => fn(full.drop(col)),
      new RegExp(`lacks column.*"${col}"`),
      `${name} without ${col}`,
    );
  }
});

Deno.test("charts display as an <img> of the standalone SVG in text/html and save as SVG and PNG", async () => {
  const chart = pitchesOverTime(pitches, { title: "Custom title", height: 200 });
  const bundle = displayBundle(chart);
  assert.deepEqual(Object.keys(bundle).sort(), ["text/html", "text/plain"]);
  const img =
    /^<img class="sb-chart" width="(\d+)" height="(\d+)" [^>]*alt="Custom title" src="data:image\/svg\+xml;base64,([^"]+)">$/
      .exec(bundle["text/html"]);
  assert.ok(img, bundle["text/html"].slice(0, 200));
  assert.deepEqual([Number(img[1]), Number(img[2])], [chart.width, chart.height]);
  // the image is the file saveChart writes, less its ARIA attributes, empty elements self-closed
  const inner = new TextDecoder().decode(Uint8Array.from(atob(img[3]), (c) => c.charCodeAt(0)));
  assert.equal(
    inner,
    standaloneSvg(chart).replace(/ aria-(label|hidden|description)="[^"]*"/g, "")
      .replace(/<(circle|path|line|rect|stop)( [^>]*)?><\/\1>/g, "<$1$2/>")
      .replace(
        /<style>:where\(\.(plot-[0-9a-f]+)\)[^<]*<\/style>/g,
        "<style>.$1 text{white-space:pre}</style>",
      ),
  );
  assert.match(inner, /^<svg color="#1a1a1a" xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(inner, /<rect class="background" width="100%" height="100%" fill="#ffffff"\/>/);
  assert.match(bundle["text/plain"], /^Chart \d+×\d+: Custom title$/);
  const coords = [...chart.svg.matchAll(/ (?:c?[xy][12]?|d|transform)="([^"]*)"/g)].map((m) =>
    m[1]
  );
  assert.ok(coords.length > 20);
  assert.deepEqual(
    coords.filter((v) => /\d\.\d{2}/.test(v)),
    [],
    "coordinates rounded to 1 decimal",
  );
  assert.match(chart.svg, /Custom title/);
  assert.equal(chart.height, 200 + 24 + 20 + 26);
  const dir = await Deno.makeTempDir();
  const svgPath = await saveChart(chart, `${dir}/c.svg`);
  // saved files carry an explicit background (tests/backtest/charts_test.ts)
  assert.equal(await Deno.readTextFile(svgPath), standaloneSvg(chart));
  const pngPath = await saveChart(chart, `${dir}/c.png`);
  const png = await Deno.readFile(pngPath);
  assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(png.buffer, png.byteOffset);
  assert.equal(view.getUint32(16), chart.width * 2);
  assert.equal(view.getUint32(20), chart.height * 2);
  assert.ok(chartPng(chart).length > 5000);
  await assert.rejects(saveChart(chart, `${dir}/c.jpg`), /\.svg or \.png/);
  await Deno.remove(dir, { recursive: true });
});
