/**
 * Issue 34's table: the first cell, the peaks of the paths users take, and
 * (from `parallel_bench.ts`) the pull ratios, each beside its target.
 *
 * - first cell: `first_cell.ts` (a fresh process, the world from the cache);
 * - `deno task demo` and `deno task sync` (the insider trades of the demo
 *   world): peak RSS of the whole process, read from /proc while it runs;
 * - each shipped notebook: its kernel's peak RSS (`deno task notebooks
 *   --out`, Linux `VmHWM` after the last cell), when Jupyter is installed.
 *
 * @module
 */
import { type BenchRow, benchTable, childEnv } from "./_table.ts";
import { runWithPeak } from "./_peak.ts";
import { firstCellBench } from "./first_cell.ts";

const repo = new URL("../", import.meta.url).pathname;

/** The environment `deno task demo` and `deno task sync` set (deno.json). */
const TASK_ENV = { MALLOC_ARENA_MAX: "2" };
const TASK_FLAGS = ["--v8-flags=--max-old-space-size=512"];

async function peakOf(script: string, args: string[], cacheHome: string): Promise<number> {
  const run = await runWithPeak(
    ["run", "-A", ...TASK_FLAGS, `${repo}${script}`, ...args],
    { ...childEnv(cacheHome), ...TASK_ENV },
    repo,
  );
  if (run.code !== 0) throw new Error(`${script} failed: ${run.stderr.slice(-500)}`);
  return run.peakMb;
}

/** A two-cell notebook that imports nodejs-polars only: what the Deno kernel costs by itself. */
const BARE_NOTEBOOK = {
  cells: ["1 + 1", 'import pl from "npm:nodejs-polars@0.25.2";\npl.DataFrame({ a: [1, 2] }).height']
    .map((source) => ({
      cell_type: "code",
      metadata: {},
      source: [source],
      outputs: [],
      execution_count: null,
    })),
  metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
  nbformat: 4,
  nbformat_minor: 5,
};

async function notebookPeaks(): Promise<Map<string, number>> {
  const out = await Deno.makeTempDir({ prefix: "sb-nb-peaks-" });
  try {
    const bare = `${out}/bare-kernel.ipynb`;
    await Deno.writeTextFile(bare, JSON.stringify(BARE_NOTEBOOK));
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${repo}lib/cli/notebooks.ts`,
        bare,
        "", // every notebook in notebooks/
        "--out",
        `${out}/ran`,
      ],
      cwd: repo,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(run.stdout);
    const peaks = new Map<string, number>();
    for (const m of text.matchAll(/([\w-]+\.ipynb): .* kernel peak (\d+) MB/g)) {
      peaks.set(m[1], Number(m[2]));
    }
    return peaks;
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

/** Measures the figures; `extra` rows (the pull ratios) are appended. */
export async function lightBench(extra: BenchRow[] = []): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "sb-light-" });
  const outDir = await Deno.makeTempDir({ prefix: "sb-light-out-" });
  try {
    const first = await firstCellBench();
    // the world cached once in `home`, as on a machine that has run signalbook before
    await peakOf("bench/first_cell_child.ts", [], home);
    const demo = await peakOf("lib/cli/demo.ts", ["--out", outDir], home);
    const sync = await peakOf("lib/cli/sync.ts", ["--dir", `${outDir}/sync`], home);
    const notebooks = await notebookPeaks();
    const rows: BenchRow[] = [
      ...first.rows,
      { name: "deno task demo: peak RSS", value: demo, unit: "MB", target: 512 },
      { name: "deno task sync: peak RSS", value: sync, unit: "MB", target: 512 },
      ...(notebooks.size
        ? [...notebooks].filter(([name]) => name !== "bare-kernel.ipynb").map(([name, mb]) => ({
          name: `notebook ${name}: kernel peak RSS`,
          value: mb,
          unit: "MB",
          target: 400,
        }))
        : [{ name: "notebooks: kernel peak RSS", value: NaN, unit: "MB", target: 400 }]),
      ...extra,
    ];
    const bare = notebooks.get("bare-kernel.ipynb");
    const kernel = bare === undefined
      ? ""
      : `\n(the Deno kernel by itself, a two-cell notebook importing nodejs-polars: ${
        bare.toFixed(0)
      } MB peak)`;
    return `${first.text}\n\n${
      benchTable("light and quick (issue 34): this run against the targets", rows)
    }${kernel}`;
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(outDir, { recursive: true });
  }
}

if (import.meta.main) console.log(await lightBench());
