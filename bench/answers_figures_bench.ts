/**
 * The figures docs/validation.md quotes from the default demo world (seed of
 * `connect()` without keys, every market trade), printed here so each can be
 * checked against a run:
 *
 * - Jensen's alpha of a short book of 10b5-1 plan sales (`direction:
 *   "follow"`, 6-month holding) at `riskFree` 0 and 4, with its months, beta
 *   and the number of market trades;
 * - the headline study's Bonferroni counts (means and differences whose
 *   interval excludes 0 at 95 % each and jointly) and the widest joint
 *   interval of a difference that no longer excludes 0;
 * - `entryComparison` of the headline study: the cost of waiting for the
 *   filing, per group and horizon, with `n_paired` and its interval.
 *
 * `deno run -A bench/answers_figures_bench.ts`. No timing: the same table every run.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { connect, entryComparison, headlineStudy, portfolioBacktest, tradeClass } from "../mod.ts";
import { table } from "./loopback.ts";

type Row = Record<string, number | string | null>;
const f2 = (v: unknown) => (typeof v === "number" ? (v >= 0 ? "+" : "") + v.toFixed(2) : "–");
const excludes0 = (lo: unknown, hi: unknown) =>
  typeof lo === "number" && typeof hi === "number" && (lo > 0 || (hi as number) < 0);

/** Prints the figures; returns the printed text. */
export async function answersFiguresBench(): Promise<string> {
  const { insider } = await connect({ quiet: true });
  const trades = await insider.search({ onlyMarketTransactions: true }).frame({ progress: false });
  const sales = tradeClass(trades).filter(pl.col("trade_class").eq(pl.lit("plan_sale")));
  const alpha = [0, 4].map((riskFree) => {
    const s = portfolioBacktest(sales, { horizon: "6m", direction: "follow", riskFree }).stats;
    return [`${riskFree}%`, s.months, f2(s.alpha), f2(s.alphaFit?.beta)];
  });
  const horizons = ["1m", "3m", "6m", "1y"] as const;
  const study = headlineStudy(trades, horizons, { adjust: "bonferroni" });
  const rows = study.toRecords() as Row[];
  const count = (lo: string, hi: string) => rows.filter((r) => excludes0(r[lo], r[hi])).length;
  const means = rows.filter((r) => typeof r.ci_low === "number").length;
  const diffs = rows.filter((r) => typeof r.diff_ci_low === "number").length;
  const lost = rows.filter((r) =>
    excludes0(r.diff_ci_low, r.diff_ci_high) && !excludes0(r.diff_ci_low_adj, r.diff_ci_high_adj)
  ).map((r) => `${r.group} ${r.horizon}: ${f2(r.diff_ci_low_adj)} to ${f2(r.diff_ci_high_adj)}`);
  const filing = headlineStudy(trades, horizons, { entry: "filing" }).toRecords() as Row[];
  const nAt = (rs: Row[], g: unknown, h: unknown) =>
    rs.find((r) => r.group === g && r.horizon === h)?.n;
  const entry = (entryComparison(headlineStudy(trades, horizons)).frame.toRecords() as Row[]).map(
    (r) => [
      String(r.group),
      String(r.horizon),
      String(r.n_paired),
      `${nAt(rows, r.group, r.horizon)} / ${nAt(filing, r.group, r.horizon)}`,
      `${f2(r.diff)} [${f2(r.diff_low)}, ${f2(r.diff_high)}]`,
    ],
  );
  return [
    `Demo world: ${trades.height} market trades, ${sales.height} 10b5-1 plan sales.`,
    table(
      "Jensen's alpha, short book of 10b5-1 plan sales (follow), 6m holding",
      ["riskFree", "months", "alpha %/yr", "beta"],
      alpha,
    ),
    table("Headline study, adjust: bonferroni", ["", "at 95 % each", "jointly", "of"], [
      ["means excluding 0", count("ci_low", "ci_high"), count("ci_low_adj", "ci_high_adj"), means],
      [
        "differences excluding 0",
        count("diff_ci_low", "diff_ci_high"),
        count("diff_ci_low_adj", "diff_ci_high_adj"),
        diffs,
      ],
    ]),
    `n_comparisons ${rows[0].n_comparisons}; differences no longer excluding 0 jointly: ${
      lost.join("; ")
    }`,
    table(
      "entryComparison: filing minus trade entry, same trades (pp)",
      ["group", "horizon", "n paired", "n trade / filing", "diff [95% CI]"],
      entry,
    ),
  ].join("\n");
}

if (import.meta.main) console.log(await answersFiguresBench());
