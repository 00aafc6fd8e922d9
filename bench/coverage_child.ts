/**
 * One batch of the coverage benchmark in its own process (so memory is
 * returned between batches and peak RSS is per batch):
 * `deno run -A bench/coverage_child.ts <world|headline> <scale> <seed>...`
 * prints one JSON line with the results and the peak RSS.
 *
 * @module
 */
import { checkWorld, CLUSTERINGS, headlineGap } from "./coverage_lib.ts";

function rssMb(): number {
  const s = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmHWM:\s+(\d+)/.exec(s)![1]) / 1024;
}

if (import.meta.main) {
  const [kind, scaleText, ...seedTexts] = Deno.args;
  const scale = Number(scaleText);
  const seeds = seedTexts.map(Number);
  const results = kind === "headline"
    ? seeds.map((s) => headlineGap(s, scale))
    : seeds.map((s) => checkWorld(s, scale, CLUSTERINGS));
  console.log(JSON.stringify({ results, rssMb: rssMb() }));
}
