/**
 * The first-cell bench runs its child where users are (bench/_child.ts,
 * `runChildOutside`): a copy of the script in a new folder outside the
 * repository, no deno.json in it or above it, its relative imports made
 * absolute file URLs; and the light bench reads what the notebook runner
 * prints, the kernel's peak and its child processes' (`runnerPeaks`).
 */
import assert from "node:assert/strict";
import {
  projectFileAbove,
  runChild,
  runChildOutside,
  withAbsoluteImports,
} from "../../bench/_child.ts";
import { runnerPeaks } from "../../bench/light_bench.ts";
import { DEMO_LABEL } from "../../lib/shared/demo.ts";

const REPO = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const CHILD = new URL("./_where_child.ts", import.meta.url).href;
const env = () => ({ PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" });

interface Where {
  cwd: string;
  main: string;
  label: string;
  importMap: boolean;
}

Deno.test("relative imports become absolute file URLs; other specifiers are kept", () => {
  const base = new URL("file:///repo/bench/first_cell_child.ts");
  assert.equal(
    withAbsoluteImports(
      'import { peakMb } from "./_peak.ts";\nconst m = await import("../mod.ts");\n' +
        "import x from '../lib/a.ts';\nimport pl from \"npm:nodejs-polars@0.25.2\";\n" +
        'const s = "./not-an-import.ts";',
      base,
    ),
    'import { peakMb } from "file:///repo/bench/_peak.ts";\n' +
      'const m = await import("file:///repo/mod.ts");\n' +
      "import x from 'file:///repo/lib/a.ts';\nimport pl from \"npm:nodejs-polars@0.25.2\";\n" +
      'const s = "./not-an-import.ts";',
  );
});

Deno.test("a project file is found in the folder or above it, and none above a new temp folder", async () => {
  assert.equal(projectFileAbove(`${REPO}/bench`), `${REPO}/deno.json`);
  assert.equal(projectFileAbove(REPO), `${REPO}/deno.json`);
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(projectFileAbove(dir), undefined);
    await Deno.writeTextFile(`${dir}/package.json`, "{}");
    await Deno.mkdir(`${dir}/a/b`, { recursive: true });
    assert.equal(projectFileAbove(`${dir}/a/b`), `${dir}/package.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the child runs from a folder outside the repository, without its configuration", async () => {
  const outside = await runChildOutside<Where>(CHILD, [], "where child failed", env());
  assert.equal(outside.label, DEMO_LABEL); // its relative import resolved
  assert.ok(!outside.cwd.startsWith(REPO), outside.cwd);
  assert.ok(!new URL(outside.main).pathname.startsWith(REPO), outside.main);
  assert.equal(projectFileAbove(outside.cwd), undefined);
  assert.equal(outside.importMap, false);
  // the same script in the repository: the repository's deno.json applies
  const inRepo = await runChild<Where>(CHILD, [], "where child failed", [], env());
  assert.equal(inRepo.importMap, true);
});

Deno.test("the runner's lines give each notebook's kernel and child-process peaks", () => {
  const text = [
    "/r/notebooks/01-quickstart.ipynb: 11 code cells executed in 9.1 s, kernel peak 333 MiB",
    "/r/notebooks/02-insider-event-study.ipynb: 18 code cells executed in 31.6 s, kernel peak " +
    "380 MiB, child processes peak 117 MiB, together 452 MiB → /tmp/x/02-insider-event-study.ipynb",
  ].join("\n");
  assert.deepEqual([...runnerPeaks(text)], [
    ["01-quickstart.ipynb", { kernel: 333, children: 0, whole: 333 }],
    ["02-insider-event-study.ipynb", { kernel: 380, children: 117, whole: 452 }],
  ]);
});
