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
import { execute, jupyterMissing } from "../../lib/notebook/_jupyter.ts";

type Output = {
  output_type: string;
  name?: string;
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
};
type Notebook = { cells: { cell_type: string; source: string[]; outputs?: Output[] }[] };

const DIR = new URL("../../notebooks/", import.meta.url).pathname;
const all = (...res: RegExp[]) => new RegExp(res.map((r) => `(?=[\\s\\S]*${r.source})`).join(""));
const EXPECT: Record<string, { svg: number; tables: number; text?: RegExp }> = {
  "01-quickstart.ipynb": {
    svg: 1,
    tables: 1,
    text: all(/\.pdf"/, /Reading it\.\*\* The catalog holds \d+ pitches/),
  },
  "02-insider-event-study.ipynb": {
    svg: 5,
    tables: 2,
    text: all(
      /hydrated: .*400.*failed: .*0/,
      /Reading it\.\*\* Ranked by/,
      /Reading it\.\*\* After one year, CEO purchases \(n = \d+\)/,
    ),
  },
  "03-pitch-quality.ipynb": { svg: 5, tables: 0, text: all(/fs_elite_tech_longs/, /Reading it\./) },
  "04-datasets.ipynb": { svg: 0, tables: 2, text: /same_counts: .*true.*same_values: .*true/s },
  "05-insider-profile.ipynb": { svg: 2, tables: 2, text: all(/Verdict\./, /Caveats\./) },
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
        const joined = outputs.map((o) =>
          text(o, "text/plain") + text(o, "text/markdown") +
          (o.name ? ((o as unknown as { text: string[] }).text ?? []).join("") : "")
        ).join("\n")
          .replaceAll("\x1b", "").replace(/\[[0-9;]*m/g, "");
        assert.match(joined, want.text);
      }
      const committedText = await Deno.readTextFile(DIR + name);
      assert.ok(
        !committedText.includes("\\u001b[") && !committedText.includes("\x1b["),
        `${name}: committed outputs carry ANSI codes`,
      );
      const committed: Notebook = JSON.parse(committedText);
      const first = committed.cells[0];
      assert.equal(first.cell_type, "markdown", `${name} opens with its question`);
      assert.match(first.source.join(""), /\?/, `${name}: the first cell states a question`);
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
