/**
 * Writing a backtest's results: stats as parquet and CSV, charts as SVG and
 * PNG (with an explicit white background, readable in light and dark
 * themes), and a `report.md` with a conclusion generated from the numbers,
 * the table (median and trimmed mean next to every mean), how to read the
 * hit rate, portfolio statistics, and the caveats; plus plain-text tables
 * for the terminal.
 *
 * Demo data keep their mark on disk: `report.md` says so under its title,
 * the charts in their subtitle, and the data files (`stats.*`,
 * `portfolio-*.*`, parquet and CSV) end with a column `source` holding
 * {@link DEMO_SOURCE} on every row, which any CSV or parquet reader keeps
 * (`pl.readCSV`, pandas, DuckDB, a spreadsheet; no options needed). Live
 * results have no such column.
 *
 * @module
 */
import { portfolioInputs, studyInput } from "./_inputs.ts";
import { DEMO_LABEL, isDemo } from "../shared/demo.ts";
import pl from "../frames/_polars.ts";
import { join } from "node:path";
import type { Chart } from "../charts/chart.ts";
import { saveChart } from "../charts/save.ts";
import { inOrder } from "../charts/_chart_data.ts";
import { atomic } from "../shared/atomic.ts";
import { plural } from "../shared/plural.ts";
import { writeCsv, writeParquet } from "../store/write.ts";
import type { PortfolioResult } from "./portfolio.ts";
import { ResultTable } from "../frames/result_table.ts";
import { entryComparison } from "./entry_comparison.ts";

export { type EntryComparison, entryComparison } from "./entry_comparison.ts";
export { portfolioTable } from "./result_display.ts";
import { bookName, bookSide, PORTFOLIO_BIAS, portfolioCells } from "./result_display.ts";
import { type Cells, type Columns, fmt, pct, signed, tabulate } from "./_format.ts";

/** Paths written by {@link writeReport}. */
export interface ReportFiles {
  /** Stats as parquet (empty string without an event study). */
  parquet: string;
  /** Stats as CSV (empty string without an event study). */
  csv: string;
  /** Charts, SVG and PNG per chart. */
  charts: string[];
  /** Monthly frames of the portfolios, parquet and CSV. */
  portfolios: string[];
  /** The markdown report. */
  report: string;
}

/** What {@link writeReport} puts around the tables. */
export interface ReportMeta {
  /** Report title. */
  title: string;
  /** Paragraphs after the title (source, options). */
  notes?: string[];
  /** Calendar-time portfolios by name, tabulated in their own section. */
  portfolios?: Record<string, PortfolioResult>;
  /** Charts (by key of `charts`) shown in the portfolio section instead of the top. */
  portfolioCharts?: string[];
  /**
   * The effects the data's generator built in (offline, from the emulator's
   * `truth`): shown next to each estimate in its own section.
   */
  truth?: TruthRows;
  /**
   * Add the entry comparison of `stats` ({@link entryComparison}: the same
   * trades from the trade date and from the filing date).
   */
  entryComparison?: boolean;
}

/** The true expected excess return of each group at each horizon (percent). */
export interface TruthRows {
  /** Where the truth comes from, e.g. "the offline emulator (seed 1)". */
  source: string;
  /** One row per group and horizon. */
  rows: { group: string; horizon: string; expected_excess: number }[];
}

/**
 * A markdown section putting each estimate next to the truth: the mean
 * excess return and its interval, the true expected excess return of the
 * same trades, and whether the interval covers it; and the same for the
 * differences against the baseline.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { createStub, eventStudy, transactionsFrame, truthSection } from "../../mod.ts";
 * const stub = createStub({ seed: 2, scale: 0.1 });
 * const rows = stub.insider.trades.map((t) => t.row).filter((r) => r.code === "P");
 * const who = (r: { is_ceo: boolean | null }) => r.is_ceo ? "CEO" : "Other";
 * const frame = transactionsFrame(rows).withColumns(
 *   pl.when(pl.col("is_ceo")).then(pl.lit("CEO")).otherwise(pl.lit("Other")).alias("who"),
 * );
 * const stats = eventStudy(frame, { groupBy: "who", horizons: ["3m"] });
 * const truth = ["CEO", "Other"].map((group) => ({
 *   group,
 *   horizon: "3m",
 *   expected_excess: stub.truth.mean(rows.filter((r) => who(r) === group), "3m") ?? 0,
 * }));
 * console.log(truthSection(stats, { source: "the emulator (seed 2)", rows: truth }));
 * ```
 */
export function truthSection(stats: pl.DataFrame, truth: TruthRows): string {
  const rows = studyInput("truthSection", stats).toRecords() as Row[];
  const find = (g: unknown, h: unknown) =>
    truth.rows.find((t) => t.group === g && t.horizon === h)?.expected_excess;
  const body: string[][] = [];
  // one row of the table: an estimate, its interval, the truth and whether the interval covers it
  const add = (label: string, r: Row, est: unknown, lo: unknown, hi: unknown, t: number) => {
    const known = typeof lo === "number" && typeof hi === "number";
    const inside = known ? lo <= t && t <= hi : null;
    const ci = known ? `${fmt(lo)} to ${fmt(hi)}` : "–";
    body.push([
      label,
      String(r.horizon),
      fmt(est),
      ci,
      fmt(t),
      inside === null ? "–" : inside ? "yes" : "no",
    ]);
  };
  for (const r of rows) {
    const t = find(r.group, r.horizon);
    if (t === undefined) continue;
    add(String(r.group), r, r.mean_excess, r.ci_low, r.ci_high, t);
    const base = r.baseline as string | null;
    const tb = base ? find(base, r.horizon) : undefined;
    if (base && base !== r.group && tb !== undefined && r.diff_vs_baseline !== null) {
      add(`${r.group} − ${base}`, r, r.diff_vs_baseline, r.diff_ci_low, r.diff_ci_high, t - tb);
    }
  }
  const covers = body.map((row) => row[5]).filter((c) => c !== "–");
  const [covered, total] = [covers.filter((c) => c === "yes").length, covers.length];
  return [
    `The data come from ${truth.source}, which knows the effect it built into every trade, so each estimate can be checked against the truth: the true expected excess return of exactly the trades in the group (percent). ${covered} of ${total} intervals cover the truth; with 95% intervals about 1 in 20 should miss.`,
    "",
    mdTable({
      head: ["group", "horizon", "estimate (mean excess)", "95% interval", "truth", "covers"],
      rows: body,
    }),
  ].join("\n");
}

type Row = Record<string, unknown>;

/** The stats table's columns: each header and how a row's cell reads. */
const COLUMNS: Columns<Row> = [
  ["group", (r) => String(r.group)],
  ["horizon", (r) => String(r.horizon)],
  [
    "n (clusters)",
    (r) => `${fmt(r.n)}${typeof r.n_clusters === "number" ? ` (${r.n_clusters})` : ""}`,
  ],
  ["mean excess", (r) => pct(r.mean_excess)],
  ["median", (r) => pct(r.median_excess)],
  ["trimmed mean", (r) => pct(r.trimmed_mean_excess)],
  [
    "95% CI of mean",
    (r) => r.thin ? `thin: ${r.thin_reason ?? "none"}` : `[${fmt(r.ci_low)}, ${fmt(r.ci_high)}]`,
  ],
  ["hit rate", (r) => pct(r.hit_rate, 0)],
  ["t (cluster)", (r) => fmt(r.t_cluster)],
  [
    "vs baseline (95% CI)",
    (r) =>
      r.diff_vs_baseline == null
        ? r.baseline === r.group ? "baseline" : "–"
        : `${signed(r.diff_vs_baseline as number)} ${
          r.diff_ci_low === null ? "(no CI)" : `[${fmt(r.diff_ci_low)}, ${fmt(r.diff_ci_high)}]`
        }`,
  ],
];

/** The joint (Bonferroni) intervals' columns, shown when the study was made with `adjust: "bonferroni"`. */
const JOINT_COLUMNS: Columns<Row> = [
  [
    "joint 95% CI of mean",
    (r) => r.ci_low_adj == null ? "–" : `[${fmt(r.ci_low_adj)}, ${fmt(r.ci_high_adj)}]`,
  ],
  [
    "vs baseline (joint CI)",
    (r) =>
      r.diff_ci_low_adj == null ? "–" : `[${fmt(r.diff_ci_low_adj)}, ${fmt(r.diff_ci_high_adj)}]`,
  ],
];

/** The stats as a table: the columns (the joint ones too when the study has them), a row per row. */
const cells = (stats: pl.DataFrame) =>
  tabulate(
    stats.columns.includes("n_comparisons") ? [...COLUMNS, ...JOINT_COLUMNS] : COLUMNS,
    stats.toRecords() as Row[],
  );

/** The note under an adjusted study's table: the family's size ("" when not adjusted). */
function jointNote(stats: pl.DataFrame): string {
  const k = stats.columns.includes("n_comparisons")
    ? stats.getColumn("n_comparisons").getIndex(0)
    : null;
  return k == null
    ? ""
    : `Joint CIs: Bonferroni-adjusted over the study's ${k} intervals (family size ${k}; each at the ${
      fmt(100 - 5 / k, 3)
    }% level), so all of them hold together at 95%.`;
}

/** A markdown table, every column left-aligned, and its note (`ResultTable`'s markdown). */
function mdTable(table: Cells & { note?: string }): string {
  return new ResultTable({ ...table, numericFrom: table.head.length }).toMarkdown();
}

/**
 * The stats as a {@link ResultTable}: n (clusters), mean, median and trimmed
 * mean of the excess return, the interval ("thin: …" for thin groups, with
 * the reason), the sign-aware hit rate, the cluster t, and the difference
 * against the baseline. As a notebook cell's value it shows as an HTML table;
 * `console.log` and `String()` give aligned text (at most 100 characters
 * wide: wider tables continue below, repeating the group and horizon).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, eventStudy, statsTable, tradeClass } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * console.log(statsTable(eventStudy(buys, { groupBy: "role" })));
 * ```
 */
export function statsTable(stats: pl.DataFrame): ResultTable {
  studyInput("statsTable", stats);
  return new ResultTable({
    ...cells(stats),
    numericFrom: 2,
    keyColumns: 2,
    demo: isDemo(stats),
    note: jointNote(stats),
  });
}

/** What the portfolio table's columns mean (printed under it). */
export const PORTFOLIO_NOTE =
  `Calendar months. Sharpe: monthly return over the risk-free rate (stated under the table), annualized, with a 95% interval (Mertens 2002); IR: information ratio, monthly excess over the positions' own market (signed like them), annualized; alpha: Jensen's alpha, the intercept of the monthly return over the risk-free rate on the market's return over it, annualized, with its 95% interval and Newey-West t (one definition of excess for Sharpe and alpha: the return over the risk-free rate); CAGR, vol, Sharpe and IR need 12 months; turnover: total traded, in multiples of the portfolio; cost paid: sum of monthly costs, percent of the portfolio. * Vol, max drawdown, hit rate and IR are estimates: the service reports each trade's return only at 1 week and 1, 3, 6 and 12 months, so a position's path between those points is booked (its market part on the market's own path, the rest when observed), not observed. Measured bias: ${PORTFOLIO_BIAS}. Measured causes (same bench, diagnostic portfolios): Sharpe and alpha at 1 year come from one stock re-rated 15× in 100 days, whose gain the booking compounds within a segment (without it, at 1 year: Sharpe +1.0 ± 0.6 to +1.2 ± 0.6 %, alpha −0.04 ± 0.06 to −0.03 ± 0.06 points a year); the hit rate and IR from several open positions in one stock, whose shared moves the booking spreads over different months (with at most one position per issuer: hit rate −2.0 ± 1.0 to +1.3 ± 1.0 %, IR −6.3 ± 3.2 to +7.8 ± 3.1 % at every holding). See docs/backtests.md.`;

function interval(lo: unknown, hi: unknown): string {
  return `95% interval ${signed(lo as number)} to ${signed(hi as number)} pp`;
}

/** "a", "a and b", "a, b and c". */
const andList = (items: string[]) => new Intl.ListFormat("en-GB").format(items);

/**
 * A conclusion paragraph generated from an event study's numbers: at the
 * longest horizon where the baseline and another group both have intervals
 * (else the longest with any), which group beats which and by how much,
 * with the clustered interval of the difference, whether
 * means and medians agree, and where the evidence is too thin.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { conclusion, connect, eventStudy, tradeClass } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * console.log(conclusion(eventStudy(buys, { groupBy: "role", baseline: "Director" })));
 * ```
 */
export function conclusion(stats: pl.DataFrame): string {
  const rows = studyInput("conclusion", stats).toRecords() as Row[];
  if (!rows.length) return "No groups to compare.";
  const cluster = String(rows[0].cluster ?? "month");
  const how = cluster === "two-way"
    ? "standard errors clustered two ways, by calendar month and by issuer (Cameron, Gelbach & Miller 2011), with a t interval on the smaller cluster count"
    : cluster === "none"
    ? "an i.i.d. bootstrap (trades treated as independent)"
    : `a bootstrap that resamples whole ${cluster === "month" ? "calendar months" : "issuers"}`;
  const horizons = inOrder(rows.map((r) => [r.horizon_days as number, String(r.horizon)]));
  const usable = (h: string) => rows.filter((r) => r.horizon === h && !r.thin && r.n);
  // with a baseline: the longest horizon where the baseline and another group both have
  // intervals; otherwise the longest with any group that has one
  const compared = (h: string) =>
    usable(h).some((r) => r.group === r.baseline) &&
    usable(h).some((r) => r.baseline !== null && r.group !== r.baseline);
  const main = horizons.findLast(compared) ?? horizons.findLast((h) => usable(h).length >= 1) ??
    horizons.at(-1)!;
  const at = rows.filter((r) => r.horizon === main);
  const baseline = at.find((r) => r.baseline !== null && r.group === r.baseline);
  // sales are spoken of as sales: after a sale a lower excess return is the seller's way, so a
  // higher one is not a "beat"
  const sides = [...new Set(at.map((r) => r.side))];
  const event = (sides.length === 1 && EVENT_OF_SIDE[String(sides[0])]) || "trade";
  // one statement per compared group; `tested`: the statements "the interval excludes 0" made
  const compare = baseline
    ? at.filter((r) => r !== baseline && typeof r.diff_vs_baseline === "number")
    : [];
  const tested = compare.filter((r) => differenceKnown(r, baseline!)).length;
  const ranked = at.filter((r) => typeof r.mean_excess === "number" && !r.thin)
    .sort((a, b) => (b.mean_excess as number) - (a.mean_excess as number));
  const [top, low] = [ranked[0], ranked.at(-1)];
  return [
    baseline &&
    `${main} after the ${event}, ${baseline.group} (the baseline) averaged ${
      pct(baseline.mean_excess)
    } excess return (median ${pct(baseline.median_excess)}, n ${baseline.n}).`,
    ...compare.map((r) => difference(r, baseline!)),
    !baseline && top &&
    `${main} after the ${event}, the highest mean excess return was ${top.group}'s ${
      pct(top.mean_excess)
    } (95% interval ${fmt(top.ci_low)} to ${fmt(top.ci_high)}%, median ${
      pct(top.median_excess)
    }, n ${top.n}).`,
    !baseline && low !== top &&
    `The lowest was ${low!.group}'s ${pct(low!.mean_excess)} (median ${pct(low!.median_excess)}).`,
    !baseline && "No baseline was chosen, so no difference was tested.",
    ...caveats(rows, at, horizons, cluster),
    tested && comparisonsNote(rows, tested),
    `Intervals come from ${how}, which allows trades in the same cluster to move together.`,
  ].filter((s) => typeof s === "string").join(" ");
}

/** What a study's trades are called when all of them are on one side. */
const EVENT_OF_SIDE: Record<string, string> = { buy: "purchase", sell: "sale" };

/** Whether the difference of `r` from the baseline has an interval of width (not thin, not degenerate). */
function differenceKnown(r: Row, baseline: Row): boolean {
  const [lo, hi] = [r.diff_ci_low, r.diff_ci_high] as (number | null)[];
  const d = r.diff_vs_baseline as number;
  return !r.thin && !baseline.thin && lo !== null && hi !== null &&
    hi - lo > 1e-9 * Math.max(1, Math.abs(d));
}

/** The conclusion's statement of one group against the baseline (at the main horizon). */
function difference(r: Row, baseline: Row): string {
  const d = r.diff_vs_baseline as number;
  const points = `${Math.abs(d).toFixed(2)} percentage points`;
  const gap = r.side === "sell"
    ? `After ${r.group}${/sale/i.test(String(r.group)) ? "" : " sales"} the stock did ${points} ${
      d >= 0 ? "better" : "worse"
    } against the market than after the baseline (${baseline.group}), on the mean`
    : `${r.group} ${d >= 0 ? "beat" : "trailed"} it by ${points} on the mean`;
  const [lo, hi] = [r.diff_ci_low, r.diff_ci_high] as number[];
  if (r.thin || baseline.thin || lo === null || hi === null) {
    const why = r.thin
      ? r.thin_reason
      : baseline.thin
      ? `the baseline: ${baseline.thin_reason}`
      : null;
    return `${gap}, but the evidence is too thin for an interval (${why || `n ${r.n}`}).`;
  }
  if (!differenceKnown(r, baseline)) {
    return `${gap}, but the interval is degenerate (zero width), so nothing is established.`;
  }
  const sure = lo > 0 || hi < 0;
  return `${gap} (${interval(lo, hi)}; ${
    sure ? "the interval excludes 0" : "the interval includes 0, so the gap is not established"
  }${adjusted(r, sure)}); its median was ${pct(r.median_excess)} against ${
    pct(baseline.median_excess)
  }${
    r.side === "sell"
      ? ` (these are sales: a lower excess return after them means the sellers timed them well${
        // timing is compared only against other sales, never against a baseline of purchases
        baseline.side === "sell"
          ? `, so these sellers timed theirs ${d >= 0 ? "worse" : "better"} than the baseline's`
          : ""})`
      : ""
  }.`;
}

/** The Bonferroni-adjusted interval of a difference, when the study has one ("" otherwise). */
function adjusted(r: Row, sure: boolean): string {
  if (typeof r.n_comparisons !== "number" || typeof r.diff_ci_low_adj !== "number") return "";
  const [lo, hi] = [r.diff_ci_low_adj as number, r.diff_ci_high_adj as number];
  const still = lo > 0 || hi < 0;
  return `; after a Bonferroni adjustment over the study's ${r.n_comparisons} intervals, ${
    interval(lo, hi).replace("95% interval", "the joint interval")
  }, which ${sure ? (still ? "still excludes 0" : "no longer excludes 0") : "includes 0 too"}`;
}

/** The conclusion's caveats: skewed means, horizons with no trade, thin rows, few clusters. */
function caveats(rows: Row[], at: Row[], horizons: string[], cluster: string): unknown[] {
  // signs as printed (2 decimals): a mean of +0.0019 % reads 0.00 %, which is not "positive"
  const shown = (v: unknown) => Number((v as number).toFixed(2));
  const skew = at.filter((r) =>
    !r.thin && typeof r.mean_excess === "number" && typeof r.median_excess === "number" &&
    shown(r.mean_excess) > 0 && shown(r.median_excess) <= 0
  );
  const empty = horizons.filter((h) => rows.every((r) => r.horizon !== h || !r.n));
  const thinBy = Map.groupBy(
    rows.filter((r) => r.thin && !empty.includes(String(r.horizon))),
    (r) => String(r.group),
  );
  const fewClusters = at.filter((r) =>
    !r.thin && typeof r.n_clusters === "number" && (r.n_clusters as number) < 30
  );
  return [
    skew.length > 0 &&
    `For ${
      andList(skew.map((r) =>
        `${r.group} (mean ${pct(r.mean_excess)}, median ${pct(r.median_excess)})`
      ))
    } the mean is positive while the median is not: a few large winners carry the mean, and the typical trade did not beat the market.`,
    empty.length > 0 && `No trade is old enough yet for a ${empty.join(", ")} return.`,
    thinBy.size > 0 &&
    `Evidence is too thin (too few trades or clusters) for ${
      [...thinBy].map(([g, rs]) =>
        `${g} (${
          rs.map((r) => `${r.horizon}: ${r.thin_reason ? String(r.thin_reason) : `n ${r.n}`}`).join(
            "; ",
          )
        })`
      ).join("; ")
    }: those rows carry no t-statistic or interval.`,
    fewClusters.length > 0 && cluster !== "none" &&
    `Intervals rest on few clusters for ${
      fewClusters.map((r) => `${r.group} (${r.n_clusters})`).join(", ")
    }, so read them as rough.`,
  ];
}

/** How many comparisons the conclusion makes, against the study's intervals in all. */
function comparisonsNote(rows: Row[], tests: number): string {
  const family = rows.filter((r) => typeof r.ci_low === "number").length +
    rows.filter((r) => typeof r.diff_ci_low === "number").length;
  return `This paragraph makes ${plural(tests, "comparison")}; the study reports ${
    plural(family, "interval")
  }${
    typeof rows[0].n_comparisons === "number"
      ? ", and the Bonferroni-adjusted ones hold jointly at 95%."
      : `, each at 95% on its own, so with many of them some exclude 0 by chance: eventStudy(trades, { adjust: "bonferroni" }) gives intervals that hold jointly.`
  }`;
}

/**
 * A paragraph comparing calendar-time portfolios: Sharpe, alpha with its
 * Newey-West t-statistic, and max drawdown, best Sharpe first.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, portfolioBacktest, portfolioConclusion, tradeClass } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * console.log(portfolioConclusion({ buys: portfolioBacktest(buys, { horizon: "3m" }) }));
 * ```
 */
export function portfolioConclusion(results: Record<string, PortfolioResult>): string {
  portfolioInputs("portfolioConclusion", results);
  // only a finite Sharpe ratio is ranked; portfolios without one follow, with the reason
  const sharpeOf = (r: PortfolioResult) =>
    typeof r.stats.sharpe === "number" && Number.isFinite(r.stats.sharpe) ? r.stats.sharpe : null;
  const ranked = Object.entries(results).sort((a, b) =>
    (sharpeOf(b[1]) ?? -Infinity) - (sharpeOf(a[1]) ?? -Infinity)
  );
  const rankable = ranked.filter(([, r]) => sharpeOf(r) !== null).length;
  return ranked.map(([name, { stats: s }], i) => {
    const why = Object.entries(s.nullReasons ?? {}).map(([k, v]) => `${k}: ${v}`);
    const [alo, ahi] = s.alphaInterval ?? [NaN, NaN];
    const zero = !(alo > 0 || ahi < 0);
    return `${i === 0 && rankable > 1 ? "Best by Sharpe: " : ""}${bookName(name, s)}${
      s.entry === "filing" && !/filing/i.test(name) ? " (entry at filing)" : ""
    } — Sharpe ${fmt(s.sharpe)} (95% interval ${fmt(s.sharpeInterval?.[0])} to ${
      fmt(s.sharpeInterval?.[1])
    }, over a risk-free rate of ${fmt(s.riskFree)}% a year) over ${
      plural(s.months, "calendar month")
    }, information ratio ${
      fmt(s.informationRatio)
    } against the positions' own market (an estimate: its measured bias is in the note under the table), Jensen's alpha ${
      pct(s.alpha, 1)
    } a year (95% interval ${fmt(alo, 1)} to ${fmt(ahi, 1)}, Newey-West t ${
      fmt(s.alphaFit?.tStat)
    }${zero && s.alphaInterval ? ", not distinguishable from 0" : ""}${
      s.alphaFit ? `; beta ${fmt(s.alphaFit.beta)} against the market` : ""
    }), estimated worst drawdown ${pct(s.maxDrawdown, 1)}, ${s.trades} trades${
      bookSide(s) === "long/short" ? ` (${s.shortTrades} short)` : ""
    }, turnover ${fmt(s.turnover, 1)}× and ${pct(s.costPaid, 1)} paid in costs.${
      why.length ? ` (Not given: ${why.join("; ")}.)` : ""
    }`;
  }).join(" ");
}

const HIT_RATE_NOTE =
  "**Hit rate** is the percent of trades that went the insider's way: a purchase hits when its excess return is above 0, a sale hits when its excess return is below 0 (the stock did worse than the market after the insider sold). Purchases are open-market purchases (Form 4 code P) and sales are code S (open-market or under a 10b5-1 plan); trades of other codes have no side and are left out of it. 50% is a coin toss for either side.";

function intervalNote(cluster: string): string {
  return cluster === "two-way"
    ? "The interval is a 95% t interval of the mean with standard errors clustered by calendar month and by issuer (Cameron, Gelbach & Miller 2011), on the smaller cluster count minus one degrees of freedom; *t (cluster)* is the mean over that standard error."
    : "The interval is a 95% cluster-bootstrap percentile interval of the mean; *t (cluster)* is the mean over its bootstrap standard error.";
}

/** What the `source` column of a demo result's data files holds (see the module doc). */
export const DEMO_SOURCE = DEMO_LABEL;

/** `df` as written to disk: a demo frame gains its `source` column (see the module doc). */
function forDisk(df: pl.DataFrame): pl.DataFrame {
  if (!isDemo(df)) return df;
  if (df.columns.includes("source")) {
    throw new Error(`writeReport: a demo frame already has a column "source"; cannot mark it`);
  }
  return df.withColumns(pl.lit(DEMO_SOURCE).alias("source"));
}

/** The line `report.md` carries under its title when its data are the emulator's. */
const DEMO_NOTE = "Demo data: these figures come from the offline emulator, not the live services.";

const CAVEATS = [
  "Returns from the trade date are what the service reports; an investor learns of the trade only from the filing (median 2 days later, longer for late filings). Results from the filing date are approximated from the 1-week point (log-linear between the trade date and 1 week); their measured bias is in docs/validation.md.",
  "Survivorship: the sample is what the service covers today.",
  "Trades close in time share market moves and trades in one stock share its news, so the intervals allow for clustered trades (see the table's cluster count); with few clusters even these are too narrow.",
  "Means are pulled by a few large moves; the median and the 10% trimmed mean show the typical trade.",
  "Portfolio paths between the 1w/1m/3m/6m/1y points are not reported: the market part of each position is booked on the market's own path (rebuilt from the trades' windows) and the stock's return relative to the market when the service observes it, so volatility, drawdowns, hit rate and the information ratio are estimates (measured bias under the portfolio table and in docs/backtests.md). Shorts earn no interest; costs are a flat charge per side on turnover.",
];

/**
 * Writes stats (parquet, CSV), charts (SVG, PNG), portfolio monthly frames
 * and `report.md` into `dir`. `stats` may be null for a portfolio-only
 * report. When the stats or a portfolio come from the offline emulator's
 * demo data (see `shared/demo.ts`), `report.md` says so under its title
 * ("offline emulator"), and so do the charts drawn from them and the data
 * files (a last column `source`, see the module doc).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, eventStudy, eventStudyChart, tradeClass, writeReport } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 }))
 *   .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * const stats = eventStudy(buys, { groupBy: "role" });
 * const dir = await Deno.makeTempDir();
 * await writeReport(dir, stats, { "event-study": eventStudyChart(stats) }, { title: "Purchases by role" });
 * ```
 */
export async function writeReport(
  dir: string,
  stats: pl.DataFrame | null,
  charts: Record<string, Chart>,
  meta: ReportMeta,
): Promise<ReportFiles> {
  await Deno.mkdir(dir, { recursive: true });
  const onDisk = stats ? forDisk(stats) : null;
  const parquet = onDisk ? await writeParquet(onDisk, join(dir, "stats.parquet")) : "";
  const csv = onDisk ? await writeCsv(onDisk, join(dir, "stats.csv")) : "";
  const written: string[] = [];
  for (const [name, chart] of Object.entries(charts)) {
    written.push(await saveChart(chart, join(dir, `${name}.svg`)));
    written.push(await saveChart(chart, join(dir, `${name}.png`)));
  }
  const portfolios: string[] = [];
  const pLinks: string[] = [];
  const byName = Object.entries(meta.portfolios ?? {});
  for (const [name, res] of byName) {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    const monthly = forDisk(res.monthly);
    portfolios.push(await writeParquet(monthly, join(dir, `portfolio-${slug}.parquet`)));
    portfolios.push(await writeCsv(monthly, join(dir, `portfolio-${slug}.csv`)));
    pLinks.push(`[portfolio-${slug}.csv](portfolio-${slug}.csv)`);
  }
  const pCharts = new Set(meta.portfolioCharts ?? []);
  const img = (name: string) => `![${name}](${name}.svg)\n`;
  // demo data says so at the top, whatever else the notes say (see shared/demo.ts)
  const demo = isDemo(stats) || byName.some(([, p]) => isDemo(p.monthly));
  const md: string[] = [
    `# ${meta.title}`,
    "",
    ...(demo ? [`> **${DEMO_NOTE}**`, ""] : []),
    ...(meta.notes ?? []).map((n) => `${n}\n`),
  ];
  if (stats) {
    md.push("## Conclusion", "", conclusion(stats), "");
    if (byName.length) md.push(portfolioConclusion(meta.portfolios!), "");
    if (meta.truth) md.push("## Estimate vs the truth", "", truthSection(stats, meta.truth), "");
    if (meta.entryComparison) {
      md.push(
        "## Entry at the trade date vs at the filing date",
        "",
        "An investor can act only once the Form 4 is filed. The filing-date figures hold each trade from the close of its filing day to the same end, with the part of the return before the filing removed (interpolated from the 1-week point).",
        "",
        entryComparison(stats, "markdown"),
        "",
      );
    }
    md.push("## Event study: excess return after the trade", "");
    md.push(...Object.keys(charts).filter((n) => !pCharts.has(n)).map(img));
    md.push(mdTable({ ...cells(stats), note: jointNote(stats) }), "");
    md.push(
      `Returns in percent, excess over the market over the same window, from the ${
        (stats.toRecords()[0] as Row | undefined)?.entry === "filing" ? "filing" : "trade"
      } date. ${
        intervalNote(String((stats.toRecords()[0] as Row | undefined)?.cluster ?? ""))
      } *Thin* rows (fewer trades or clusters than the minimum, or a standard error of zero) carry neither, and say why.`,
      "",
      HIT_RATE_NOTE,
      "",
    );
  }
  if (byName.length) {
    md.push("## Calendar-time portfolios", "");
    if (!stats) md.push(portfolioConclusion(meta.portfolios!), "");
    md.push(...[...pCharts].filter((n) => charts[n]).map(img));
    md.push(mdTable(portfolioCells(meta.portfolios!)), "");
    md.push(
      "Each trade is a position from its entry (trade or filing date) to the end of its holding period; positions are reweighted every calendar month; the sample ends with the last month in which a position opens (the ramp-down after it is trimmed). CAGR, vol and max drawdown are after costs; hit rate is the percent of invested months with a positive excess return.",
      "",
      PORTFOLIO_NOTE,
      "",
    );
  }
  if (!stats) md.push(...Object.keys(charts).filter((n) => !pCharts.has(n)).map(img));
  md.push("## Caveats", "", ...CAVEATS.map((c) => `- ${c}`), "");
  md.push(
    "Files: " + [
      ...(stats ? ["[stats.parquet](stats.parquet)", "[stats.csv](stats.csv)"] : []),
      ...pLinks,
      ...Object.keys(charts).map((n) => `[${n}.png](${n}.png)`),
    ].join(", "),
    "",
  );
  const report = await atomic(
    join(dir, "report.md"),
    (tmp) => Deno.writeTextFile(tmp, md.join("\n")),
  );
  return { parquet, csv, charts: written, portfolios, report };
}
