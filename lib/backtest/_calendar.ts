/**
 * The calendar-month engine of a portfolio backtest: positions (entry and
 * exit day, sign, size, known growth points) booked month by month with
 * monthly rebalancing, costs on turnover and cash at the risk-free rate
 * (the rules are in `portfolio.ts`'s module doc), and the statistics of the
 * resulting months (`_portfolio_stats.ts`).
 *
 * @module
 */
import { columnSpecs } from "./_format.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import { asFrame } from "../frames/list.ts";
import { markDemo } from "../shared/demo.ts";
import { buildFrame } from "../frames/build.ts";
import { type Entry, growthAt } from "./entry.ts";
import { factorAlphaOf, portfolioFigures } from "./_portfolio_stats.ts";
import { type RiskFree, riskFreeRates } from "./_risk_free.ts";
import { withPortfolioDisplay } from "./result_display.ts";
import { monthOfDay, monthText } from "./_month.ts";
import { refuse } from "../shared/options.ts";
import type {
  EDGES,
  MonthRow,
  PortfolioPosition,
  PortfolioResult,
  PortfolioStats,
  SPREADS,
} from "./_portfolio_types.ts";

/** Options of {@link portfolioFromPositions}. */
export interface CalendarOptions {
  /** The booking between known points (default `"market"` with `marketLevel`, else `"step"`). */
  spread?: typeof SPREADS[number];
  /** Cost per side in basis points (default 0). */
  costBps?: number;
  /** The risk-free rate (see `portfolioBacktest`). */
  riskFree?: RiskFree;
  /** Factor returns for `factorAlpha`. */
  factors?: pl.DataFrame;
  /** Ramp-down months: `"trim"` (default) or `"keep"`. */
  edges?: typeof EDGES[number];
  /** Where the positions opened (reported in `stats.entry`). */
  entry?: Entry;
  /** Trades left out before the positions were made (reported). */
  dropped?: number;
  /** Of them, trades lacking a value (reported). */
  missingValues?: number;
  /** Trades without a side (reported). */
  noSide?: number;
  /** The market's log level by day, for `spread: "market"`. */
  marketLevel?: (day: number) => number;
  /** The positions are the offline emulator's: the result, its frame and its stats are demo data. */
  demo?: boolean;
}

/**
 * The calendar-month engine behind `portfolioBacktest`, over
 * positions given directly (used to run the same booking on true daily
 * paths, e.g. the emulator's prices, to measure the estimates' bias).
 *
 * @example
 * ```ts
 * import { portfolioFromPositions } from "./_calendar.ts";
 * const day = Date.UTC(2024, 0, 10) / 86_400_000;
 * const { stats } = portfolioFromPositions([
 *   { start: day, end: day + 30, sign: 1, size: 1, stock: [[0, 1], [30, 1.05]], market: [[0, 1], [30, 1.01]] },
 * ], { edges: "keep" });
 * stats.months; // 2: January and February 2024
 * ```
 */
export function portfolioFromPositions(
  positions: PortfolioPosition[],
  opts: CalendarOptions = {},
): PortfolioResult {
  const spread = opts.spread ?? (opts.marketLevel ? "market" : "step");
  if (spread === "market" && !opts.marketLevel) {
    throw new RangeError(`portfolioFromPositions: spread "market" needs marketLevel`);
  }
  const costBps = opts.costBps ?? 0;
  if (typeof costBps !== "number" || !Number.isFinite(costBps) || costBps < 0 || costBps > 10_000) {
    refuse("portfolioBacktest", "costBps", costBps, ["a number from 0 to 10000"]);
  }
  const entries = positions.map((p) => monthOfDay(p.start + 1));
  const first = Math.min(...entries);
  const lastExit = Math.max(...positions.map((p) => monthOfDay(p.end)));
  const last = opts.edges === "keep" ? lastExit : Math.max(...entries);
  const monthKeys = Array.from({ length: last - first + 1 }, (_, k) => monthText(first + k));
  const rf = riskFreeRates(opts.riskFree, monthKeys);
  const rows = bookMonths(
    positions,
    spread,
    opts.marketLevel,
    costBps / 10_000,
    rf.monthly,
    first,
    last,
  );
  const stats: PortfolioStats = {
    ...portfolioFigures(rows, rf.monthly),
    riskFree: rf.annual,
    trades: positions.length,
    droppedTrades: opts.dropped ?? 0,
    missingValueTrades: opts.missingValues ?? 0,
    shortTrades: positions.filter((p) => p.sign < 0).length,
    noSideTrades: opts.noSide ?? 0,
    trimmedMonths: lastExit - last,
    entry: opts.entry ?? "trade",
    spread,
  };
  if (opts.factors) {
    const over = rows.map((r, t) => r.return - rf.monthly[t]);
    const fa = factorAlphaOf(monthKeys, over, opts.factors);
    if (typeof fa === "string") stats.nullReasons.factorAlpha = fa;
    else stats.factorAlpha = fa;
  }
  const monthly = asFrame(
    buildFrame(MONTHLY_COLUMNS, rows as unknown as Record<string, unknown>[]),
    false,
    opts.demo,
  );
  // demo positions give a demo portfolio, its frame and its stats alone too (see shared/demo.ts)
  return withPortfolioDisplay({ monthly, stats: opts.demo ? markDemo(stats) : stats });
}

const MONTHLY_COLUMNS = columnSpecs(
  "month:date n_positions:integer n_short return:decimal market_return benchmark_return " +
    "excess_return turnover cost equity drawdown",
);

/**
 * The months from `first` to `last`, one row each: the open positions
 * reweighted to target, each earning the part of its path inside the month
 * under the booking, turnover against the drifted weights and its cost,
 * cash at the risk-free rate when none is open.
 */
function bookMonths(
  positions: PortfolioPosition[],
  spread: typeof SPREADS[number],
  L: ((day: number) => number) | undefined,
  cost: number,
  rfMonthly: number[],
  first: number,
  last: number,
): MonthRow[] {
  const out: MonthRow[] = [];
  let drifted = new Map<number, number>(); // position → weight before this month's rebalancing
  let equity = 1;
  let peak = 1;
  // positions sorted by entry, for the sweep
  const order = positions.map((_, i) => i).sort((a, b) => positions[a].start - positions[b].start);
  let next = 0;
  let live: number[] = [];
  for (let m = first; m <= last; m++) {
    // the month runs from the close of the previous month's last day (m0) to this month's (m1)
    const m0 = firstDayOf(m) - 1;
    const m1 = firstDayOf(m + 1) - 1;
    while (next < order.length && positions[order[next]].start < m1) live.push(order[next++]);
    live = live.filter((i) => positions[i].end > m0);
    const open = live.filter((i) => positions[i].start < m1);
    const total = open.reduce((s, i) => s + positions[i].size, 0);
    const w = new Map<number, number>(open.map((i) => [i, positions[i].size / total]));
    let turnover = 0;
    for (const [i, wi] of w) turnover += Math.abs(wi - (drifted.get(i) ?? 0));
    for (const [i, wi] of drifted) if (!w.has(i)) turnover += Math.abs(wi);
    let gross = 0;
    let mkt = 0; // the market itself over the positions' days
    let bench = 0; // the same, signed like the positions: what the excess is measured against
    const own = new Map<number, number>();
    for (const [i, wi] of w) {
      const p = positions[i];
      const [r, x] = segment(
        p,
        Math.max(p.start, m0) - p.start,
        Math.min(p.end, m1) - p.start,
        spread,
        L,
      );
      own.set(i, r);
      gross += wi * p.sign * r;
      mkt += wi * x;
      bench += wi * p.sign * x;
    }
    // a month without positions holds cash, which earns the risk-free rate (its benchmark too)
    if (w.size === 0) gross = mkt = bench = rfMonthly[m - first] / 100;
    // each weight drifted by the month (a position that closes this month is sold at its close:
    // drift to 0 weight next month)
    const after = new Map(
      [...w].map(([i, wi]) => [i, (wi * (1 + positions[i].sign * own.get(i)!)) / (1 + gross)]),
    );
    if (m === last) { for (const wi of after.values()) turnover += Math.abs(wi); }
    drifted = after;
    const c = turnover * cost;
    const ret = gross - c;
    equity *= 1 + ret;
    peak = Math.max(peak, equity);
    out.push({
      month: `${monthText(m)}-01`,
      n_positions: open.length,
      n_short: open.filter((i) => positions[i].sign < 0).length,
      return: ret * 100,
      market_return: mkt * 100,
      benchmark_return: bench * 100,
      excess_return: (ret - bench) * 100,
      turnover,
      cost: c * 100,
      equity,
      drawdown: (equity / peak - 1) * 100,
    });
  }
  return out;
}

/** A position's return and its market's from day a to day b after entry, under the booking. */
function segment(
  p: PortfolioPosition,
  a: number,
  b: number,
  spread: typeof SPREADS[number],
  L: ((day: number) => number) | undefined,
): [number, number] {
  if (spread === "market") {
    // the market part as it happened; the stock's return relative to it by step
    const mk = Math.exp(L!(p.start + b) - L!(p.start + a));
    const rel = (t: number) => grow(p.stock, t, "step") / grow(p.market, t, "step");
    return [mk * (rel(b) / rel(a)) - 1, mk - 1];
  }
  return [
    grow(p.stock, b, spread) / grow(p.stock, a, spread) - 1,
    grow(p.market, b, spread) / grow(p.market, a, spread) - 1,
  ];
}

const DAY = 86_400_000;
const firstDayOf = (m: number) => Date.UTC(Math.floor(m / 12), m % 12, 1) / DAY;

/** Growth at day t since entry under the booking rule. */
function grow(points: [number, number][], t: number, spread: typeof SPREADS[number]): number {
  // step: the growth at the last known point on or before t (points ascend from day 0)
  return spread === "geometric" ? growthAt(points, t) : points.findLast(([d]) => d <= t)?.[1] ?? 1;
}
