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
import pl from "../frames/_polars.ts";
import { connect } from "../connect.ts";
import { FEED_TOPIC_NAMES, type FeedRow, type FeedSide } from "../insider/feeds.ts";
import type { InsiderClient } from "../insider/client.ts";
import {
  CLUSTERS,
  DEFAULT_CLUSTER,
  DEFAULT_MIN_CLUSTERS,
  eventStudy,
  GROUPINGS,
  groupKey,
  groupOrder,
  STUDY_HORIZONS,
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
  type PortfolioResult,
  WEIGHTINGS,
} from "../backtest/portfolio.ts";
import { ENTRIES } from "../backtest/entry.ts";
import { PERCENT_TEXT } from "../backtest/_risk_free.ts";
import { tradeClass } from "../families/trade_class.ts";
import { equityCurveChart } from "../charts/equity_curve.ts";
import { drawdownChart } from "../charts/drawdown.ts";
import { eventStudyChart } from "../charts/event_study_chart.ts";
import { feedComparison } from "../charts/feed_comparison.ts";
import type { Chart } from "../charts/chart.ts";
import { type Flags, parseFlags, usageError } from "./args.ts";
import { type FeedFlag, parseFeedFlag } from "./feed_flag.ts";
import { feedPeriod, MARKET_BASELINE, pullMarketBaseline } from "./market_baseline.ts";
import { didYouMean } from "../shared/suggest.ts";

/** Words after a help column, wrapped to 80 characters with the column's indent. */
function column(words: string): string {
  // greedy: each line as many words as fit in the 58 columns after the indent
  const lines = words.replace(/(?![^\n]{1,58}$)([^\n]{1,58})\s/g, "$1\n");
  return lines.replaceAll("\n", `\n${" ".repeat(22)}`);
}

const HELP = `Usage: deno task backtest --feed TOPIC:SIDE [--feed …] [options]

Event study (and, with --portfolio, calendar-time portfolios) of curated insider
feeds: pulls each feed, hydrates every row, and reports excess returns after the
trades by horizon.

Options:
  --feed TOPIC:SIDE   a curated feed, repeatable (default ceo-trades:buy)
                      ${column(`TOPIC: ${FEED_TOPIC_NAMES.join(", ")}`)}
                      SIDE: buy, sell
  --from YYYY-MM-DD   first filing date (inclusive)
  --to YYYY-MM-DD     last filing date (inclusive)
  --group-by G        ${
  column(`${GROUPINGS.join(", ")} (default: feed with several feeds, role with one)`)
}
  --horizons LIST     ${
  column(
    `comma-separated, from ${STUDY_HORIZONS.join(", ")} (default ${DEFAULT_HORIZONS.join(",")})`,
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
  column(`holding period with --portfolio: ${PORTFOLIO_HORIZONS.join(", ")} (default 6m)`)
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

const FLAG_SPECS = {
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
} as const;

/** What a run does, read from the flags (their problems are reported by `Flags.run`, at once). */
function readPlan(flags: Flags<typeof FLAG_SPECS>) {
  const v = flags.values;
  const feeds: FeedFlag[] = [];
  for (const f of v.feed ?? ["ceo-trades:buy"]) {
    const feed = parseFeedFlag(f);
    if (typeof feed === "string") flags.fail(feed);
    else if (feeds.some((x) => x.label === feed.label)) {
      flags.fail(`--feed ${JSON.stringify(f)} is given twice; give each feed once`);
    } else feeds.push(feed);
  }
  flags.dates(v.from, v.to);
  const plan = {
    feeds,
    from: v.from,
    to: v.to,
    groupBy: v["group-by"] === undefined
      ? undefined
      : flags.oneOf("group-by", v["group-by"], ["feed", ...GROUPINGS], "feed"),
    horizons: flags.list("horizons", v.horizons ?? DEFAULT_HORIZONS.join(","), STUDY_HORIZONS),
    maxRows: flags.int("max-rows", v["max-rows"], 1000, 1, 100_000),
    baseline: v.baseline,
    minN: flags.int("min-n", v["min-n"], 20, 2, 100_000),
    minClusters: flags.int("min-clusters", v["min-clusters"], DEFAULT_MIN_CLUSTERS, 2, 100_000),
    entry: flags.oneOf("entry", v.entry, ENTRIES, "trade"),
    cluster: flags.oneOf("cluster", v.cluster, CLUSTERS, DEFAULT_CLUSTER),
    allCodes: v["all-codes"] === true,
    out: flags.dir("out", v.out, "out/backtest"),
  };
  for (const k of ["horizon", "cost-bps", "weighting", "direction", "risk-free"] as const) {
    if (v[k] !== undefined && !v.portfolio) flags.fail(`--${k} needs --portfolio`);
  }
  const portfolio = {
    horizon: flags.oneOf("horizon", v.horizon, PORTFOLIO_HORIZONS, "6m"),
    costBps: flags.num("cost-bps", v["cost-bps"], 10, 0, 10_000),
    riskFree: riskFreeFlag(flags),
    weighting: flags.oneOf("weighting", v.weighting, WEIGHTINGS, "equal"),
    direction: flags.oneOf("direction", v.direction, DIRECTIONS, "long"),
  };
  return { ...plan, portfolio: v.portfolio ? portfolio : undefined };
}

type Plan = ReturnType<typeof readPlan>;

/**
 * `--risk-free`: percent a year, as portfolioBacktest reads it. 0.04 is almost surely 4 %; a rate
 * truly under 1 % a year is written with its percent sign (0.5%), as the library takes it, and
 * passed on in the user's own digits (1e-7% would not read back); a rate without it gains one.
 */
function riskFreeFlag(flags: Flags<typeof FLAG_SPECS>): `${number}%` {
  const text = flags.values["risk-free"];
  const percent = text === undefined ? null : PERCENT_TEXT.exec(text);
  const rate = flags.num("risk-free", percent?.[1] ?? text, 0, 0, 100);
  if (!percent && rate > 0 && rate < 1) {
    flags.fail(
      `--risk-free ${text} looks like a fraction; the rate is in percent a year ` +
        `(did you mean ${+(rate * 100).toFixed(6)}? For a rate under 1 % a year, write ${
          text!.trim()
        }%)`,
    );
  }
  return `${percent?.[1] ?? rate}%` as `${number}%`;
}

/** The open-market trades of a side only (unless --all-codes), saying how many were left out. */
function keepSide(plan: Plan, frame: pl.DataFrame, side: FeedSide, label: string): pl.DataFrame {
  if (plan.allCodes) return frame;
  const { frame: kept, left } = keepOpenMarket(frame, side);
  const n = Object.values(left).reduce((a, b) => a + b, 0);
  if (n) {
    console.error(
      `backtest: ${label}: left out ${n} rows that are not open-market ${
        side === "buy" ? "purchases" : "sales"
      } (${Object.entries(left).map(([c, k]) => `${k} ${c}`).join(", ")}); --all-codes keeps them`,
    );
  }
  return kept;
}

/** Pulls and hydrates every feed: the trades, tagged with their feed's label, and the feed rows. */
async function pullFeeds(
  insider: InsiderClient,
  plan: Plan,
): Promise<{ picked: pl.DataFrame; feedRows: FeedRow[] }> {
  const parts: pl.DataFrame[] = [];
  const feedRows: FeedRow[] = [];
  for (const f of plan.feeds) {
    const rows = await insider.feed(f.topic, f.side, { from: plan.from, to: plan.to, limit: 25 })
      .take(plan.maxRows);
    if (rows.truncated) {
      console.error(
        `backtest: warning: ${f.label} has more than ${plan.maxRows} rows; only the first ${plan.maxRows} it returns are used; raise --max-rows to use more`,
      );
    }
    feedRows.push(...rows);
    const { frame: trades, failed } = await insider.hydrateFrame(rows, { concurrency: 16 });
    if (failed.length) {
      console.error(
        `backtest: ${failed.length} rows of ${f.label} could not be hydrated and are left out`,
      );
    }
    const frame = keepSide(plan, tradeClass(trades), f.side, f.label);
    parts.push(frame.withColumns(pl.lit(f.label).alias("feed")));
    console.error(`${f.label}: ${frame.height} trades`);
  }
  const picked = pl.concat(parts, { how: "vertical" });
  if (picked.height === 0) {
    const range = `${plan.from ? ` from ${plan.from}` : ""}${plan.to ? ` to ${plan.to}` : ""}`;
    throw new Error(
      `no trades in ${plan.feeds.map((f) => f.label).join(", ")}${
        range || " at all"
      }; widen --from/--to or choose another --feed`,
    );
  }
  return { picked, feedRows };
}

/** The market baseline: every trade of the side filed in the feeds' period, when it applies. */
async function withMarketBaseline(
  insider: InsiderClient,
  plan: Plan,
  picked: pl.DataFrame,
  feedRows: FeedRow[],
): Promise<{ all: pl.DataFrame; market?: { name: string; note: string } }> {
  const sides = [...new Set(plan.feeds.map((f) => f.side))];
  const name = sides.length === 1 ? MARKET_BASELINE[sides[0]] : undefined;
  const wanted = plan.baseline === undefined ? plan.feeds.length === 1 : plan.baseline === name;
  if (name === undefined || !wanted) return { all: picked };
  const period = feedPeriod(feedRows)!; // trades were found, so their rows have dates
  const pulled = await pullMarketBaseline(insider, sides[0], period);
  const frame = keepSide(plan, pulled.frame, sides[0], name);
  const what = plan.allCodes
    ? `${sides[0] === "buy" ? "purchase" : "sale"} of any code`
    : sides[0] === "buy"
    ? "open-market purchase"
    : "open-market or 10b5-1 plan sale";
  if (pulled.truncated) {
    console.error(
      `backtest: warning: ${name} has more than ${pulled.frame.height} rows from ${period.from} to ${period.to}; only the newest are used; narrow --from/--to or lower --max-rows`,
    );
  }
  if (frame.height === 0) {
    console.error(
      `backtest: no ${what} was filed from ${period.from} to ${period.to} besides the feed's: no market baseline`,
    );
    return { all: picked };
  }
  const all = pl.concat([picked, frame.withColumns(pl.lit(name).alias("feed"))], {
    how: "diagonal",
  });
  const note = `every ${what} filed from ${period.from} to ${period.to}, the period of ${
    plan.feeds.map((f) => f.label).join(", ")
  } (${frame.height} trades)`;
  return { all, market: { name, note } };
}

/** The grouping of a run: by feed, or by a grouping within each feed; and the groups' order. */
function grouping(plan: Plan, market?: { name: string }) {
  const by = plan.groupBy ?? (plan.feeds.length > 1 ? "feed" : "role");
  const key = by === "feed" ? null : groupKey(by as typeof GROUPINGS[number]);
  const groupFn = (r: Record<string, unknown>): string | null => {
    if (key === null || (market && r.feed === market.name)) return r.feed as string;
    const g = key(r);
    return g === null || plan.feeds.length === 1 ? g : `${r.feed} · ${g}`;
  };
  const natural = key === null ? [] : groupOrder(by as typeof GROUPINGS[number]);
  const order = [
    ...(key === null
      ? plan.feeds.map((f) => f.label)
      : plan.feeds.length > 1
      ? plan.feeds.flatMap((f) => natural.map((g) => `${f.label} · ${g}`))
      : natural),
    ...(market ? [market.name] : []),
  ];
  return { by, groupFn, order };
}

/** The baseline of a run (groups `names`, sizes in `groups`) and the sentence saying which and why. */
function chooseBaseline(
  plan: Plan,
  groups: pl.DataFrame,
  names: string[],
  market?: { name: string; note: string },
): { baseline: string; note: string } {
  if (market) {
    return {
      baseline: market.name,
      note: `baseline ${JSON.stringify(market.name)}: ${market.note}${
        plan.baseline === undefined
          ? ", used because no --baseline was given; --baseline GROUP compares with a group instead"
          : " (--baseline)"
      }`,
    };
  }
  if (plan.baseline === undefined) {
    const ns = groups.getColumn("n").toArray() as number[];
    const baseline = names[ns.indexOf(Math.max(...ns))];
    return {
      baseline,
      note: `baseline ${JSON.stringify(baseline)}: the ${
        names.length === 1 ? "only group, so nothing is compared with it" : "largest group"
      }, used because no --baseline was given`,
    };
  }
  if (!names.includes(plan.baseline)) {
    usageError(
      "backtest",
      `--baseline ${JSON.stringify(plan.baseline)} is not a group; groups: ${names.join(", ")}${
        didYouMean(plan.baseline, names, 3)
      }`,
    );
  }
  return {
    baseline: plan.baseline,
    note: `baseline ${JSON.stringify(plan.baseline)} (--baseline)`,
  };
}

/** Warns when most rows are thin, saying what to change. */
function warnThin(plan: Plan, stats: pl.DataFrame): void {
  const thin = stats.getColumn("thin").toArray() as boolean[];
  const k = thin.filter(Boolean).length;
  if (k * 2 <= thin.length) return;
  const reasons = [...new Set(stats.getColumn("thin_reason").toArray().filter((x) => x))];
  console.error(
    `backtest: warning: ${k} of ${thin.length} group × horizon rows are thin (${
      reasons.slice(0, 3).join("; ")
    }): they get no interval. Use more data: raise --max-rows (now ${plan.maxRows}) or widen --from/--to to span more months; or group more coarsely (fewer --group-by groups, shorter --horizons)`,
  );
}

/** One portfolio per group (with `--portfolio`), and their charts. */
function portfoliosOf(
  plan: Plan,
  all: pl.DataFrame,
  groupFn: (r: Record<string, unknown>) => string | null,
  names: string[],
): { portfolios: Record<string, PortfolioResult>; charts: Record<string, Chart> } {
  const p = plan.portfolio;
  if (!p) return { portfolios: {}, charts: {} };
  const keys = (all.toRecords() as Record<string, unknown>[]).map(groupFn);
  const portfolios: Record<string, PortfolioResult> = {};
  for (const name of names) {
    const part = all.filter(pl.Series(keys.map((k) => k === name)));
    try {
      portfolios[name] = portfolioBacktest(part, { ...p, entry: plan.entry });
    } catch (e) {
      console.error(`backtest: no portfolio for ${name}: ${(e as Error).message}`);
    }
  }
  const monthly = Object.fromEntries(Object.entries(portfolios).map(([k, r]) => [k, r.monthly]));
  if (!Object.keys(monthly).length) return { portfolios, charts: {} };
  const what =
    `${p.horizon} holding, ${p.weighting} weight, ${p.direction}, ${p.costBps} bps per side`;
  const charts = {
    "equity-curve": equityCurveChart(monthly, {
      subtitle: `Calendar-time portfolios, growth of 1 after costs: ${what}`,
    }),
    "drawdown": drawdownChart(monthly),
  };
  return { portfolios, charts };
}

/** The notes `report.md` carries under its title: what was run. */
function reportNotes(plan: Plan, by: string, baselineNote: string): string[] {
  const p = plan.portfolio;
  return [
    `Grouped by ${by}; horizons ${plan.horizons.join(", ")}; up to ${plan.maxRows} rows per feed${
      plan.from ? ` from ${plan.from}` : ""
    }${plan.to ? ` to ${plan.to}` : ""}; ${baselineNote}; ${
      plan.allCodes ? "every transaction code" : "open-market trades of each feed's side only"
    }; returns from the ${plan.entry} date; intervals: ${
      plan.cluster === "two-way" ? "clustered by month and issuer" : `bootstrap by ${plan.cluster}`
    }; groups under ${plan.minN} trades or ${plan.minClusters} clusters are thin.`,
    ...(p
      ? [
        `Portfolios: one per group, each trade held to ${p.horizon} after its trade date from the ${plan.entry} date, ${p.weighting} weight (value = the insider's trade size), ${p.direction}, ${p.costBps} bps per side, calendar months, Sharpe over a risk-free rate of ${p.riskFree} a year.`,
      ]
      : []),
  ];
}

/** A run: pull, study, portfolios, report, print. */
async function run(plan: Plan): Promise<void> {
  const { insider } = await connect();
  const { picked, feedRows } = await pullFeeds(insider, plan);
  const { all, market } = await withMarketBaseline(insider, plan, picked, feedRows);
  const { by, groupFn, order } = grouping(plan, market);
  const study = (baseline?: string, samples = 1000) =>
    eventStudy(all, {
      samples,
      groupBy: groupFn,
      horizons: plan.horizons,
      baseline,
      minN: plan.minN,
      minClusters: plan.minClusters,
      entry: plan.entry,
      cluster: plan.cluster,
      order,
    });
  // a cheap pass (few resamples) for the group list and sizes
  const groups = study(undefined, 10).filter(pl.col("horizon").eq(pl.lit(plan.horizons[0])));
  const names = groups.getColumn("group").toArray() as string[];
  const { baseline, note } = chooseBaseline(plan, groups, names, market);
  console.error(`backtest: ${note}`);
  const stats = study(baseline);
  warnThin(plan, stats);
  const { portfolios, charts: pCharts } = portfoliosOf(plan, all, groupFn, names);
  const charts: Record<string, Chart> = { "event-study": eventStudyChart(stats), ...pCharts };
  if (plan.feeds.length > 1) {
    const h = plan.horizons.includes("3m") ? "3m" : plan.horizons[0];
    charts["feed-comparison"] = feedComparison(all, { value: `excess_returns_${h}` });
  }
  const files = await writeReport(plan.out, stats, charts, {
    title: `Backtest: ${plan.feeds.map((f) => f.label).join(", ")}`,
    notes: reportNotes(plan, by, note),
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
}

/**
 * `deno task backtest` with `args` (default `Deno.args`): see the help text above.
 */
export async function main(args: string[] = Deno.args): Promise<void> {
  const flags = parseFlags("backtest", HELP, FLAG_SPECS, args);
  const plan = readPlan(flags);
  await flags.run(() => run(plan), { "--out": plan.out });
}

if (import.meta.main) await main();
