/**
 * The headline study of `deno task demo`: did following CEO purchases pay,
 * compared with all open-market purchases and with sales under 10b5-1 plans?
 *
 * Groups (anomalous trades excluded): "CEO buys" — open-market purchases
 * (code P) by a CEO; "All purchases" — every open-market purchase (the
 * baseline); "10b5-1 sales" — open-market sales (code S) under a 10b5-1 plan.
 * Intervals: cluster bootstrap by calendar month of the trade (the
 * `eventStudy` default); groups under 20 trades are flagged thin.
 *
 * The headline portfolios hold "CEO buys" and "All purchases" as
 * calendar-time portfolios (`portfolioBacktest`, default 6 months, 10 bps
 * per side).
 *
 * @module
 */
import { DEFAULT_HORIZONS } from "../insider/fields.ts";
import pl from "npm:nodejs-polars@0.25.2";
import { type ClusterBy, eventStudy, type StudyHorizon } from "./event_study.ts";
import { portfolioBacktest, type PortfolioHorizon, type PortfolioResult } from "./portfolio.ts";
import type { Frame } from "../frames/list.ts";

/**
 * Runs the headline study over a trades frame (e.g. a synced dataset).
 *
 * @example
 * ```ts
 * import { connect, headlineStudy, statsTable } from "../../mod.ts";
 * const { insider } = await connect();
 * const trades = await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 });
 * console.log(statsTable(headlineStudy(trades, ["1m", "3m"])));
 * ```
 */
export function headlineStudy(
  trades: pl.DataFrame,
  horizons: readonly StudyHorizon[] = DEFAULT_HORIZONS,
  options: { cluster?: ClusterBy; minN?: number } = {},
): Frame {
  const { buys, clean } = headlineSets(trades);
  const label = (df: pl.DataFrame, name: string) => df.withColumns(pl.lit(name).alias("group"));
  const groups = pl.concat([
    label(buys.filter(pl.col("is_ceo")), "CEO buys"),
    label(buys, "All purchases"),
    label(clean.filter(pl.col("code").eq(pl.lit("S")).and(pl.col("is_10b51"))), "10b5-1 sales"),
  ], { how: "vertical" });
  return eventStudy(groups, {
    groupBy: "group",
    horizons,
    baseline: "All purchases",
    ...options,
  });
}

function headlineSets(trades: pl.DataFrame): { clean: pl.DataFrame; buys: pl.DataFrame } {
  const clean = trades.filter(pl.col("is_anomalous_transaction").eq(pl.lit(false)));
  return { clean, buys: clean.filter(pl.col("code").eq(pl.lit("P"))) };
}

/**
 * The headline portfolios: CEO buys and all open-market purchases as
 * calendar-time portfolios (equal weight, long).
 *
 * @example
 * ```ts
 * import { connect, headlinePortfolios, portfolioTable } from "../../mod.ts";
 * const { insider } = await connect();
 * const trades = await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 });
 * console.log(portfolioTable(headlinePortfolios(trades, { horizon: "3m" })));
 * ```
 */
export function headlinePortfolios(
  trades: pl.DataFrame,
  options: { horizon?: PortfolioHorizon; costBps?: number } = {},
): Record<string, PortfolioResult> {
  const { buys } = headlineSets(trades);
  const opts = { horizon: options.horizon ?? "6m", costBps: options.costBps ?? 10 } as const;
  return {
    "CEO buys": portfolioBacktest(buys.filter(pl.col("is_ceo")), opts),
    "All purchases": portfolioBacktest(buys, opts),
  };
}
