/**
 * The headline study of `deno task demo`: did following CEO purchases pay,
 * compared with all open-market purchases and with sales under 10b5-1 plans?
 *
 * Groups (anomalous trades excluded; classes from `tradeClass`): "CEO
 * buys" — open-market purchases (`open_market_purchase`, code P) by a CEO;
 * "All purchases" — every open-market purchase (the baseline); "10b5-1
 * sales" — sales under a 10b5-1 plan (`plan_sale`). Option exercises,
 * awards and other codes are never "buys". Intervals: the `eventStudy`
 * default (two-way clustered by month and issuer); groups under 20 trades
 * or 20 clusters are flagged thin.
 *
 * The headline portfolios hold "CEO buys" and "All purchases" as
 * calendar-time portfolios (`portfolioBacktest`, default 6 months, 10 bps
 * per side).
 *
 * @module
 */
import { tradesInput } from "./_inputs.ts";
import { DEFAULT_HORIZONS } from "../insider/fields.ts";
import pl from "../frames/_polars.ts";
import { eventStudy, type EventStudyOptions, type StudyHorizon } from "./event_study.ts";
import { portfolioBacktest, type PortfolioOptions, type PortfolioResult } from "./portfolio.ts";
import type { Frame } from "../frames/list.ts";
import { tradeClass } from "../families/trade_class.ts";

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
  options: Pick<
    EventStudyOptions,
    "cluster" | "minN" | "minClusters" | "entry" | "samples" | "adjust"
  > = {},
): Frame {
  tradesInput("headlineStudy", trades);
  const groups = pl.concat(
    Object.entries(headlineGroups(trades)).map(([name, df]) =>
      df.withColumns(pl.lit(name).alias("group"))
    ),
    { how: "vertical" },
  );
  return eventStudy(groups, {
    groupBy: "group",
    horizons,
    baseline: "All purchases",
    ...options,
  });
}

/**
 * The headline groups' trades, by name, in the study's order (see the module
 * doc): the one definition the study, the portfolios and the demo's truth
 * (`cli/demo.ts`) read.
 */
export function headlineGroups(trades: pl.DataFrame): Record<string, pl.DataFrame> {
  const clean = tradeClass(trades).filter(pl.col("is_anomalous_transaction").eq(pl.lit(false)));
  const cls = (c: string) => clean.filter(pl.col("trade_class").eq(pl.lit(c)));
  const buys = cls("open_market_purchase");
  return {
    "CEO buys": buys.filter(pl.col("is_ceo")),
    "All purchases": buys,
    "10b5-1 sales": cls("plan_sale"),
  };
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
  options: Pick<PortfolioOptions, "horizon" | "costBps" | "entry"> & { riskFree?: number } = {},
): Record<string, PortfolioResult> {
  tradesInput("headlinePortfolios", trades);
  const groups = headlineGroups(trades);
  // the headline's cost (the holding is `portfolioBacktest`'s default, 6 months)
  const { horizon, costBps, entry, riskFree } = options;
  return Object.fromEntries(
    ["CEO buys", "All purchases"].map((name) => [
      name,
      portfolioBacktest(groups[name], { horizon, costBps: costBps ?? 10, entry, riskFree }),
    ]),
  );
}
