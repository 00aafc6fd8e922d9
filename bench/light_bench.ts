/**
 * Issue 34's table: the first cell, the peaks of the paths users take, and
 * (from `parallel_bench.ts`) the pull ratios, each beside its target.
 *
 * - first cell: `first_cell.ts` (a fresh process, the world from the cache);
 * - `deno task demo` and `deno task sync` (the insider trades of the demo
 *   world): peak RSS of the whole process, read from /proc while it runs;
 * - each shipped notebook: its kernel's peak RSS (`deno task notebooks
 *   --out`, Linux `VmHWM` after the last cell) above a bare kernel's RSS,
 *   and counted whole: the kernel's peak plus the peaks of the processes it
 *   started (none: the offline emulator answers inside the kernel), when
 *   Jupyter is installed (`deno run -A bench/light_bench.ts --notebooks`:
 *   these rows alone);
 * - a user's natural notebook (issue 53 point 3: sync, `select *` of the
 *   purchases through `query()`, an event study): its kernel's peak above
 *   a bare kernel, and its memory after each cell.
 *
 * @module
 */
import { type BenchRow, benchTable, childEnv, loadAverage } from "./_table.ts";
import { runWithPeak } from "./_peak.ts";
import { codeCell, denoNotebook } from "./_notebook.ts";
import { firstCellBench } from "./first_cell.ts";

const repo = new URL("../", import.meta.url).pathname;

/** How many times the table's demo row runs `deno task demo` (its figure is the largest). */
const DEMO_RUNS = 3;

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

/** The line a stage cell of {@link KERNEL_NOTEBOOK} prints: the kernel's memory at that point. */
const STAGE = (name: string) =>
  `{ const m = Deno.memoryUsage(); console.log("KERNEL_STAGE " + JSON.stringify({ stage: ${
    JSON.stringify(name)
  }, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20 })); }`;

/**
 * What the Deno kernel costs by itself, and what a first cell adds to it:
 * the kernel's memory before any import, after importing nodejs-polars,
 * after importing signalbook, after `connect()` (the emulator's world from
 * the cache) and after the first 10 rows of an insider search.
 */
const KERNEL_NOTEBOOK = denoNotebook([
  STAGE("bare kernel"),
  'import pl from "npm:nodejs-polars@0.25.2";\npl.DataFrame({ a: [1, 2] }).height',
  STAGE("+ nodejs-polars"),
  `import * as sb from "${new URL("../mod.ts", import.meta.url).href}";`,
  STAGE("+ signalbook"),
  "const { insider } = await sb.connect({ quiet: true });",
  STAGE("+ connect()"),
  "(await insider.search({}).take(10)).length",
  STAGE("+ first answer"),
]);

/** The notebook {@link NATURAL_NOTEBOOK} is written to (a made-up one, not shipped). */
const NATURAL = "natural-select-star.ipynb";

/**
 * Issue 53 point 3, a user's natural notebook: sync the default world into a
 * new folder (as `deno task sync`), `select *` of its purchases through
 * `query()` (every column: 9,181 × 176), then an event study of them. Its
 * kernel's peak above the bare kernel is the figure (at most
 * {@link NOTEBOOK_GROWTH_MIB}); its stage lines give each cell's own growth.
 */
const NATURAL_NOTEBOOK = denoNotebook([
  STAGE("bare kernel"),
  `import * as sb from "${new URL("../mod.ts", import.meta.url).href}";\n` +
  "const { insider, catalog, offlineToday } = await sb.connect({ quiet: true });\n" +
  "const dir = await Deno.makeTempDir();\n" +
  "(await sb.sync({ dir, insider, catalog, to: offlineToday })).datasets.length",
  STAGE("+ sync"),
  `const buys = await sb.query("select * from insider_trades where code = 'P'", { dir });\n` +
  "[buys.height, buys.width]",
  STAGE("+ select * of purchases"),
  'sb.eventStudy(buys, { groupBy: "role", horizons: ["3m", "6m"] }).height',
  STAGE("+ event study"),
]);

/** One stage of {@link KERNEL_NOTEBOOK} as it ran. */
interface KernelStage {
  stage: string;
  rssMb: number;
  heapMb: number;
}

/** The stages an executed {@link KERNEL_NOTEBOOK} printed. */
function kernelStages(executed: string): KernelStage[] {
  const nb = JSON.parse(executed) as { cells: { outputs?: { text?: string | string[] }[] }[] };
  const text = nb.cells.flatMap((c) => c.outputs ?? []).map((o) =>
    Array.isArray(o.text) ? o.text.join("") : o.text ?? ""
  ).join("\n");
  return [...text.matchAll(/KERNEL_STAGE (\{.*\})/g)].map((m) => JSON.parse(m[1]) as KernelStage);
}

/** One notebook's peaks as the runner printed them, MiB. */
interface NotebookPeak {
  /** The kernel's (`VmHWM` after the last cell). */
  kernel: number;
  /** The sum of the kernel's child processes' (0: none). */
  children: number;
  /** The kernel and its child processes together, at one reading (the kernel's peak when none). */
  whole: number;
}

/**
 * The peaks in the runner's output lines
 * (`… kernel peak K MiB[, child processes peak C MiB, together W MiB]`).
 */
export function runnerPeaks(text: string): Map<string, NotebookPeak> {
  const peaks = new Map<string, NotebookPeak>();
  const line =
    /([\w-]+\.ipynb): .* kernel peak (\d+) MiB(?:, child processes peak (\d+) MiB, together (\d+) MiB)?/g;
  for (const m of text.matchAll(line)) {
    const kernel = Number(m[2]);
    peaks.set(m[1], {
      kernel,
      children: Number(m[3] ?? 0),
      whole: m[4] === undefined ? kernel : Number(m[4]),
    });
  }
  return peaks;
}

async function notebookPeaks(cacheHome: string): Promise<
  {
    peaks: Map<string, NotebookPeak>;
    stages: KernelStage[];
    natural: KernelStage[];
    load: [number, number];
  }
> {
  const out = await Deno.makeTempDir({ prefix: "sb-nb-peaks-" });
  try {
    const bare = `${out}/bare-kernel.ipynb`;
    await Deno.writeTextFile(bare, KERNEL_NOTEBOOK);
    await Deno.writeTextFile(`${out}/${NATURAL}`, NATURAL_NOTEBOOK);
    const loadBefore = loadAverage();
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${repo}lib/cli/notebooks.ts`,
        bare,
        `${out}/${NATURAL}`,
        "", // every notebook in notebooks/
        "--out",
        `${out}/ran`,
      ],
      cwd: repo,
      // the kernels read the world the bench cached there (not a cache folder other checkouts share,
      // where a process of another version replaces the file and a kernel generates it again), with
      // this process's Deno cache (DENO_DIR would follow XDG_CACHE_HOME: an empty one recompiles all)
      env: { ...Deno.env.toObject(), ...childEnv(cacheHome) },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const load: [number, number] = [loadBefore, loadAverage()];
    const peaks = runnerPeaks(new TextDecoder().decode(run.stdout));
    // none where a notebook did not run (no Jupyter)
    const stagesOf = (name: string) =>
      Deno.readTextFile(`${out}/ran/${name}`).then(kernelStages, () => []);
    return {
      peaks,
      stages: await stagesOf("bare-kernel.ipynb"),
      natural: await stagesOf(NATURAL),
      load,
    };
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

/**
 * How much a shipped notebook's kernel may grow above a bare kernel, MiB
 * (issue 44): the bare Deno kernel holds about 206 MiB of its own (see
 * docs/charts-and-notebooks.md), which no notebook can shed.
 */
export const NOTEBOOK_GROWTH_MIB = 250;

/**
 * How much a shipped notebook may hold counted whole (issue 53): the
 * kernel's peak plus the peaks of the processes it started, MiB.
 */
export const NOTEBOOK_WHOLE_MIB = 450;

/**
 * Each shipped notebook's kernel peak above a bare kernel, as table rows,
 * and the bare kernel's stages (empty without Jupyter).
 */
export async function notebookRows(
  cacheHome: string,
): Promise<{ rows: BenchRow[]; kernel: string }> {
  const { peaks: notebooks, stages, natural, load } = await notebookPeaks(cacheHome);
  // the kernel before any import: the first stage of the kernel notebook
  const bareRss = stages.find((x) => x.stage === "bare kernel")?.rssMb;
  const made = ["bare-kernel.ipynb", NATURAL];
  const shipped = [...notebooks].filter(([name]) => !made.includes(name));
  const naturalPeak = notebooks.get(NATURAL);
  const rows: BenchRow[] = notebooks.size && bareRss !== undefined
    ? [
      ...shipped.map(([name, p]) => ({
        name: `notebook ${name}: kernel peak above a bare kernel (${bareRss.toFixed(0)} MiB)`,
        value: p.kernel - bareRss,
        unit: "MiB",
        target: NOTEBOOK_GROWTH_MIB,
      })),
      ...shipped.map(([name, p]) => ({
        name: `notebook ${name}: whole (kernel + child processes at once)`,
        value: p.whole,
        unit: "MiB",
        target: NOTEBOOK_WHOLE_MIB,
      })),
      {
        name:
          "a user's notebook (sync, select * of purchases, event study): kernel peak above bare",
        value: naturalPeak === undefined ? NaN : naturalPeak.kernel - bareRss,
        unit: "MiB",
        target: NOTEBOOK_GROWTH_MIB,
      },
    ]
    : [{
      name: "notebooks: kernel peak above a bare kernel",
      value: NaN,
      unit: "MiB",
      target: NOTEBOOK_GROWTH_MIB,
    }, {
      name: "notebooks: whole (kernel + child processes at once)",
      value: NaN,
      unit: "MiB",
      target: NOTEBOOK_WHOLE_MIB,
    }];
  const bare = notebooks.get("bare-kernel.ipynb");
  const kernel = bare === undefined ? "" : `\n${
    [
      `each notebook counted whole (MiB: the kernel's peak; its child processes' peak, such as a` +
      ` query()'s, read every 0.1 s; both together at one reading, at least the kernel's peak;` +
      ` the sum of the two peaks, an upper bound; the offline emulator answers inside the kernel;` +
      ` load average ${load[0].toFixed(1)} at the start, ${load[1].toFixed(1)} at the end):`,
      ...shipped.map(([name, p]) =>
        `  ${name}: kernel ${p.kernel}, child processes ${p.children}, together ${p.whole}, sum ${
          p.kernel + p.children
        }`
      ),
      "the Deno kernel by itself, then a first cell (RSS, V8 heap in use):",
      ...stages.map(stageLine),
      `  peak: ${bare.kernel.toFixed(0)} MiB`,
      `a user's notebook (${NATURAL}): its kernel after each cell (RSS, V8 heap in use):`,
      ...natural.map(stageLine),
      `  peak: ${naturalPeak?.kernel.toFixed(0)} MiB`,
    ].join("\n")
  }`;
  return { rows, kernel };
}

/** A stage's line: `  + sync: 412 MiB (heap 80 MiB)`. */
const stageLine = (s: KernelStage) =>
  `  ${s.stage}: ${s.rssMb.toFixed(0)} MiB (heap ${s.heapMb.toFixed(0)} MiB)`;

/** Measures the figures; `extra` rows (the pull ratios) are appended. */
export async function lightBench(extra: BenchRow[] = []): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "sb-light-" });
  const outDir = await Deno.makeTempDir({ prefix: "sb-light-out-" });
  try {
    const first = await firstCellBench();
    // the world cached once in `home`, as on a machine that has run signalbook before
    await peakOf("bench/first_cell_child.ts", [], home);
    // each run into a new folder, as a first `deno task demo`; the peak moves by tens of MiB from
    // run to run (with when the collections fall), so the row is the largest of the runs
    const demos: number[] = [];
    for (let i = 1; i <= DEMO_RUNS; i++) {
      demos.push(await peakOf("lib/cli/demo.ts", ["--out", `${outDir}/demo-${i}`], home));
    }
    const demo = Math.max(...demos);
    const sync = await peakOf("lib/cli/sync.ts", ["--dir", `${outDir}/sync`], home);
    const notebooks = await notebookRows(home);
    const rows: BenchRow[] = [
      ...first.rows,
      {
        name: `deno task demo: peak RSS (largest of ${DEMO_RUNS} runs)`,
        value: demo,
        unit: "MiB",
        target: 512,
      },
      { name: "deno task sync: peak RSS", value: sync, unit: "MiB", target: 512 },
      ...notebooks.rows,
      ...extra,
    ];
    const demoText = `deno task demo into a new folder, ${DEMO_RUNS} runs (the world cached): ${
      demos.map((d) => d.toFixed(0)).join(", ")
    } MiB peak RSS`;
    return `${first.text}\n${demoText}\n\n${
      benchTable("light and quick (issue 34): this run against the targets", rows)
    }${notebooks.kernel}`;
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(outDir, { recursive: true });
  }
}

/**
 * Where a notebook's kernel grows: the notebook run with a measuring cell
 * after every code cell (and one before the first), each printing the
 * kernel's RSS and peak (`/proc/self/status`) and V8 heap in use; one line
 * per code cell, its growth beside it.
 */
export async function notebookCells(path: string): Promise<string> {
  const nb = JSON.parse(await Deno.readTextFile(path)) as { cells: { cell_type: string }[] };
  const probe = (name: string) =>
    codeCell([
      `{ const s = Deno.readTextFileSync("/proc/self/status"); const kb = (k: string) => Number(new RegExp(k + ":\\\\s+(\\\\d+)").exec(s)![1]); console.log("KERNEL_CELL " + JSON.stringify({ cell: ${
        JSON.stringify(name)
      }, rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024, heapMb: Deno.memoryUsage().heapUsed / 2 ** 20 })); }`,
    ]);
  let code = 0;
  nb.cells = [
    probe("bare kernel"),
    ...nb.cells.flatMap((c) => c.cell_type === "code" ? [c, probe(`code cell ${++code}`)] : [c]),
  ];
  const dir = await Deno.makeTempDir({ prefix: "sb-nb-cells-" });
  // beside the original, so its relative imports resolve
  const copy = path.replace(/([^/]+)\.ipynb$/, "_cells_$1.ipynb");
  try {
    await Deno.writeTextFile(copy, JSON.stringify(nb));
    // the world cached in a folder of the run's own, as notebookPeaks does
    await peakOf("bench/first_cell_child.ts", [], dir);
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${repo}lib/cli/notebooks.ts`, copy, "--out", `${dir}/ran.ipynb`],
      cwd: repo,
      env: { ...Deno.env.toObject(), ...childEnv(dir) },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!run.success) throw new Error(new TextDecoder().decode(run.stderr).slice(-500));
    const text = await Deno.readTextFile(`${dir}/ran.ipynb`);
    const lines = [...text.matchAll(/KERNEL_CELL (\{.*?\})/g)].map((m) =>
      JSON.parse(m[1].replaceAll('\\"', '"')) as {
        cell: string;
        rssMb: number;
        peakMb: number;
        heapMb: number;
      }
    );
    let prev = lines[0]?.rssMb ?? 0;
    return lines.map((x) => {
      const line = `${x.cell}: RSS ${x.rssMb.toFixed(0)} MiB (${x.rssMb - prev >= 0 ? "+" : ""}${
        (x.rssMb - prev).toFixed(0)
      }), peak ${x.peakMb.toFixed(0)} MiB, heap ${x.heapMb.toFixed(0)} MiB`;
      prev = x.rssMb;
      return line;
    }).join("\n");
  } finally {
    await Deno.remove(copy).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

// `--notebooks`: the notebook rows alone (about a minute, under the bench lock);
// `--cells NOTEBOOK`: that notebook's kernel after each of its cells
const cellsOf = Deno.args.indexOf("--cells");
if (import.meta.main && cellsOf >= 0) {
  console.log(await notebookCells(Deno.args[cellsOf + 1]));
} else if (import.meta.main && Deno.args.includes("--notebooks")) {
  const home = await Deno.makeTempDir({ prefix: "sb-light-" });
  // the world cached once in `home`, as on a machine that has run signalbook before
  await peakOf("bench/first_cell_child.ts", [], home);
  const { rows, kernel } = await notebookRows(home).finally(() =>
    Deno.remove(home, { recursive: true })
  );
  console.log(`${benchTable("notebook kernels: this run against the target", rows)}${kernel}`);
} else if (import.meta.main) console.log(await lightBench());
