/**
 * `deno task demo [--out out/]`: the main job in one command. With no keys
 * set it uses the in-process emulator: it syncs a demo dataset
 * (`out/data/`), runs the headline study (CEO buys vs all open-market
 * purchases vs 10b5-1 plan sales, classed by `tradeClass`; excess returns
 * by horizon; intervals clustered by month and issuer) from the trade date
 * and from the filing date side by side, and calendar-time portfolio
 * backtests of CEO buys against all purchases (6 months, 10 bps per side,
 * both entries), and writes `out/`: charts as SVG
 * and PNG, stats and monthly portfolio returns as parquet and CSV, and
 * `report.md` with a generated conclusion, the tables and the caveats.
 * Offline, every data file it writes (stats and portfolio parquet and CSV)
 * ends with a column `source` holding "DEMO DATA · offline emulator, not
 * the live service" on every row: a mark any CSV or parquet reader keeps,
 * where a leading comment line would break most CSV readers.
 * It prints the table and the paths. With keys set, the same command reads
 * the real services.
 *
 * @module
 */
import pl from "../frames/_polars.ts";
import { join } from "node:path";
import { connect } from "../connect.ts";
import { releaseNativeNow } from "../frames/_release.ts";
import { sync } from "../store/sync.ts";
import { scanInsiderTrades } from "../store/sync.ts";
import { FORWARD_COLUMNS } from "../families/transactions.ts";
import { headlineGroups, headlinePortfolios, headlineStudy } from "../backtest/headline.ts";
import {
  conclusion,
  entryComparison,
  portfolioTable,
  statsTable,
  writeReport,
} from "../backtest/report.ts";
import { equityCurveChart } from "../charts/equity_curve.ts";
import { drawdownChart } from "../charts/drawdown.ts";
import { eventStudyChart } from "../charts/event_study_chart.ts";
import { forwardReturnsChart } from "../charts/returns.ts";
import { parseFlags } from "./args.ts";
import type { TruthRows } from "../backtest/report.ts";
import type { Stub, TradeKey } from "../stub/mod.ts";

const HELP = `Usage: deno task demo [--out DIR]

Syncs a dataset of insider trades and pitches (the offline emulator when
PITCH_API_KEY / INSIDER_API_KEY are not set), runs the headline event study
(CEO buys vs all open-market purchases vs 10b5-1 plan sales) and portfolio
backtests of CEO buys vs all purchases, from the trade date and from the
filing date side by side, and writes charts, stats and report.md.

Options:
  --out DIR   where to write (default out/; checked before anything is pulled)
  --debug     on failure, print the stack too
  --help      show this help`;

/**
 * The columns the demo's steps read, of the dataset's 174: the headline
 * study and portfolios from either entry (the groups' flags, the clusters'
 * month and issuer, the forward returns, the filing delay), the
 * forward-returns chart and the emulator's truth (the trade keys).
 */
export const DEMO_COLUMNS: readonly string[] = [
  ...("accession_number transaction_id filed_at ticker_symbol reporting_owner_cik issuer_cik " +
    "transaction_date filing_delay_days code acquired_disposed_code is_10b51 " +
    "is_anomalous_transaction is_ceo is_cfo is_director is_officer is_10_percent_owner " +
    "is_cluster_trade_30d").split(" "),
  ...FORWARD_COLUMNS,
];

/**
 * The synced trades the demo works on: {@link DEMO_COLUMNS} read from the
 * dataset's parquet, not all 174 columns, so every frame the steps filter and
 * copy is a sixth as wide; the results are the same as from all columns
 * (`tests/cli/demo_columns_test.ts`).
 */
export async function demoTrades(dir: string): Promise<pl.DataFrame> {
  return (await scanInsiderTrades(dir)).select(...DEMO_COLUMNS).collectSync();
}

/** The truth of the headline groups, for exactly the synced trades (offline only). */
export function demoTruth(trades: pl.DataFrame, stub: Stub): TruthRows {
  const rows = Object.entries(headlineGroups(trades)).flatMap(([group, df]) => {
    const ks = df.select("accession_number", "transaction_id").toRecords() as unknown as TradeKey[];
    return (["1m", "3m", "6m", "1y"] as const).flatMap((horizon) => {
      const e = stub.truth.mean(ks, horizon);
      return e === null ? [] : [{ group, horizon, expected_excess: e }];
    });
  });
  return { source: `the offline emulator (seed ${stub.world.seed})`, rows };
}

/**
 * `deno task demo` with `args` (default `Deno.args`): see the help text above.
 */
export async function main(args: string[] = Deno.args): Promise<void> {
  const flags = parseFlags("demo", HELP, { out: { type: "string" } }, args);
  const out = flags.dir("out", flags.values.out, "out");

  const run = async (): Promise<void> => {
    const t0 = performance.now();
    const { insider, catalog, offline, offlineToday, stub } = await connect();
    const data = join(out, "data");
    // offline, the emulator answers in process: one month in flight at a time costs no time
    // and keeps the demo's peak memory down (issue 34); against the services, sync's default
    const synced = await sync({
      dir: data,
      insider,
      catalog,
      to: offlineToday,
      concurrency: offline.insider && offline.catalog ? 1 : undefined,
    });
    const trades = await demoTrades(data);
    // each step's native garbage is freed before the next starts (see frames/_release.ts):
    // the demo's peak is its largest step, not the sum of them (issue 34)
    const stats = headlineStudy(trades);
    await releaseNativeNow();
    const byTrade = headlinePortfolios(trades, { horizon: "6m", costBps: 10 });
    await releaseNativeNow();
    const byFiling = headlinePortfolios(trades, { horizon: "6m", costBps: 10, entry: "filing" });
    await releaseNativeNow();
    const portfolios = {
      ...byTrade,
      ...Object.fromEntries(Object.entries(byFiling).map(([k, v]) => [`${k} (filing)`, v])),
    };
    const monthly = Object.fromEntries(
      Object.entries(byTrade).map(([k, v]) => [k, v.monthly]),
    );
    const market = trades.filter(
      pl.col("code").isIn(["P", "S"]).and(pl.col("is_anomalous_transaction").eq(pl.lit(false))),
    );
    const charts = {
      "event-study": eventStudyChart(stats, {
        title: "Did following the signal pay? Excess return after the trade",
      }),
      "forward-returns": forwardReturnsChart(market, {
        title: "Open-market buys vs sells: excess return after the trade",
      }),
      "equity-curve": equityCurveChart(monthly, {
        title: "CEO buys vs all purchases: 6-month calendar-time portfolios",
        subtitle: "Growth of 1, equal weight, monthly rebalancing, 10 bps per side",
      }),
      "drawdown": drawdownChart(monthly),
    };
    await releaseNativeNow();
    const truth = offline.insider && stub ? demoTruth(trades, stub) : undefined;
    await releaseNativeNow();
    const files = await writeReport(out, stats, charts, {
      portfolios,
      portfolioCharts: ["equity-curve", "drawdown"],
      title: "signalbook demo: CEO buys vs all purchases vs 10b5-1 sales",
      truth,
      entryComparison: true,
      notes: [
        `Source: ${offline.insider ? "the offline emulator (demo data)" : "the live services"}; ${
          trades.height.toLocaleString("en-US")
        } trades synced to ${data}.`,
        "Buys are open-market purchases (code P) and sales under a 10b5-1 plan are code S with the plan flag (`tradeClass`); option exercises and awards are left out. Excess return = stock return minus the market over the same window, from the trade date (and, side by side, from the filing date). Intervals: 95% t intervals with standard errors clustered by calendar month and by issuer; differences are against all purchases; groups under 20 trades or 20 clusters are marked thin. Portfolios: each trade held to 6 months after its trade date from the trade date or from the filing date, equal weight, calendar months, 10 bps per side, risk-free rate 0%.",
      ],
    });
    const ds = synced.datasets;
    console.log(
      `\nsynced ${
        ds.insider_trades.rows.toLocaleString("en-US")
      } trades (${ds.insider_trades.months} months) and ${
        ds.pitches.rows.toLocaleString("en-US")
      } pitches into ${data}\n`,
    );
    console.log(statsTable(stats));
    console.log(
      `\nEntry at the trade date vs at the filing date:\n${entryComparison(stats)}`,
    );
    console.log(`\n${portfolioTable(portfolios)}`);
    console.log(`\n${conclusion(stats)}`);
    console.log(
      `\nwrote:\n  ${
        [files.report, files.parquet, files.csv, ...files.portfolios, ...files.charts].join("\n  ")
      }`,
    );
    console.log(`\ndone in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await flags.run(run, { "--out": out });
}

if (import.meta.main) await main();
