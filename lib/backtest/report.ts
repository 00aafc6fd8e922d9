/**
 * Writing a backtest's results: stats as parquet and CSV, charts as SVG and
 * PNG, and a `report.md` that embeds the charts and tabulates the stats;
 * plus a plain-text table for the terminal.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { join } from "node:path";
import type { Chart } from "../charts/chart.ts";
import { saveChart } from "../charts/save.ts";
import { writeCsv, writeParquet } from "../store/write.ts";
import { atomic } from "../store/write.ts";

/** Paths written by {@link writeReport}. */
export interface ReportFiles {
  /** Stats as parquet. */
  parquet: string;
  /** Stats as CSV. */
  csv: string;
  /** Charts, SVG and PNG per chart. */
  charts: string[];
  /** The markdown report. */
  report: string;
}

function fmt(v: unknown, digits = 2): string {
  if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))) return "–";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return String(v);
}

/** Rows of the stats as display cells: group, horizon, n, mean excess, 95% CI, hit rate, t, vs baseline. */
function cells(stats: pl.DataFrame): string[][] {
  return (stats.toRecords() as Record<string, unknown>[]).map((r) => [
    String(r.group),
    String(r.horizon),
    fmt(r.n),
    `${fmt(r.mean_excess)}%`,
    `[${fmt(r.ci_low)}, ${fmt(r.ci_high)}]`,
    r.hit_rate === null ? "–" : `${fmt(r.hit_rate as number, 0)}%`,
    fmt(r.t_stat),
    r.diff_vs_baseline === null
      ? "baseline"
      : `${fmt(r.diff_vs_baseline)} [${fmt(r.diff_ci_low)}, ${fmt(r.diff_ci_high)}]`,
  ]);
}

const HEAD = [
  "group",
  "horizon",
  "n",
  "mean excess",
  "95% CI",
  "hit rate",
  "t",
  "vs baseline (95% CI)",
];

/**
 * The stats as an aligned text table.
 *
 * @example
 * ```ts
 * import { connect, eventStudy, statsTable } from "../../mod.ts";
 * const { insider } = await connect();
 * console.log(statsTable(eventStudy(await insider.search({ tradeType: "purchase" }).frame(), { groupBy: "role" })));
 * ```
 */
export function statsTable(stats: pl.DataFrame): string {
  const rows = [HEAD, ...cells(stats)];
  const w = HEAD.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r, k) => {
    const line = r.map((c, i) => (i >= 2 ? c.padStart(w[i]) : c.padEnd(w[i]))).join("  ");
    return k === 0 ? `${line}\n${w.map((n) => "─".repeat(n)).join("  ")}` : line;
  }).join("\n");
}

/**
 * Writes stats (parquet, CSV), charts (SVG, PNG) and `report.md` into `dir`.
 *
 * @example
 * ```ts
 * import { connect, eventStudy, eventStudyChart, writeReport } from "../../mod.ts";
 * const { insider } = await connect();
 * const stats = eventStudy(await insider.search({ tradeType: "purchase" }).frame(), { groupBy: "role" });
 * await writeReport("out", stats, { "event-study": eventStudyChart(stats) }, { title: "Purchases by role" });
 * ```
 */
export async function writeReport(
  dir: string,
  stats: pl.DataFrame,
  charts: Record<string, Chart>,
  meta: { title: string; notes?: string[] },
): Promise<ReportFiles> {
  await Deno.mkdir(dir, { recursive: true });
  const parquet = await writeParquet(stats, join(dir, "stats.parquet"));
  const csv = await writeCsv(stats, join(dir, "stats.csv"));
  const written: string[] = [];
  for (const [name, chart] of Object.entries(charts)) {
    written.push(await saveChart(chart, join(dir, `${name}.svg`)));
    written.push(await saveChart(chart, join(dir, `${name}.png`)));
  }
  const md = [
    `# ${meta.title}`,
    "",
    ...(meta.notes ?? []).map((n) => `${n}\n`),
    ...Object.keys(charts).map((name) => `![${name}](${name}.svg)\n`),
    "| " + HEAD.join(" | ") + " |",
    "|" + HEAD.map(() => "---").join("|") + "|",
    ...cells(stats).map((r) => "| " + r.join(" | ") + " |"),
    "",
    "Files: [stats.parquet](stats.parquet), [stats.csv](stats.csv)" +
    Object.keys(charts).map((n) => `, [${n}.png](${n}.png)`).join(""),
    "",
  ].join("\n");
  const report = await atomic(join(dir, "report.md"), (tmp) => Deno.writeTextFile(tmp, md));
  return { parquet, csv, charts: written, report };
}
