/**
 * Every chart helper at one point, one group, one horizon and many: no Plot
 * warning (on the console, or as Plot's ⚠ glyph in the SVG), an interval
 * drawn wherever the helper's subtitle promises one, and axis labels that
 * match their ticks.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  authorWinRateChart,
  type AuthorWinRates,
  bucketChart,
  type Chart,
  clusterChart,
  drawdownChart,
  equityCurveChart,
  eventStudy,
  eventStudyChart,
  feedComparison,
  forwardReturns,
  forwardReturnsChart,
  pitchesFrame,
  pitchesOverTime,
  portfolioBacktest,
  tradeClass,
  tradeTimeline,
  transactionsFrame,
  wilsonInterval,
  winRateHeatmap,
  winRates,
} from "../../mod.ts";
import { createStub } from "../../lib/stub/mod.ts";
import { pitchRow } from "../../lib/stub/catalog/pitch_rows.ts";

const stub = createStub({ seed: 1, scale: 0.3 });
const all = tradeClass(transactionsFrame(stub.insider.trades.map((t) => t.row)));
const buys = all.filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
const market = all.filter(pl.col("code").isIn(["P", "S"]));
const realized = market.filter(pl.col("excess_returns_3m").isNotNull()).sort("filed_at");
const one = realized.head(1);
const recorded = realized.filter(pl.col("win_rate_1y_pct").isNotNull());
const pitches = pitchesFrame(
  stub.catalog.pitches.map((p) => pitchRow(p, stub.catalog, stub.world)) as never,
);
const buckets = (n: number) =>
  pitches.head(n).withColumns(
    pl.lit("pct25").alias("pitch_return_bucket"),
    pl.lit(1).cast(pl.Int64).alias("pitch_return_bucket_order"),
  );
const manyBuckets = pitches.withColumns(
  pl.when(pl.col("sentiment").eq(pl.lit("bullish"))).then(pl.lit("pct25")).otherwise(
    pl.lit("below 0"),
  ).alias("pitch_return_bucket"),
  pl.when(pl.col("sentiment").eq(pl.lit("bullish"))).then(pl.lit(1)).otherwise(pl.lit(-1))
    .cast(pl.Int64).alias("pitch_return_bucket_order"),
);
const withFeed = (df: pl.DataFrame, by: "one" | "role") =>
  df.withColumns(
    by === "one"
      ? pl.lit("ceo-trades").alias("feed")
      : pl.when(pl.col("is_ceo")).then(pl.lit("ceo-trades")).otherwise(pl.lit("others"))
        .alias("feed"),
  );
const study = (df: pl.DataFrame, opts: Record<string, unknown>) =>
  eventStudy(df, { minN: 5, minClusters: 2, ...opts });
const folio = (df: pl.DataFrame) => portfolioBacktest(df, { horizon: "1m" }).monthly;
const firstMonth = buys.filter(
  pl.col("transaction_date").lt(pl.lit(new Date(Date.UTC(2000, 0, 1)))).not(),
).sort("transaction_date");
const month0 = firstMonth.head(1).getColumn("transaction_date").toArray()[0] as unknown as Date;
const oneMonth = firstMonth.filter(
  pl.col("transaction_date").lt(
    pl.lit(new Date(Date.UTC(month0.getUTCFullYear(), month0.getUTCMonth() + 1, 1))),
  ),
);

/** Draws, with console.warn captured: the chart and every warning it raised. */
function drawn(make: () => Chart): { svg: string; warnings: string[] } {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    return { svg: make().svg, warnings };
  } finally {
    console.warn = warn;
  }
}

/** Count of the drawn elements inside the marks of class `name` (Plot's `className` option). */
function marks(svg: string, name: string): number {
  let n = 0;
  for (const start of svg.matchAll(new RegExp(`<g [^>]*class="${name}"[^>]*>`, "g"))) {
    let depth = 1;
    const tags = /<(\/?)(g|line|circle|path|rect|text)\b[^>]*?(\/?)>/g;
    tags.lastIndex = start.index! + start[0].length;
    for (let m = tags.exec(svg); m && depth > 0; m = tags.exec(svg)) {
      if (m[2] === "g") depth += m[1] ? -1 : m[3] ? 0 : 1;
      else if (!m[1]) n++;
    }
  }
  return n;
}

/** Text of the axis labels (Plot writes them as `aria-label="… axis label"` groups). */
function axisLabels(svg: string): string[] {
  return [...svg.matchAll(/<g [^>]*aria-label="f?[xy]-axis label"[^>]*>.*?<\/g>/g)].map((
    m,
  ) => m[0].replace(/<[^>]+>/g, "").replace(/[↑→←↓]/g, "").trim());
}

/** An authorWinRates result of `n` authors (hand-made: the chart reads only the frame and the options). */
function authors(n: number): AuthorWinRates {
  const wins = Array.from({ length: n }, (_, i) => 10 - (i % 10));
  const ci = wins.map((w) => wilsonInterval(w, 12));
  return {
    frame: pl.DataFrame({
      author_username: wins.map((_, i) => `author_${i + 1}`),
      pitches: wins.map(() => 12),
      wins,
      win_rate: wins.map((w) => w / 12),
      win_rate_low: ci.map((c) => c[0]),
      win_rate_high: ci.map((c) => c[1]),
      win_rate_shrunk: wins.map((w) => (w + 6) / 24),
    }) as never,
    prior: { mean: 0.5, strength: 12 },
    requests: 0,
    asOf: "2025-01-01",
    tooRecent: 0,
    fewPitches: 0,
    period: "1y",
    kind: "abs",
    minPitches: 5,
  };
}

type Case = {
  name: string;
  make: () => Chart;
  /** Intervals the chart must draw (one line per interval), when it promises any. */
  intervals?: number;
  /** Axis labels it must show (others are allowed). */
  labels?: string[];
};

const horizons = (df: pl.DataFrame) => df.filter(pl.col("thin").not()).height;
const roleMany = study(buys, { groupBy: "role" });
const roleOne = study(buys, { groupBy: "role", horizons: ["6m"], baseline: "Director" });
const groupOne = study(buys, { horizons: ["1m", "3m", "6m", "1y"] });
const single = study(buys, { horizons: ["6m"] });
const thinOnly = eventStudy(buys.filter(pl.col("excess_returns_6m").isNotNull()).head(40), {
  groupBy: "role",
  horizons: ["6m"],
});

const CASES: Case[] = [
  { name: "tradeTimeline, one trade", make: () => tradeTimeline(one), labels: ["Value (USD)"] },
  { name: "tradeTimeline, many", make: () => tradeTimeline(market), labels: ["Filed"] },
  {
    name: "winRateHeatmap, one trade",
    make: () => winRateHeatmap(recorded.head(1)),
    labels: ["Window"],
  },
  {
    name: "winRateHeatmap, one cell",
    make: () =>
      winRateHeatmap(
        winRates(recorded.head(1)).filter(
          pl.col("scope").eq(pl.lit("all")).and(pl.col("window").eq(pl.lit("1y"))),
        ),
      ),
    labels: ["Window"],
  },
  { name: "winRateHeatmap, many", make: () => winRateHeatmap(buys), labels: ["Window"] },
  { name: "forwardReturnsChart, one trade", make: () => forwardReturnsChart(one), intervals: 0 },
  {
    name: "forwardReturnsChart, one horizon",
    make: () =>
      forwardReturnsChart(forwardReturns(realized).filter(pl.col("horizon").eq(pl.lit("3m")))),
    intervals: 2,
    labels: ["Horizon"],
  },
  {
    name: "forwardReturnsChart, many",
    make: () => forwardReturnsChart(market),
    intervals: 10,
    labels: ["Horizon", "Excess return vs market (%)"],
  },
  {
    name: "eventStudyChart, one group, one horizon",
    make: () => eventStudyChart(single),
    intervals: horizons(single),
    labels: ["Horizon after the trade", "Mean excess return (%)"],
  },
  {
    name: "eventStudyChart, one group, many horizons",
    make: () => eventStudyChart(groupOne),
    intervals: horizons(groupOne),
    labels: ["Horizon after the trade", "Mean excess return (%)"],
  },
  {
    name: "eventStudyChart, many groups, one horizon",
    make: () => eventStudyChart(roleOne),
    intervals: horizons(roleOne),
    labels: ["Horizon after the trade", "Mean excess return (%)"],
  },
  {
    name: "eventStudyChart, many groups, many horizons",
    make: () => eventStudyChart(roleMany),
    intervals: horizons(roleMany),
    labels: ["Horizon after the trade", "Mean excess return (%)"],
  },
  {
    name: "eventStudyChart, every row thin",
    make: () => eventStudyChart(thinOnly),
    intervals: 0,
    labels: ["Horizon after the trade"],
  },
  {
    name: "clusterChart, one issuer",
    make: () => clusterChart(market.filter(pl.col("is_cluster_trade_30d")).head(1)),
    labels: ["Filed"],
  },
  { name: "clusterChart, many", make: () => clusterChart(market), labels: ["Filed"] },
  {
    name: "pitchesOverTime, one pitch",
    make: () => pitchesOverTime(pitches.head(1)),
    labels: ["Pitches"],
  },
  { name: "pitchesOverTime, many", make: () => pitchesOverTime(pitches), labels: ["Pitches"] },
  {
    name: "bucketChart, one pitch",
    make: () => bucketChart(buckets(1)),
    labels: ["Bucket", "Pitches"],
  },
  {
    name: "bucketChart, many",
    make: () => bucketChart(manyBuckets),
    labels: ["Bucket", "Pitches"],
  },
  {
    name: "feedComparison, one feed, one trade",
    make: () => feedComparison(withFeed(one, "one")),
    intervals: 0,
  },
  {
    name: "feedComparison, one feed",
    make: () => feedComparison(withFeed(realized, "one")),
    intervals: 1,
    labels: ["Mean excess returns 3m (%)"],
  },
  {
    name: "feedComparison, many",
    make: () => feedComparison(withFeed(realized, "role")),
    intervals: 2,
  },
  {
    name: "equityCurveChart, one month",
    make: () => equityCurveChart(folio(oneMonth)),
    labels: ["Month", "Equity (growth of 1)"],
  },
  {
    name: "equityCurveChart, many portfolios",
    make: () => equityCurveChart({ buys: folio(buys), all: folio(market) }),
    labels: ["Month"],
  },
  {
    name: "drawdownChart, one month",
    make: () => drawdownChart(folio(oneMonth)),
    labels: ["Drawdown (%)"],
  },
  {
    name: "drawdownChart, many portfolios",
    make: () => drawdownChart({ buys: folio(buys), all: folio(market) }),
    labels: ["Month", "Drawdown (%)"],
  },
  {
    name: "authorWinRateChart, one author",
    make: () => authorWinRateChart(authors(1)),
    intervals: 1,
    labels: ["Win rate (%)"],
  },
  {
    name: "authorWinRateChart, many",
    make: () => authorWinRateChart(authors(40)),
    intervals: 20,
    labels: ["Win rate (%)"],
  },
];

for (const c of CASES) {
  Deno.test(`grid: ${c.name}`, () => {
    const { svg, warnings } = drawn(c.make);
    assert.deepEqual(warnings, [], "no Plot warning on the console");
    assert.ok(!svg.includes("⚠"), "no ⚠ glyph of a Plot warning");
    if (c.intervals !== undefined) {
      assert.equal(marks(svg, "interval"), c.intervals, "intervals drawn");
    }
    const labels = axisLabels(svg);
    for (const l of c.labels ?? []) assert.ok(labels.includes(l), `axis label ${l} in ${labels}`);
  });
}

Deno.test("grid: the event study's horizon axis is labelled as its ticks are (1m…1y, not days)", () => {
  const svg = eventStudyChart(roleMany).svg;
  assert.doesNotMatch(svg, /Days after/);
  for (const h of ["1m", "3m", "6m", "1y"]) assert.match(svg, new RegExp(`>${h}<`));
  // the single-horizon study of the report draws one bar per group with an interval
  assert.ok(horizons(roleOne) >= 3, `intervals in the one-horizon study: ${horizons(roleOne)}`);
});

Deno.test("grid: thin rows are drawn hollow and labelled 'thin', without an interval", () => {
  const svg = eventStudyChart(thinOnly).svg;
  const rows = thinOnly.filter(pl.col("mean_excess").isNotNull()).height;
  assert.ok(rows > 0);
  assert.equal(marks(svg, "thin-mean"), rows);
  assert.equal((svg.match(/>thin</g) ?? []).length, rows);
  assert.equal(marks(svg, "interval"), 0);
  assert.match(svg, /too few trades or months for an interval/);
});

Deno.test("grid: a heatmap of trades without any win-rate record says so", () => {
  assert.throws(
    () =>
      winRateHeatmap(
        realized.filter(pl.col("win_rate_1y_pct").isNull()).head(1).select(
          ...realized.columns,
        ).withColumns(
          ...realized.columns.filter((c) => /^win_rate_.*_(pct|wins|total)$/.test(c)).map((c) =>
            pl.lit(null).cast(realized.getColumn(c).dtype).alias(c)
          ),
        ),
      ),
    /^Error: winRateHeatmap: no trade has a win-rate record \(pct is null in all 18 rows\)/,
  );
});

Deno.test("grid: a horizon no group has a return at yet is named, not drawn as an empty panel", () => {
  const svg = eventStudyChart(pl.DataFrame({
    group: ["A", "A", "B", "B"],
    horizon: ["1m", "1y", "1m", "1y"],
    horizon_days: [30, 365, 30, 365],
    mean_excess: [1.5, null, -0.5, null],
    ci_low: [0.5, null, -1.5, null],
    ci_high: [2.5, null, 0.5, null],
    thin: [false, true, false, true],
  })).svg;
  assert.match(svg, /no return yet at 1y/);
  assert.match(svg, />1m</);
  assert.doesNotMatch(svg, />1y</);
  assert.equal(marks(svg, "interval"), 2);
});
