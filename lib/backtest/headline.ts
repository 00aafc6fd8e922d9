/**
 * The headline study of `deno task demo`: did following CEO purchases pay,
 * compared with all open-market purchases and with sales under 10b5-1 plans?
 *
 * Groups (anomalous trades excluded): "CEO buys" — open-market purchases
 * (code P) by a CEO; "All purchases" — every open-market purchase (the
 * baseline); "10b5-1 sales" — open-market sales (code S) under a 10b5-1 plan.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { eventStudy, type StudyHorizon } from "./event_study.ts";
import type { Frame } from "../frames/list.ts";

/**
 * Runs the headline study over a trades frame (e.g. a synced dataset).
 *
 * @example
 * ```ts
 * import { headlineStudy, scanInsiderTrades } from "../../mod.ts";
 * const stats = headlineStudy((await scanInsiderTrades("out/data")).collectSync());
 * ```
 */
export function headlineStudy(
  trades: pl.DataFrame,
  horizons: StudyHorizon[] = ["1m", "3m", "6m", "1y"],
): Frame {
  const clean = trades.filter(pl.col("is_anomalous_transaction").eq(pl.lit(false)));
  const label = (df: pl.DataFrame, name: string) => df.withColumns(pl.lit(name).alias("group"));
  const buys = clean.filter(pl.col("code").eq(pl.lit("P")));
  const groups = pl.concat([
    label(buys.filter(pl.col("is_ceo")), "CEO buys"),
    label(buys, "All purchases"),
    label(clean.filter(pl.col("code").eq(pl.lit("S")).and(pl.col("is_10b51"))), "10b5-1 sales"),
  ], { how: "vertical" });
  return eventStudy(groups, { groupBy: "group", horizons, baseline: "All purchases" });
}
