/**
 * `deno task bench`: runs every benchmark and prints its tables. Benchmarks
 * are separate from tests and carry no thresholds: read the ratios.
 *
 * @module
 */
import { clientBench } from "./client_bench.ts";
import { framesBench } from "./frames_bench.ts";
import { frameScaleBench } from "./frame_scale.ts";
import { syncBench } from "./sync_bench.ts";
import { queryBench } from "./query_bench.ts";
import { coverageBench } from "./coverage_bench.ts";
import { floorRunsTable, parallelBench } from "./parallel_bench.ts";
import { floorRepeated, floorRepeatedTable } from "./floor_runs.ts";
import { frameVersusBench } from "./frame_versus.ts";
import { portfolioTruthBench } from "./portfolio_truth_bench.ts";
import { chartRasterBench } from "./chart_raster_bench.ts";
import { portfolioMinimumBench } from "./portfolio_minimum_bench.ts";
import { lightBench } from "./light_bench.ts";
import { releaseBench } from "./release_bench.ts";
import { truthRowsBench } from "./truth_rows_bench.ts";
import { bodyScrubBench } from "./body_scrub_bench.ts";
import { windowRoundsBench } from "./window_rounds_bench.ts";
import { answersFiguresBench } from "./answers_figures_bench.ts";

if (import.meta.main) {
  console.log("signalbook benchmarks (same run, same data)");
  console.log(await framesBench());
  console.log(await frameScaleBench());
  console.log(await frameVersusBench());
  console.log(await clientBench());
  console.log(await bodyScrubBench());
  // the floor pulls 10 times: the first run's table, the medians with their
  // spread, and the medians again in the last table
  const floor = await floorRepeated(Number(Deno.env.get("SB_FLOOR_RUNS") ?? 10));
  console.log(floorRunsTable(floor.runs[0]));
  console.log(floorRepeatedTable(floor.repeated));
  console.log(await parallelBench(["ideal", "trace", "table", "rate", "scale"]));
  console.log(await windowRoundsBench());
  console.log(await syncBench());
  console.log(await queryBench());
  console.log(await coverageBench());
  console.log(await portfolioTruthBench());
  console.log(truthRowsBench());
  console.log(await chartRasterBench());
  console.log(portfolioMinimumBench());
  console.log(await answersFiguresBench());
  console.log(await releaseBench());
  // last: issue 34's table of the figures users feel, each beside its target
  console.log(await lightBench(floor.figures));
}
