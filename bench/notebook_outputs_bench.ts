/**
 * Headless notebook outputs: how many outputs plain `jupyter nbconvert
 * --execute` (stock nbclient) keeps, against `deno task notebooks`, which
 * keeps listening after each cell's "idle" (`lib/notebook/execute.py`).
 *
 * Part 1, a minimal repro without signalbook: three notebooks of 40 cells
 * each, run `NOTEBOOK_REPRO_RUNS` times (default 3) through nbconvert:
 * - `value`: each cell's value is a string (`"value 7"`), an
 *   `execute_result` the Deno kernel publishes after the cell;
 * - `display`: each cell awaits `Deno.jupyter.display(...)`, published
 *   while the cell runs;
 * - `log`: each cell prints one line (`console.log`), a stream.
 *
 * Part 2, every shipped notebook, `NOTEBOOK_RUNS` times (default 10)
 * through nbconvert: the outputs of each run, against the committed copy
 * (written by `deno task notebooks`), and which kinds went missing.
 * `NOTEBOOK_RUNNER=signalbook` runs part 2 through `deno task notebooks`'
 * runner instead (`lib/notebook/execute.py`), and skips part 1.
 *
 * Needs Debian's python3 with nbconvert and the Deno kernel (`deno jupyter
 * --install`). `deno run -A bench/notebook_outputs_bench.ts [notebook…]`.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { table } from "./loopback.ts";
import { denoNotebook } from "./_notebook.ts";
import { execute, python } from "../lib/notebook/_jupyter.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

type Nb = {
  cells: { cell_type: string; source: string[] | string; outputs?: { output_type: string }[] }[];
};

/** Output types per code cell. */
function outputs(nb: Nb): string[][] {
  return nb.cells.filter((c) => c.cell_type === "code")
    .map((c) => (c.outputs ?? []).map((o) => o.output_type));
}

/** Executes `src` through plain nbconvert into a temporary file; the executed notebook. */
async function nbconvert(src: string, dir: string): Promise<Nb> {
  const env = { ...Deno.env.toObject(), NO_COLOR: "1" };
  for (const k of ["PITCH_API_KEY", "PITCH_BASE_URL", "INSIDER_API_KEY", "INSIDER_BASE_URL"]) {
    delete (env as Record<string, string>)[k];
  }
  const dst = join(dir, `run-${crypto.randomUUID()}.ipynb`);
  const out = await new Deno.Command(python(), {
    args: ["-m", "nbconvert", "--to", "notebook", "--execute", src, "--output", dst],
    cwd: join(src, ".."),
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`nbconvert ${src}: ${new TextDecoder().decode(out.stderr).slice(-800)}`);
  }
  const nb = JSON.parse(await Deno.readTextFile(dst)) as Nb;
  await Deno.remove(dst);
  return nb;
}

/** The minimal repro: cells kept per run for each kind of output. */
export async function reproTable(runs: number, dir: string): Promise<string> {
  const kinds: [string, (i: number) => string][] = [
    ["value (execute_result after the cell)", (i) => `"value ${i}"`],
    [
      "awaited Deno.jupyter.display",
      (i) => `await Deno.jupyter.display({ "text/plain": "shown ${i}" }, { raw: true });`,
    ],
    ["console.log (stream)", (i) => `console.log("line ${i}");`],
  ];
  const rows: string[][] = [];
  for (const [label, cell] of kinds) {
    const src = join(dir, `repro-${label.split(" ")[0]}.ipynb`);
    await Deno.writeTextFile(src, denoNotebook(Array.from({ length: 40 }, (_, i) => cell(i))));
    const kept: number[] = [];
    for (let r = 0; r < runs; r++) {
      kept.push(outputs(await nbconvert(src, dir)).filter((o) => o.length > 0).length);
    }
    rows.push([label, kept.map((k) => `${k}`).join(", "), "40"]);
  }
  return table(
    `Minimal repro (no signalbook): 40 cells, outputs kept by plain nbconvert, ${runs} runs`,
    ["cell", "cells with their output, per run", "of"],
    rows,
  );
}

/** Executes `src` through `deno task notebooks`' runner into a temporary file. */
async function runner(src: string, dir: string): Promise<Nb> {
  const dst = join(dir, `run-${crypto.randomUUID()}.ipynb`);
  await execute(src, dst, { keepKeys: false });
  const nb = JSON.parse(await Deno.readTextFile(dst)) as Nb;
  await Deno.remove(dst);
  return nb;
}

/** Every shipped notebook, `runs` times through nbconvert (or the runner), against the committed outputs. */
export async function shippedTable(
  runs: number,
  dir: string,
  names: string[],
  through: "nbconvert" | "signalbook" = "nbconvert",
): Promise<string> {
  const rows: string[][] = [];
  for (const name of names) {
    const src = join(ROOT, "notebooks", name);
    const ref = outputs(JSON.parse(await Deno.readTextFile(src)) as Nb);
    const want = ref.reduce((a, o) => a + o.length, 0);
    const kept: number[] = [];
    const lost = new Map<string, number>();
    for (let r = 0; r < runs; r++) {
      const got = outputs(await (through === "nbconvert" ? nbconvert : runner)(src, dir));
      kept.push(got.reduce((a, o) => a + o.length, 0));
      ref.forEach((o, i) => {
        const have = [...(got[i] ?? [])];
        for (const t of o) {
          const k = have.indexOf(t);
          if (k >= 0) have.splice(k, 1);
          else lost.set(`cell ${i + 1} ${t}`, (lost.get(`cell ${i + 1} ${t}`) ?? 0) + 1);
        }
      });
    }
    rows.push([
      name,
      kept.join(", "),
      String(want),
      [...lost].map(([k, n]) => `${k} ×${n}`).join("; ") || "none",
    ]);
  }
  return table(
    `Shipped notebooks through ${
      through === "nbconvert" ? "plain nbconvert" : "deno task notebooks' runner"
    }, ${runs} runs each: outputs per run`,
    ["notebook", "outputs per run", "of (deno task notebooks)", "lost (cell, kind × runs)"],
    rows,
  );
}

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "signalbook-nb-outputs-" });
  try {
    const names = Deno.args.length
      ? Deno.args
      : [...Deno.readDirSync(join(ROOT, "notebooks"))].map((e) => e.name)
        .filter((n) => n.endsWith(".ipynb")).sort();
    const through = Deno.env.get("NOTEBOOK_RUNNER") === "signalbook" ? "signalbook" : "nbconvert";
    if (through === "nbconvert") {
      console.log(await reproTable(Number(Deno.env.get("NOTEBOOK_REPRO_RUNS") ?? 3), dir));
    }
    console.log(
      await shippedTable(Number(Deno.env.get("NOTEBOOK_RUNS") ?? 10), dir, names, through),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
