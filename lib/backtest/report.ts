/**
 * Writing a backtest's results: stats as parquet and CSV, charts as SVG and
 * PNG (with an explicit white background, readable in light and dark
 * themes), and a `report.md` with a conclusion generated from the numbers,
 * the table (median and trimmed mean next to every mean), how to read the
 * hit rate, portfolio statistics, and the caveats; plus plain-text tables
 * for the terminal.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { join } from "node:path";
import type { Chart } from "../charts/chart.ts";
import { saveChart } from "../charts/save.ts";
import { atomic } from "../shared/atomic.ts";
import { writeCsv, writeParquet } from "../store/write.ts";
import type { PortfolioResult } from "./portfolio.ts";

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
  const rows = stats.toRecords() as Row[];
  const find = (g: unknown, h: unknown) =>
    truth.rows.find((t) => t.group === g && t.horizon === h)?.expected_excess;
  const body: string[][] = [];
  let covered = 0;
  let total = 0;
  for (const r of rows) {
    const t = find(r.group, r.horizon);
    if (t === undefined) continue;
    const lo = r.ci_low as number | null;
    const hi = r.ci_high as number | null;
    const inside = lo !== null && hi !== null ? lo <= t && t <= hi : null;
    if (inside !== null) {
      total++;
      if (inside) covered++;
    }
    body.push([
      String(r.group),
      String(r.horizon),
      fmt(r.mean_excess),
      lo !== null && hi !== null ? `${fmt(lo)} to ${fmt(hi)}` : "–",
      fmt(t),
      inside === null ? "–" : inside ? "yes" : "no",
    ]);
    const base = r.baseline as string | null;
    const tb = base ? find(base, r.horizon) : undefined;
    if (base && base !== r.group && tb !== undefined && r.diff_vs_baseline !== null) {
      const dlo = r.diff_ci_low as number | null;
      const dhi = r.diff_ci_high as number | null;
      const dt = t - tb;
      const dIn = dlo !== null && dhi !== null ? dlo <= dt && dt <= dhi : null;
      if (dIn !== null) {
        total++;
        if (dIn) covered++;
      }
      body.push([
        `${r.group} − ${base}`,
        String(r.horizon),
        fmt(r.diff_vs_baseline),
        dlo !== null && dhi !== null ? `${fmt(dlo)} to ${fmt(dhi)}` : "–",
        fmt(dt),
        dIn === null ? "–" : dIn ? "yes" : "no",
      ]);
    }
  }
  return [
    `The data come from ${truth.source}, which knows the effect it built into every trade, so each estimate can be checked against the truth: the true expected excess return of exactly the trades in the group (percent). ${covered} of ${total} intervals cover the truth; with 95% intervals about 1 in 20 should miss.`,
    "",
    mdTable(
      ["group", "horizon", "estimate (mean excess)", "95% interval", "truth", "covers"],
      body,
    ),
  ].join("\n");
}

type Row = Record<string, unknown>;

function fmt(v: unknown, digits = 2): string {
  if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))) return "–";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return String(v);
}

function pct(v: unknown, digits = 2): string {
  return typeof v === "number" && Number.isFinite(v) ? `${v.toFixed(digits)}%` : "–";
}

function signed(v: number, digits = 2): string {
  return `${v >= 0 ? "+" : "-"}${Math.abs(v).toFixed(digits)}`;
}

const HEAD = [
  "group",
  "horizon",
  "n (clusters)",
  "mean excess",
  "median",
  "trimmed mean",
  "95% CI of mean",
  "hit rate",
  "t (cluster)",
  "vs baseline (95% CI)",
];

/** Rows of the stats as display cells. */
function cells(stats: pl.DataFrame): string[][] {
  return (stats.toRecords() as Row[]).map((r) => [
    String(r.group),
    String(r.horizon),
    `${fmt(r.n)}${typeof r.n_clusters === "number" ? ` (${r.n_clusters})` : ""}`,
    pct(r.mean_excess),
    pct(r.median_excess),
    pct(r.trimmed_mean_excess),
    r.thin ? "thin: none" : `[${fmt(r.ci_low)}, ${fmt(r.ci_high)}]`,
    r.hit_rate === null || r.hit_rate === undefined ? "–" : `${fmt(r.hit_rate as number, 0)}%`,
    fmt(r.t_cluster),
    r.diff_vs_baseline === null || r.diff_vs_baseline === undefined
      ? r.baseline === r.group ? "baseline" : "–"
      : `${signed(r.diff_vs_baseline as number)} ${
        r.diff_ci_low === null ? "(no CI)" : `[${fmt(r.diff_ci_low)}, ${fmt(r.diff_ci_high)}]`
      }`,
  ]);
}

function textTable(head: string[], rows: string[][]): string {
  const all = [head, ...rows];
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r, k) => {
    const line = r.map((c, i) => (i >= 2 ? c.padStart(w[i]) : c.padEnd(w[i]))).join("  ");
    return k === 0 ? `${line}\n${w.map((n) => "─".repeat(n)).join("  ")}` : line;
  }).join("\n");
}

function mdTable(head: string[], rows: string[][]): string {
  return [
    "| " + head.join(" | ") + " |",
    "|" + head.map(() => "---").join("|") + "|",
    ...rows.map((r) => "| " + r.map((c) => c.replaceAll("|", "\\|")).join(" | ") + " |"),
  ].join("\n");
}

/**
 * The stats as an aligned text table: n (clusters), mean, median and trimmed
 * mean of the excess return, the cluster-bootstrap interval ("thin: none"
 * for thin groups), the sign-aware hit rate, the cluster t, and the
 * difference against the baseline.
 *
 * @example
 * ```ts
 * import { connect, eventStudy, statsTable } from "../../mod.ts";
 * const { insider } = await connect();
 * console.log(statsTable(eventStudy(await insider.search({ tradeType: "purchase" }).frame(), { groupBy: "role" })));
 * ```
 */
export function statsTable(stats: pl.DataFrame): string {
  return textTable(HEAD, cells(stats));
}

const P_HEAD = [
  "portfolio",
  "months",
  "trades",
  "CAGR",
  "vol",
  "Sharpe (excess)",
  "max drawdown",
  "hit rate",
  "alpha / yr (NW t)",
  "beta",
];

function portfolioCells(results: Record<string, PortfolioResult>): string[][] {
  return Object.entries(results).map(([name, { stats: s }]) => [
    name,
    String(s.months),
    String(s.trades),
    pct(s.cagr, 1),
    pct(s.vol, 1),
    fmt(s.sharpe),
    pct(s.maxDrawdown, 1),
    pct(s.hitRate, 0),
    `${pct(s.alpha, 1)} (${fmt(s.alphaFit.tStat)})`,
    fmt(s.alphaFit.beta),
  ]);
}

/**
 * Portfolio statistics as an aligned text table, one line per portfolio.
 *
 * @example
 * ```ts
 * import { connect, portfolioBacktest, portfolioTable } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 });
 * console.log(portfolioTable({ buys: portfolioBacktest(buys, { horizon: "3m" }) }));
 * ```
 */
export function portfolioTable(results: Record<string, PortfolioResult>): string {
  return textTable(P_HEAD, portfolioCells(results));
}

function interval(lo: unknown, hi: unknown): string {
  return `95% interval ${signed(lo as number)} to ${signed(hi as number)} pp`;
}

/**
 * A conclusion paragraph generated from an event study's numbers: at the
 * longest horizon with enough trades, which group beats which and by how
 * much, with the cluster-bootstrap interval of the difference, whether
 * means and medians agree, and where the evidence is too thin.
 *
 * @example
 * ```ts
 * import { conclusion, connect, eventStudy } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 });
 * console.log(conclusion(eventStudy(buys, { groupBy: "role", baseline: "Director" })));
 * ```
 */
export function conclusion(stats: pl.DataFrame): string {
  const rows = stats.toRecords() as Row[];
  if (!rows.length) return "No groups to compare.";
  const cluster = String(rows[0].cluster ?? "month");
  const how = cluster === "none"
    ? "an i.i.d. bootstrap (trades treated as independent)"
    : `a bootstrap that resamples whole ${cluster === "month" ? "calendar months" : "issuers"}`;
  const horizons = [...new Map(rows.map((r) => [r.horizon_days as number, String(r.horizon)]))]
    .sort((a, b) => a[0] - b[0]).map((h) => h[1]);
  const usable = (h: string) => rows.filter((r) => r.horizon === h && !r.thin && r.n);
  const main = [...horizons].reverse().find((h) => usable(h).length >= 1) ?? horizons.at(-1)!;
  const at = rows.filter((r) => r.horizon === main);
  const baseline = at.find((r) => r.baseline !== null && r.group === r.baseline);
  const out: string[] = [];
  if (baseline) {
    out.push(
      `${main} after the trade, ${baseline.group} (the baseline) averaged ${
        pct(baseline.mean_excess)
      } excess return (median ${pct(baseline.median_excess)}, n ${baseline.n}).`,
    );
    for (const r of at.filter((r) => r !== baseline && typeof r.diff_vs_baseline === "number")) {
      const d = r.diff_vs_baseline as number;
      const verb = d >= 0 ? "beat" : "trailed";
      if (r.thin || r.diff_ci_low === null) {
        out.push(
          `${r.group} ${verb} it by ${
            Math.abs(d).toFixed(2)
          } percentage points on the mean, but with ${r.n} trades the evidence is too thin for an interval.`,
        );
        continue;
      }
      const lo = r.diff_ci_low as number;
      const hi = r.diff_ci_high as number;
      const sure = lo > 0 || hi < 0;
      out.push(
        `${r.group} ${verb} it by ${Math.abs(d).toFixed(2)} percentage points on the mean (${
          interval(lo, hi)
        }; ${
          sure
            ? "the interval excludes 0"
            : "the interval includes 0, so the gap is not established"
        }); its median was ${pct(r.median_excess)} against ${pct(baseline.median_excess)}${
          r.side === "sell"
            ? " (these are sales: a lower excess return after them means the sellers timed them well)"
            : ""
        }.`,
      );
    }
  } else {
    const ranked = at.filter((r) => typeof r.mean_excess === "number" && !r.thin)
      .sort((a, b) => (b.mean_excess as number) - (a.mean_excess as number));
    if (ranked.length) {
      const top = ranked[0];
      out.push(
        `${main} after the trade, the highest mean excess return was ${top.group}'s ${
          pct(top.mean_excess)
        } (95% interval ${fmt(top.ci_low)} to ${fmt(top.ci_high)}%, median ${
          pct(top.median_excess)
        }, n ${top.n}).`,
      );
      const low = ranked.at(-1)!;
      if (low !== top) {
        out.push(
          `The lowest was ${low.group}'s ${pct(low.mean_excess)} (median ${
            pct(low.median_excess)
          }).`,
        );
      }
    }
    out.push("No baseline was chosen, so no difference was tested.");
  }
  const skew = at.filter((r) =>
    !r.thin && typeof r.mean_excess === "number" && typeof r.median_excess === "number" &&
    (r.mean_excess as number) > 0 && (r.median_excess as number) <= 0
  );
  if (skew.length) {
    out.push(
      `For ${
        skew.map((r) => r.group).join(", ")
      } the mean is positive while the median is not: a few large winners carry the mean, and the typical trade did not beat the market.`,
    );
  }
  const empty = horizons.filter((h) => rows.every((r) => r.horizon !== h || !r.n));
  if (empty.length) {
    out.push(`No trade is old enough yet for a ${empty.join(", ")} return.`);
  }
  const thinBy = new Map<string, string[]>();
  for (const r of rows.filter((r) => r.thin && !empty.includes(String(r.horizon)))) {
    const k = String(r.group);
    thinBy.set(k, [...(thinBy.get(k) ?? []), `${r.horizon} n ${r.n}`]);
  }
  if (thinBy.size) {
    out.push(
      `Evidence is too thin (fewer trades than the minimum) for ${
        [...thinBy].map(([g, hs]) => `${g} (${hs.join(", ")})`).join("; ")
      }: those rows carry no t-statistic or interval.`,
    );
  }
  const fewClusters = at.filter((r) =>
    !r.thin && typeof r.n_clusters === "number" && (r.n_clusters as number) < 30
  );
  if (fewClusters.length && cluster !== "none") {
    out.push(
      `Intervals rest on few clusters for ${
        fewClusters.map((r) => `${r.group} (${r.n_clusters})`).join(", ")
      }, so read them as rough.`,
    );
  }
  out.push(`Intervals come from ${how}, which allows trades in the same cluster to move together.`);
  return out.join(" ");
}

/**
 * A paragraph comparing calendar-time portfolios: Sharpe, alpha with its
 * Newey-West t-statistic, and max drawdown, best Sharpe first.
 *
 * @example
 * ```ts
 * import { connect, portfolioBacktest, portfolioConclusion } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000 });
 * console.log(portfolioConclusion({ buys: portfolioBacktest(buys, { horizon: "3m" }) }));
 * ```
 */
export function portfolioConclusion(results: Record<string, PortfolioResult>): string {
  const ranked = Object.entries(results).sort((a, b) => b[1].stats.sharpe - a[1].stats.sharpe);
  return ranked.map(([name, { stats: s }], i) =>
    `${i === 0 && ranked.length > 1 ? "Best by Sharpe: " : ""}${name} — Sharpe ${
      fmt(s.sharpe)
    } on monthly excess returns over ${s.months} months, alpha ${
      pct(s.alpha, 1)
    } a year (Newey-West t ${fmt(s.alphaFit.tStat)}${
      Math.abs(s.alphaFit.tStat) < 2 ? ", not distinguishable from 0" : ""
    }), worst drawdown ${pct(s.maxDrawdown, 1)}, ${s.trades} trades.`
  ).join(" ");
}

const HIT_RATE_NOTE =
  "**Hit rate** is the percent of trades that went the insider's way: a purchase hits when its excess return is above 0, a sale hits when its excess return is below 0 (the stock did worse than the market after the insider sold). 50% is a coin toss for either side.";

const CAVEATS = [
  "Returns are measured from the trade date; an investor learns of the trade only from the filing, up to two business days later (longer for late filings), so the figures are an upper bound of what following the filings earns.",
  "Survivorship: the sample is what the service covers today.",
  "Trades close in time share market moves and trades in one stock share its news, so the intervals resample clusters (see the table's cluster count); with few clusters even these are too narrow.",
  "Means are pulled by a few large moves; the median and the 10% trimmed mean show the typical trade.",
  "Portfolio returns between the 1m/3m/6m/1y points are spread geometrically, which smooths the path: volatility and drawdowns are understated. Shorts earn no interest; costs are a flat charge per side on turnover.",
];

/**
 * Writes stats (parquet, CSV), charts (SVG, PNG), portfolio monthly frames
 * and `report.md` into `dir`. `stats` may be null for a portfolio-only
 * report.
 *
 * @example
 * ```ts
 * import { connect, eventStudy, eventStudyChart, writeReport } from "../../mod.ts";
 * const { insider } = await connect();
 * const stats = eventStudy(await insider.search({ tradeType: "purchase" }).frame(), { groupBy: "role" });
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
  const parquet = stats ? await writeParquet(stats, join(dir, "stats.parquet")) : "";
  const csv = stats ? await writeCsv(stats, join(dir, "stats.csv")) : "";
  const written: string[] = [];
  for (const [name, chart] of Object.entries(charts)) {
    written.push(await saveChart(chart, join(dir, `${name}.svg`)));
    written.push(await saveChart(chart, join(dir, `${name}.png`)));
  }
  const portfolios: string[] = [];
  const pLinks: string[] = [];
  for (const [name, res] of Object.entries(meta.portfolios ?? {})) {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    portfolios.push(await writeParquet(res.monthly, join(dir, `portfolio-${slug}.parquet`)));
    portfolios.push(await writeCsv(res.monthly, join(dir, `portfolio-${slug}.csv`)));
    pLinks.push(`[portfolio-${slug}.csv](portfolio-${slug}.csv)`);
  }
  const pCharts = new Set(meta.portfolioCharts ?? []);
  const img = (name: string) => `![${name}](${name}.svg)\n`;
  const md: string[] = [`# ${meta.title}`, "", ...(meta.notes ?? []).map((n) => `${n}\n`)];
  if (stats) {
    md.push("## Conclusion", "", conclusion(stats), "");
    if (meta.portfolios && Object.keys(meta.portfolios).length) {
      md.push(portfolioConclusion(meta.portfolios), "");
    }
    if (meta.truth) md.push("## Estimate vs the truth", "", truthSection(stats, meta.truth), "");
    md.push("## Event study: excess return after the trade", "");
    md.push(...Object.keys(charts).filter((n) => !pCharts.has(n)).map(img));
    md.push(mdTable(HEAD, cells(stats)), "");
    md.push(
      "Returns in percent, excess over the market over the same window, from the trade date. The interval is a 95% cluster-bootstrap percentile interval of the mean; *t (cluster)* is the mean over its bootstrap standard error; *thin* rows (fewer trades than the minimum) carry neither.",
      "",
      HIT_RATE_NOTE,
      "",
    );
  }
  if (meta.portfolios && Object.keys(meta.portfolios).length) {
    md.push("## Calendar-time portfolios", "");
    if (!stats) md.push(portfolioConclusion(meta.portfolios), "");
    md.push(...[...pCharts].filter((n) => charts[n]).map(img));
    md.push(mdTable(P_HEAD, portfolioCells(meta.portfolios)), "");
    md.push(
      "Each trade is a position from its trade date for the holding period; open positions are reweighted every month. CAGR, vol and max drawdown are after costs; Sharpe is the annualized mean over the standard deviation of monthly excess returns over the market; alpha is the intercept of monthly returns on the positions' market return, with a Newey-West t-statistic; hit rate is the percent of invested months with a positive excess return.",
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
