/**
 * Issue 34's table alone, as `deno task bench` ends with it: the floor
 * pulls (their own table first), then the first cell, the peaks and the
 * pull ratios beside their targets, without the rest of the bench:
 * `deno run -A bench/light_table.ts`.
 *
 * @module
 */
import { floorFigures, floorRunsTable } from "./parallel_bench.ts";
import { lightBench } from "./light_bench.ts";

if (import.meta.main) {
  const floor = await floorFigures();
  console.log(floorRunsTable(floor.runs));
  console.log(await lightBench(floor.figures));
}
