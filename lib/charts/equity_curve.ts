/**
 * `equityCurveChart`: the growth of 1 of one or several calendar-time
 * portfolios (the `monthly` frames of `portfolioBacktest`).
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, type ChartText, PALETTE, render } from "./chart.ts";
import { rowsOf } from "./_chart_data.ts";
import { describeInput, isFrame, wrongInput } from "../shared/wrong_input.ts";

/** Options of {@link equityCurveChart}; any other Plot option passes through. */
export type EquityCurveOptions = ChartOptions;

/** Monthly frames, by portfolio name, as rows with a `portfolio` field, placed at month ends. */
function portfolioRows(
  fn: string,
  data: pl.DataFrame | Record<string, pl.DataFrame>,
  col: string,
  origin: number,
): { names: string[]; rows: Record<string, unknown>[] } {
  const wanted = {
    pass: "the monthly frame of portfolioBacktest(...), or several by name",
    field: "monthly",
  };
  const single = isFrame(data);
  const record = !single && typeof data === "object" && data !== null && !Array.isArray(data) &&
    !isFrame((data as { monthly?: unknown }).monthly) &&
    !isFrame((data as { frame?: unknown }).frame);
  if (!single && !record) throw wrongInput(fn, wanted, data);
  const frames = single
    ? { portfolio: data as pl.DataFrame }
    : data as Record<string, pl.DataFrame>;
  const names = Object.keys(frames);
  if (!names.length) throw new Error(`${fn}: no portfolios given`);
  for (const name of names) {
    const v = frames[name] as unknown;
    if (isFrame(v)) continue;
    const key = JSON.stringify(name);
    const own = isFrame((v as { monthly?: unknown } | null)?.monthly)
      ? `; pass its monthly frame: ${fn}({ ${key}: result.monthly, … })`
      : "";
    throw new TypeError(`${fn}: pass ${wanted.pass}; got ${describeInput(v)} at ${key}${own}`);
  }
  // each value is at the end of its month: draw it at the next month's start,
  // after a starting point (`origin`) at the first month's start
  const next = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  const rows = names.flatMap((name) => {
    const own = rowsOf(fn, frames[name], { ...wanted, columns: ["month", col] });
    return [
      { portfolio: name, month: own[0].month, [col]: origin },
      ...own.map((r) => ({ ...r, portfolio: name, month: next(r.month as Date) })),
    ];
  });
  return { names, rows };
}

/**
 * One line per portfolio of a monthly column (the equity curve and drawdown
 * charts): the rule at the origin (1 for equity, 0 for drawdown), the line
 * (coloured by portfolio when there are several, with a legend; one
 * drawdown is also a filled area), and a tip by month.
 */
export function portfolioLines(
  fn: string,
  data: pl.DataFrame | Record<string, pl.DataFrame>,
  col: "equity" | "drawdown",
  text: ChartText,
  plot: Record<string, unknown>,
): Chart {
  const equity = col === "equity";
  const [origin, color] = equity ? [1, PALETTE[0]] : [0, PALETTE[1]];
  const { names, rows } = portfolioRows(fn, data, col, origin);
  const several = names.length > 1;
  const at = { x: "month", y: col };
  const tip = (d: Record<string, unknown>) =>
    `${d.portfolio} ${(d.month as Date).toISOString().slice(0, 7)}: ${
      (d[col] as number).toFixed(equity ? 3 : 1)
    }${equity ? "" : "%"}`;
  return render(
    {
      width: 720,
      height: equity ? 380 : 300,
      marginLeft: 55,
      x: { label: "Month", type: "utc" },
      y: { label: equity ? "Equity (growth of 1)" : "Drawdown (%)", grid: true },
      color: several
        ? { domain: names, range: PALETTE, label: "Portfolio", legend: true }
        : undefined,
      marks: [
        !equity && !several ? Plot.areaY(rows, { ...at, fill: color, fillOpacity: 0.25 }) : null,
        Plot.ruleY([origin], { strokeOpacity: 0.5 }),
        Plot.line(rows, {
          ...at,
          stroke: several ? "portfolio" : color,
          strokeWidth: equity ? 2 : 1.5,
        }),
        Plot.tip(rows, Plot.pointerX({ ...at, title: tip })),
      ],
    },
    text,
    plot,
  );
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
  return portfolioLines("equityCurveChart", data, "equity", {
    title: "Equity curve: growth of 1",
    subtitle: "Calendar-time portfolio after costs, monthly rebalancing",
  }, options);
}
