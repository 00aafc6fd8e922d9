/**
 * Portfolio risk figures against the truth (issue 24): for `COVERAGE_SEEDS`
 * (default 60) emulator worlds of `COVERAGE_SCALE` (default 0.5), the
 * headline portfolios (CEO buys, all open-market purchases; equal weight,
 * long, no costs) at each holding period and both entries, backtested from
 * the service's points (`portfolioBacktest`, default booking) and from the
 * emulator's true daily prices (same engine, same positions). Prints, per
 * figure, the mean estimate, the mean truth and the relative bias
 * (estimate ÷ truth − 1), with the share of worlds within 10 % of the truth.
 *
 * Then the summary the docs quote: per holding and figure, the range of
 * the mean bias over the four headline portfolios (two groups × two
 * entries), and the same for two diagnostic portfolios that isolate the
 * causes of the bias at long holdings (`PORTFOLIO_DIAGNOSTICS=0` skips
 * them): all purchases without the ten-bagger, and all purchases with at
 * most one open position per issuer.
 *
 * Every bias is printed with its standard error across worlds (the range
 * over portfolios gives each end's own). About 5 s of CPU a world.
 *
 * `deno run -A bench/portfolio_truth_bench.ts`; `COVERAGE_FIRST_SEED` picks
 * unseen worlds; `COVERAGE_OUT` writes the checks to a file and
 * `COVERAGE_IN` prints the tables again from such a file; `PORTFOLIO_SPREAD` (market, step, geometric) and
 * `PORTFOLIO_EDGES` (trim, keep) compare bookings.
 *
 * @module
 */
import { table } from "./loopback.ts";
import {
  NO_TEN_BAGGER,
  ONE_PER_ISSUER,
  RISK_FIGURES,
  type RiskCheck,
  type RiskFigure,
} from "./portfolio_truth_lib.ts";
import { runChild } from "./_child.ts";

const FIRST_SEED = Number(Deno.env.get("COVERAGE_FIRST_SEED") ?? 1);

async function batch(scale: number, seeds: number[]): Promise<RiskCheck[]> {
  return await runChild<RiskCheck[]>(
    "./portfolio_truth_child.ts",
    [scale, ...seeds],
    `portfolio truth batch ${seeds.join(",")} failed`,
  );
}

/** The table of estimated vs true figures across worlds. */
export function riskTable(checks: RiskCheck[], title: string): string {
  const rows: (string | number)[][] = [];
  const keys = [...new Set(checks.map((c) => `${c.target}|${c.horizon}|${c.entry}`))];
  const m = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  for (const k of keys) {
    const cs = checks.filter((c) => `${c.target}|${c.horizon}|${c.entry}` === k);
    for (const f of RISK_FIGURES) {
      const est = cs.map((c) => c.estimate[f]);
      const tru = cs.map((c) => c.truth[f]);
      // relative bias ± its cross-world SE (delta method: the SE of mean(est − truth) / mean(truth))
      const d = est.map((e, i) => e - tru[i]);
      const dSe = Math.sqrt(d.reduce((a, b) => a + (b - m(d)) ** 2, 0) / (d.length - 1) / d.length);
      const rel = f === "autocorrelation" || f === "lastMonth" || f === "alpha"
        ? "–"
        : `${(100 * (m(est) / m(tru) - 1)).toFixed(1)} ± ${
          (100 * dSe / Math.abs(m(tru))).toFixed(1)
        }%`;
      const within = f === "autocorrelation" || f === "lastMonth" || f === "alpha"
        ? "–"
        : `${
          (100 * cs.filter((c) => Math.abs(c.estimate[f] / c.truth[f] - 1) <= 0.1).length /
            cs.length).toFixed(0)
        }%`;
      const err = est.map((e, i) => Math.abs(e - tru[i]));
      rows.push([
        ...k.split("|"),
        f,
        m(est),
        m(tru),
        `${(m(est) - m(tru)).toFixed(3)} ± ${dSe.toFixed(3)}`,
        rel,
        m(err),
        within,
      ]);
    }
  }
  return table(title, [
    "portfolio",
    "hold",
    "entry",
    "figure",
    "mean estimate",
    "mean truth",
    "bias ± SE",
    "relative bias ± SE",
    "mean |error|",
    "worlds within 10%",
  ], rows);
}

const SUMMARY: RiskFigure[] = [
  "vol",
  "maxDrawdown",
  "hitRate",
  "sharpe",
  "informationRatio",
  "alpha",
  "meanReturn",
];
const HEADLINE = ["CEO buys", "All purchases"];

/**
 * Per holding and figure, the range of the mean bias over portfolios (each
 * a group × entry): in percent of the mean truth, alpha in points a year.
 * One row for the headline portfolios, one per diagnostic group present.
 *
 * @example
 * ```ts
 * import { biasSummary } from "./portfolio_truth_bench.ts";
 * console.log(biasSummary([], "no checks")); // a table with no rows
 * ```
 */
export function biasSummary(checks: RiskCheck[], title: string): string {
  const m = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  // the mean bias over the worlds and its standard error across worlds (delta method for the
  // relative bias: the SE of mean(estimate − truth) over |mean(truth)|)
  const bias = (cs: RiskCheck[], f: RiskFigure) => {
    const est = m(cs.map((c) => c.estimate[f]));
    const tru = m(cs.map((c) => c.truth[f]));
    const d = cs.map((c) => c.estimate[f] - c.truth[f]);
    const se = Math.sqrt(d.reduce((a, b) => a + (b - m(d)) ** 2, 0) / (d.length - 1) / d.length);
    return f === "alpha"
      ? { v: est - tru, se }
      : { v: 100 * (est / tru - 1), se: (100 * se) / Math.abs(tru) };
  };
  const fmt = (b: { v: number; se: number }, f: RiskFigure) => {
    const digits = f === "alpha" ? 2 : 1;
    const v = Number(b.v.toFixed(digits));
    return `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(digits)} ± ${
      b.se.toFixed(digits)
    }`;
  };
  const sets: [string, string[]][] = [
    ["headline (2 groups × 2 entries)", HEADLINE],
    [NO_TEN_BAGGER, [NO_TEN_BAGGER]],
    [ONE_PER_ISSUER, [ONE_PER_ISSUER]],
  ];
  const rows: string[][] = [];
  const holds = [...new Set(checks.map((c) => c.horizon))];
  for (const [label, targets] of sets) {
    for (const h of holds) {
      const keys = [
        ...new Set(
          checks.filter((c) => c.horizon === h && targets.includes(c.target))
            .map((c) => `${c.target}|${c.entry}`),
        ),
      ];
      if (!keys.length) continue;
      const per = keys.map((k) =>
        checks.filter((c) => c.horizon === h && `${c.target}|${c.entry}` === k)
      );
      rows.push([
        label,
        h,
        ...SUMMARY.map((f) => {
          const bs = per.map((cs) => bias(cs, f)).sort((a, b) => a.v - b.v);
          return bs.length === 1 ? fmt(bs[0], f) : `${fmt(bs[0], f)} to ${fmt(bs.at(-1)!, f)}`;
        }),
      ]);
    }
  }
  return table(title, [
    "portfolios",
    "hold",
    "vol %",
    "max drawdown %",
    "hit rate %",
    "Sharpe %",
    "IR %",
    "alpha pts/yr",
    "mean monthly return %",
  ], rows);
}

/** Runs the risk-figure benchmark and returns the printed table. */
export async function portfolioTruthBench(
  seeds = Number(Deno.env.get("COVERAGE_SEEDS") ?? 60),
  scale = Number(Deno.env.get("COVERAGE_SCALE") ?? 0.5),
): Promise<string> {
  const t0 = performance.now();
  const checks: RiskCheck[] = [];
  // COVERAGE_IN: the checks a run wrote to COVERAGE_OUT, printed again (say, after a change to
  // the tables) without recomputing the worlds
  const saved = Deno.env.get("COVERAGE_IN");
  if (saved) checks.push(...JSON.parse(await Deno.readTextFile(saved)) as RiskCheck[]);
  for (let k = 0; !saved && k < seeds; k += 5) {
    const ss = Array.from({ length: Math.min(5, seeds - k) }, (_, i) => FIRST_SEED + k + i);
    checks.push(...await batch(scale, ss));
  }
  const dump = Deno.env.get("COVERAGE_OUT");
  if (dump) await Deno.writeTextFile(dump, JSON.stringify(checks));
  return `${
    riskTable(
      checks,
      `Portfolio figures vs the true daily paths: ${seeds} worlds from seed ${FIRST_SEED}, scale ${scale}, booking ${
        Deno.env.get("PORTFOLIO_SPREAD") ?? "market"
      }, edges ${Deno.env.get("PORTFOLIO_EDGES") ?? "trim"}`,
    )
  }\n${
    biasSummary(
      checks,
      `Mean bias of the estimate, range over portfolios (percent of the truth; alpha: points a year), ${seeds} worlds from seed ${FIRST_SEED}`,
    )
  }\nportfolio truth bench: ${((performance.now() - t0) / 1000).toFixed(0)} s`;
}

if (import.meta.main) console.log(await portfolioTruthBench());
