import { floorFigures, floorRunsTable } from "./parallel_bench.ts";
import { lightBench } from "./light_bench.ts";
const floor = await floorFigures();
console.log(floorRunsTable(floor.runs));
console.log(await lightBench(floor.figures));
