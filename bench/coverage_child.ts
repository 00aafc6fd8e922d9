/**
 * One batch of the coverage benchmark in its own process (so memory is
 * returned between batches and peak RSS is per batch):
 * `deno run -A bench/coverage_child.ts <world|headline|cli> <scale> <seed>...`
 * prints one JSON line with the results and the peak RSS.
 *
 * @module
 */
import { checkWorld, cliChecks, CLUSTERINGS, headlineGap } from "./coverage_lib.ts";
import type { ClusterBy } from "../lib/backtest/event_study.ts";
import { peakMb } from "./_peak.ts";

/** `COVERAGE_CLUSTERINGS` (comma-separated) narrows the clusterings compared. */
function clusterings(): ClusterBy[] {
  const env = Deno.env.get("COVERAGE_CLUSTERINGS");
  return env ? env.split(",") as ClusterBy[] : CLUSTERINGS;
}

if (import.meta.main) {
  const [kind, scaleText, ...seedTexts] = Deno.args;
  const scale = Number(scaleText);
  const seeds = seedTexts.map(Number);
  const results = kind === "headline"
    ? seeds.map((s) => headlineGap(s, scale))
    : kind === "cli"
    ? seeds.map((s) => cliChecks(s, scale))
    : seeds.map((s) => checkWorld(s, scale, clusterings()));
  console.log(JSON.stringify({ results, rssMb: peakMb() }));
}
