/**
 * Issue 34's table alone, as `deno task bench` ends with it: the floor
 * pulls (the first run's table, then every run's medians with their spread),
 * then the first cell, the peaks and the pull ratios (the medians) beside
 * their targets, without the rest of the bench:
 * `deno run -A bench/light_table.ts`.
 *
 * @module
 */
import { floorRunsTable } from "./parallel_bench.ts";
import { floorRepeated, floorRepeatedTable } from "./floor_runs.ts";
import { lightBench } from "./light_bench.ts";

if (import.meta.main) {
  // the floor pulls SB_FLOOR_RUNS times (10 unless set), as `deno task bench` runs them
  const floor = await floorRepeated(Number(Deno.env.get("SB_FLOOR_RUNS") ?? 10));
  console.log(floorRunsTable(floor.runs[0]));
  console.log(floorRepeatedTable(floor.repeated));
  console.log(await lightBench(floor.figures));
}
