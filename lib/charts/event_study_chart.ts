/**
 * `eventStudyChart`: the mean excess return of each group at each horizon,
 * with its 95 % interval, for any number of groups and horizons; or each
 * group's difference from the study's baseline group, with its interval.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, PALETTE, render } from "./chart.ts";
import { inOrder, rowsOf } from "./_chart_data.ts";
import { choice } from "../shared/options.ts";

/** Options of {@link eventStudyChart}; any other Plot option passes through. */
export interface EventStudyChartOptions extends ChartOptions {
  /**
   * `"zero"` (default): each group's mean, read against 0 (the market).
   * `"baseline"`: each group's difference from the study's baseline group
   * (`diff_vs_baseline`, bar `diff_ci_low` to `diff_ci_high`, the interval
   * of the difference, clustered as the study is), read against 0 (no
   * difference); needs a study run with `baseline`. The baseline's own row
   * is not drawn.
   */
  vs?: "zero" | "baseline";
}

/** The grey of a thin row (no interval): readable on the white card. */
const THIN = "#595959";

/**
 * A dot-and-interval chart (a forest plot) of the frame of `eventStudy()`:
 * one row per group (in the frame's order), one panel per horizon (in time
 * order, labelled as the study names them: 1w, 1m, 3m, …), the mean excess
 * return (percent) as a dot and its 95 % interval as a bar. A row marked
 * `thin` (too few trades or months for an interval; see its `thin_reason`)
 * is drawn as a hollow grey dot labelled "thin", with no bar. A horizon at
 * which no group has a return yet is named in the subtitle.
 *
 * Why this form: an interval is a bar at any count of groups and horizons
 * (a band between horizons needs two horizons, and lines over unevenly
 * spaced horizons suggest a path the study never measured); the group
 * names stay legible as row labels however many there are.
 *
 * With `vs: "baseline"` each row is the group's mean minus the baseline's
 * at that horizon, and its bar the interval of that difference (not of
 * either mean: two intervals that overlap can still differ). A row without
 * a difference interval (the group or the baseline is thin) is drawn hollow.
 *
 * Needs `group`, `horizon`, `horizon_days`, `mean_excess`, `ci_low`, `ci_high`
 * (`thin` and `entry` are read when present); with `vs: "baseline"`,
 * `baseline`, `diff_vs_baseline`, `diff_ci_low`, `diff_ci_high`.
 *
 * @example
 * ```ts
 * import { connect, eventStudy, eventStudyChart } from "../../mod.ts";
 * const { insider } = await connect();
 * const trades = await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 });
 * eventStudyChart(eventStudy(trades, { groupBy: "role", horizons: ["6m"] }));
 * const vs = eventStudy(trades, { groupBy: "role", baseline: "Director", horizons: ["6m"] });
 * eventStudyChart(vs, { vs: "baseline" }); // each role minus directors
 * ```
 */
export function eventStudyChart(stats: pl.DataFrame, options: EventStudyChartOptions = {}): Chart {
  const { vs = "zero", ...plot } = options;
  const diff = choice("eventStudyChart", "vs", vs, ["zero", "baseline"], "zero") === "baseline";
  const [value, lowCol, highCol] = diff
    ? ["diff_vs_baseline", "diff_ci_low", "diff_ci_high"]
    : ["mean_excess", "ci_low", "ci_high"];
  const all = rowsOf("eventStudyChart", stats, {
    pass: "the result of eventStudy(...)",
    columns: ["group", "horizon", "horizon_days", value, lowCol, highCol],
  }, ["thin", "entry", "baseline"]).map((r): Record<string, unknown> & { group: string } => ({
    ...r,
    group: String(r.group),
    horizon: String(r.horizon),
    low: r[lowCol],
    high: r[highCol],
  }));
  const baseline = all.find((r) => typeof r.baseline === "string")?.baseline as string | undefined;
  if (diff && !baseline) {
    throw new Error(
      `eventStudyChart: vs "baseline" needs a study with a baseline group: eventStudy(trades, { baseline: "…" }); this study has none`,
    );
  }
  const horizons = inOrder(all.map((r) => [r.horizon_days as number, r.horizon as string]));
  const groups = [...new Set(all.map((r) => r.group))].filter((g) => !diff || g !== baseline);
  const rows = all.filter((r) => Number.isFinite(r[value]));
  const empty = horizons.filter((h) => !rows.some((r) => r.horizon === h));
  const drawn = horizons.filter((h) => !empty.includes(h));
  if (!rows.length) {
    throw new Error(
      `eventStudyChart: no group has a ${value} at any horizon (${
        horizons.join(", ")
      }); nothing to draw`,
    );
  }
  const finite = (v: unknown) => typeof v === "number" && Number.isFinite(v);
  const banded = rows.filter((r) => r.thin !== true && finite(r.low) && finite(r.high));
  const thin = rows.filter((r) => !banded.includes(r));
  const entry = all.some((r) => r.entry === "filing") ? "filing" : "trade";
  const values = [0, ...rows.map((r) => r[value] as number)];
  for (const r of banded) values.push(r.low as number, r.high as number);
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  const pad = (hi - lo || 1) * 0.08;
  // room right of the rightmost dot for its "thin" label
  const right = thin.length ? (hi - lo || 1) * 0.12 : 0;
  const what = diff
    ? `Mean excess return minus ${baseline}'s (percentage points)`
    : "Mean excess return vs the market (%)";
  const sub = [
    `${what}, from the ${entry} date; dot: ${
      diff ? "difference" : "mean"
    }, bar: 95% interval of the ${diff ? "difference" : "mean"}`,
    [
      thin.length
        ? `hollow "thin": too few trades or months for an interval (thin_reason${
          diff ? ", of the group or the baseline" : ""
        })`
        : "",
      empty.length ? `no return yet at ${empty.join(", ")}` : "",
    ].filter((s) => s).join("; "),
  ].filter((s) => s).join("\n");
  const longest = Math.max(...groups.map((g) => g.length));
  const panel = drawn.length > 4 ? 150 : drawn.length > 1 ? 190 : 480;
  const marginLeft = Math.min(220, Math.max(70, 10 + longest * 7));
  const at = { fx: "horizon", y: "group", x: value };
  return render(
    {
      width: Math.max(560, marginLeft + 20 + panel * drawn.length),
      height: Math.max(220, 70 + 26 * groups.length),
      marginLeft,
      marginRight: 20,
      marginTop: 40,
      fx: { domain: drawn, label: `Horizon after the ${entry}`, padding: 0.12 },
      y: { domain: groups, label: null },
      x: {
        domain: [lo - pad, hi + pad + right],
        label: diff ? `Difference from ${baseline} (pp)` : "Mean excess return (%)",
        grid: true,
        ticks: 4,
      },
      marks: [
        Plot.frame({ strokeOpacity: 0.15 }),
        Plot.ruleX([0], { strokeOpacity: 0.5 }),
        Plot.ruleY(banded, {
          ...at,
          x1: "low",
          x2: "high",
          stroke: PALETTE[0],
          strokeWidth: 2.5,
          className: "interval",
        }),
        Plot.dot(banded, { ...at, fill: PALETTE[0], r: 4, className: "mean" }),
        Plot.dot(thin, {
          ...at,
          stroke: THIN,
          fill: "white",
          strokeWidth: 1.5,
          r: 4,
          className: "thin-mean",
        }),
        Plot.text(thin, {
          ...at,
          text: () => "thin",
          dx: 7,
          textAnchor: "start",
          fill: THIN,
          fontSize: 10,
          className: "thin-label",
        }),
      ],
    },
    {
      title: diff
        ? `Event study: excess return vs ${baseline}`
        : "Event study: excess return after the trade",
      subtitle: sub,
    },
    plot,
  );
}
