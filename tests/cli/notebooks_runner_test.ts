/**
 * `deno task notebooks` on notebooks outside the repo, as a user runs it
 * from their own folder: every output lands (stock `nbconvert --execute`
 * loses some with the Deno kernel), `--out` or in place, exit 1 on a cell
 * error with the notebook still written, exit 2 with one line for bad input.
 */
import assert from "node:assert/strict";
import { jupyterMissing } from "../../lib/notebook/_jupyter.ts";
import { toolTest } from "../_tools.ts";
import { denoNotebook } from "../../bench/_notebook.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const MOD = new URL("../../mod.ts", import.meta.url).href;
const jupyterTest = toolTest(await jupyterMissing(), "Jupyter");

type Out = { output_type: string; name?: string; data?: Record<string, string | string[]> };
type Nb = { cells: { cell_type: string; source: string | string[]; outputs?: Out[] }[] };

/** `deno task --config <repo> notebooks …` typed in `cwd`. */
async function task(cwd: string, ...args: string[]) {
  const env = { ...Deno.env.toObject(), NO_COLOR: "1" };
  // INIT_CWD: as typed in a shell (under `deno task test` it names the repo, and a nested
  // `deno task` keeps it)
  for (
    const k of [
      "PITCH_API_KEY",
      "INSIDER_API_KEY",
      "PITCH_BASE_URL",
      "INSIDER_BASE_URL",
      "INIT_CWD",
    ]
  ) {
    delete (env as Record<string, string>)[k];
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", CONFIG, "notebooks", ...args],
    cwd,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const [stdout, stderr] = [out.stdout, out.stderr].map((b) => new TextDecoder().decode(b));
  return { code: out.code, stdout, stderr };
}

Deno.test("notebooks runner: bad input is the problem naming it, then one line naming --help, exit 2, before Jupyter starts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "my-notebooks-" });
  try {
    // as every command words a bad flag (tests/cli/usage_test.ts)
    const flag = await task(dir, "--outt", "x.ipynb");
    assert.equal(flag.code, 2);
    assert.deepEqual(flag.stderr.trim().split("\n"), [
      "notebooks: Unknown option '--outt'; did you mean --out?",
      'Run "deno task notebooks --help" for every flag.',
    ]);
    const path = await task(dir, "nope/analysis.ipynb");
    assert.equal(path.code, 2);
    assert.match(
      path.stderr,
      /"nope\/analysis\.ipynb": no such notebook \(looked at .*my-notebooks-/,
    );
    const name = await task(dir, "06");
    assert.equal(name.code, 2);
    assert.match(name.stderr, /no notebook in notebooks\/ starts with "06"/);
    const timeout = await task(dir, "--timeout", "soon");
    assert.equal(timeout.code, 2);
    assert.match(
      timeout.stderr,
      /--timeout "soon" is not allowed; allowed: a number from 1 to 86400/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

jupyterTest(
  "notebooks runner: a notebook in the user's folder gets every output (31 quick cells), --out and in place",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "my-notebooks-" });
    try {
      // stock `jupyter nbconvert --execute` lost 6 and then 1 of these 31 cells' outputs here
      const quick = Array.from({ length: 31 }, (_, i) => `console.log("line ${i}");\n${i} * 2`);
      const source = denoNotebook([
        ...quick,
        `import { connect, statsTable, eventStudy } from "${MOD}";
const { insider } = await connect({ quiet: true });
const buys = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 1500, progress: false });
statsTable(eventStudy(buys, { horizons: ["3m"] }))`,
      ]);
      await Deno.writeTextFile(`${dir}/analysis.ipynb`, source);
      const run = await task(dir, "analysis.ipynb", "--out", "done/analysis.ipynb");
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /analysis\.ipynb: 32 code cells executed in [\d.]+ s(, kernel peak \d+ MiB)? → .*done/,
      );
      assert.equal(await Deno.readTextFile(`${dir}/analysis.ipynb`), source, "--out: source kept");
      const done: Nb = JSON.parse(await Deno.readTextFile(`${dir}/done/analysis.ipynb`));
      const lost = done.cells.slice(0, 31).map((c, i) => [i, c.outputs ?? []] as const)
        .filter(([i, outs]) =>
          !outs.some((o) => o.output_type === "stream") ||
          ![(outs.find((o) => o.output_type === "execute_result")?.data?.["text/plain"]) ?? ""]
            .flat().join("").includes(String(i * 2))
        ).map(([i]) => i);
      assert.deepEqual(lost, [], "cells whose outputs were lost");
      const table = done.cells[31].outputs!.find((o) => o.output_type === "execute_result")!;
      assert.match([table.data!["text/html"]].flat().join(""), /<table/);
      // without --out the outputs are written back in place
      const again = await task(dir, "./analysis.ipynb");
      assert.equal(again.code, 0, again.stderr);
      const inPlace: Nb = JSON.parse(await Deno.readTextFile(`${dir}/analysis.ipynb`));
      assert.equal(inPlace.cells.filter((c) => (c.outputs ?? []).length > 0).length, 32);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

jupyterTest(
  "notebooks runner: a failing cell stops the run, exit 1, the notebook is written with it",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "my-notebooks-" });
    try {
      await Deno.writeTextFile(
        `${dir}/bad.ipynb`,
        denoNotebook(["1 + 1", 'throw new TypeError("no such column: pnl")', "3"]),
      );
      const run = await task(dir, "bad.ipynb");
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /bad\.ipynb: code cell 2 of 3 failed: TypeError: no such column: pnl; outputs so far written in place/,
      );
      const nb: Nb = JSON.parse(await Deno.readTextFile(`${dir}/bad.ipynb`));
      assert.deepEqual(
        nb.cells.map((c) => (c.outputs ?? []).map((o) => o.output_type)),
        [["execute_result"], ["error"], []],
      );
      const keepGoing = await task(dir, "bad.ipynb", "--keep-going");
      assert.equal(keepGoing.code, 1);
      const all: Nb = JSON.parse(await Deno.readTextFile(`${dir}/bad.ipynb`));
      assert.deepEqual(all.cells[2].outputs!.map((o) => o.output_type), ["execute_result"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
