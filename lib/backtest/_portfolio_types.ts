/**
 * The types of a calendar-time portfolio backtest: its result, its
 * statistics and the positions of `portfolioFromPositions` (the rules are in
 * `portfolio.ts`).
 *
 * @module
 */
import type { Frame } from "../frames/list.ts";
import type { Entry } from "./entry.ts";

/** How returns between the known points (1w, 1m, 3m, 6m, 1y) are spread over the days. */
export const SPREADS = ["market", "step", "geometric"] as const;
/** What to do with the ramp-down months after the last entry. */
export const EDGES = ["trim", "keep"] as const;

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

/**
 * The figures of a portfolio's months (see the module doc for units): its
 * statistics but for the risk-free rate, the factor alpha, the counts of its
 * trades and its settings (`PortfolioStats` adds them).
 */
export interface PortfolioFigures {
  /** Months in `monthly`. */
  months: number;
  /**
   * Annualized growth, percent; null under `MIN_ANNUAL_MONTHS` (12) months
   * (`nullReasons.cagr`): a growth rate a year from fewer months would
   * extrapolate them.
   */
  cagr: number | null;
  /**
   * Annualized volatility of monthly returns, percent (an estimate: see the
   * module doc); null under `MIN_ANNUAL_MONTHS` (12) months, as `cagr`
   * (`nullReasons.vol`).
   */
  vol: number | null;
  /**
   * Annualized Sharpe ratio of monthly returns over the risk-free rate;
   * null when they do not vary, or under `MIN_ANNUAL_MONTHS` (12) months, as
   * `cagr`: `nullReasons.sharpe`.
   */
  sharpe: number | null;
  /**
   * 95 % interval of `sharpe` (Mertens 2002 standard error); null under
   * `MIN_INTERVAL_MONTHS` months or when degenerate: `nullReasons.sharpeInterval`.
   */
  sharpeInterval: [number, number] | null;
  /**
   * Annualized mean / sd of monthly `excess_return` (against the positions'
   * own market, signed like them); null when it does not vary, or under
   * `MIN_ANNUAL_MONTHS` (12) months, as `cagr`. An estimate whose measured
   * bias is in docs/backtests.md.
   */
  informationRatio: number | null;
  /** Lowest drawdown, percent (≤ 0; an estimate: see the module doc). */
  maxDrawdown: number;
  /** Percent of months with positions whose excess return is above 0 (an estimate); null without such months. */
  hitRate: number | null;
  /**
   * Jensen's alpha, annualized percent a year (`alphaFit.annualized`): the
   * intercept of the monthly return over the risk-free rate regressed on the
   * market's return over the risk-free rate; null under
   * `MIN_INTERVAL_MONTHS` months: `nullReasons.alpha`.
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
  /** Sum of monthly turnover (multiples of the portfolio). */
  turnover: number;
  /** Sum of monthly costs, percent of the portfolio. */
  costPaid: number;
}

/** Summary statistics of a portfolio backtest (see the module doc for units). */
export interface PortfolioStats extends PortfolioFigures {
  /**
   * The risk-free rate used, percent a year: the number given, or for
   * monthly rates their mean over the backtest's months compounded to a
   * year, `((1 + mean/100)^12 − 1) · 100`.
   */
  riskFree: number;
  /** Alpha against the user's factors (only with `factors`, and enough months: see `nullReasons.factorAlpha`). */
  factorAlpha?: FactorAlpha;
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

/** One calendar month of a portfolio (a row of `monthly`; see the module doc of `portfolio.ts`). */
export interface MonthRow {
  /** First day of the month, `YYYY-MM-01`. */
  month: string;
  /** Open positions. */
  n_positions: number;
  /** Of them, short. */
  n_short: number;
  /** Return after costs, percent. */
  return: number;
  /** The market over the positions' days, unsigned, percent. */
  market_return: number;
  /** The market signed like the positions, percent. */
  benchmark_return: number;
  /** `return − benchmark_return`. */
  excess_return: number;
  /** Traded value, multiples of the portfolio. */
  turnover: number;
  /** Cost paid, percent of the portfolio. */
  cost: number;
  /** Growth of 1. */
  equity: number;
  /** Percent below the running peak (≤ 0). */
  drawdown: number;
}

/** Alpha of the monthly returns over the risk-free rate against the market's (Jensen's alpha). */
export interface Alpha {
  /** Intercept: monthly alpha in percent. */
  monthly: number;
  /** `monthly` · 12, percent per year. */
  annualized: number;
  /** Newey-West t-statistic of the intercept; NaN when the returns leave no residual (see `alphaStats`). */
  tStat: number;
  /** Slope on the market return over the risk-free rate. */
  beta: number;
  /** Newey-West lags used. */
  lags: number;
}
