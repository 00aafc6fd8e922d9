/**
 * How a calendar-time portfolio shows itself: the portfolio statistics as a
 * {@link ResultTable} (one row per portfolio: `portfolioTable`), and the
 * notebook display of one `portfolioBacktest` result — its statistics next
 * to a small equity chart, with a plain-text form (the statistics and an
 * equity sparkline) for `console.log` and terminals.
 *
 * The display is attached as non-enumerable symbol properties, so the result
 * stays a plain `{ monthly, stats }` object: `Object.keys`, spreading,
 * `JSON.stringify` and deep equality see nothing new.
 *
 * @module
 */
import { isDemo } from "../shared/demo.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import { ResultTable, TEXT_WIDTH, textWidth, wrap } from "../frames/result_table.ts";
import { equityCurveChart } from "../charts/equity_curve.ts";
import { escapeHtml as esc } from "../shared/html.ts";
import { type Cells, type Columns, fmt, pct, tabulate } from "./_format.ts";
import { portfolioInputs } from "./_inputs.ts";
import type { PortfolioResult, PortfolioStats } from "./_portfolio_types.ts";

const JUPYTER = Symbol.for("Jupyter.display");
const NODE_INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** The statistics a portfolio display reads: a `portfolioBacktest` result's `stats`. */
export type PortfolioSummaryStats = PortfolioStats;

/** A portfolio result as the display reads it: `{ monthly, stats }` (see `portfolioBacktest`). */
export type PortfolioSummary = PortfolioResult;

/**
 * The measured bias of the estimated figures, as `bench/portfolio_truth_bench.ts`
 * prints it (100 emulator worlds from seed 9001; the mean bias of the
 * estimate against the true daily paths ± its standard error across worlds,
 * in percent of the truth, ranging over the headline portfolios: CEO buys
 * and all purchases, each from the trade and the filing date). The table
 * and its causes are in docs/backtests.md.
 */
export const PORTFOLIO_BIAS =
  "IR reads high from 3-month holdings on: +4.2 ± 1.3 to +12.8 ± 1.3 % at 3 months, +8.5 ± 1.3 to +27.3 ± 1.8 % at 6, +15.7 ± 2.0 to +52.1 ± 2.7 % at 1 year (at 1 month −0.2 ± 1.2 to +3.2 ± 1.0 %); hit rate −0.3 ± 0.8 to +1.5 ± 0.7 % at 1 month, up to +10.3 ± 1.0 % at 1 year; vol −2.2 ± 0.6 to −0.4 ± 0.7 %; max drawdown −3.7 ± 1.6 to −0.5 ± 0.7 %; Sharpe −0.9 ± 0.6 to +5.2 ± 0.7 % and alpha −0.14 ± 0.08 to +0.41 ± 0.07 points a year, the most at 1 year for all purchases (mean bias ± SE against the true daily paths over 100 emulator worlds, bench/portfolio_truth_bench.ts; docs/backtests.md)";

/** What the `*` of the portfolio table means, with the measured bias ({@link PORTFOLIO_BIAS}). */
export const PORTFOLIO_ESTIMATES =
  `* estimates: between the service's 1w/1m/3m/6m/1y points a position's path is booked, not observed. Measured bias: ${PORTFOLIO_BIAS}.`;

/**
 * Why each dash of a portfolio display is one: every portfolio's
 * `nullReasons`, named ("" when no figure is withheld).
 */
function dashNote(results: Record<string, PortfolioSummary>): string {
  const why = Object.entries(results).flatMap(([name, { stats }]) =>
    Object.entries(stats.nullReasons ?? {}).map(([k, v]) => `${name ? `${name}: ` : ""}${k}: ${v}`)
  );
  return why.length ? `– withheld: ${why.join("; ")}.` : "";
}

/**
 * "short" when every position of a portfolio is short, "long/short" when
 * some are, "" for a long book: tables and conclusions say so beside the
 * portfolio's name (unless the name already says "short").
 */
export function bookSide(s: PortfolioSummaryStats): string {
  const short = s.shortTrades ?? 0;
  return !short ? "" : short === s.trades ? "short" : "long/short";
}

/** A portfolio's name with its book side, e.g. "10b5-1 sales (short)". */
export function bookName(name: string, s: PortfolioSummaryStats): string {
  const side = bookSide(s);
  return side && !/short/i.test(name) ? `${name} (${side})` : name;
}

/**
 * The portfolio table's columns: each header (`*`: estimated, see
 * {@link PORTFOLIO_ESTIMATES}) and how a portfolio's cell reads.
 */
const PORTFOLIO_COLUMNS: Columns<[string, PortfolioSummaryStats]> = [
  ["portfolio", ([name, s]) => bookName(name, s)],
  ["entry", ([, s]) => s.entry ?? "trade"],
  ["months", ([, s]) => String(s.months)],
  ["trades", ([, s]) => String(s.trades)],
  ["CAGR", ([, s]) => pct(s.cagr, 1)],
  ["vol*", ([, s]) => pct(s.vol, 1)],
  [
    "Sharpe [95% CI]",
    ([, s]) => `${fmt(s.sharpe)} [${fmt(s.sharpeInterval?.[0])}, ${fmt(s.sharpeInterval?.[1])}]`,
  ],
  ["IR*", ([, s]) => fmt(s.informationRatio)],
  ["max DD*", ([, s]) => pct(s.maxDrawdown, 1)],
  ["hit rate*", ([, s]) => pct(s.hitRate, 0)],
  [
    "alpha / yr [95% CI] (NW t)",
    ([, s]) =>
      `${pct(s.alpha, 1)} [${fmt(s.alphaInterval?.[0], 1)}, ${fmt(s.alphaInterval?.[1], 1)}] (${
        fmt(s.alphaFit?.tStat)
      })`,
  ],
  ["beta", ([, s]) => fmt(s.alphaFit?.beta)],
  ["turnover", ([, s]) => `${fmt(s.turnover, 1)}×`],
  ["cost paid", ([, s]) => pct(s.costPaid, 1)],
];

/** The portfolio table: its headers and one row of cells per portfolio. */
export function portfolioCells(results: Record<string, PortfolioSummary>): Cells {
  return tabulate(
    PORTFOLIO_COLUMNS,
    Object.entries(results).map(([n, r]) => [n, r.stats] as const),
  );
}

/**
 * Portfolio statistics as a {@link ResultTable}, one row per portfolio, the
 * risk-free rate and what `*` means under it: an HTML table in a notebook,
 * aligned text for `console.log` and `String()`.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, portfolioBacktest, portfolioTable, tradeClass } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * console.log(portfolioTable({ buys: portfolioBacktest(buys, { horizon: "3m" }) }));
 * ```
 */
export function portfolioTable(results: Record<string, PortfolioSummary>): ResultTable {
  portfolioInputs("portfolioTable", results);
  const rf = [...new Set(Object.values(results).map((r) => r.stats.riskFree))];
  return new ResultTable({
    ...portfolioCells(results),
    numericFrom: 2,
    demo: Object.values(results).some((r) => isDemo(r.monthly)),
    note: [
      dashNote(results),
      excessNote(rf.map((x) => `${fmt(x)}%`).join(" / ")),
      PORTFOLIO_ESTIMATES,
    ]
      .filter(Boolean).join(" "),
  });
}

/**
 * The one definition of excess of the portfolio figures, as the footnotes
 * state it: Sharpe and alpha over the risk-free rate `rf` (text, e.g. "4%"),
 * IR and hit rate over the positions' own market.
 */
export function excessNote(rf: string): string {
  return `Sharpe over a risk-free rate of ${rf} a year; alpha is Jensen's, the return over that rate regressed on the market's return over it; IR and hit rate are over the positions' own market (signed like them).`;
}

/** The month span of a `monthly` frame, "2021-01 to 2023-12" ("" when empty). */
function span(monthly: pl.DataFrame): string {
  if (!monthly.height || !monthly.columns.includes("month")) return "";
  const months = monthly.getColumn("month");
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 7) : String(v));
  return `${iso(months.getIndex(0))} to ${iso(months.getIndex(monthly.height - 1))}`;
}

const BARS = "▁▂▃▄▅▆▇█";

/** A one-line sparkline of values (at most `width` characters, resampled evenly). */
export function sparkline(values: readonly number[], width = 48): string {
  const xs = values.filter((v) => Number.isFinite(v));
  if (!xs.length) return "";
  const n = Math.min(width, xs.length);
  const picked = Array.from(
    { length: n },
    (_, i) => xs[Math.round((i * (xs.length - 1)) / Math.max(1, n - 1))],
  );
  const lo = Math.min(...picked);
  const hi = Math.max(...picked);
  return picked.map((v) =>
    BARS[hi > lo ? Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1)) : 3]
  )
    .join("");
}

/** The one-portfolio statistics as a vertical table: statistic, value. */
function statsRows(result: PortfolioSummary): ResultTable {
  const s = result.stats;
  const { head, rows: [row] } = portfolioCells({ portfolio: result });
  const rows = head.map((h, i) => [h, row[i]]).filter(([h]) =>
    h !== "portfolio" && h !== "months" && h !== "trades"
  );
  return new ResultTable({
    head: ["statistic", "value"],
    demo: isDemo(result.monthly),
    rows: [
      ["months", `${s.months}${span(result.monthly) ? ` (${span(result.monthly)})` : ""}`],
      [
        "trades",
        `${s.trades}${bookSide(s) ? ` (${s.shortTrades} short)` : ""}${
          s.droppedTrades
            ? `; ${s.droppedTrades} left out${
              s.missingValueTrades ? `, ${s.missingValueTrades} of them lacking a value` : ""
            }`
            : ""
        }`,
      ],
      ...rows,
    ],
    numericFrom: 1,
  });
}

function header(result: PortfolioSummary): string {
  const s = result.stats;
  return `Portfolio backtest${
    bookSide(s) ? ` (${bookSide(s)} book)` : ""
  }: ${s.months} calendar months${
    span(result.monthly) ? `, ${span(result.monthly)}` : ""
  }, ${s.trades} trades, entry at the ${s.entry ?? "trade"} date; Sharpe over a risk-free rate of ${
    fmt(s.riskFree)
  }% a year`;
}

const FOOT = "result.monthly: one row per calendar month (a frame); result.stats: these numbers.";

/**
 * The plain-text form of one portfolio result: header, statistics, equity
 * sparkline, lines wrapped at `width` (default: where it prints, see `textWidth`).
 */
export function portfolioText(result: PortfolioSummary, width: number = textWidth()): string {
  const equity = result.monthly.columns.includes("equity")
    ? (result.monthly.getColumn("equity").toArray() as number[])
    : [];
  const line = equity.length
    ? `equity  1.00 ${sparkline(equity)} ${fmt(equity.at(-1))}  (growth of 1, after costs)`
    : "equity  (no months)";
  return [
    wrap(header(result), width),
    statsRows(result).toText(width),
    line,
    wrap(`${dashNote({ "": result })} ${PORTFOLIO_ESTIMATES} ${FOOT}`.trim(), width),
  ].join("\n");
}

/** The notebook HTML of one portfolio result: header, a small equity chart beside the statistics. */
export function portfolioHtml(result: PortfolioSummary): string {
  const chart = result.monthly.height > 0
    ? (equityCurveChart(result.monthly, {
      title: "Equity: growth of 1",
      subtitle: "after costs, monthly rebalancing",
      width: 440,
      height: 210,
    }) as unknown as Record<symbol, () => Record<string, string>>)[JUPYTER]()["text/html"]
    : "";
  return `<div class="sb-portfolio"><div style="font-weight:600;margin:2px 0 6px">${
    esc(header(result))
  }</div><div style="display:flex;flex-wrap:wrap;gap:8px 28px;align-items:flex-start">` +
    `${chart}${statsRows(result).toHtml()}</div>` +
    `<div style="opacity:.8;font-size:90%;margin-top:4px">${esc(dashNote({ "": result }))} ${
      esc(PORTFOLIO_ESTIMATES)
    } ${esc(FOOT)}</div></div>`;
}

/**
 * Gives a portfolio result its notebook display (statistics beside a small
 * equity chart) and a text form for `console.log`, as non-enumerable
 * properties; returns the same object.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, portfolioBacktest } from "../../mod.ts";
 * const { insider } = await connect();
 * // open-market purchases (code P): the service's "purchase" also holds exercises and awards
 * const buys = (await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("code").eq(pl.lit("P")));
 * const result = portfolioBacktest(buys, { horizon: "3m" }); // carries the display already
 * console.log(result); // statistics and an equity sparkline
 * ```
 */
export function withPortfolioDisplay<T extends PortfolioSummary>(result: T): T {
  const hidden = (value: unknown) => ({ value, enumerable: false, configurable: true });
  Object.defineProperties(result, {
    [JUPYTER]: hidden(() => ({
      "text/html": portfolioHtml(result),
      "text/plain": portfolioText(result, TEXT_WIDTH),
    })),
    // `console.log` and `Deno.inspect` read Node's inspect hook too (as `ResultTable`'s does)
    [NODE_INSPECT]: hidden(() => portfolioText(result)),
  });
  return result;
}
