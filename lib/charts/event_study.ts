/**
 * `eventStudyChart`: mean excess return by horizon for several groups, with
 * 95 % bands.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartText, PALETTE, render } from "./chart.ts";
import { rowsOf } from "./data.ts";

/** Options of {@link eventStudyChart}; any other Plot option passes through. */
export interface EventStudyChartOptions extends ChartText {
  /** Column of the value (default `mean_excess`). */
  value?: string;
  /** Extra Plot options. */
  [plotOption: string]: unknown;
}

/**
 * Lines of the mean excess return (percent) against the horizon in days, one
 * per group, with the bootstrap 95 % interval as a band. Takes the frame of
 * `eventStudy()`: `group`, `horizon`, `horizon_days`, `mean_excess`,
 * `ci_low`, `ci_high`.
 *
 * @example
 * ```ts
 * import { connect, eventStudy, eventStudyChart } from "../../mod.ts";
 * const { insider } = await connect();
 * const trades = await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 });
 * eventStudyChart(eventStudy(trades, { groupBy: "role" }));
 * ```
 */
export function eventStudyChart(stats: pl.DataFrame, options: EventStudyChartOptions = {}): Chart {
  const {
    value = "mean_excess",
    title = "Event study: excess return after the filing",
    subtitle = "Mean excess return vs the market (%), band: bootstrap 95% interval",
    ...plot
  } = options;
  const rows = rowsOf("eventStudyChart", stats, [
    "group",
    "horizon",
    "horizon_days",
    value,
    "ci_low",
    "ci_high",
  ])
    .filter((r) => typeof r[value] === "number");
  const groups = [...new Set(rows.map((r) => String(r.group)))];
  const horizons = [
    ...new Map(rows.map((r) => [r.horizon_days as number, r.horizon as string])).entries(),
  ].sort((a, b) => a[0] - b[0]);
  return render(
    {
      width: 720,
      height: 400,
      marginLeft: 55,
      x: {
        label: "Days after the trade",
        ticks: horizons.map((h) => h[0]),
        tickFormat: (d: number) => horizons.find((h) => h[0] === d)?.[1] ?? String(d),
      },
      y: { label: "Mean excess return (%)", grid: true },
      color: { domain: groups, range: PALETTE, legend: true },
      marks: [
        Plot.ruleY([0], { strokeOpacity: 0.5 }),
        Plot.areaY(rows, {
          x: "horizon_days",
          y1: "ci_low",
          y2: "ci_high",
          fill: "group",
          fillOpacity: 0.12,
        }),
        Plot.line(rows, {
          x: "horizon_days",
          y: value,
          stroke: "group",
          strokeWidth: 2,
          marker: "circle",
        }),
        Plot.tip(
          rows,
          Plot.pointer({
            x: "horizon_days",
            y: value,
            title: (d: Record<string, unknown>) =>
              `${d.group} ${d.horizon}: ${(d[value] as number).toFixed(2)}%`,
          }),
        ),
      ],
    },
    { title, subtitle },
    plot,
  );
}
