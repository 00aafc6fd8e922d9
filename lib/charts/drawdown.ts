/**
 * `drawdownChart`: how far below its previous peak each calendar-time
 * portfolio stood, month by month.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import type { Chart, ChartOptions } from "./chart.ts";
import { portfolioLines } from "./equity_curve.ts";

/** Options of {@link drawdownChart}; any other Plot option passes through. */
export type DrawdownOptions = ChartOptions;

/**
 * `drawdown` (percent below the running peak of the equity curve, ≤ 0) at each
 * month end (from 0 at the start of the first month): a filled area for one
 * portfolio, lines for several. Takes one
 * `monthly` frame of `portfolioBacktest` or several by name.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, drawdownChart, portfolioBacktest } from "../../mod.ts";
 * const { insider } = await connect();
 * // open-market purchases (code P): the service's "purchase" also holds exercises and awards
 * const buys = (await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("code").eq(pl.lit("P")));
 * drawdownChart(portfolioBacktest(buys, { horizon: "3m" }).monthly);
 * ```
 */
export function drawdownChart(
  data: pl.DataFrame | Record<string, pl.DataFrame>,
  options: DrawdownOptions = {},
): Chart {
  return portfolioLines("drawdownChart", data, "drawdown", {
    title: "Drawdown: distance below the previous peak",
    subtitle: "Percent below the running maximum of the equity curve (monthly points)",
  }, options);
}
