/**
 * `winRateHeatmap`: mean insider win rate by scope × window.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import pl from "../frames/_polars.ts";
import { type Chart, type ChartOptions, render } from "./chart.ts";
import { inOrder, rowsOf } from "./_chart_data.ts";
import { expectFrame, isFrame } from "../shared/wrong_input.ts";
import { WIN_RATE_COLUMNS, winRates } from "../families/transactions.ts";

/** Options of {@link winRateHeatmap}; any other Plot option passes through. */
export type WinRateHeatmapOptions = ChartOptions;

/**
 * Cells of scope (all, bullish, bearish) × window (1w…2y, in time order)
 * coloured by the mean win rate (percent) across the trades, labelled with
 * the mean and the number of trades with a record. Takes the long frame of
 * `winRates()` or a transactions frame (converted with `winRates`).
 *
 * @example
 * ```ts
 * import { connect, winRateHeatmap } from "../../mod.ts";
 * const { insider } = await connect();
 * winRateHeatmap(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }));
 * ```
 */
export function winRateHeatmap(data: pl.DataFrame, options: WinRateHeatmapOptions = {}): Chart {
  const wanted = { pass: "a trades frame or winRates(trades)", field: "frame" };
  // the long frame of winRates(), or a trades frame with every win-rate column
  const isLong = isFrame(data) && data.columns.includes("scope");
  expectFrame("winRateHeatmap", data, isLong ? wanted : { ...wanted, columns: WIN_RATE_COLUMNS });
  const long = isLong ? data : winRates(data);
  rowsOf("winRateHeatmap", long, {
    ...wanted,
    columns: ["scope", "window", "window_order", "pct"],
  });
  const cells = long.filter(pl.col("pct").isNotNull())
    .groupBy(["scope", "window", "window_order"])
    .agg(pl.col("pct").mean().alias("mean"), pl.col("pct").count().alias("n"))
    .sort(["window_order", "scope"])
    .toRecords() as {
      scope: string;
      window: string;
      window_order: number;
      mean: number;
      n: number;
    }[];
  if (!cells.length) {
    throw new Error(
      `winRateHeatmap: no trade has a win-rate record (pct is null in all ${long.height} rows); nothing to draw`,
    );
  }
  const means = cells.map((c) => c.mean);
  const bright = Math.min(...means) + 0.6 * (Math.max(...means) - Math.min(...means));
  const windows = inOrder(cells.map((c) => [c.window_order, c.window]));
  return render(
    {
      width: 560,
      height: 220,
      marginLeft: 70,
      padding: 0.05,
      x: { domain: windows, label: "Window" },
      y: { domain: ["all", "bullish", "bearish"], label: null },
      color: { type: "linear", scheme: "viridis", label: "Mean win rate (%)", legend: true },
      marks: [
        Plot.cell(cells, { x: "window", y: "scope", fill: "mean", tip: true }),
        Plot.text(cells, {
          x: "window",
          y: "scope",
          text: (d: { mean: number; n: number }) => `${d.mean.toFixed(0)}%\nn=${d.n}`,
          fill: (d: { mean: number }) => d.mean >= bright ? "#111" : "white",
          fontSize: 10,
          lineHeight: 1.2,
        }),
      ],
    },
    {
      title: "Insider win rates by scope and window",
      subtitle: "Mean win rate of the insiders' earlier trades (%), n = trades with a record",
    },
    options,
  );
}
