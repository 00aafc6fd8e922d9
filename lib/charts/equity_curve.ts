/**
 * `equityCurveChart`: the growth of 1 of one or several calendar-time
 * portfolios (the `monthly` frames of `portfolioBacktest`).
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartText, PALETTE, render } from "./chart.ts";
import { expectFrame, rowsOf } from "./_chart_data.ts";

/** Options of {@link equityCurveChart}; any other Plot option passes through. */
export interface EquityCurveOptions extends ChartText {
  /** Extra Plot options. */
  [plotOption: string]: unknown;
}

/** Monthly frames, by portfolio name, as rows with a `portfolio` field, placed at month ends. */
export function portfolioRows(
  fn: string,
  data: pl.DataFrame | Record<string, pl.DataFrame>,
  cols: [string],
  origin: number,
): { names: string[]; rows: Record<string, unknown>[] } {
  const single = typeof data === "object" && data !== null &&
    (data as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "DataFrame";
  if (!single && typeof data === "object" && data !== null && "monthly" in data) {
    expectFrame(fn, data, "data", "monthly"); // a portfolioBacktest result: pass result.monthly
  }
  const frames = single
    ? { portfolio: data as pl.DataFrame }
    : data as Record<string, pl.DataFrame>;
  const names = Object.keys(frames ?? {});
  if (!names.length) throw new Error(`${fn}: no portfolios given`);
  for (const name of names) {
    const v = frames[name] as unknown;
    if (typeof v === "object" && v !== null && "monthly" in v && "stats" in v) {
      throw new TypeError(
        `${fn}: ${
          JSON.stringify(name)
        } is a portfolioBacktest result; pass its monthly frame: ${fn}({ ${
          JSON.stringify(name)
        }: result.monthly, … })`,
      );
    }
    expectFrame(fn, v, JSON.stringify(name));
  }
  // each value is at the end of its month: draw it at the next month's start,
  // after a starting point (`origin`) at the first month's start
  const next = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  const rows = names.flatMap((name) => {
    const own = rowsOf(fn, frames[name], ["month", ...cols]);
    return [
      { portfolio: name, month: own[0].month, [cols[0]]: origin },
      ...own.map((r) => ({ ...r, portfolio: name, month: next(r.month as Date) })),
    ];
  });
  return { names, rows };
}

/**
 * Lines of `equity` (growth of 1, after costs) by `month`, one per portfolio,
 * with a rule at 1. Takes one `monthly` frame or several by name, e.g.
 * `{ "CEO buys": a.monthly, "All purchases": b.monthly }`. Each line starts
 * at 1 at the start of its first month; each later point is the equity at the
 * end of a month (drawn at the next month's first day).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, equityCurveChart, portfolioBacktest } from "../../mod.ts";
 * const { insider } = await connect();
 * // open-market purchases (code P): the service's "purchase" also holds exercises and awards
 * const buys = (await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("code").eq(pl.lit("P")));
 * equityCurveChart(portfolioBacktest(buys, { horizon: "3m" }).monthly);
 * ```
 */
export function equityCurveChart(
  data: pl.DataFrame | Record<string, pl.DataFrame>,
  options: EquityCurveOptions = {},
): Chart {
  const {
    title = "Equity curve: growth of 1",
    subtitle = "Calendar-time portfolio after costs, monthly rebalancing",
    ...plot
  } = options;
  const { names, rows } = portfolioRows("equityCurveChart", data, ["equity"], 1);
  const several = names.length > 1;
  return render(
    {
      width: 720,
      height: 380,
      marginLeft: 55,
      x: { label: "Month", type: "utc" },
      y: { label: "Equity (growth of 1)", grid: true },
      color: several
        ? { domain: names, range: PALETTE, label: "Portfolio", legend: true }
        : undefined,
      marks: [
        Plot.ruleY([1], { strokeOpacity: 0.5 }),
        Plot.line(rows, {
          x: "month",
          y: "equity",
          stroke: several ? "portfolio" : PALETTE[0],
          strokeWidth: 2,
        }),
        Plot.tip(
          rows,
          Plot.pointerX({
            x: "month",
            y: "equity",
            title: (d: Record<string, unknown>) =>
              `${d.portfolio} ${(d.month as Date).toISOString().slice(0, 7)}: ${
                (d.equity as number).toFixed(3)
              }`,
          }),
        ),
      ],
    },
    { title, subtitle },
    plot,
  );
}
