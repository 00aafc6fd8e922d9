/**
 * `tradeTimeline`: insider trades over time by value, buys vs sells.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartText, render, SIDE_COLORS } from "./chart.ts";
import { rowsOf, side } from "./_chart_data.ts";

/** Options of {@link tradeTimeline}; any other Plot option passes through. */
export interface TradeTimelineOptions extends ChartText {
  /** Time column (default `filed_at`; `transaction_date` also works). */
  time?: string;
  /** Extra Plot options (width, height, margins, scales…). */
  [plotOption: string]: unknown;
}

/**
 * One dot per trade: x = filing time, y = value in USD on a log scale,
 * colour = buy or sell. Needs `transaction_value`, `acquired_disposed_code`
 * and the time column; trades of zero value are left out (log scale).
 *
 * @example
 * ```ts
 * import { connect, tradeTimeline } from "../../mod.ts";
 * const { insider } = await connect();
 * tradeTimeline(await insider.feed("ceo-trades", "buy").frame({ maxRows: 200 }).then(() => insider.search({ position: { ceo: true } }).frame({ maxRows: 500 })));
 * ```
 */
export function tradeTimeline(trades: pl.DataFrame, options: TradeTimelineOptions = {}): Chart {
  const {
    title = "Insider trades over time",
    subtitle = "Transaction value (USD, log scale); one dot per trade",
    time = "filed_at",
    ...plot
  } = options;
  const rows = rowsOf(
    "tradeTimeline",
    trades,
    [
      time,
      "transaction_value",
      "acquired_disposed_code",
    ],
    ["ticker_symbol", "reporting_owner_name"],
    "trades",
  )
    .filter((r) => (r.transaction_value as number) > 0)
    .map((r) => ({ ...r, side: side(r.acquired_disposed_code) }));
  return render(
    {
      width: 720,
      height: 380,
      marginLeft: 60,
      x: { label: time === "filed_at" ? "Filed" : "Traded", type: "utc" },
      y: { type: "log", label: "Value (USD)", tickFormat: "~s", grid: true },
      color: { ...SIDE_COLORS, label: "Side", legend: true },
      marks: [
        Plot.dot(rows, {
          x: time,
          y: "transaction_value",
          stroke: "side",
          r: 2.5,
          strokeOpacity: 0.7,
          tip: true,
          channels: { ticker: "ticker_symbol", insider: "reporting_owner_name" },
        }),
      ],
    },
    { title, subtitle },
    plot,
  );
}
