/**
 * The baseline of a one-feed backtest: every trade of the feed's side filed
 * in the same period as the feed's trades ("All purchases" for a `:buy`
 * feed, "All sales" for a `:sell` feed), so that a feed is compared with the
 * market of insider trades it was picked from rather than with itself.
 *
 * Decisions (issue 33 is silent on them):
 * - The period is the first to the last US Eastern filing date of the feed
 *   rows pulled (not `--from`/`--to`, which a feed cut by `--max-rows` may
 *   not fill), through the search's `filingDateFrom`/`filingDateTo`.
 * - Anomalous trades are kept (`excludeAnomalousTransactions: false`), as
 *   they are in the feeds, so the two sides differ only by the feed's pick;
 *   the command then applies the same open-market filter to both.
 * - At most {@link MARKET_BASELINE_MAX_ROWS} rows are pulled (parallel date
 *   windows); a baseline cut there is `truncated`, and the command says so.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import type { InsiderClient } from "../insider/client.ts";
import type { FeedRow, FeedSide } from "../insider/feeds.ts";
import { easternDate } from "../insider/_windows.ts";
import { tradeClass } from "../families/trade_class.ts";

/** The name of the market baseline group, by feed side. */
export const MARKET_BASELINE: Readonly<Record<FeedSide, string>> = {
  buy: "All purchases",
  sell: "All sales",
};

/** The most rows the baseline pull reads (the `--max-rows` ceiling). */
export const MARKET_BASELINE_MAX_ROWS = 100_000;

/** A filing-date period, inclusive, US Eastern dates. */
export interface FilingPeriod {
  /** First filing date, `YYYY-MM-DD`. */
  from: string;
  /** Last filing date, `YYYY-MM-DD`. */
  to: string;
}

/**
 * The first and last US Eastern filing date of feed rows, or undefined
 * when no row has a readable `filed_at`.
 *
 * @example
 * ```ts
 * import { feedPeriod } from "./market_baseline.ts";
 * feedPeriod([{ filed_at: "2025-03-04T22:10:00Z" }, { filed_at: "2025-01-02T03:00:00Z" }]);
 * // { from: "2025-01-01", to: "2025-03-04" } (03:00 UTC is the evening before in New York)
 * ```
 */
export function feedPeriod(rows: readonly Pick<FeedRow, "filed_at">[]): FilingPeriod | undefined {
  const days = rows.map((r) => easternDate(r.filed_at)).filter((d) => d !== undefined).sort();
  return days.length ? { from: days[0], to: days.at(-1)! } : undefined;
}

/**
 * Pulls every trade of `side` (search `tradeType` purchase or sale) filed
 * in `period`, classed by `tradeClass`; `truncated` when `maxRows` cut it.
 *
 * @example
 * ```ts
 * import { connect } from "../connect.ts";
 * import { pullMarketBaseline } from "./market_baseline.ts";
 * const { insider } = await connect({ quiet: true });
 * const { frame, truncated } = await pullMarketBaseline(insider, "buy", {
 *   from: "2026-09-01",
 *   to: "2026-09-30",
 * }, 500);
 * console.log(frame.height, truncated); // every purchase filed in September 2026, at most 500
 * ```
 */
export async function pullMarketBaseline(
  insider: InsiderClient,
  side: FeedSide,
  period: FilingPeriod,
  maxRows: number = MARKET_BASELINE_MAX_ROWS,
): Promise<{ frame: pl.DataFrame; truncated: boolean }> {
  const frame = await insider.search({
    tradeType: side === "buy" ? "purchase" : "sale",
    filingDatePreset: "custom",
    filingDateFrom: period.from,
    filingDateTo: period.to,
    excludeAnomalousTransactions: false,
  }, { pageSize: 100, parallel: 4 }).frame({ maxRows });
  return { frame: tradeClass(frame), truncated: frame.truncated === true };
}
