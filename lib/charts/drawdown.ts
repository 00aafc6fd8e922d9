/**
 * `drawdownChart`: how far below its previous peak each calendar-time
 * portfolio stood, month by month.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartText, PALETTE, render } from "./chart.ts";
import { portfolioRows } from "./equity_curve.ts";

/** Options of {@link drawdownChart}; any other Plot option passes through. */
export interface DrawdownOptions extends ChartText {
  /** Extra Plot options. */
  [plotOption: string]: unknown;
}

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
  const {
    title = "Drawdown: distance below the previous peak",
    subtitle = "Percent below the running maximum of the equity curve (monthly points)",
    ...plot
  } = options;
  const { names, rows } = portfolioRows("drawdownChart", data, ["drawdown"], 0);
  const several = names.length > 1;
  return render(
    {
      width: 720,
      height: 300,
      marginLeft: 55,
      x: { label: "Month", type: "utc" },
      y: { label: "Drawdown (%)", grid: true },
      color: several
        ? { domain: names, range: PALETTE, label: "Portfolio", legend: true }
        : undefined,
      marks: [
        several ? null : Plot.areaY(rows, {
          x: "month",
          y: "drawdown",
          fill: PALETTE[1],
          fillOpacity: 0.25,
        }),
        Plot.line(rows, {
          x: "month",
          y: "drawdown",
          stroke: several ? "portfolio" : PALETTE[1],
          strokeWidth: 1.5,
        }),
        Plot.ruleY([0], { strokeOpacity: 0.5 }),
        Plot.tip(
          rows,
          Plot.pointerX({
            x: "month",
            y: "drawdown",
            title: (d: Record<string, unknown>) =>
              `${d.portfolio} ${(d.month as Date).toISOString().slice(0, 7)}: ${
                (d.drawdown as number).toFixed(1)
              }%`,
          }),
        ),
      ],
    },
    { title, subtitle },
    plot,
  );
}
