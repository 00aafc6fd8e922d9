/**
 * `deno task backtest --feed ceo-trades:buy [--feed top-insiders:buy …]
 * [--from 2023-01-01] [--to …] [--group-by role] [--horizons 1m,3m,6m]
 * [--max-rows 1000] [--baseline G] [--min-n 20] [--min-clusters 20]
 * [--cluster two-way] [--entry trade|filing] [--all-codes]
 * [--portfolio --horizon 6m --cost-bps 10 --weighting equal --direction long
 * --risk-free 0] [--out out/backtest]`: pulls each feed, hydrates it, keeps
 * the open-market trades of the feed's side (`tradeClass`: purchases for a
 * `:buy` feed, sales and 10b5-1 plan sales for a `:sell` feed; `--all-codes`
 * keeps every code, and the output says how many rows were left out), runs an event study
 * (and with `--portfolio` a calendar-time portfolio per group), prints the
 * tables, and writes the stats (parquet, CSV), charts (SVG, PNG) and
 * report.md. Bad flags or values exit with code 2 and a message naming every
 * one; a runtime failure prints one line and exits with code 1.
 *
 * Without `--baseline`, a one-feed run is compared with every open-market
 * trade of its side filed in the same period ("All purchases" or "All
 * sales", pulled by the search: see `market_baseline.ts`), so that the feed
 * is never its own baseline; `--baseline "All purchases"` asks for the same
 * with several feeds of one side. With several feeds and no `--baseline`,
 * the largest group is the baseline. Either way the output says which. `--cost-bps` defaults to 10 here (the library's default is 0) so that
 * the command line never shows a cost-free figure unasked.
 *
 * Groups: with several feeds and no `--group-by`, by feed; with one feed, by
 * `--group-by` (default `role`); with both, by feed · group.
 *
 * When most groups are thin (too few trades or clusters for an interval),
 * it warns on stderr and says what to change: more rows (`--max-rows`), a
 * longer period (`--from`/`--to`), or fewer groups.
 *
 * @module
 */
import { DEFAULT_HORIZONS } from "../insider/fields.ts";
import pl from "npm:nodejs-polars@0.25.2";
import { connect } from "../connect.ts";
import { FEED_TOPIC_NAMES, type FeedRow, type FeedSide } from "../insider/feeds.ts";
import { transactionsFrame } from "../insider/transaction_frames.ts";
import {
  type ClusterBy,
  CLUSTERS,
  DEFAULT_CLUSTER,
  DEFAULT_MIN_CLUSTERS,
  eventStudy,
  GROUPINGS,
  groupKey,
  groupOrder,
  STUDY_HORIZONS,
  type StudyHorizon,
} from "../backtest/event_study.ts";
import {
  conclusion,
  portfolioConclusion,
  portfolioTable,
  statsTable,
  writeReport,
} from "../backtest/report.ts";
import {
  DIRECTIONS,
  PORTFOLIO_HORIZONS,
  portfolioBacktest,
  type PortfolioHorizon,
  type PortfolioResult,
  WEIGHTINGS,
} from "../backtest/portfolio.ts";
import { ENTRIES, type Entry } from "../backtest/entry.ts";
import { PERCENT_TEXT } from "../backtest/_risk_free.ts";
import { tradeClass } from "../families/trade_class.ts";
import { equityCurveChart } from "../charts/equity_curve.ts";
import { drawdownChart } from "../charts/drawdown.ts";
import { eventStudyChart } from "../charts/event_study_chart.ts";
import { feedComparison } from "../charts/feed_comparison.ts";
import type { Chart } from "../charts/chart.ts";
import { isIsoDate } from "../shared/schema.ts";
import { checkWritableDir, CliError, notAllowed, parseFlags, runCli, usageError } from "./args.ts";
import { type FeedFlag, parseFeedFlag } from "./feed_flag.ts";
import { feedPeriod, MARKET_BASELINE, pullMarketBaseline } from "./market_baseline.ts";
import { didYouMean } from "../shared/suggest.ts";

/** Words after a help column, wrapped to 80 characters with the column's indent. */
function column(words: string, first: number): string {
  const out: string[] = [];
  let line = "";
  for (const w of words.split(" ")) {
    const width = out.length ? 80 - 22 : 80 - first;
    if (line && line.length + 1 + w.length > width) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  return [...out, line].join(`\n${" ".repeat(22)}`);
}

const HELP = `Usage: deno task backtest --feed TOPIC:SIDE [--feed …] [options]

Event study (and, with --portfolio, calendar-time portfolios) of curated insider
feeds: pulls each feed, hydrates every row, and reports excess returns after the
trades by horizon.

Options:
  --feed TOPIC:SIDE   a curated feed, repeatable (default ceo-trades:buy)
                      ${column(`TOPIC: ${FEED_TOPIC_NAMES.join(", ")}`, 22)}
                      SIDE: buy, sell
  --from YYYY-MM-DD   first filing date (inclusive)
  --to YYYY-MM-DD     last filing date (inclusive)
  --group-by G        ${
  column(`${GROUPINGS.join(", ")} (default: feed with several feeds, role with one)`, 22)
}
  --horizons LIST     ${
  column(
    `comma-separated, from ${STUDY_HORIZONS.join(", ")} (default ${DEFAULT_HORIZONS.join(",")})`,
    22,
  )
}
  --max-rows N        rows per feed, 1 to 100000 (default 1000); a feed with
                      more rows is cut there, with a warning
  --baseline GROUP    group the others are compared with (default: with one
                      feed, "All purchases" / "All sales": every open-market
                      trade of its side filed in the same period; with
                      several, the largest group; stated in the output)
  --min-n N           groups with fewer trades are marked thin, without t or
                      intervals (default 20)
  --min-clusters N    groups spanning fewer clusters (months or issuers,
                      the smaller) are marked thin too (default 20)
  --cluster C         interval clustering: two-way (default: month × issuer,
                      analytic), month, issuer (bootstrap), none (independent)
  --entry E           trade (default: returns from the trade date) or filing
                      (from the filing date, when an investor could act)
  --all-codes         keep every transaction code (default: open-market
                      purchases for :buy feeds, sales for :sell feeds)
  --portfolio         also backtest a calendar-time portfolio per group
  --horizon H         ${
  column(`holding period with --portfolio: ${PORTFOLIO_HORIZONS.join(", ")} (default 6m)`, 22)
}
  --cost-bps N        cost per side in basis points with --portfolio
                      (default 10)
  --weighting W       with --portfolio: ${WEIGHTINGS.join(", ")} (default equal)
  --direction D       with --portfolio: ${DIRECTIONS.join(", ")} (default long;
                      follow = long code-P buys, short code-S sales)
  --risk-free R       with --portfolio: annual risk-free rate in percent for
                      the Sharpe ratio (default 0; under 1 %, write 0.5%)
  --out DIR           where to write stats and charts (default out/backtest;
                      checked to be a writable directory before pulling)
  --debug             on failure, print the stack too
  --help              show this help

Every bad flag is reported at once (exit 2); numbers are plain decimal digits
(no 0x10 or 1e3); a repeated horizon or feed is refused. A runtime failure
prints one line and exits 1.

Without PITCH_API_KEY / INSIDER_API_KEY it runs on the offline emulator.`;

/**
 * The open-market trades of a feed's side: open-market purchases for
 * `"buy"`, open-market and 10b5-1 plan sales for `"sell"` (by `trade_class`,
 * see `tradeClass`), and how many rows of each other class were left out.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { keepOpenMarket } from "./backtest.ts";
 * import { tradeClass } from "../families/trade_class.ts";
 * const df = tradeClass(pl.DataFrame({ code: ["P", "M", "P"], is_10b51: [false, false, false] }));
 * keepOpenMarket(df, "buy").left; // { option_exercise: 1 }
 * ```
 */
export function keepOpenMarket(
  frame: pl.DataFrame,
  side: FeedSide,
): { frame: pl.DataFrame; left: Record<string, number> } {
  const keep = side === "buy" ? ["open_market_purchase"] : ["open_market_sale", "plan_sale"];
  const classes = frame.getColumn("trade_class").toArray() as string[];
  const left: Record<string, number> = {};
  for (const c of classes) if (!keep.includes(c)) left[c] = (left[c] ?? 0) + 1;
  const mask = pl.Series("keep", classes.map((c) => keep.includes(c)), pl.Bool);
  return { frame: frame.filter(mask), left };
}

/**
 * `deno task backtest` with `args` (default `Deno.args`): see the help text above.
 */
export async function main(args: string[] = Deno.args): Promise<void> {
  const flags = parseFlags("backtest", HELP, {
    feed: { type: "string", multiple: true },
    from: { type: "string" },
    to: { type: "string" },
    "group-by": { type: "string" },
    horizons: { type: "string" },
    "max-rows": { type: "string" },
    baseline: { type: "string" },
    "min-n": { type: "string" },
    "min-clusters": { type: "string" },
    cluster: { type: "string" },
    entry: { type: "string" },
    "all-codes": { type: "boolean" },
    "risk-free": { type: "string" },
    portfolio: { type: "boolean" },
    horizon: { type: "string" },
    "cost-bps": { type: "string" },
    weighting: { type: "string" },
    direction: { type: "string" },
    out: { type: "string" },
  }, args);
  const v = flags.values;
  const fail = (m: string) => flags.fail(m);
  const feeds: FeedFlag[] = [];
  for (const f of v.feed ?? ["ceo-trades:buy"]) {
    const feed = parseFeedFlag(f);
    if (typeof feed === "string") fail(feed);
    else if (feeds.some((x) => x.label === feed.label)) {
      fail(`--feed ${JSON.stringify(f)} is given twice; give each feed once`);
    } else feeds.push(feed);
  }
  for (const k of ["from", "to"] as const) {
    if (v[k] !== undefined && !isIsoDate(v[k]!)) {
      fail(`--${k} ${JSON.stringify(v[k])} is not allowed; allowed: a date YYYY-MM-DD`);
    }
  }
  if (v.from && v.to && isIsoDate(v.from) && isIsoDate(v.to) && v.from > v.to) {
    fail(`--from ${v.from} is after --to ${v.to}`);
  }
  const groupBy = v["group-by"];
  if (
    groupBy !== undefined && groupBy !== "feed" &&
    !(GROUPINGS as readonly string[]).includes(groupBy)
  ) {
    fail(notAllowed("group-by", groupBy, ["feed", ...GROUPINGS]));
  }
  const horizons = flags.list("horizons", v.horizons ?? DEFAULT_HORIZONS.join(","), STUDY_HORIZONS);
  const maxRows = flags.int("max-rows", v["max-rows"], 1000, 1, 100_000);
  const minN = flags.int("min-n", v["min-n"], 20, 2, 100_000);
  const minClusters = flags.int(
    "min-clusters",
    v["min-clusters"],
    DEFAULT_MIN_CLUSTERS,
    2,
    100_000,
  );
  const entry = v.entry ?? "trade";
  if (!(ENTRIES as readonly string[]).includes(entry)) {
    fail(notAllowed("entry", entry, ENTRIES));
  }
  const cluster = v.cluster ?? DEFAULT_CLUSTER;
  if (!(CLUSTERS as readonly string[]).includes(cluster)) {
    fail(notAllowed("cluster", cluster, CLUSTERS));
  }
  for (const k of ["horizon", "cost-bps", "weighting", "direction", "risk-free"] as const) {
    if (v[k] !== undefined && !v.portfolio) fail(`--${k} needs --portfolio`);
  }
  const horizon = v.horizon ?? "6m";
  if (!(PORTFOLIO_HORIZONS as readonly string[]).includes(horizon)) {
    fail(notAllowed("horizon", horizon, PORTFOLIO_HORIZONS));
  }
  const costBps = flags.num("cost-bps", v["cost-bps"], 10, 0, 10_000);
  // the rate is percent a year, as portfolioBacktest reads it: 0.04 is almost surely 4 %; a rate
  // truly under 1 % a year is written with its percent sign (0.5%), as the library takes it
  const rfText = v["risk-free"];
  const rfPercent = rfText === undefined ? null : PERCENT_TEXT.exec(rfText);
  const riskFree = flags.num("risk-free", rfPercent?.[1] ?? rfText, 0, 0, 100);
  if (!rfPercent && riskFree > 0 && riskFree < 1) {
    fail(
      `--risk-free ${rfText} looks like a fraction; the rate is in percent a year ` +
        `(did you mean ${+(riskFree * 100).toFixed(6)}? For a rate under 1 % a year, write ${
          rfText!.trim()
        }%)`,
    );
  }
  // the user's own digits, not a reprint of the parsed number (1e-7% would not read back)
  const riskFreeOption: number | `${number}%` = rfPercent
    ? `${rfPercent[1]}%` as `${number}%`
    : riskFree;
  const weighting = v.weighting ?? "equal";
  if (!(WEIGHTINGS as readonly string[]).includes(weighting)) {
    fail(notAllowed("weighting", weighting, WEIGHTINGS));
  }
  const direction = v.direction ?? "long";
  if (!(DIRECTIONS as readonly string[]).includes(direction)) {
    fail(notAllowed("direction", direction, DIRECTIONS));
  }
  const out = v.out ?? "out/backtest";
  if (out.trim() === "") fail(`--out "" is not allowed; allowed: a directory path`);
  flags.done();

  const run = async (): Promise<void> => {
    const bad = await checkWritableDir("--out", out);
    if (bad) throw new CliError(bad);
    const { insider } = await connect();
    const parts: pl.DataFrame[] = [];
    const feedRows: FeedRow[] = [];
    // open-market trades of the side only (unless --all-codes), saying how many were left out
    const keepSide = (frame: pl.DataFrame, side: FeedSide, label: string): pl.DataFrame => {
      if (v["all-codes"]) return frame;
      const { frame: kept, left } = keepOpenMarket(frame, side);
      const n = Object.values(left).reduce((a, b) => a + b, 0);
      if (n) {
        console.error(
          `backtest: ${label}: left out ${n} rows that are not open-market ${
            side === "buy" ? "purchases" : "sales"
          } (${
            Object.entries(left).map(([c, k]) => `${k} ${c}`).join(", ")
          }); --all-codes keeps them`,
        );
      }
      return kept;
    };
    for (const f of feeds) {
      const rows = await insider.feed(f.topic, f.side, { from: v.from, to: v.to, limit: 25 }).take(
        maxRows,
      );
      if (rows.truncated) {
        console.error(
          `backtest: warning: ${f.label} has more than ${maxRows} rows; only the first ${maxRows} it returns are used; raise --max-rows to use more`,
        );
      }
      feedRows.push(...rows);
      const { rows: trades, failed } = await insider.hydrate(rows, { concurrency: 16 });
      if (failed.length) {
        console.error(
          `backtest: ${failed.length} rows of ${f.label} could not be hydrated and are left out`,
        );
      }
      const frame = keepSide(tradeClass(transactionsFrame(trades)), f.side, f.label);
      parts.push(frame.withColumns(pl.lit(f.label).alias("feed")));
      console.error(`${f.label}: ${frame.height} trades`);
    }
    const picked = pl.concat(parts, { how: "vertical" });
    if (picked.height === 0) {
      const range = `${v.from ? ` from ${v.from}` : ""}${v.to ? ` to ${v.to}` : ""}`;
      throw new Error(
        `no trades in ${feeds.map((f) => f.label).join(", ")}${
          range || " at all"
        }; widen --from/--to or choose another --feed`,
      );
    }
    // the market baseline: every trade of the side filed in the feeds' period
    const sides = [...new Set(feeds.map((f) => f.side))];
    const marketName = sides.length === 1 ? MARKET_BASELINE[sides[0]] : undefined;
    let market: { name: string; note: string } | undefined;
    let all = picked;
    if (
      marketName !== undefined &&
      (v.baseline === undefined ? feeds.length === 1 : v.baseline === marketName)
    ) {
      const period = feedPeriod(feedRows)!; // trades were found, so their rows have dates
      const pulled = await pullMarketBaseline(insider, sides[0], period);
      const frame = keepSide(pulled.frame, sides[0], marketName);
      const what = v["all-codes"]
        ? `${sides[0] === "buy" ? "purchase" : "sale"} of any code`
        : sides[0] === "buy"
        ? "open-market purchase"
        : "open-market or 10b5-1 plan sale";
      if (pulled.truncated) {
        console.error(
          `backtest: warning: ${marketName} has more than ${pulled.frame.height} rows from ${period.from} to ${period.to}; only the newest are used; narrow --from/--to or lower --max-rows`,
        );
      }
      if (frame.height > 0) {
        all = pl.concat([picked, frame.withColumns(pl.lit(marketName).alias("feed"))], {
          how: "diagonal",
        });
        market = {
          name: marketName,
          note: `every ${what} filed from ${period.from} to ${period.to}, the period of ${
            feeds.map((f) => f.label).join(", ")
          } (${frame.height} trades)`,
        };
      } else {
        console.error(
          `backtest: no ${what} was filed from ${period.from} to ${period.to} besides the feed's: no market baseline`,
        );
      }
    }
    const by = groupBy ?? (feeds.length > 1 ? "feed" : "role");
    const key = by === "feed" ? null : groupKey(by as typeof GROUPINGS[number]);
    const groupFn = key === null ? null : (r: Record<string, unknown>) => {
      if (market && r.feed === market.name) return market.name;
      const g = key(r);
      return g === null || feeds.length === 1 ? g : `${r.feed} · ${g}`;
    };
    const natural = by === "feed" ? [] : groupOrder(by as typeof GROUPINGS[number]);
    const order = [
      ...(key === null
        ? feeds.map((f) => f.label)
        : feeds.length > 1
        ? feeds.flatMap((f) => natural.map((g) => `${f.label} · ${g}`))
        : natural),
      ...(market ? [market.name] : []),
    ];
    const study = (baseline?: string, samples = 1000) =>
      eventStudy(all, {
        samples,
        groupBy: groupFn ?? "feed",
        horizons: horizons as StudyHorizon[],
        baseline,
        minN,
        minClusters,
        entry: entry as Entry,
        cluster: cluster as ClusterBy,
        order,
      });
    // a cheap pass (few resamples) for the group list and sizes
    const groups = study(undefined, 10).filter(pl.col("horizon").eq(pl.lit(horizons[0])));
    const names = groups.getColumn("group").toArray() as string[];
    let baseline = v.baseline;
    let baselineNote = `baseline ${JSON.stringify(baseline)} (--baseline)`;
    if (market) {
      baseline = market.name;
      baselineNote = `baseline ${JSON.stringify(baseline)}: ${market.note}${
        v.baseline === undefined
          ? ", used because no --baseline was given; --baseline GROUP compares with a group instead"
          : " (--baseline)"
      }`;
    } else if (baseline === undefined) {
      const ns = groups.getColumn("n").toArray() as number[];
      baseline = names[ns.indexOf(Math.max(...ns))];
      baselineNote = `baseline ${JSON.stringify(baseline)}: the ${
        names.length === 1 ? "only group, so nothing is compared with it" : "largest group"
      }, used because no --baseline was given`;
    } else if (!names.includes(baseline)) {
      usageError(
        "backtest",
        `--baseline ${JSON.stringify(baseline)} is not a group; groups: ${names.join(", ")}${
          didYouMean(baseline, names, 3)
        }`,
        HELP,
      );
    }
    console.error(`backtest: ${baselineNote}`);
    const stats = study(baseline);
    const thin = stats.getColumn("thin").toArray() as boolean[];
    if (thin.filter(Boolean).length * 2 > thin.length) {
      const reasons = [...new Set(stats.getColumn("thin_reason").toArray().filter((x) => x))];
      console.error(
        `backtest: warning: ${
          thin.filter(Boolean).length
        } of ${thin.length} group × horizon rows are thin (${
          reasons.slice(0, 3).join("; ")
        }): they get no interval. Use more data: raise --max-rows (now ${maxRows}) or widen --from/--to to span more months; or group more coarsely (fewer --group-by groups, shorter --horizons)`,
      );
    }
    const charts: Record<string, Chart> = { "event-study": eventStudyChart(stats) };
    const portfolios: Record<string, PortfolioResult> = {};
    if (v.portfolio) {
      const keyFn = groupFn ?? ((r: Record<string, unknown>) => r.feed as string);
      const keys = (all.toRecords() as Record<string, unknown>[]).map(keyFn);
      for (const name of groups.getColumn("group").toArray() as string[]) {
        const part = all.filter(pl.Series(keys.map((k) => k === name)));
        try {
          portfolios[name] = portfolioBacktest(part, {
            horizon: horizon as PortfolioHorizon,
            costBps,
            weighting: weighting as "equal" | "value",
            direction: direction as "long" | "follow",
            entry: entry as Entry,
            riskFree: riskFreeOption,
          });
        } catch (e) {
          console.error(`backtest: no portfolio for ${name}: ${(e as Error).message}`);
        }
      }
      const monthly = Object.fromEntries(
        Object.entries(portfolios).map(([k, r]) => [k, r.monthly]),
      );
      if (Object.keys(monthly).length) {
        const what =
          `${horizon} holding, ${weighting} weight, ${direction}, ${costBps} bps per side`;
        charts["equity-curve"] = equityCurveChart(monthly, {
          subtitle: `Calendar-time portfolios, growth of 1 after costs: ${what}`,
        });
        charts["drawdown"] = drawdownChart(monthly);
      }
    }
    if (feeds.length > 1) {
      charts["feed-comparison"] = feedComparison(all, {
        value: `excess_returns_${horizons.includes("3m") ? "3m" : horizons[0]}`,
      });
    }
    const files = await writeReport(out, stats, charts, {
      title: `Backtest: ${feeds.map((f) => f.label).join(", ")}`,
      notes: [
        `Grouped by ${by}; horizons ${horizons.join(", ")}; up to ${maxRows} rows per feed${
          v.from ? ` from ${v.from}` : ""
        }${v.to ? ` to ${v.to}` : ""}; ${baselineNote}; ${
          v["all-codes"] ? "every transaction code" : "open-market trades of each feed's side only"
        }; returns from the ${entry} date; intervals: ${
          cluster === "two-way" ? "clustered by month and issuer" : `bootstrap by ${cluster}`
        }; groups under ${minN} trades or ${minClusters} clusters are thin.`,
        ...(v.portfolio
          ? [
            `Portfolios: one per group, each trade held to ${horizon} after its trade date from the ${entry} date, ${weighting} weight (value = the insider's trade size), ${direction}, ${costBps} bps per side, calendar months, Sharpe over a risk-free rate of ${riskFree}% a year.`,
          ]
          : []),
      ],
      portfolios,
      portfolioCharts: ["equity-curve", "drawdown"],
    });
    console.log(statsTable(stats));
    if (Object.keys(portfolios).length) {
      console.log(`\n${portfolioTable(portfolios)}\n\n${portfolioConclusion(portfolios)}`);
    }
    console.log(`\n${conclusion(stats)}`);
    console.log(
      `\nwrote:\n  ${
        [files.parquet, files.csv, ...files.portfolios, ...files.charts, files.report].join("\n  ")
      }`,
    );
  };
  await runCli("backtest", run, () => ({ paths: { "--out": out } }), args);
}

if (import.meta.main) await main();
