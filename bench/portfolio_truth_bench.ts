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
 * `deno run -A bench/portfolio_truth_bench.ts`; `COVERAGE_FIRST_SEED` picks
 * unseen worlds; `PORTFOLIO_SPREAD` (market, step, geometric) and
 * `PORTFOLIO_EDGES` (trim, keep) compare bookings.
 *
 * @module
 */
import { table } from "./loopback.ts";
import { RISK_FIGURES, type RiskCheck } from "./portfolio_truth_lib.ts";
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

/** Runs the risk-figure benchmark and returns the printed table. */
export async function portfolioTruthBench(
  seeds = Number(Deno.env.get("COVERAGE_SEEDS") ?? 60),
  scale = Number(Deno.env.get("COVERAGE_SCALE") ?? 0.5),
): Promise<string> {
  const t0 = performance.now();
  const checks: RiskCheck[] = [];
  for (let k = 0; k < seeds; k += 5) {
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
  }\nportfolio truth bench: ${((performance.now() - t0) / 1000).toFixed(0)} s`;
}

if (import.meta.main) console.log(await portfolioTruthBench());
