/**
 * Calendar-time portfolio backtests: the standard remedy for overlapping
 * event windows. Instead of averaging trades (whose windows overlap and
 * share market moves), every trade becomes a position in one portfolio that
 * is held in calendar time, and the portfolio's monthly returns — one number
 * per month, whatever the number of trades — are what the statistics use.
 *
 * Rules:
 * - Each trade with a realized `returns_{horizon}` and
 *   `excess_returns_{horizon}` opens a position in the calendar month of its
 *   `transaction_date` and holds it for `horizon` months (1m = 1, 3m = 3,
 *   6m = 6, 1y = 12). Holding month k (1…H) is booked in calendar month
 *   (trade month + k − 1): the `month` column names the month in which that
 *   month-long holding period starts. Younger trades (no return yet at the
 *   horizon) are left out and counted in `stats.droppedTrades`.
 * - `weighting`: `"equal"` (default) gives every open position the same
 *   weight; `"value"` weights by the trade's dollar value
 *   (`transaction_value`; trades without one are dropped and counted).
 *   Weights are reset to target every month (monthly rebalancing) and their
 *   absolute values sum to 1.
 * - `direction`: `"long"` (default) buys every trade's stock; `"follow"`
 *   buys after insider purchases and shorts after insider sales
 *   (`acquired_disposed_code` `D`), so a short earns the negative of the
 *   stock's return (no interest on short proceeds).
 * - `costBps` (default 0): cost per side in basis points, charged on
 *   turnover. `turnover` is the traded value as a multiple of the portfolio
 *   (buys plus sells: a month that replaces the whole book has 2); weights
 *   drift with returns between rebalancings; the final month also pays for
 *   selling everything, and a month without positions pays for emptying the
 *   book.
 * - Months between the first and the last with no open position hold cash:
 *   `return` and `excess_return` 0 (less any cost), `n_positions` 0.
 *
 * Monthly returns from forward-return fields. The service gives each trade's
 * cumulative return at 1, 3, 6 and 12 months (`returns_1m` … `returns_1y`,
 * percent) and its excess over the market (`excess_returns_*`), so the market
 * return over the same window is `returns − excess_returns`. Between those
 * points the growth is spread geometrically: with growth G(a) and G(b) at
 * months a < b, G(k) = G(a)·(G(b)/G(a))^((k−a)/(b−a)), and month k's return is
 * G(k)/G(k−1) − 1 (G(0) = 1); a segment ending in a total loss (growth ≤ 0)
 * is spread linearly instead. Missing intermediate points are skipped. The
 * chained monthly returns therefore reproduce every known point exactly (one
 * trade held H months ends at 1 + returns_H/100), but inside a segment every
 * month gets the same return: the path between points — and with it
 * volatility and drawdowns — is smoothed (the 6m→1y segment spreads six
 * months evenly), so `vol` and `maxDrawdown` understate the real ones and
 * the timing inside a segment is approximate. Windows run from the trade
 * date, not from the calendar month's start; returns are from the trade
 * date, while an investor could act only after the filing.
 *
 * Excess: each position's monthly excess is its return minus its market
 * return over the same window (signed like the position); `excess_return` is
 * the weighted sum, less costs.
 *
 * Stats (percent unless said): `months` (rows of `monthly`), `cagr`
 * (annualized growth of the equity curve), `vol` (sd of monthly returns ·
 * √12), `sharpe` (mean / sd of monthly `excess_return` · √12: excess over the
 * market, so an information ratio against the market with beta 1),
 * `maxDrawdown` (the lowest `drawdown`, ≤ 0), `hitRate` (percent of months
 * with positions whose excess return is above 0), and `alpha`: the intercept
 * of the monthly return regressed on the positions' market return, annualized
 * (monthly · 12, percent a year). `alpha` is a plain number like the other
 * stats; the regression behind it (monthly intercept, Newey-West (Bartlett,
 * `lags` lags) t-statistic, beta) is in `alphaFit`.
 *
 * @module
 */
import { DEFAULT_HORIZONS } from "../insider/fields.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import { asFrame, type Frame } from "../frames/list.ts";
import { buildFrame } from "../frames/build.ts";
import { requireColumns } from "../frames/columns.ts";
import { mean, neweyWestSe, sd } from "./_stats.ts";

/** Holding periods of a portfolio backtest. */
export const PORTFOLIO_HORIZONS: typeof DEFAULT_HORIZONS = DEFAULT_HORIZONS;
/** A holding period. */
export type PortfolioHorizon = typeof PORTFOLIO_HORIZONS[number];
/** Months held per horizon. */
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

/** Options of {@link portfolioBacktest}. */
export interface PortfolioOptions {
  /** How long each position is held (default `"6m"`). */
  horizon?: PortfolioHorizon;
  /** `"equal"` (default) or `"value"` (by `transaction_value`). */
  weighting?: typeof WEIGHTINGS[number];
  /** `"long"` (default) or `"follow"` (long buys, short sells). */
  direction?: typeof DIRECTIONS[number];
  /** Cost per side in basis points (default 0). */
  costBps?: number;
}

/** Alpha of the monthly returns against the positions' market return. */
export interface Alpha {
  /** Intercept: monthly alpha in percent. */
  monthly: number;
  /** `monthly` · 12, percent per year. */
  annualized: number;
  /** Newey-West t-statistic of the intercept. */
  tStat: number;
  /** Slope on the market return. */
  beta: number;
  /** Newey-West lags used. */
  lags: number;
}

/** Summary statistics of a portfolio backtest (see the module doc for units). */
export interface PortfolioStats {
  /** Months in `monthly`. */
  months: number;
  /** Annualized growth, percent. */
  cagr: number;
  /** Annualized volatility of monthly returns, percent. */
  vol: number;
  /** Annualized Sharpe ratio of monthly excess returns. */
  sharpe: number;
  /** Lowest drawdown, percent (≤ 0). */
  maxDrawdown: number;
  /** Percent of months with positions whose excess return is above 0. */
  hitRate: number;
  /** Regression alpha, annualized percent a year (`alphaFit.annualized`). */
  alpha: number;
  /** The regression behind `alpha`: monthly intercept, Newey-West t, beta, lags. */
  alphaFit: Alpha;
  /** Trades that became positions. */
  trades: number;
  /** Trades left out (no realized return at the horizon, or no value for value weighting). */
  droppedTrades: number;
}

/** The result of {@link portfolioBacktest}. */
export interface PortfolioResult {
  /** One row per calendar month: `month`, `n_positions`, `return`, `excess_return`, `turnover`, `equity`, `drawdown`. */
  monthly: Frame;
  /** Summary statistics. */
  stats: PortfolioStats;
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
 * the knot months, spread geometrically between knots.
 *
 * @example
 * ```ts
 * import { monthlyPath } from "./portfolio.ts";
 * monthlyPath([[1, 2], [3, 5]], 3); // 2 % in month 1, then (1.05/1.02)^(1/2) − 1 twice
 * ```
 */
export function monthlyPath(points: [number, number][], months: number): number[] {
  const knots: [number, number][] = [[0, 1], ...points.map(([m, r]) => [m, 1 + r / 100])] as [
    number,
    number,
  ][];
  const growth = (k: number): number => {
    for (let j = 1; j < knots.length; j++) {
      const [b, gb] = knots[j];
      if (k <= b) {
        const [a, ga] = knots[j - 1];
        if (k === b) return gb;
        const f = (k - a) / (b - a);
        // a total loss (growth ≤ 0) cannot be spread geometrically: linear then
        return ga > 0 && gb > 0 ? ga * (gb / ga) ** f : ga + (gb - ga) * f;
      }
    }
    return knots[knots.length - 1][1];
  };
  const out: number[] = [];
  let prev = 1;
  for (let k = 1; k <= months; k++) {
    const g = growth(k);
    out.push(g / prev - 1);
    prev = g;
  }
  return out;
}

function monthIndex(v: unknown): number | null {
  if (v instanceof Date && !Number.isNaN(v.getTime())) {
    return v.getUTCFullYear() * 12 + v.getUTCMonth();
  }
  if (typeof v === "string" && /^\d{4}-\d{2}/.test(v)) {
    return +v.slice(0, 4) * 12 + +v.slice(5, 7) - 1;
  }
  return null;
}

interface Position {
  start: number;
  sign: number;
  size: number;
  ret: number[];
  mkt: number[];
}

/**
 * Runs a calendar-time portfolio backtest over a trades frame (see the module
 * doc for every rule, unit and limit).
 *
 * @example
 * ```ts
 * import { connect, portfolioBacktest } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = await insider.search({ tradeType: "purchase", onlyMarketTransactions: true })
 *   .frame({ maxRows: 2000 });
 * const { monthly, stats } = portfolioBacktest(buys, { horizon: "6m", costBps: 10 });
 * console.log(monthly.height, stats.sharpe.toFixed(2), stats.maxDrawdown.toFixed(1));
 * ```
 */
export function portfolioBacktest(
  trades: pl.DataFrame,
  options: PortfolioOptions = {},
): PortfolioResult {
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
  const costBps = options.costBps ?? 0;
  if (typeof costBps !== "number" || !Number.isFinite(costBps) || costBps < 0 || costBps > 10_000) {
    allowed("costBps", costBps, ["a number from 0 to 10000"]);
  }
  const H = HORIZON_MONTHS[horizon];
  const knots = KNOTS.filter(([m]) => m <= H);
  const cols = [
    "transaction_date",
    ...knots.flatMap(([, w]) => [`returns_${w}`, `excess_returns_${w}`]),
    ...(weighting === "value" ? ["transaction_value"] : []),
    ...(direction === "follow" ? ["acquired_disposed_code"] : []),
  ];
  requireColumns("portfolioBacktest", trades, cols);
  const rows = trades.select(...cols).toRecords() as Record<string, unknown>[];
  const positions: Position[] = [];
  let dropped = 0;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  for (const r of rows) {
    const start = monthIndex(r.transaction_date);
    const rH = num(r[`returns_${horizon}`]);
    const xH = num(r[`excess_returns_${horizon}`]);
    const size = weighting === "value" ? num(r.transaction_value) : 1;
    if (start === null || rH === null || xH === null || size === null || size <= 0) {
      dropped++;
      continue;
    }
    const rp: [number, number][] = [];
    const mp: [number, number][] = [];
    for (const [m, w] of knots) {
      const ret = num(r[`returns_${w}`]);
      const ex = num(r[`excess_returns_${w}`]);
      if (ret !== null) rp.push([m, ret]);
      if (ret !== null && ex !== null) mp.push([m, ret - ex]);
    }
    positions.push({
      start,
      sign: direction === "follow" && r.acquired_disposed_code === "D" ? -1 : 1,
      size: Math.abs(size),
      ret: monthlyPath(rp, H),
      mkt: monthlyPath(mp, H),
    });
  }
  if (!positions.length) {
    throw new Error(
      `portfolioBacktest: no trade has a realized ${horizon} return${
        weighting === "value" ? " and a transaction_value" : ""
      } (${rows.length} rows given)`,
    );
  }
  const first = Math.min(...positions.map((p) => p.start));
  const last = Math.max(...positions.map((p) => p.start)) + H - 1;
  const byMonth: number[][] = Array.from({ length: last - first + 1 }, () => []);
  positions.forEach((p, i) => {
    for (let k = 0; k < H; k++) byMonth[p.start - first + k].push(i);
  });
  const cost = costBps / 10_000;
  const out: Record<string, unknown>[] = [];
  const rets: number[] = [];
  const excess: number[] = [];
  const market: number[] = [];
  let drifted = new Map<number, number>(); // position → weight before this month's rebalancing
  let equity = 1;
  let peak = 1;
  for (let t = 0; t < byMonth.length; t++) {
    const open = byMonth[t];
    const total = open.reduce((s, i) => s + positions[i].size, 0);
    const w = new Map<number, number>(open.map((i) => [i, positions[i].size / total]));
    let turnover = 0;
    for (const [i, wi] of w) turnover += Math.abs(wi - (drifted.get(i) ?? 0));
    for (const [i, wi] of drifted) if (!w.has(i)) turnover += Math.abs(wi);
    let gross = 0;
    let mkt = 0;
    const next = new Map<number, number>();
    for (const [i, wi] of w) {
      const p = positions[i];
      const k = t + first - p.start;
      gross += wi * p.sign * p.ret[k];
      mkt += wi * p.sign * p.mkt[k];
    }
    for (const [i, wi] of w) {
      const p = positions[i];
      next.set(i, (wi * (1 + p.sign * p.ret[t + first - p.start])) / (1 + gross));
    }
    if (t === byMonth.length - 1) { for (const wi of next.values()) turnover += Math.abs(wi); }
    drifted = next;
    const c = turnover * cost;
    const ret = gross - c;
    const ex = gross - mkt - c;
    equity *= 1 + ret;
    peak = Math.max(peak, equity);
    const m = first + t;
    rets.push(ret * 100);
    excess.push(ex * 100);
    market.push(mkt * 100);
    out.push({
      month: `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}-01`,
      n_positions: open.length,
      return: ret * 100,
      excess_return: ex * 100,
      turnover,
      equity,
      drawdown: (equity / peak - 1) * 100,
    });
  }
  const months = out.length;
  const active = out.map((r, i) => [r.n_positions as number, excess[i]]).filter(([n]) => n > 0);
  const fit = alphaOf(rets, market);
  const stats: PortfolioStats = {
    months,
    cagr: (equity ** (12 / months) - 1) * 100,
    vol: sd(rets) * Math.sqrt(12),
    sharpe: (mean(excess) / sd(excess)) * Math.sqrt(12),
    maxDrawdown: Math.min(...out.map((r) => r.drawdown as number)),
    hitRate: active.length ? (100 * active.filter(([, x]) => x > 0).length) / active.length : NaN,
    alpha: fit.annualized,
    alphaFit: fit,
    trades: positions.length,
    droppedTrades: dropped,
  };
  const monthly = asFrame(
    buildFrame([
      { name: "month", dtype: "date" },
      { name: "n_positions", dtype: "i64" },
      { name: "return", dtype: "f64" },
      { name: "excess_return", dtype: "f64" },
      { name: "turnover", dtype: "f64" },
      { name: "equity", dtype: "f64" },
      { name: "drawdown", dtype: "f64" },
    ], out),
    false,
  );
  return { monthly, stats };
}

/**
 * OLS of y on x with a Newey-West standard error of the intercept.
 *
 * @example
 * ```ts
 * import { alphaOf } from "./portfolio.ts";
 * alphaOf([1.2, 0.4, 2.1, -0.3], [1, 0, 2, -1]).monthly; // intercept
 * ```
 */
export function alphaOf(y: readonly number[], x: readonly number[], lags?: number): Alpha {
  const n = y.length;
  const L = lags ?? Math.floor(4 * (n / 100) ** (2 / 9));
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let sxy = 0;
  for (let t = 0; t < n; t++) {
    sxx += (x[t] - mx) ** 2;
    sxy += (x[t] - mx) * (y[t] - my);
  }
  // no variation in the market series (e.g. one month): alpha is the mean
  const beta = sxx > 1e-12 ? sxy / sxx : 0;
  const a = my - beta * mx;
  const e = y.map((v, t) => v - a - beta * x[t]);
  let tStat: number;
  if (sxx > 1e-12) {
    // HAC covariance of (a, b): (X'X)^-1 S (X'X)^-1 with Bartlett weights
    const s = [[0, 0], [0, 0]];
    const add = (k: number, wk: number) => {
      for (let t = k; t < n; t++) {
        const u = [e[t], e[t] * x[t]];
        const v = [e[t - k], e[t - k] * x[t - k]];
        for (let i = 0; i < 2; i++) {
          for (let j = 0; j < 2; j++) {
            s[i][j] += wk * (k === 0 ? u[i] * v[j] : u[i] * v[j] + v[i] * u[j]);
          }
        }
      }
    };
    add(0, 1);
    for (let k = 1; k <= Math.min(L, n - 1); k++) add(k, 1 - k / (L + 1));
    let sx = 0;
    let sx2 = 0;
    for (const v of x) {
      sx += v;
      sx2 += v * v;
    }
    const det = n * sx2 - sx * sx;
    const inv = [[sx2 / det, -sx / det], [-sx / det, n / det]];
    const row = [
      inv[0][0] * s[0][0] + inv[0][1] * s[1][0],
      inv[0][0] * s[0][1] + inv[0][1] * s[1][1],
    ];
    const varA = row[0] * inv[0][0] + row[1] * inv[1][0];
    tStat = varA > 0 ? a / Math.sqrt(varA) : NaN;
  } else {
    tStat = a / neweyWestSe(y, L);
  }
  return { monthly: a, annualized: a * 12, tStat, beta, lags: L };
}
