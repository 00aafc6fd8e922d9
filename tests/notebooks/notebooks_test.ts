/**
 * Executes every notebook through the real Jupyter protocol (Debian's
 * python3-nbclient driving the kernel from `deno jupyter --install`) into a
 * temporary copy, and fails on an error output, on a missing expected output,
 * or when the committed notebook is stale (cell count or output types differ
 * from the fresh run; `deno task notebooks` refreshes them).
 *
 * Without Jupyter these tests are skipped with a message, unless
 * SIGNALBOOK_REQUIRE_JUPYTER=1 (as in CI), which makes a missing Jupyter fail.
 */
import assert from "node:assert/strict";
import { execute, jupyterMissing } from "../../lib/notebook/jupyter.ts";

type Output = {
  output_type: string;
  name?: string;
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
};
type Notebook = { cells: { cell_type: string; source: string[]; outputs?: Output[] }[] };

const DIR = new URL("../../notebooks/", import.meta.url).pathname;
const EXPECT: Record<string, { svg: number; tables: number; text?: RegExp }> = {
  "01-quickstart.ipynb": { svg: 1, tables: 1, text: /\.pdf"/ },
  "02-insider-event-study.ipynb": { svg: 5, tables: 2, text: /hydrated: .*400.*failed: .*0/ },
  "03-pitch-quality.ipynb": { svg: 5, tables: 0, text: /fs_elite_tech_longs/ },
  "04-datasets.ipynb": { svg: 0, tables: 2, text: /same_counts: .*true.*same_values: .*true/s },
};

const missing = await jupyterMissing();
const required = Deno.env.get("SIGNALBOOK_REQUIRE_JUPYTER") === "1";
if (missing && !required) {
  console.warn(
    `notebook tests skipped: ${missing}. To enable: apt-get install python3-nbclient python3-nbformat jupyter-client && deno jupyter --install`,
  );
}

function signature(nb: Notebook): string[][] {
  return nb.cells.filter((c) => c.cell_type === "code").map((c) =>
    (c.outputs ?? []).map((o) =>
      [o.output_type, o.name ?? "", ...Object.keys(o.data ?? {}).sort()].join(":")
    )
  );
}

function text(o: Output, mime: string): string {
  const v = o.data?.[mime];
  return Array.isArray(v) ? v.join("") : v ?? "";
}

for (const name of Object.keys(EXPECT)) {
  Deno.test({
    name: `notebook ${name} runs top to bottom through Jupyter with the expected outputs`,
    ignore: missing !== null && !required,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      if (missing) {
        throw new Error(`Jupyter is required (SIGNALBOOK_REQUIRE_JUPYTER=1) but ${missing}`);
      }
      const out = await Deno.makeTempFile({ suffix: ".ipynb" });
      await execute(DIR + name, out);
      const fresh: Notebook = JSON.parse(await Deno.readTextFile(out));
      await Deno.remove(out);
      const outputs = fresh.cells.flatMap((c) => c.outputs ?? []);
      const errors = outputs.filter((o) => o.output_type === "error");
      assert.deepEqual(errors.map((e) => `${e.ename}: ${e.evalue}`), [], "error outputs");
      const svg = outputs.filter((o) => text(o, "image/svg+xml").startsWith("<svg")).length;
      const tables = outputs.filter((o) =>
        /<table>.*shape|shape: \(/s.test(text(o, "text/html")) &&
        text(o, "text/html").includes("<table")
      ).length;
      const want = EXPECT[name];
      assert.ok(svg >= want.svg, `${name}: ${svg} SVG charts, expected at least ${want.svg}`);
      assert.ok(
        tables >= want.tables,
        `${name}: ${tables} HTML tables, expected at least ${want.tables}`,
      );
      if (want.text) {
        const all = outputs.map((o) =>
          text(o, "text/plain") +
          (o.name ? ((o as unknown as { text: string[] }).text ?? []).join("") : "")
        ).join("\n")
          .replaceAll("\x1b", "").replace(/\[[0-9;]*m/g, "");
        assert.match(all, want.text);
      }
      const committed: Notebook = JSON.parse(await Deno.readTextFile(DIR + name));
      assert.equal(
        committed.cells.length,
        fresh.cells.length,
        `${name}: committed cell count is stale`,
      );
      assert.deepEqual(
        signature(committed),
        signature(fresh),
        `${name}: committed outputs are stale; run deno task notebooks`,
      );
    },
  });
}
