/**
 * `tradeTimeline`: insider trades over time by value, buys vs sells.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, render } from "./chart.ts";
import { rowsOf, sidedBy } from "./_chart_data.ts";
import { checkSides, sideColumn, sideOf, type Sides } from "../families/side.ts";
import { TRADES_FRAME } from "../families/transactions.ts";

/** Options of {@link tradeTimeline}; any other Plot option passes through. */
export interface TradeTimelineOptions extends ChartOptions {
  /** Time column (default `filed_at`; `transaction_date` also works). */
  time?: string;
  /**
   * What buy and sell mean (default `"tradeClass"`: code `P` buys, code `S`
   * sells, other codes left out and counted in the subtitle);
   * `"acquiredDisposed"` colours by the acquired / disposed code instead.
   */
  sides?: Sides;
}

/**
 * One dot per trade: x = filing time, y = value in USD on a log scale,
 * colour = buy or sell. Buys are open-market purchases (code `P`), sells
 * sales (code `S`); trades of other codes (awards, option exercises, gifts,
 * …) are left out and the subtitle counts them. `sides: "acquiredDisposed"`
 * colours every trade by its acquired / disposed code instead, labelled
 * "Acquired" / "Disposed". Needs `transaction_value`, `code` (or
 * `acquired_disposed_code` under that option) and the time column; trades of
 * zero value are left out (log scale).
 *
 * @example
 * ```ts
 * import { connect, tradeTimeline } from "../../mod.ts";
 * const { insider } = await connect();
 * tradeTimeline(await insider.search({ position: { ceo: true } }).frame({ maxRows: 500 }));
 * ```
 */
export function tradeTimeline(trades: pl.DataFrame, options: TradeTimelineOptions = {}): Chart {
  const { time = "filed_at", sides = "tradeClass", ...plot } = options;
  checkSides("tradeTimeline", sides);
  const all = rowsOf(
    "tradeTimeline",
    trades,
    { pass: TRADES_FRAME, columns: [time, "transaction_value", sideColumn(sides)], field: "frame" },
    ["ticker_symbol", "reporting_owner_name"],
  ).filter((r) => (r.transaction_value as number) > 0);
  const { kept: rows, side, color, subtitle: sub } = sidedBy(
    "tradeTimeline",
    all,
    (r) => sideOf(r, sides),
    sides,
    "Transaction value (USD, log scale); one dot per trade",
    plot.subtitle,
  );
  return render(
    {
      width: 720,
      height: 380,
      marginLeft: 60,
      x: { label: time === "filed_at" ? "Filed" : "Traded", type: "utc" },
      y: { type: "log", label: "Value (USD)", tickFormat: "~s", grid: true },
      color,
      marks: [
        Plot.dot(rows, {
          x: time,
          y: "transaction_value",
          stroke: side,
          r: 2.5,
          strokeOpacity: 0.7,
          tip: true,
          channels: { ticker: "ticker_symbol", insider: "reporting_owner_name" },
        }),
      ],
    },
    { title: "Insider trades over time", subtitle: sub },
    plot,
  );
}
