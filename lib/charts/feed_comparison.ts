/**
 * `feedComparison`: mean excess return per curated feed.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, render } from "./chart.ts";
import { meanCi, rowsOf } from "./_chart_data.ts";

/** Options of {@link feedComparison}; any other Plot option passes through. */
export interface FeedComparisonOptions extends ChartOptions {
  /** Column naming the feed (default `feed`). */
  feed?: string;
  /** Return column (default `excess_returns_3m`). */
  value?: string;
}

/**
 * Horizontal bars of the mean excess return (percent) per feed with 95 %
 * intervals and counts, best first. Needs the feed column (add it when
 * combining feeds) and the return column.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, feedComparison, transactionsFrame } from "../../mod.ts";
 * const { insider } = await connect();
 * const parts = [];
 * for (const topic of ["ceo-trades", "top-insiders"] as const) {
 *   const { rows } = await insider.hydrate(await insider.feed(topic, "buy").take(100));
 *   parts.push(transactionsFrame(rows).withColumns(pl.lit(topic).alias("feed")));
 * }
 * feedComparison(pl.concat(parts));
 * ```
 */
export function feedComparison(trades: pl.DataFrame, options: FeedComparisonOptions = {}): Chart {
  const { feed = "feed", value = "excess_returns_3m", ...plot } = options;
  const rows = rowsOf("feedComparison", trades, {
    pass: `a trades frame with a ${JSON.stringify(feed)} column`,
    columns: [feed, value],
    field: "frame",
  });
  const stats = [...Map.groupBy(rows, (r) => String(r[feed]))]
    .map(([f, own]) => ({ feed: f, ...meanCi(own.map((r) => r[value] as number)) }))
    .filter((s) => s.n > 0)
    .sort((a, b) => b.mean - a.mean);
  return render(
    {
      width: 640,
      height: Math.max(160, 34 * stats.length + 70),
      marginLeft: 130,
      marginRight: 60,
      y: { domain: stats.map((s) => s.feed), label: null },
      x: { label: `Mean ${value.replaceAll("_", " ")} (%)`, grid: true },
      marks: [
        Plot.barX(stats, {
          y: "feed",
          x: "mean",
          fill: (d: { mean: number }) => d.mean >= 0 ? "#009E73" : "#D55E00",
          tip: true,
          channels: { n: "n" },
        }),
        Plot.ruleY(stats, {
          y: "feed",
          x1: "lo",
          x2: "hi",
          stroke: "currentColor",
          className: "interval",
          strokeWidth: 2,
        }),
        Plot.text(stats, {
          y: "feed",
          x: "hi",
          text: (d: { n: number }) => `n=${d.n}`,
          dx: 6,
          textAnchor: "start",
          fill: "currentColor",
        }),
        Plot.ruleX([0]),
      ],
    },
    { title: "Mean excess return by feed", subtitle: "Bars: mean; lines: 95% interval" },
    plot,
  );
}
