/**
 * The floor pulls of {@link floorFigures} run `n` times in a row (each run:
 * a fresh emulator per world, a fresh client process per pull set), then
 * per pull at `parallel: 8` the median ratio to the floor, its minimum and
 * maximum (the spread), and the 1-minute load average each run started at.
 * The figures handed on (to the light table) are the medians.
 *
 * What varies between runs: the machine's other work (the load column), the
 * collections of the client's heap as a pull ends (the longest pause), and
 * where in a 100 ms round trip the last window's last page lands (up to one
 * round trip on a 2.5 s floor: 0.04×). Between machines: the core speed and
 * the loopback's scheduling.
 *
 * `deno run -A bench/floor_runs.ts [n=10] [small]` runs it alone.
 *
 * @module
 */
import { type BenchFigure, floorFigures } from "./parallel_bench.ts";
import type { FloorRun } from "./parallel_floor_child.ts";
import { table } from "./loopback.ts";

/** The median of `xs` (the mean of the middle two when even). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One pull's figures over the runs. */
interface Repeated {
  figure: BenchFigure;
  values: number[];
  loads: number[];
}

/**
 * {@link floorFigures} `n` times: every run's {@link FloorRun}s, and per
 * figure its median over the runs (with the values and loads behind it).
 */
export async function floorRepeated(
  n: number,
  big = true,
): Promise<{ figures: BenchFigure[]; repeated: Repeated[]; runs: FloorRun[][] }> {
  const byName = new Map<string, Repeated>();
  const runs: FloorRun[][] = [];
  for (let i = 0; i < n; i++) {
    const one = await floorFigures(big);
    runs.push(one.runs);
    for (const f of one.figures) {
      const r = byName.get(f.name) ?? { figure: f, values: [], loads: [] };
      const run = one.runs.find((x) => f.name.startsWith(`${x.pull}, parallel ${x.parallel},`));
      r.values.push(f.value);
      r.loads.push(run?.load ?? NaN);
      byName.set(f.name, r);
    }
  }
  const repeated = [...byName.values()];
  const figures = repeated.map((r) => ({
    ...r.figure,
    name: `${r.figure.name}, median of ${r.values.length}`,
    value: median(r.values),
  }));
  return { figures, repeated, runs };
}

/** The repeated figures as a table: median, minimum, maximum, every value, the loads. */
export function floorRepeatedTable(repeated: readonly Repeated[]): string {
  const f = (x: number) => x.toFixed(2);
  return table(
    `Large pulls at the floor, ${repeated[0]?.values.length ?? 0} runs in a row ` +
      "(each: fresh emulators, one client process); load: 1-min load average as each pull started",
    ["figure", "median", "min", "max", "target", "every run", "loads"],
    repeated.map((r) => [
      r.figure.name,
      f(median(r.values)),
      f(Math.min(...r.values)),
      f(Math.max(...r.values)),
      `≤ ${r.figure.target}`,
      r.values.map(f).join(" "),
      r.loads.map((l) => l.toFixed(1)).join(" "),
    ]),
  );
}

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 10);
  const { repeated } = await floorRepeated(n, Deno.args[1] !== "small");
  console.log(floorRepeatedTable(repeated));
}
