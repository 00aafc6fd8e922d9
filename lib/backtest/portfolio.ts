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
 *   Measured against the emulator's true daily paths over 60 worlds (seeds
 *   8101–8160, scale 0.5; both headline portfolios, both entries:
 *   `bench/portfolio_truth_bench.ts`), the mean bias of each figure in
 *   percent of the true value (alpha: points a year), by holding period:
 *
 *   | holding | vol          | max drawdown | hit rate      | Sharpe       | IR             | alpha          |
 *   | ------- | ------------ | ------------ | ------------- | ------------ | -------------- | -------------- |
 *   | 1m      | −3.0 to −1.7 | −1.3 to −0.5 | +0.6 to +1.3  | +0.5 to +1.2 | +2.3 to +4.7   | −0.30 to 0.00  |
 *   | 3m      | −1.5 to −0.7 | −2.1 to −0.3 | +0.6 to +4.7  | +0.2 to +1.7 | +4.1 to +13.5  | −0.17 to +0.10 |
 *   | 6m      | −1.1 to −0.6 | −2.2 to −0.8 | +2.7 to +7.7  | +1.5 to +2.1 | +12.2 to +27.4 | −0.03 to +0.13 |
 *   | 1y      | −1.1 to −0.6 | −3.6 to −2.3 | +2.3 to +11.3 | +2.6 to +5.6 | +18.1 to +55.8 | +0.22 to +0.45 |
 *
 *   Vol and drawdown are within 5 % at every holding; hit rate, Sharpe,
 *   the information ratio (IR) and alpha read high at long holdings (the
 *   upper ends are all purchases; CEO buys stay within +4.1 % hit rate and
 *   +2.9 % Sharpe, +18.4 % IR). Two causes,
 *   isolated by the bench's diagnostic portfolios: (1) Sharpe, alpha and the
 *   mean return at 1 year: the stock-specific part of a segment is booked
 *   compounded in one month, where a monthly-rebalanced portfolio earns the
 *   sum of its monthly returns; they differ by the compounding of the drift,
 *   large only for a run-up like the emulator's ten-bagger (15× in 100 days)
 *   — without its purchases, Sharpe is within +0.6 to +0.8 % and alpha
 *   within −0.09 to −0.07 points a year at 1 year. (2) The hit rate: an
 *   issuer often has several positions open at once, and each books the
 *   stock's moves at its own points, so a shock they share lands in
 *   different months, the monthly excess return is too smooth and more
 *   months fall on the side of its mean — with at most one position per
 *   issuer the hit rate is within +2.1 % at every holding. The same
 *   smoothing makes the IR read high: the spread of the monthly excess
 *   return reads low by 3.1 to 26.6 % (headline portfolios), by −2.3 to +2.3 %
 *   with at most one position per issuer, where the IR is within −7.2 to
 *   +6.8 %. Neither can be
 *   fixed without the path between the service's points (linking one
 *   issuer's windows, as for the market, finds too few shared days; see
 *   docs/validation.md). The figures are **estimates**, and the report says
 *   so with this table. With too few
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
 *   `MIN_CAGR_MONTHS`, 12, months: annualizing fewer extrapolates them),
 *   `vol` (sd of monthly returns · √12; null under 2 months),
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
 *   meant before. An **estimate** that reads high (the IR column above:
 *   the spread of the monthly excess return reads low);
 * - `alpha`: the intercept of the monthly return regressed on
 *   `market_return` (the market itself, unsigned), annualized (monthly · 12, percent a year); the
 *   regression (monthly intercept, Newey-West t with Bartlett weights,
 *   beta) is `alphaFit`, `alphaInterval` its 95 % interval (t with n − 2
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
import { isDemo, markDemo } from "../shared/demo.ts";
import { withDisplay } from "../frames/display.ts";
import { DEFAULT_HORIZONS, WINDOW_DAYS } from "../insider/fields.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import { asFrame, type Frame } from "../frames/list.ts";
import { buildFrame } from "../frames/build.ts";
import { requireColumns } from "../frames/columns.ts";
import { sd } from "./_stats.ts";
import { ENTRIES, type Entry, growthAt, hasNonFiniteKnot, rowPoints } from "./entry.ts";
import { plural } from "../shared/plural.ts";
import { usableSe } from "./_cluster_se.ts";
import { t975 } from "./_quantiles.ts";
import { type Fit, olsNeweyWest } from "./_ols.ts";
import { type Alpha, alphaStats, MIN_INTERVAL_MONTHS, sharpeStats } from "./_portfolio_stats.ts";
import { type RiskFree, riskFreeRates } from "./_risk_free.ts";
import { sideColumn, sideOf, SIDES, type Sides } from "./event_study.ts";
export { type Alpha, alphaOf, MIN_INTERVAL_MONTHS } from "./_portfolio_stats.ts";
export type { RiskFree } from "./_risk_free.ts";
import { marketPath } from "./_market_path.ts";
import { withPortfolioDisplay } from "./result_display.ts";
import { UNREADABLE } from "../shared/values/mod.ts";
import {
  DAY_FORMS,
  MONTH_FORMS,
  monthOfDay,
  monthText,
  readDay,
  readMonth,
  unreadable,
} from "./_month.ts";

/**
 * Months a portfolio needs for `cagr`: a growth rate a year from fewer
 * months would extrapolate them (one month of +4.7 % reads 73.8 % a year).
 */
export const MIN_CAGR_MONTHS = 12;

/** Holding periods of a portfolio backtest. */
export const PORTFOLIO_HORIZONS: typeof DEFAULT_HORIZONS = DEFAULT_HORIZONS;
/** A holding period. */
export type PortfolioHorizon = typeof PORTFOLIO_HORIZONS[number];
/** Months held per horizon (the service's windows are 30, 91, 182 and 365 days). */
export const HORIZON_MONTHS: Readonly<Record<PortfolioHorizon, number>> = {
  "1m": 1,
  "3m": 3,
  "6m": 6,
  "1y": 12,
};
/** Position weightings. */
export const WEIGHTINGS = ["equal", "value"] as const;
/** Trade directions. */
export const DIRECTIONS = ["long", "follow"] as const;

/** How returns between the known points (1w, 1m, 3m, 6m, 1y) are spread over the days. */
export const SPREADS = ["market", "step", "geometric"] as const;
/** What to do with the ramp-down months after the last entry. */
export const EDGES = ["trim", "keep"] as const;

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

/** A multi-factor alpha (see `factors`). */
export interface FactorAlpha {
  /** Intercept · 12, percent a year. */
  annualized: number;
  /** Newey-West t of the intercept. */
  tStat: number;
  /** 95 % interval of `annualized`. */
  interval: [number, number];
  /** Slope on each factor. */
  betas: Record<string, number>;
  /** Months in the regression. */
  months: number;
  /** Portfolio months without factor data (left out). */
  missingMonths: number;
  /** Newey-West lags used. */
  lags: number;
}

/** Summary statistics of a portfolio backtest (see the module doc for units). */
export interface PortfolioStats {
  /** Months in `monthly`. */
  months: number;
  /**
   * Annualized growth, percent; null under {@link MIN_CAGR_MONTHS} months
   * (`nullReasons.cagr`): a growth rate a year from fewer months would
   * extrapolate them.
   */
  cagr: number | null;
  /**
   * Annualized volatility of monthly returns, percent (an estimate: see the
   * module doc); null under 2 months (`nullReasons.vol`).
   */
  vol: number | null;
  /**
   * Annualized Sharpe ratio of monthly returns over the risk-free rate;
   * null when they do not vary (or under 2 months): `nullReasons.sharpe`.
   */
  sharpe: number | null;
  /**
   * 95 % interval of `sharpe` (Mertens 2002 standard error); null under
   * `MIN_INTERVAL_MONTHS` months or when degenerate: `nullReasons.sharpeInterval`.
   */
  sharpeInterval: [number, number] | null;
  /**
   * Annualized mean / sd of monthly `excess_return` (against the positions'
   * own market, signed like them); null when it does not vary. An estimate
   * that reads high (see the module doc).
   */
  informationRatio: number | null;
  /**
   * The risk-free rate used, percent a year: the number given, or for
   * monthly rates their mean over the backtest's months compounded to a
   * year, `((1 + mean/100)^12 − 1) · 100`.
   */
  riskFree: number;
  /** Lowest drawdown, percent (≤ 0; an estimate: see the module doc). */
  maxDrawdown: number;
  /** Percent of months with positions whose excess return is above 0 (an estimate); null without such months. */
  hitRate: number | null;
  /**
   * Regression alpha, annualized percent a year (`alphaFit.annualized`);
   * null under `MIN_INTERVAL_MONTHS` months: `nullReasons.alpha`.
   */
  alpha: number | null;
  /** 95 % interval of `alpha` (t with months − 2 degrees of freedom); null with `alpha`. */
  alphaInterval: [number, number] | null;
  /** The regression behind `alpha`: monthly intercept, Newey-West t, beta, lags; null with `alpha`. */
  alphaFit: Alpha | null;
  /** Why a figure above is null, by figure name (empty when none is). */
  nullReasons: Partial<
    Record<
      | "cagr"
      | "vol"
      | "sharpe"
      | "sharpeInterval"
      | "informationRatio"
      | "hitRate"
      | "alpha"
      | "alphaInterval"
      | "factorAlpha",
      string
    >
  >;
  /** Alpha against the user's factors (only with `factors`, and enough months: see `nullReasons.factorAlpha`). */
  factorAlpha?: FactorAlpha;
  /** Sum of monthly turnover (multiples of the portfolio). */
  turnover: number;
  /** Sum of monthly costs, percent of the portfolio. */
  costPaid: number;
  /** Trades that became positions. */
  trades: number;
  /**
   * Trades left out: not yet realized at the horizon (no value there or at a
   * longer window), filed on or after the holding's end, or counted in
   * `missingValueTrades`.
   */
  droppedTrades: number;
  /**
   * Of `droppedTrades`, trades realized at the horizon that lack a value the
   * booking needs — the return or the excess return at the horizon, the
   * trade date, the trade size (`weighting: "value"`), the filing delay
   * (`entry: "filing"`) — or hold a NaN or infinite return at any window up
   * to it, whichever it is.
   */
  missingValueTrades: number;
  /** Positions that are short (`direction: "follow"` on sales); 0 for a long book. */
  shortTrades: number;
  /** With `direction: "follow"`: trades neither a buy nor a sell (under `sides`), left out. */
  noSideTrades: number;
  /** Ramp-down months left out by `edges: "trim"`. */
  trimmedMonths: number;
  /** Where positions opened. */
  entry: Entry;
  /** The booking used (`"step"` when `"market"` was asked but the windows could not rebuild the market's path). */
  spread: typeof SPREADS[number];
}

/** The result of {@link portfolioBacktest}. */
export interface PortfolioResult {
  /**
   * One row per calendar month: `month`, `n_positions`, `return`,
   * `market_return`, `excess_return`, `turnover`, `cost`, `equity`, `drawdown`.
   */
  monthly: Frame;
  /** Summary statistics. */
  stats: PortfolioStats;
}

/**
 * A position for {@link portfolioFromPositions}: entry day and end day
 * (days since 1970-01-01, closes), sign, size, and known growth points of
 * the stock and of its market, `[days since entry, growth]`, starting
 * `[0, 1]`.
 */
export interface PortfolioPosition {
  /** Entry day (close). */
  start: number;
  /** Exit day (close). */
  end: number;
  /** +1 long, −1 short. */
  sign: number;
  /** Weight before normalizing (1 for equal weight). */
  size: number;
  /** Stock growth points from entry. */
  stock: [number, number][];
  /** Market growth points from entry. */
  market: [number, number][];
}

const KNOTS: [number, string][] = [[1, "1m"], [3, "3m"], [6, "6m"], [12, "1y"]];

function allowed(what: string, value: unknown, list: readonly string[]): never {
  throw new RangeError(
    `portfolioBacktest: ${what} ${JSON.stringify(value)} is not allowed; allowed: ${
      list.join(", ")
    }`,
  );
}

/**
 * Monthly returns (fractions) of one position from its cumulative returns at
 * the knot months: `"step"` books each segment in the month its point is
 * observed (0 in the months between), `"geometric"` spreads it evenly. (A
 * helper for positions that start on a month's first day; the backtest
 * itself books by calendar day.)
 *
 * @example
 * ```ts
 * import { monthlyPath } from "./portfolio.ts";
 * monthlyPath([[1, 2], [3, 5]], 3); // step: 2 % in month 1, 0, then 1.05/1.02 − 1 in month 3
 * monthlyPath([[1, 2], [3, 5]], 3, "geometric"); // 2 %, then (1.05/1.02)^(1/2) − 1 twice
 * ```
 */
export function monthlyPath(
  points: [number, number][],
  months: number,
  spread: typeof SPREADS[number] = "step",
): number[] {
  const knots: [number, number][] = [[0, 1], ...points.map(([m, r]) => [m, 1 + r / 100])] as [
    number,
    number,
  ][];
  const out: number[] = [];
  let prev = 1;
  const known = new Set(knots.map(([m]) => m));
  for (let k = 1; k <= months; k++) {
    if (spread === "step" && !known.has(k) && k < knots[knots.length - 1][0]) {
      out.push(0); // nothing observed this month: the segment is booked at its end
      continue;
    }
    const g = growthAt(knots, k);
    out.push(g / prev - 1);
    prev = g;
  }
  return out;
}

const DAY = 86_400_000;

/** The day of each trade's `transaction_date` (`_month.ts`); an unreadable one is an error naming it. */
function tradeDays(rows: Record<string, unknown>[]): (number | null)[] {
  return rows.map((r, i) => {
    const d = readDay(r.transaction_date);
    if (d === UNREADABLE) {
      throw unreadable("portfolioBacktest", "transaction_date", r.transaction_date, i, DAY_FORMS);
    }
    return d;
  });
}

const firstDayOf = (m: number) => Date.UTC(Math.floor(m / 12), m % 12, 1) / DAY;

/** Growth at day t since entry under the booking rule. */
function grow(points: [number, number][], t: number, spread: typeof SPREADS[number]): number {
  if (spread === "geometric") return growthAt(points, t);
  let g = 1;
  for (const [d, v] of points) {
    if (d <= t) g = v;
    else break;
  }
  return g;
}

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
  const horizon = options.horizon ?? "6m";
  if (!(PORTFOLIO_HORIZONS as readonly string[]).includes(horizon)) {
    allowed("horizon", horizon, PORTFOLIO_HORIZONS);
  }
  const weighting = options.weighting ?? "equal";
  if (!(WEIGHTINGS as readonly string[]).includes(weighting)) {
    allowed("weighting", weighting, WEIGHTINGS);
  }
  const direction = options.direction ?? "long";
  if (!(DIRECTIONS as readonly string[]).includes(direction)) {
    allowed("direction", direction, DIRECTIONS);
  }
  const sides = options.sides ?? "tradeClass";
  if (!(SIDES as readonly string[]).includes(sides)) allowed("sides", sides, SIDES);
  const spread = options.spread ?? "market";
  if (!(SPREADS as readonly string[]).includes(spread)) allowed("spread", spread, SPREADS);
  const entry = options.entry ?? "trade";
  if (!(ENTRIES as readonly string[]).includes(entry)) allowed("entry", entry, ENTRIES);
  const edges = options.edges ?? "trim";
  if (!(EDGES as readonly string[]).includes(edges)) allowed("edges", edges, EDGES);
  const H = HORIZON_MONTHS[horizon];
  const days = WINDOW_DAYS[horizon];
  const knots = KNOTS.filter(([m]) => m <= H);
  const cols = [
    "transaction_date",
    ...knots.flatMap(([, w]) => [`returns_${w}`, `excess_returns_${w}`]),
    ...(weighting === "value" ? ["transaction_value"] : []),
    ...(direction === "follow" ? [sideColumn(sides)] : []),
    ...(entry === "filing" ? ["filing_delay_days"] : []),
  ];
  requireColumns("portfolioBacktest", trades, cols);
  // every window the frame has: 1w sharpens the early path and the filing
  // entry, and all windows (whatever the horizon) link the market's path
  const extra = ["1w", "1m", "3m", "6m", "1y"].flatMap((
    w,
  ) => [`returns_${w}`, `excess_returns_${w}`])
    .filter((c) => trades.columns.includes(c) && !cols.includes(c));
  const rows = trades.select(...cols, ...extra).toRecords() as Record<string, unknown>[];
  const positions: PortfolioPosition[] = [];
  let dropped = 0;
  let nonFinite = 0;
  let noSide = 0;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const present = (v: unknown) => v !== null && v !== undefined;
  // realized at the horizon: a value (even NaN) there or at a longer window (they are nested)
  const later = ["1m", "3m", "6m", "1y"].filter((w) => WINDOW_DAYS[w] >= days);
  const realized = (r: Record<string, unknown>) =>
    later.some((w) => present(r[`returns_${w}`]) || present(r[`excess_returns_${w}`]));
  const dayAt = tradeDays(rows);
  for (const [i, r] of rows.entries()) {
    const sign = direction === "follow" ? sideOf(r, sides) : 1;
    if (sign === 0) {
      noSide++;
      continue;
    }
    if (!realized(r)) {
      dropped++; // young: no return yet at the horizon
      continue;
    }
    const day = dayAt[i];
    const rH = num(r[`returns_${horizon}`]);
    const xH = num(r[`excess_returns_${horizon}`]);
    const size = weighting === "value" ? num(r.transaction_value) : 1;
    const delay = entry === "filing" ? num(r.filing_delay_days) : 0;
    if (delay !== null && delay >= days) {
      dropped++; // filed on or after the holding's end: no position
      continue;
    }
    if (
      day === null || rH === null || xH === null || size === null || size <= 0 ||
      delay === null || delay < 0 || hasNonFiniteKnot(r, days)
    ) {
      // realized, but lacking a value the booking needs, or holding a non-finite one
      dropped++;
      nonFinite++;
      continue;
    }
    const pts = rowPoints(r, days);
    // from the entry day: divide by the (interpolated) growth up to it
    const from = (p: [number, number][]): [number, number][] => {
      const g0 = growthAt(p, delay);
      return [[0, 1], ...p.filter(([d]) => d > delay).map(([d, g]) => [d - delay, g / g0])] as [
        number,
        number,
      ][];
    };
    positions.push({
      start: day + delay,
      end: day + days,
      sign,
      size: Math.abs(size),
      stock: from(pts.stock),
      market: from(pts.market),
    });
  }
  let marketLevel: ((day: number) => number) | null = null;
  if (spread === "market") {
    marketLevel = marketPath(
      rows.flatMap((r, i) => {
        const day = dayAt[i];
        return day === null ? [] : [{ ...r, day }];
      }),
    );
  }
  if (!positions.length && direction === "follow" && rows.length > 0 && noSide === rows.length) {
    throw new Error(
      `portfolioBacktest: direction "follow" needs trades with a side, and none of the ${rows.length} rows has one (${
        sides === "acquiredDisposed" ? "acquired_disposed_code A or D" : "code P or S"
      })`,
    );
  }
  if (!positions.length) {
    throw new Error(
      `portfolioBacktest: no trade has a realized ${horizon} return${
        weighting === "value" ? " and a transaction_value" : ""
      }${entry === "filing" ? " and a filing before its end" : ""}${
        nonFinite
          ? `, or it lacks a value the booking needs or holds a NaN or infinite one (${nonFinite} rows)`
          : ""
      } (${rows.length} rows given)`,
    );
  }
  const result = portfolioFromPositions(positions, {
    // with too few windows to rebuild the market's path, book by step (stats.spread says so)
    spread: spread === "market" && marketLevel === null ? "step" : spread,
    marketLevel: marketLevel ?? undefined,
    costBps: options.costBps,
    riskFree: options.riskFree,
    factors: options.factors,
    edges,
    entry,
    dropped,
    missingValues: nonFinite,
    noSide,
  });
  // the offline emulator's trades give a demo portfolio, its frame and its stats alone too
  // (see shared/demo.ts)
  return isDemo(trades)
    ? withPortfolioDisplay({
      ...result,
      monthly: withDisplay(result.monthly, { demo: true }) as Frame,
      stats: markDemo(result.stats),
    })
    : result;
}

/**
 * The calendar-month engine behind {@link portfolioBacktest}, over
 * positions given directly (used to run the same booking on true daily
 * paths, e.g. the emulator's prices, to measure the estimates' bias).
 *
 * @example
 * ```ts
 * import { portfolioFromPositions } from "./portfolio.ts";
 * const day = Date.UTC(2024, 0, 10) / 86_400_000;
 * const { stats } = portfolioFromPositions([
 *   { start: day, end: day + 30, sign: 1, size: 1, stock: [[0, 1], [30, 1.05]], market: [[0, 1], [30, 1.01]] },
 * ], { edges: "keep" });
 * stats.months; // 2: January and February 2024
 * ```
 */
export function portfolioFromPositions(
  positions: PortfolioPosition[],
  opts: {
    spread?: typeof SPREADS[number];
    costBps?: number;
    riskFree?: RiskFree;
    factors?: pl.DataFrame;
    edges?: typeof EDGES[number];
    entry?: Entry;
    dropped?: number;
    missingValues?: number;
    noSide?: number;
    /** The market's log level by day, for `spread: "market"`. */
    marketLevel?: (day: number) => number;
  } = {},
): PortfolioResult {
  const spread = opts.spread ?? (opts.marketLevel ? "market" : "step");
  const L = opts.marketLevel;
  if (spread === "market" && !L) {
    throw new RangeError(`portfolioFromPositions: spread "market" needs marketLevel`);
  }
  const costBps = opts.costBps ?? 0;
  if (typeof costBps !== "number" || !Number.isFinite(costBps) || costBps < 0 || costBps > 10_000) {
    allowed("costBps", costBps, ["a number from 0 to 10000"]);
  }
  const first = Math.min(...positions.map((p) => monthOfDay(p.start + 1)));
  const lastEntry = Math.max(...positions.map((p) => monthOfDay(p.start + 1)));
  const lastExit = Math.max(...positions.map((p) => monthOfDay(p.end)));
  const last = opts.edges === "keep" ? lastExit : lastEntry;
  const monthKeys = Array.from({ length: last - first + 1 }, (_, k) => monthText(first + k));
  const rf = riskFreeRates(opts.riskFree, monthKeys);
  const cost = costBps / 10_000;
  const out: Record<string, unknown>[] = [];
  const rets: number[] = [];
  const excess: number[] = [];
  const market: number[] = [];
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
      const a = Math.max(p.start, m0) - p.start;
      const b = Math.min(p.end, m1) - p.start;
      let r: number;
      let x: number;
      if (spread === "market") {
        // the market part as it happened; the stock's return relative to it by step
        const mk = Math.exp(L!(p.start + b) - L!(p.start + a));
        const rel = (t: number) => grow(p.stock, t, "step") / grow(p.market, t, "step");
        r = mk * (rel(b) / rel(a)) - 1;
        x = mk - 1;
      } else {
        r = grow(p.stock, b, spread) / grow(p.stock, a, spread) - 1;
        x = grow(p.market, b, spread) / grow(p.market, a, spread) - 1;
      }
      own.set(i, r);
      gross += wi * p.sign * r;
      mkt += wi * x;
      bench += wi * p.sign * x;
    }
    // a month without positions holds cash, which earns the risk-free rate (its benchmark too)
    if (w.size === 0) gross = mkt = bench = rf.monthly[m - first] / 100;
    const after = new Map<number, number>();
    for (const [i, wi] of w) {
      // a position that closes this month is sold at its close: drift to 0 weight next month
      after.set(i, (wi * (1 + positions[i].sign * own.get(i)!)) / (1 + gross));
    }
    if (m === last) { for (const wi of after.values()) turnover += Math.abs(wi); }
    drifted = after;
    const c = turnover * cost;
    const ret = gross - c;
    equity *= 1 + ret;
    peak = Math.max(peak, equity);
    rets.push(ret * 100);
    market.push(mkt * 100);
    excess.push((ret - bench) * 100);
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
  const months = out.length;
  const over = rets.map((r, t) => r - rf.monthly[t]);
  const active = out.map((r, i) => [r.n_positions as number, excess[i]]).filter(([n]) => n > 0);
  const nullReasons: PortfolioStats["nullReasons"] = {};
  const sh = sharpeStats(over);
  if (sh.sharpe === null) nullReasons.sharpe = sh.reason!;
  if (sh.interval === null) nullReasons.sharpeInterval = sh.reason!;
  const al = alphaStats(rets, market);
  if (al.fit === null) nullReasons.alpha = al.reason!;
  if (al.interval === null) nullReasons.alphaInterval = al.reason!;
  const ir = sharpeStats(excess, Infinity).sharpe;
  if (ir === null) {
    nullReasons.informationRatio = months < 2
      ? `${plural(months, "month")}: too few for an information ratio`
      : "monthly excess returns do not vary";
  }
  if (!active.length) nullReasons.hitRate = "no month with positions";
  // annualizing fewer than 12 months extrapolates them to a year: no CAGR (the equity column
  // keeps the growth); a volatility needs at least 2 months
  if (months < MIN_CAGR_MONTHS) {
    nullReasons.cagr = `${plural(months, "month")} < ${MIN_CAGR_MONTHS}: a growth rate a year ` +
      `would extrapolate ${months === 1 ? "it" : "them"} (the equity column has the growth)`;
  }
  const vol = sd(rets) * Math.sqrt(12);
  if (!Number.isFinite(vol)) {
    nullReasons.vol = `${plural(months, "month")}: too few for a volatility`;
  }
  const stats: PortfolioStats = {
    months,
    cagr: months < MIN_CAGR_MONTHS ? null : (equity ** (12 / months) - 1) * 100,
    vol: Number.isFinite(vol) ? vol : null,
    sharpe: sh.sharpe,
    sharpeInterval: sh.interval,
    informationRatio: ir,
    riskFree: rf.annual,
    maxDrawdown: Math.min(...out.map((r) => r.drawdown as number)),
    hitRate: active.length ? (100 * active.filter(([, x]) => x > 0).length) / active.length : null,
    alpha: al.fit?.annualized ?? null,
    alphaInterval: al.interval,
    alphaFit: al.fit,
    nullReasons,
    turnover: out.reduce((s, r) => s + (r.turnover as number), 0),
    costPaid: out.reduce((s, r) => s + (r.cost as number), 0),
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
    const fa = factorAlphaOf(monthKeys, over, opts.factors);
    if (typeof fa === "string") nullReasons.factorAlpha = fa;
    else stats.factorAlpha = fa;
  }
  const monthly = asFrame(
    buildFrame([
      { name: "month", type: "date" },
      { name: "n_positions", type: "integer" },
      { name: "n_short", type: "integer" },
      { name: "return", type: "decimal" },
      { name: "market_return", type: "decimal" },
      { name: "benchmark_return", type: "decimal" },
      { name: "excess_return", type: "decimal" },
      { name: "turnover", type: "decimal" },
      { name: "cost", type: "decimal" },
      { name: "equity", type: "decimal" },
      { name: "drawdown", type: "decimal" },
    ], out),
    false,
  );
  return withPortfolioDisplay({ monthly, stats });
}

/**
 * The multi-factor alpha, or the reason there is none: like `alpha`, it
 * needs `MIN_INTERVAL_MONTHS` months with factor data (and at least the
 * factors + 3), never an interval on a handful of degrees of freedom.
 */
function factorAlphaOf(
  months: string[],
  y: number[],
  factors: pl.DataFrame,
): FactorAlpha | string {
  if (!factors || typeof factors.columns === "undefined") {
    allowed("factors", factors, ["a frame with a month column and factor columns"]);
  }
  requireColumns("portfolioBacktest (factors)", factors, ["month"]);
  const names = factors.columns.filter((c) => c !== "month");
  if (!names.length) {
    throw new RangeError(
      "portfolioBacktest: factors has no factor column; give `month` and one column per factor (percent a month)",
    );
  }
  const rows = new Map<string, number[]>();
  const recs = factors.toRecords() as Record<string, unknown>[];
  for (const [i, r] of recs.entries()) {
    const m = readMonth(r.month);
    if (m === UNREADABLE) {
      throw unreadable("portfolioBacktest", "factors month", r.month, i, MONTH_FORMS);
    }
    const k = m === null ? null : monthText(m);
    const xs = names.map((n) => r[n]);
    if (k !== null && xs.every((x) => typeof x === "number" && Number.isFinite(x))) {
      rows.set(k, xs as number[]);
    }
  }
  const Y: number[] = [];
  const X: number[][] = [];
  months.forEach((k, t) => {
    const f = rows.get(k);
    if (f) {
      Y.push(y[t]);
      X.push([1, ...f]);
    }
  });
  const need = Math.max(MIN_INTERVAL_MONTHS, names.length + 3);
  if (Y.length < need) {
    return `factors cover ${plural(Y.length, "month")} of the backtest's ${months.length} (${
      months[0]
    } to ${months.at(-1)}); a factor alpha needs ${need}`;
  }
  const fit: Fit = olsNeweyWest(Y, X);
  // an exact fit leaves a standard error of rounding noise: no factor alpha, as for `alpha`
  const scale = Math.max(...Y.map(Math.abs), ...X.flat().map(Math.abs), Math.abs(fit.coef[0]));
  if (!usableSe(fit.se[0], scale)) {
    return "the returns leave no residual around the factor fit (the intercept's standard " +
      "error is rounding noise): no factor alpha";
  }
  const t = t975(Y.length - names.length - 1);
  return {
    annualized: fit.coef[0] * 12,
    tStat: fit.coef[0] / fit.se[0],
    interval: [12 * (fit.coef[0] - t * fit.se[0]), 12 * (fit.coef[0] + t * fit.se[0])],
    betas: Object.fromEntries(names.map((n, i) => [n, fit.coef[i + 1]])),
    months: Y.length,
    missingMonths: months.length - Y.length,
    lags: fit.lags,
  };
}
