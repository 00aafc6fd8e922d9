/**
 * `clusterChart`: cluster trades per issuer over time.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, render } from "./chart.ts";
import { rowsOf, sidedBy } from "./_chart_data.ts";
import { checkSides, sideColumn, sideOf, type Sides } from "../families/side.ts";
import { TRADES_FRAME } from "../families/transactions.ts";

/** Options of {@link clusterChart}; any other Plot option passes through. */
export interface ClusterChartOptions extends ChartOptions {
  /** Issuers shown, those with the most cluster trades first (default 15). */
  top?: number;
  /**
   * What buy and sell mean (default `"tradeClass"`: code `P` buys, code `S`
   * sells, other codes left out and counted in the subtitle);
   * `"acquiredDisposed"` colours by the acquired / disposed code instead.
   */
  sides?: Sides;
}

/**
 * One row per issuer (the `top` with the most 30-day cluster trades), one
 * dot per cluster trade at its filing time, sized by the number of insiders
 * in the cluster and coloured by side: buys are open-market purchases (code
 * `P`), sells sales (code `S`); cluster trades of other codes are left out
 * and the subtitle counts them (`sides: "acquiredDisposed"` colours by the
 * acquired / disposed code instead). Issuers are ranked by the cluster
 * trades drawn.
 *
 * A **cluster trade** is one the service flags `is_cluster_trade_30d`: at
 * least two different insiders of the same issuer traded in the same
 * direction within the 30 days up to the trade (the trade's own insider
 * counted; in the emulator, trades filed by then; the live service's exact
 * rule is not shown). `cluster_insider_count_30d` is how many different
 * insiders that is, `cluster_num_trades_30d` how many trades. Needs `ticker_symbol`, `filed_at`, `is_cluster_trade_30d`,
 * `cluster_insider_count_30d`, `code` (or `acquired_disposed_code` under
 * that option).
 *
 * @example
 * ```ts
 * import { clusterChart, connect } from "../../mod.ts";
 * const { insider } = await connect();
 * clusterChart(await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 5000 }));
 * ```
 */
export function clusterChart(trades: pl.DataFrame, options: ClusterChartOptions = {}): Chart {
  const { top = 15, sides = "tradeClass", ...plot } = options;
  checkSides("clusterChart", sides);
  const all = rowsOf("clusterChart", trades, {
    pass: TRADES_FRAME,
    columns: [
      "ticker_symbol",
      "filed_at",
      "is_cluster_trade_30d",
      "cluster_insider_count_30d",
      sideColumn(sides),
    ],
    field: "frame",
  })
    .filter((r) => r.is_cluster_trade_30d === true)
    .map((r) => ({ ...r, ticker: String(r.ticker_symbol) }));
  const { kept: rows, side, color, subtitle: sub } = sidedBy(
    "clusterChart",
    all,
    (r) => sideOf(r, sides),
    sides,
    "Trades with 2+ insiders of the issuer trading the same way within 30 days; size: insiders",
    plot.subtitle,
  );
  const tickers = [...Map.groupBy(rows, (r) => r.ticker)]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1)).slice(0, top)
    .map((e) => e[0]);
  const shown = rows.flatMap((r, k) => tickers.includes(r.ticker) ? [{ ...r, side: side[k] }] : []);
  return render(
    {
      width: 720,
      height: Math.max(160, 28 * tickers.length + 60),
      marginLeft: 60,
      x: { type: "utc", label: "Filed" },
      y: { domain: tickers, label: null },
      r: { range: [2, 9], label: "Insiders in cluster" },
      color,
      marks: [
        Plot.ruleY(tickers, { strokeOpacity: 0.15 }),
        Plot.dot(shown, {
          x: "filed_at",
          y: "ticker_symbol",
          r: "cluster_insider_count_30d",
          fill: "side",
          fillOpacity: 0.6,
          tip: true,
        }),
      ],
    },
    { title: "Cluster trades by issuer", subtitle: sub },
    plot,
  );
}
