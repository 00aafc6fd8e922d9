/**
 * Calendar-time portfolio backtests: the standard remedy for overlapping
 * event windows. Instead of averaging trades (whose windows overlap and
 * share market moves), every trade becomes a position in one portfolio that
 * is held in calendar time, and the portfolio's monthly returns — one number
 * per calendar month, whatever the number of trades — are what the
 * statistics use.
 *
 * Rules:
 * - Each trade with a realized `returns_{horizon}` and
 *   `excess_returns_{horizon}` becomes a position. It opens at the close of
 *   its entry day — the trade date (`entry: "trade"`, default), or the
 *   filing date (`entry: "filing"`: `transaction_date + filing_delay_days`)
 *   — and closes at the trade date + the horizon in days (30, 91, 182, 365:
 *   the service's windows). Younger trades (no return yet at the horizon),
 *   and with `entry: "filing"` trades filed on or after that end, are left
 *   out and counted in `stats.droppedTrades`; so are trades with a NaN or
 *   infinite return at any window up to the horizon (their path is unknown).
 * - `monthly` has one row per calendar month (`month` on day 1), from the
 *   close of the previous month's last day to the close of this month's. A
 *   position counts in every month in which it is held for at least a day,
 *   and earns the part of its path inside the month.
 * - `weighting`: `"equal"` (default) gives every open position the same
 *   weight; `"value"` weights by the **insider's trade size** in dollars
 *   (`transaction_value`, not the company's market value; trades without
 *   one are dropped and counted). Weights are reset to target every month
 *   (monthly rebalancing) and their absolute values sum to 1.
 * - `direction`: `"long"` (default) buys every trade's stock; `"follow"`
 *   buys after insider purchases and shorts after insider sales, so a short
 *   earns the negative of the stock's return (no interest on short
 *   proceeds). Purchases and sales are trade classes by default (`sides:
 *   "tradeClass"`: code `P` bought, code `S` shorted); trades of other
 *   codes (awards, option exercises, gifts, …) are left out and counted in
 *   `stats.noSideTrades`. `sides: "acquiredDisposed"` follows the acquired
 *   (`A`) / disposed (`D`) code instead.
 * - `costBps` (default 0): cost per side in basis points, charged on
 *   turnover. `turnover` is the traded value as a multiple of the portfolio
 *   (buys plus sells: a month that replaces the whole book has 2); weights
 *   drift with returns between rebalancings; the final month also pays for
 *   selling everything, and a month without positions pays for emptying the
 *   book. `stats.turnover` and `stats.costPaid` are the totals.
 * - Months between the first and the last with no open position hold cash,
 *   which earns the risk-free rate: `return` is that month's risk-free rate
 *   (less any cost), `market_return` the same (cash is its own benchmark,
 *   so `excess_return` is 0), `n_positions` 0. Over the risk-free rate a
 *   cash month is 0, so raising `riskFree` does not turn idle months into
 *   losses.
 * - Edge months (`edges`): `"trim"` (default) ends the sample with the last
 *   month in which a position opens. The months after it (the ramp-down,
 *   `stats.trimmedMonths` of them) hold only the last positions, whose
 *   final segments would be booked in one month each (see `spread`): a
 *   lump, not a month's return. `"keep"` books them too (a single trade
 *   then shows its whole path). The ramp-up is kept: its months hold few
 *   positions but each month's return is booked like any other.
 *
 * Monthly returns from forward-return fields. The service gives each trade's
 * cumulative return at 1 week, 1, 3, 6 and 12 months (`returns_1w` …
 * `returns_1y`, percent; `returns_1w` is used when the frame has it) and its
 * excess over the market (`excess_returns_*`), so the market return over the
 * same window is `returns − excess_returns`. Between those points the growth
 * is booked by `spread`:
 *
 * - `"market"` (default): each position's market part is booked on the
 *   market's own path, rebuilt from the trades' windows (every window is an
 *   exact difference of the one index's log level between two days; see
 *   `_market_path.ts`), and the stock's return relative to its market by
 *   step (below). A month's market move then lands in that month for every
 *   position, as it happened; only the stock-specific part is lumpy.
 *   Measured against the emulator's true daily paths
 *   (`bench/portfolio_truth_bench.ts`), vol and drawdown come out within a
 *   few percent, while the hit rate and the information ratio read off by
 *   amounts that depend on the holding: the measured ranges, with their
 *   standard errors, and their causes are in docs/backtests.md ("How far the
 *   estimates are from the truth"); a result's display and the report show
 *   them. Neither can be fixed without the path between the service's
 *   points (see docs/validation.md). With too few
 *   windows to link (a handful of trades), the booking falls back to
 *   `"step"` and `stats.spread` says so.
 * - `"step"`: the path is flat between known points and each
 *   segment's return, G(b)/G(a) − 1, is booked in the calendar month that
 *   holds point b, when the service observes it. Chained, the months
 *   reproduce every known point exactly, and a segment's expected booked
 *   return is the sum of the monthly returns a rebalanced portfolio earns
 *   over it but for the compounding of the stock's drift within the segment
 *   (negligible for usual drifts; a run-up like the emulator's ten-bagger
 *   is booked compounded, which lifts mean returns, Sharpe and alpha at
 *   long holdings: see `"market"`). The cost:
 *   one position's path is lumpy, and a month's market move is spread over
 *   the months in which the positions' segments end, so `vol` and
 *   `maxDrawdown` come out far too low (6-month holding: vol off the truth
 *   by more than twice the default's error, `tests/backtest/portfolio_truth_test.ts`;
 *   `PORTFOLIO_SPREAD=step` runs `bench/portfolio_truth_bench.ts` on it).
 * - `"geometric"`: G(t) = G(a)·(G(b)/G(a))^((t−a)/(b−a)), every day of a
 *   segment grows alike. Known points are reproduced too and the path is
 *   smooth, but the geometric mean of a noisy return is below its
 *   arithmetic mean (volatility drag), so mean returns and alpha are biased
 *   low for volatile stocks; `vol` and `maxDrawdown` are smoothed.
 *
 * A segment ending in a total loss (growth ≤ 0) is spread linearly under
 * `"geometric"`. Missing intermediate points are skipped.
 *
 * Entry at filing (`entry: "filing"`): the growth from the trade to the
 * filing day is not reported; it is interpolated log-linearly between the
 * known points (trade date = 1, then 1 week, 1 month), and the position's
 * path from the filing is the trade-date path divided by it (see
 * `entry.ts`; its bias against the emulator's true prices is in
 * docs/validation.md).
 *
 * Columns of `monthly`: `month`, `n_positions`, `n_short` (of them, short
 * positions), `return` (after costs), `market_return` (the market itself
 * over the positions' days, weighted like them but never signed: what
 * `alpha` and its beta are measured against, so a short book has a beta
 * near −1), `benchmark_return` (the same market signed like the positions:
 * a short position's benchmark is the market's negative; equal to
 * `market_return` for a long book), `excess_return` (`return −
 * benchmark_return`: what the positions earned beyond the market moves they
 * carry), `turnover`, `cost` (percent of the portfolio paid that month),
 * `equity`, `drawdown`.
 *
 * Stats (percent unless said):
 * - `months`, `cagr` (annualized growth of the equity curve; null under
 *   `MIN_ANNUAL_MONTHS`, 12, months: annualizing fewer extrapolates them),
 *   `vol` (sd of monthly returns · √12),
 *   `maxDrawdown` (the lowest `drawdown`, ≤ 0),
 *   `hitRate` (percent of months with positions whose excess return is
 *   above 0);
 * - `sharpe`: mean / sd of the monthly return over the risk-free rate,
 *   · √12; null when that series does not vary (never ±Infinity).
 *   `riskFree` (default 0): percent a year (`4`; a value above 0 and under
 *   1, like `0.04`, is refused as a likely fraction with a did-you-mean;
 *   `"0.04%"` means 0.04 % a year), or monthly rates in percent a month: a
 *   frame (`month` as a date or `YYYY-MM`, `rf`; e.g. Fama-French's RF) or
 *   a Series with one rate per backtest month (`_risk_free.ts`).
 *   `stats.riskFree` is the number given, or for monthly rates their mean
 *   compounded to a year. `sharpeInterval`: 95 % interval from the standard
 *   error of Mertens (2002), which allows for skewness and fat tails (Lo
 *   2002's i.i.d. form when they are 0);
 * - `informationRatio`: mean / sd of monthly `excess_return` · √12 (against
 *   the positions' own market, signed like them, beta ±1): what `sharpe`
 *   meant before. An **estimate** (its measured bias: docs/backtests.md);
 * - one rule for annualized figures: `cagr`, `vol`, `sharpe` and
 *   `informationRatio` are null under `MIN_ANNUAL_MONTHS` (12) months, each
 *   with its reason in `nullReasons` (a figure a year from fewer months
 *   extrapolates them; the `monthly` frame keeps every month's figures);
 * - `alpha`: Jensen's alpha, the intercept of the monthly return over the
 *   risk-free rate regressed on `market_return` (the market itself,
 *   unsigned) over the same rate, annualized (monthly · 12, percent a
 *   year): one definition of excess, the return over the risk-free rate,
 *   in Sharpe and alpha alike; the regression (monthly intercept,
 *   Newey-West t with Bartlett weights, beta) is `alphaFit`, `alphaInterval` its 95 % interval (t with n − 2
 *   degrees of freedom, on the larger of the Newey-West SE with the n/(n − 2)
 *   factor and the classical SE: `_portfolio_stats.ts`);
 * - minimum months (`MIN_INTERVAL_MONTHS`, 24, chosen from
 *   `bench/portfolio_minimum_bench.ts`): below it `alpha`, `alphaFit`,
 *   `alphaInterval` and `sharpeInterval` are null, and `stats.nullReasons`
 *   says why for every null figure;
 * - `factors` (optional): a frame of calendar-month factor returns in
 *   percent (a `month` Date column, any day of the month, and one column per
 *   factor, e.g. Fama-French `Mkt-RF`, `SMB`, `HML`): `factorAlpha` is the
 *   intercept of the monthly return over the risk-free rate regressed on
 *   them, with its Newey-West t, betas and interval; months without factor
 *   data are left out and counted (`factorAlpha.months`, `missingMonths`).
 *   Like `alpha` it needs `MIN_INTERVAL_MONTHS` months with factor data (and
 *   at least the factors + 3): with fewer, `factorAlpha` is absent and
 *   `nullReasons.factorAlpha` says why;
 * - `turnover` (sum of monthly turnover), `costPaid` (sum of monthly costs,
 *   percent of the portfolio); the counts: `trades` (positions),
 *   `droppedTrades` (trades left out: young at the horizon, filed after its
 *   end, or `missingValueTrades`), `missingValueTrades` (realized but
 *   lacking a value the booking needs, or holding a NaN or infinite one),
 *   `noSideTrades` (`direction: "follow"`: neither a buy nor a sell),
 *   `shortTrades`, `trimmedMonths`; and `entry`, `spread`.
 *
 * @module
 */
import { tradesInput } from "./_inputs.ts";
import { isDemo } from "../shared/demo.ts";
import { DEFAULT_HORIZONS, FORWARD_WINDOWS, WINDOW_DAYS } from "../insider/fields.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import { checkColumns } from "../shared/wrong_input.ts";
import {
  ENTRIES,
  type Entry,
  growthAt,
  hasNonFiniteKnot,
  num,
  realizedAt,
  rowPoints,
} from "./entry.ts";
import type { RiskFree } from "./_risk_free.ts";
import { sideColumn, sideOf, SIDES, type Sides } from "./event_study.ts";
import { marketPath } from "./_market_path.ts";
import { tradeDay } from "./_month.ts";
import { choice } from "../shared/options.ts";
import { portfolioFromPositions } from "./_calendar.ts";
import {
  EDGES,
  type PortfolioPosition,
  type PortfolioResult,
  SPREADS,
} from "./_portfolio_types.ts";

export { type CalendarOptions, portfolioFromPositions } from "./_calendar.ts";
export { alphaOf, MIN_ANNUAL_MONTHS, MIN_INTERVAL_MONTHS } from "./_portfolio_stats.ts";
export {
  type Alpha,
  EDGES,
  type FactorAlpha,
  type MonthRow,
  type PortfolioFigures,
  type PortfolioPosition,
  type PortfolioResult,
  type PortfolioStats,
  SPREADS,
} from "./_portfolio_types.ts";
export type { RiskFree } from "./_risk_free.ts";

/** Holding periods of a portfolio backtest. */
export const PORTFOLIO_HORIZONS: typeof DEFAULT_HORIZONS = DEFAULT_HORIZONS;
/** A holding period. */
export type PortfolioHorizon = typeof PORTFOLIO_HORIZONS[number];
/** Position weightings. */
export const WEIGHTINGS = ["equal", "value"] as const;
/** Trade directions. */
export const DIRECTIONS = ["long", "follow"] as const;

/** Options of {@link portfolioBacktest}. */
export interface PortfolioOptions {
  /**
   * `"market"` (default): the market part of each position's return is
   * booked on the market's own path (rebuilt from the trades' windows), the
   * stock's return relative to the market by step; `"step"`: each segment's
   * whole return is booked in the month its point is observed;
   * `"geometric"`: spread evenly (smooth paths, but the mean monthly return
   * is biased low by volatility drag). See the module doc.
   */
  spread?: typeof SPREADS[number];
  /** How long each position is held (default `"6m"`). */
  horizon?: PortfolioHorizon;
  /** `"equal"` (default) or `"value"` (by the insider's trade size, `transaction_value`). */
  weighting?: typeof WEIGHTINGS[number];
  /** `"long"` (default) or `"follow"` (long buys, short sells; see `sides`). */
  direction?: typeof DIRECTIONS[number];
  /**
   * With `direction: "follow"`, what buy and sell mean: `"tradeClass"`
   * (default: code `P` is bought, code `S` shorted, other codes left out and
   * counted in `stats.noSideTrades`) or `"acquiredDisposed"` (`A` / `D`).
   */
  sides?: Sides;
  /** Cost per side in basis points (default 0). */
  costBps?: number;
  /** Open positions at the trade date (default) or at the filing date (approximated). */
  entry?: Entry;
  /**
   * Risk-free rate for `sharpe` and for cash months: percent a year
   * (default 0; a value under 1 such as 0.04 is refused as a likely
   * fraction, pass `"0.04%"` to mean it), or monthly rates in percent a
   * month — a frame (`month` as a date or `YYYY-MM`, `rf`) or a Series with
   * one rate per month of the backtest. See `_risk_free.ts`.
   */
  riskFree?: RiskFree;
  /** Calendar-month factor returns in percent (`month` + one column per factor) for `factorAlpha`. */
  factors?: pl.DataFrame;
  /** `"trim"` (default): the sample ends with the last entry month; `"keep"`: book the ramp-down too. */
  edges?: typeof EDGES[number];
}

/**
 * The choices of {@link portfolioBacktest}'s options with their defaults,
 * each checked: a value not allowed is a `RangeError` naming it, with close
 * matches.
 */
function resolvePortfolioOptions(options: PortfolioOptions) {
  const fn = "portfolioBacktest";
  return {
    horizon: choice(fn, "horizon", options.horizon, PORTFOLIO_HORIZONS, "6m"),
    weighting: choice(fn, "weighting", options.weighting, WEIGHTINGS, "equal"),
    direction: choice(fn, "direction", options.direction, DIRECTIONS, "long"),
    sides: choice(fn, "sides", options.sides, SIDES, "tradeClass"),
    spread: choice(fn, "spread", options.spread, SPREADS, "market"),
    entry: choice(fn, "entry", options.entry, ENTRIES, "trade"),
    edges: choice(fn, "edges", options.edges, EDGES, "trim"),
  };
}

/** The choices of {@link PortfolioOptions}, defaults applied. */
type ResolvedPortfolioOptions = ReturnType<typeof resolvePortfolioOptions>;

/**
 * Runs a calendar-time portfolio backtest over a trades frame (see the module
 * doc for every rule, unit and limit).
 *
 * @example
 * ```ts
 * import { connect, portfolioBacktest, tradeClass } from "../../mod.ts";
 * import pl from "npm:nodejs-polars@0.25.2";
 * const { insider } = await connect();
 * const trades = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 });
 * const buys = tradeClass(trades).filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * const { monthly, stats } = portfolioBacktest(buys, { horizon: "6m", costBps: 10, riskFree: 4 });
 * console.log(monthly.height, stats.sharpe?.toFixed(2), stats.informationRatio?.toFixed(2), stats.nullReasons);
 * ```
 */
export function portfolioBacktest(
  trades: pl.DataFrame,
  options: PortfolioOptions = {},
): PortfolioResult {
  tradesInput("portfolioBacktest", trades);
  const o = resolvePortfolioOptions(options);
  const { horizon, weighting, direction, entry } = o;
  const cols = [
    "transaction_date",
    ...PORTFOLIO_HORIZONS.filter((w) => WINDOW_DAYS[w] <= WINDOW_DAYS[horizon])
      .flatMap((w) => [`returns_${w}`, `excess_returns_${w}`]),
    ...(weighting === "value" ? ["transaction_value"] : []),
    ...(direction === "follow" ? [sideColumn(o.sides)] : []),
    ...(entry === "filing" ? ["filing_delay_days"] : []),
  ];
  checkColumns("portfolioBacktest", trades, cols);
  // every window the frame has: 1w sharpens the early path and the filing
  // entry, and all windows (whatever the horizon) link the market's path
  const extra = FORWARD_WINDOWS.flatMap((w) => [`returns_${w}`, `excess_returns_${w}`])
    .filter((c) => trades.columns.includes(c) && !cols.includes(c));
  const rows = trades.select(...cols, ...extra).toRecords() as Record<string, unknown>[];
  // each trade's day (`_month.ts`); an unreadable one is an error naming it
  const dayAt = rows.map((r, i) => tradeDay("portfolioBacktest", r.transaction_date, i));
  const made = positionsOf(rows, dayAt, o);
  const { positions, dropped, nonFinite, noSide } = made;
  const marketLevel = o.spread === "market"
    ? marketPath(rows.flatMap((r, i) => dayAt[i] === null ? [] : [{ ...r, day: dayAt[i]! }]))
    : null;
  if (!positions.length) throw noPositions(rows.length, o, made);
  return portfolioFromPositions(positions, {
    // with too few windows to rebuild the market's path, book by step (stats.spread says so)
    spread: o.spread === "market" && marketLevel === null ? "step" : o.spread,
    marketLevel: marketLevel ?? undefined,
    costBps: options.costBps,
    riskFree: options.riskFree,
    factors: options.factors,
    edges: o.edges,
    entry,
    dropped,
    missingValues: nonFinite,
    noSide,
    demo: isDemo(trades),
  });
}

/**
 * The positions of a backtest, one per trade realized at the horizon with
 * every value its booking needs, and the counts of the trades left out.
 */
function positionsOf(
  rows: Record<string, unknown>[],
  dayAt: (number | null)[],
  o: ResolvedPortfolioOptions,
) {
  const days = WINDOW_DAYS[o.horizon];
  const positions: PortfolioPosition[] = [];
  let dropped = 0;
  let nonFinite = 0;
  let noSide = 0;
  for (const [i, r] of rows.entries()) {
    const sign = o.direction === "follow" ? sideOf(r, o.sides) : 1;
    if (sign === 0) {
      noSide++;
      continue;
    }
    // realized at the horizon: a value (even NaN) there or at a longer window (they are nested)
    if (!realizedAt(r, o.horizon)) {
      dropped++; // young: no return yet at the horizon
      continue;
    }
    const day = dayAt[i];
    const size = o.weighting === "value" ? num(r.transaction_value) : 1;
    const delay = o.entry === "filing" ? num(r.filing_delay_days) : 0;
    if (delay !== null && delay >= days) {
      dropped++; // filed on or after the holding's end: no position
      continue;
    }
    if (
      day === null || num(r[`returns_${o.horizon}`]) === null ||
      num(r[`excess_returns_${o.horizon}`]) === null || size === null || size <= 0 ||
      delay === null || delay < 0 || hasNonFiniteKnot(r, days)
    ) {
      // realized, but lacking a value the booking needs, or holding a non-finite one
      dropped++;
      nonFinite++;
      continue;
    }
    const pts = rowPoints(r, days);
    // from the entry day: divide by the (interpolated) growth up to it
    const from = (p: [number, number][], g0 = growthAt(p, delay)): [number, number][] => [
      [0, 1],
      ...p.filter(([d]) => d > delay).map(([d, g]): [number, number] => [d - delay, g / g0]),
    ];
    positions.push({
      start: day + delay,
      end: day + days,
      sign,
      size: Math.abs(size),
      stock: from(pts.stock),
      market: from(pts.market),
    });
  }
  return { positions, dropped, nonFinite, noSide };
}

/** The error of a backtest that made no position, saying why. */
function noPositions(
  given: number,
  o: ResolvedPortfolioOptions,
  made: { nonFinite: number; noSide: number },
): Error {
  if (o.direction === "follow" && given > 0 && made.noSide === given) {
    return new Error(
      `portfolioBacktest: direction "follow" needs trades with a side, and none of the ${given} rows has one (${
        o.sides === "acquiredDisposed" ? "acquired_disposed_code A or D" : "code P or S"
      })`,
    );
  }
  return new Error(
    `portfolioBacktest: no trade has a realized ${o.horizon} return${
      o.weighting === "value" ? " and a transaction_value" : ""
    }${o.entry === "filing" ? " and a filing before its end" : ""}${
      made.nonFinite
        ? `, or it lacks a value the booking needs or holds a NaN or infinite one (${made.nonFinite} rows)`
        : ""
    } (${given} rows given)`,
  );
}
