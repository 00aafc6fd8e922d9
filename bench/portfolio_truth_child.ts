/**
 * One batch of `bench/portfolio_truth_bench.ts` in its own process:
 * `deno run -A bench/portfolio_truth_child.ts <scale> <seed>...` prints one
 * JSON line with the checks.
 *
 * @module
 */
import { riskChecks } from "./portfolio_truth_lib.ts";
import type { SPREADS } from "../lib/backtest/portfolio.ts";

if (import.meta.main) {
  const [scaleText, ...seedTexts] = Deno.args;
  const spread = (Deno.env.get("PORTFOLIO_SPREAD") ?? "market") as typeof SPREADS[number];
  const edges = (Deno.env.get("PORTFOLIO_EDGES") ?? "trim") as "trim" | "keep";
  const diagnostics = (Deno.env.get("PORTFOLIO_DIAGNOSTICS") ?? "1") === "1";
  const out = seedTexts.flatMap((s) =>
    riskChecks(Number(s), Number(scaleText), undefined, undefined, edges, spread, diagnostics)
  );
  console.log(JSON.stringify(out));
}
