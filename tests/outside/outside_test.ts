/**
 * signalbook used from a project outside this repository, as a new user
 * would: a temporary folder with no deno.json, one import line pointing at
 * the checkout's mod.ts, `deno run` from that folder; and a notebook living
 * in such a folder, executed through real Jupyter.
 */
import assert from "node:assert/strict";
import { execute, jupyterMissing } from "../../lib/notebook/_jupyter.ts";
import { toolTest } from "../_tools.ts";
import { denoNotebook } from "../../bench/_notebook.ts";

const MOD = new URL("../../mod.ts", import.meta.url).href; // file:///…/mod.ts
const cleanEnv = () => {
  const env = { ...Deno.env.toObject(), NO_COLOR: "1" };
  for (const k of ["PITCH_API_KEY", "INSIDER_API_KEY", "PITCH_BASE_URL", "INSIDER_BASE_URL"]) {
    delete (env as Record<string, string>)[k];
  }
  return env;
};

/** `deno run -A file` in `dir` with no keys set; fails the test with its stderr unless it succeeds. */
async function denoRun(dir: string, file: string): Promise<{ stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", file],
    cwd: dir,
    env: cleanEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const [stdout, stderr] = [out.stdout, out.stderr].map((b) => new TextDecoder().decode(b));
  assert.ok(out.success, stderr);
  return { stdout, stderr };
}

Deno.test("outside the repo: a script imports mod.ts by file URL, pulls, frames and saves a chart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "my-analysis-" });
  try {
    await Deno.writeTextFile(
      `${dir}/main.ts`,
      `import { connect, saveChart, tradeTimeline } from "${MOD}";

const { insider } = await connect();
const trades = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 500 });
console.log("shape", trades.height, trades.width);
console.log("filed_at", String(trades.getColumn("filed_at").dtype));
await saveChart(tradeTimeline(trades), "timeline.png");
await saveChart(tradeTimeline(trades), "timeline.svg");
`,
    );
    const { stdout } = await denoRun(dir, "main.ts");
    assert.match(stdout, /shape 500 174/);
    assert.match(stdout, /filed_at .*Datetime\(ms,UTC\)/);
    const png = await Deno.readFile(`${dir}/timeline.png`);
    assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47]);
    assert.match(await Deno.readTextFile(`${dir}/timeline.svg`), /<svg/);
    // nothing was needed besides the import line: no deno.json, no import map
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.ok(!names.includes("deno.json"), names.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const jupyterTest = toolTest(await jupyterMissing(), "Jupyter");

jupyterTest(
  "outside the repo: a notebook in the user's own folder runs through Jupyter",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "my-notebooks-" });
    try {
      const nb = denoNotebook([
        `import { connect, tradeTimeline } from "${MOD}";
const { insider } = await connect();
const trades = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 300 });
trades.filter(trades.getColumn("transaction_value").gt(0)).head(20)`,
        `tradeTimeline(trades)`,
        `import pl from "npm:nodejs-polars@0.25.2";
pl.DataFrame({ a: [1, 2, 3, 4, 5, 6, 7], b: ["p", "q", "r", "s", "t", "u", "v"] })`,
      ]);
      await Deno.writeTextFile(`${dir}/analysis.ipynb`, nb);
      const summary = await execute(`${dir}/analysis.ipynb`, `${dir}/analysis.out.ipynb`);
      // the offline emulator answers inside the kernel: no second process to count beside it
      assert.equal(summary.childrenPeakMb, 0);
      assert.ok((summary.kernelPeakMb ?? 0) > 100, `kernel peak ${summary.kernelPeakMb}`);
      const done = JSON.parse(await Deno.readTextFile(`${dir}/analysis.out.ipynb`));
      type Out = { output_type: string; data?: Record<string, string | string[]> };
      const outs: Out[] = done.cells.flatMap((c: { outputs: Out[] }) => c.outputs);
      const str = (o: Out, m: string) => [o.data?.[m] ?? ""].flat().join("");
      assert.deepEqual(outs.filter((o) => o.output_type === "error"), []);
      assert.ok(outs.some((o) => /shape: \(20, 174\)/.test(str(o, "text/html"))), "rich table");
      assert.ok(outs.some((o) => str(o, "text/html").startsWith('<img class="sb-chart"')), "chart");
      // a plain Polars frame of the user's own: its shape and all 7 rows, and a text form
      const plain = str(outs.at(-1)!, "text/plain");
      assert.match(plain, /^shape: \(7, 2\)\n/);
      assert.match(plain, /\nv\s*$|\n7\s+v\s*$/);
      // the emulator notice is a quiet note (stdout), never a red stderr block
      const streams = outs as unknown as { output_type: string; name?: string; text?: string[] }[];
      const notes = streams.filter((o) => o.output_type === "stream");
      assert.ok(
        notes.some((o) => o.name === "stdout" && /offline emulator/.test((o.text ?? []).join(""))),
      );
      assert.deepEqual(notes.filter((o) => o.name === "stderr"), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("outside the repo: every notebook's imports resolve when the notebook is copied out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "copied-notebooks-" });
  try {
    const nbDir = new URL("../../notebooks/", import.meta.url).pathname;
    const imports: string[] = [];
    for (const e of [...Deno.readDirSync(nbDir)].filter((e) => e.name.endsWith(".ipynb"))) {
      const nb = JSON.parse(await Deno.readTextFile(nbDir + e.name)) as {
        cells: { cell_type: string; source: string[] }[];
      };
      const code = nb.cells.filter((c) => c.cell_type === "code").map((c) => c.source.join(""));
      for (const m of code.join("\n").matchAll(/^import\s[^;]*?from\s+"([^"]+)";/gm)) {
        const spec = m[1];
        // the one line a user adapts: signalbook itself, here the checkout's mod.ts
        if (spec === "../mod.ts") imports.push(m[0].replace('"../mod.ts"', `"${MOD}"`));
        else {
          assert.match(
            spec,
            /^(npm|node|jsr|https):/,
            `${e.name}: ${spec} resolves only inside the repo`,
          );
          imports.push(m[0]);
        }
      }
    }
    assert.ok(imports.length >= 5, imports.join("\n"));
    const file = imports.map((line, i) =>
      line.replace(/^import\s+([^;]*?)\s+from/, () =>
        `import * as m${i} from`)
    )
      .join("\n") +
      "\nconsole.log('resolved', " + imports.map((_, i) =>
        `Object.keys(m${i}).length`
      ).join(" + ") + ");\n";
    await Deno.writeTextFile(`${dir}/imports.ts`, file);
    assert.match((await denoRun(dir, "imports.ts")).stdout, /resolved \d+/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
