/**
 * `eventStudyChart`: mean excess return by horizon for several groups, with
 * 95 % bands, readable with many groups.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartText, PALETTE, render } from "./chart.ts";
import { rowsOf } from "./_chart_data.ts";

/** Options of {@link eventStudyChart}; any other Plot option passes through. */
export interface EventStudyChartOptions extends ChartText {
  /** Column of the value (default `mean_excess`). */
  value?: string;
  /**
   * Most groups drawn in one panel (default 6); with more, each group gets
   * its own small panel (facets, `columns` per row) on a shared scale.
   */
  maxGroups?: number;
  /** Panels per row when faceted (default 3). */
  columns?: number;
  /** Extra Plot options. */
  [plotOption: string]: unknown;
}

/**
 * Lines of the mean excess return (percent) against the days after the
 * trade, one per group, with the 95 % interval as a band. Takes the frame of
 * `eventStudy()`: `group`, `horizon`, `horizon_days`, `mean_excess`,
 * `ci_low`, `ci_high` (and, when present, `thin` and `n`: thin groups are
 * drawn dashed, without a band, and marked "thin" in the legend). Groups keep
 * the frame's order. Up to `maxGroups` groups share one panel with distinct
 * Okabe–Ito colours; more groups are drawn as small multiples, one per
 * group, so colours never repeat.
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
    title = "Event study: excess return after the trade",
    subtitle,
    maxGroups = 6,
    columns = 3,
    ...plot
  } = options;
  const raw = rowsOf(
    "eventStudyChart",
    stats,
    [
      "group",
      "horizon",
      "horizon_days",
      value,
      "ci_low",
      "ci_high",
    ],
    ["thin", "n"],
    "stats",
  )
    .filter((r) => typeof r[value] === "number");
  const thinGroups = new Set(raw.filter((r) => r.thin === true).map((r) => String(r.group)));
  const label = (g: string) => (thinGroups.has(g) ? `${g} (thin)` : g);
  const rows: Record<string, unknown>[] & { label: string }[] = raw.map((r) => ({
    ...r,
    label: label(String(r.group)),
  }));
  const groups = [...new Set(rows.map((r) => r.label))];
  const horizons = [
    ...new Map(rows.map((r) => [r.horizon_days as number, r.horizon as string])).entries(),
  ].sort((a, b) => a[0] - b[0]);
  const x = {
    label: "Days after the trade",
    ticks: horizons.map((h) => h[0]),
    tickFormat: (d: number) => horizons.find((h) => h[0] === d)?.[1] ?? String(d),
  };
  const y = { label: "Mean excess return (%)", grid: true };
  const sub = subtitle ??
    `${value === "mean_excess" ? "Mean excess return vs the market" : value} (%), from the ${
      stats.columns.includes("entry") && stats.getColumn("entry").toArray().includes("filing")
        ? "filing"
        : "trade"
    } date; band: 95% interval${thinGroups.size ? "; dashed: thin group, no interval" : ""}`;
  const solid = rows.filter((r) => !thinGroups.has(String(r.group)));
  const dashed = rows.filter((r) => thinGroups.has(String(r.group)));
  const tip = (d: Record<string, unknown>) =>
    `${d.group} ${d.horizon}: ${(d[value] as number).toFixed(2)}%${
      typeof d.n === "number" ? ` (n ${d.n})` : ""
    }`;
  if (groups.length <= maxGroups) {
    return render(
      {
        width: 720,
        height: 400,
        marginLeft: 55,
        x,
        y,
        color: { domain: groups, range: PALETTE, label: "Group", legend: true },
        marks: [
          Plot.ruleY([0], { strokeOpacity: 0.5 }),
          Plot.areaY(solid, {
            x: "horizon_days",
            y1: "ci_low",
            y2: "ci_high",
            fill: "label",
            fillOpacity: 0.12,
          }),
          Plot.line(solid, {
            x: "horizon_days",
            y: value,
            stroke: "label",
            strokeWidth: 2,
            marker: "circle",
          }),
          Plot.line(dashed, {
            x: "horizon_days",
            y: value,
            stroke: "label",
            strokeWidth: 1.5,
            strokeDasharray: "4,3",
            marker: "circle",
          }),
          Plot.tip(rows, Plot.pointer({ x: "horizon_days", y: value, title: tip })),
        ],
      },
      { title, subtitle: sub },
      plot,
    );
  }
  // small multiples: one panel per group, wrapped into rows of `columns`
  const index = new Map(groups.map((g, i) => [g, i]));
  const cell = (r: { label: string }) => index.get(r.label)!;
  const fx = (r: { label: string }) => cell(r) % columns;
  const fy = (r: { label: string }) => Math.floor(cell(r) / columns);
  const heads = groups.map((g) => ({ label: g }));
  const nRows = Math.ceil(groups.length / columns);
  return render(
    {
      width: 240 * columns,
      height: 40 + 170 * nRows,
      marginLeft: 55,
      marginTop: 20,
      x,
      y,
      fx: { axis: null },
      fy: { axis: null },
      marks: [
        Plot.frame({ strokeOpacity: 0.2 }),
        Plot.ruleY([0], { strokeOpacity: 0.5 }),
        Plot.areaY(solid, {
          fx,
          fy,
          x: "horizon_days",
          y1: "ci_low",
          y2: "ci_high",
          fill: PALETTE[0],
          fillOpacity: 0.15,
        }),
        Plot.line(solid, {
          fx,
          fy,
          x: "horizon_days",
          y: value,
          stroke: PALETTE[0],
          strokeWidth: 2,
          marker: "circle",
        }),
        Plot.line(dashed, {
          fx,
          fy,
          x: "horizon_days",
          y: value,
          stroke: PALETTE[1],
          strokeWidth: 1.5,
          strokeDasharray: "4,3",
          marker: "circle",
        }),
        Plot.text(heads, {
          fx,
          fy,
          text: "label",
          frameAnchor: "top-left",
          dx: 4,
          dy: 4,
          fontWeight: "bold",
        }),
        Plot.tip(rows, Plot.pointer({ fx, fy, x: "horizon_days", y: value, title: tip })),
      ],
    },
    { title, subtitle: sub },
    plot,
  );
}
