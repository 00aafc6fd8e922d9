/**
 * `forwardReturnsChart`: the distribution of forward (excess) returns by
 * horizon, buys vs sells, with means and 95 % intervals.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, render } from "./chart.ts";
import { columnsOf, inOrder, meanCi, sidedBy } from "./_chart_data.ts";
import { expectFrame, isFrame } from "../shared/wrong_input.ts";
import { checkSides, sideColumn, sideOf, type Sides } from "../families/side.ts";
import { FORWARD_COLUMNS, forwardReturns } from "../families/transactions.ts";

/** Options of {@link forwardReturnsChart}; any other Plot option passes through. */
export interface ForwardReturnsOptions extends ChartOptions {
  /** `excess_return` (default) or `return`. */
  value?: "excess_return" | "return";
  /**
   * What buy and sell mean (default `"tradeClass"`: code `P` buys, code `S`
   * sells, other codes left out and counted in the subtitle);
   * `"acquiredDisposed"` splits by the acquired / disposed code instead.
   */
  sides?: Sides;
}

/**
 * Per horizon (in time order) and side: a box plot of the returns (percent),
 * the mean as a dot, and its 95 % interval as a bar. Takes the long frame of
 * `forwardReturns()` or a transactions frame (converted). The `latest`
 * horizon is left out (it has no fixed length). Buys are open-market
 * purchases (code `P`), sells sales (code `S`); trades of other codes are
 * left out and the subtitle counts them (`sides: "acquiredDisposed"` splits
 * by the acquired / disposed code instead, labelled "Acquired" /
 * "Disposed"). Needs `code` (or `acquired_disposed_code` under that option).
 *
 * @example
 * ```ts
 * import { connect, forwardReturnsChart } from "../../mod.ts";
 * const { insider } = await connect();
 * forwardReturnsChart(await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 }));
 * ```
 */
export function forwardReturnsChart(
  data: pl.DataFrame,
  options: ForwardReturnsOptions = {},
): Chart {
  const { value = "excess_return", sides = "tradeClass", ...plot } = options;
  checkSides("forwardReturnsChart", sides);
  const col = sideColumn(sides);
  const wanted = { pass: "a trades frame or forwardReturns(trades)", field: "frame" };
  // the long frame of forwardReturns(), or a trades frame with every return column
  const isLong = isFrame(data) && data.columns.includes("horizon");
  const columns = isLong ? [] : [...FORWARD_COLUMNS, col];
  expectFrame("forwardReturnsChart", data, { ...wanted, columns });
  // only the columns drawn: the long frame is five rows per trade
  const long = isLong ? data : forwardReturns(data.select(...FORWARD_COLUMNS, col));
  // drawn from columns: a pull of 16,000 trades is 80,000 points, and an object per point (the
  // frame's records, the points, the sided rows, Plot's data) held the demo's peak
  const c = columnsOf("forwardReturnsChart", long, {
    ...wanted,
    columns: ["horizon", "horizon_order", value, col],
  });
  const [hs, orders, vs, codes] = [
    c.horizon as string[],
    c.horizon_order as number[],
    c[value],
    c[col],
  ];
  const points = [...hs.keys()].filter((i) => hs[i] !== "latest" && typeof vs[i] === "number");
  // trades left out, not trade × horizon rows: the most at any one horizon
  const perHorizon = (left: number[]) =>
    Math.max(0, ...Map.groupBy(left, (i) => hs[i]).values().map((g) => g.length));
  const { kept, side, color, subtitle: sub } = sidedBy(
    "forwardReturnsChart",
    points,
    (i) => sideOf({ [col]: codes[i] }, sides),
    sides,
    "Box: distribution (axis clipped to the 1st–99th percentile); dot and bar: mean and 95% interval",
    plot.subtitle,
    perHorizon,
  );
  const horizon = kept.map((i) => hs[i]);
  const v = kept.map((i) => vs[i] as number);
  const labels = color.domain;
  const horizons = inOrder(kept.map((i) => [orders[i], hs[i]]));
  const stats = horizons.flatMap((h) =>
    labels.map((s) => ({
      horizon: h,
      side: s,
      ...meanCi(v.filter((_, k) => horizon[k] === h && side[k] === s)),
    }))
  ).filter((s) => s.n > 0);
  const sorted = v.toSorted((a, b) => a - b);
  const q = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))];
  const lo = Math.min(q(0.01), ...stats.map((s) => s.lo).filter(Number.isFinite));
  const hi = Math.max(q(0.99), ...stats.map((s) => s.hi).filter(Number.isFinite));
  return render(
    {
      width: 720,
      height: 400,
      marginLeft: 55,
      fx: { domain: horizons, label: "Horizon" },
      x: { domain: labels, axis: null },
      y: {
        label: value === "excess_return" ? "Excess return vs market (%)" : "Return (%)",
        grid: true,
        clamp: true,
        domain: [lo, hi],
        nice: true,
      },
      color,
      marks: [
        Plot.ruleY([0], { strokeOpacity: 0.5 }),
        Plot.boxY(v, {
          fx: horizon,
          x: side,
          stroke: side,
          fill: side,
          fillOpacity: 0.15,
          r: 1,
        }),
        Plot.ruleX(stats, {
          fx: "horizon",
          x: "side",
          y1: "lo",
          y2: "hi",
          stroke: "currentColor",
          className: "interval",
          strokeWidth: 3,
        }),
        Plot.dot(stats, {
          fx: "horizon",
          x: "side",
          y: "mean",
          fill: "currentColor",
          r: 3.5,
          tip: true,
          channels: { n: "n" },
        }),
      ],
    },
    { title: "Forward returns after insider trades", subtitle: sub },
    plot,
  );
}
