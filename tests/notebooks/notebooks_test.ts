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
import { toolTest } from "../_tools.ts";

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
const EXPECT: Record<string, { charts: number; tables: number; text?: RegExp }> = {
  "01-quickstart.ipynb": {
    charts: 1,
    tables: 2,
    text: all(
      /\.pdf"/,
      /Reading it\.\*\* The catalog holds \d+ pitches/,
      // the fuzzy search finds the company the typo meant, first
      /misspelt "Aurora Theraputics" still found \d+ compan\w+, first ATU \(Aurora Therapeutics[^)]*\), the company meant/,
    ),
  },
  "02-insider-event-study.ipynb": {
    charts: 5,
    tables: 4,
    text: all(
      /hydrated: .*400.*failed: .*0.*open_market_buys: .*\d+/,
      /side\s+n_1m\s+mean_1m/,
      /Reading it\.\*\* After one year, open-market buys \(n = \d+\)/,
      /Reading it\.\*\* Ranked by/,
      /Reading it\.\*\* After one year, CEO purchases \(n = \d+\)/,
    ),
  },
  "03-pitch-quality.ipynb": {
    charts: 3,
    tables: 5,
    text: all(
      /fs_elite_tech_longs/,
      /author_return_bucket\s+n\s+met_0pct\s+met_25pct\s+met_50pct\s+met_100pct/,
      /win_rate_bucket\s+n\s+met_0pct[^]*below 50%/,
      /Reading it\.\*\* Share of pitches that were up a year on/,
      /author_badge_now\s+n\s+met_0pct/,
      /author_username\s+pitches\s+wins\s+win_rate\s+win_rate_low\s+win_rate_high/,
      /Reading it\.\*\* \d+ authors have at least 8 pitches a year old/,
    ),
  },
  "04-datasets.ipynb": { charts: 0, tables: 2, text: /same_counts: .*true.*same_values: .*true/s },
  "05-insider-profile.ipynb": {
    charts: 2,
    tables: 2,
    text: all(
      /open_market: \d+/,
      /event study: key columns/,
      /Reading it \(verdict\)/,
      // at least one side has an interval, so a verdict rather than "thin, no verdict"
      /- \*\*(buy|sell)\*\* at (3m|1y) \(n = \d+\): mean excess -?\d+\.\d\d%, 95% interval/,
      /Caveats\./,
    ),
  },
};

/**
 * The committed notebooks' sizes before issue 23 (bytes): charts became
 * images and sections gained a "Reading it", and no notebook may grow past
 * what it was (02 and 05: see below), but for the demo marks issue 30 asks for
 * ({@link DEMO_MARK_BYTES} per output that carries one).
 */
const SIZE_CEILING: Record<string, number> = {
  "01-quickstart.ipynb": 43_573,
  // 02 and 05: raised in issue 43 (133,602 and 31,207 before), when the event-study chart
  // began to draw its intervals: a bar and a dot per group and horizon, where it drew one
  // line per group (02 holds two such charts: +2.9 KB; 05 one: +0.2 KB, measured; ceilings
  // rounded up by about 0.5 KB so that a re-run with other digits fits); 02 +0.6 KB for its
  // hydrates' `fields` (the columns its cells read), which cut the kernel's memory; +1.2 KB
  // of source: the `fields` lists wrapped to fit the HTML, the columns its pulls keep, the
  // emulator's world read where section 4 needs it; +1.3 KB of source when every code line was
  // wrapped to 100 characters (02, 04 +0.4 KB and 05 +0.7 KB likewise: the JSON holds one
  // string per line); 05 +0.3 KB of source for the four columns its ranking reads, selected
  // before the filter copies any (02 did the same within its ceiling), which cut the kernel's memory
  "02-insider-event-study.ipynb": 140_100,
  "03-pitch-quality.ipynb": 63_192,
  // 04 +0.3 KB for the filing-date filter and the row count taken in the scan, which cut the
  // kernel's memory
  "04-datasets.ipynb": 12_115,
  "05-insider-profile.ipynb": 32_700,
};

/**
 * What one demo mark adds to a committed notebook, at most (bytes): a
 * frame's "DEMO DATA" badge is about 250 B of HTML and text in the JSON, a
 * chart's demo line 125–200 B of base64 (measured on 02 and 05).
 */
const DEMO_MARK_BYTES = 300;

/** A cell's source or an output's text as one string. */
const joined = (v: string | string[] | undefined) => Array.isArray(v) ? v.join("") : v ?? "";

/**
 * Each results section (from a `##`/`###` heading to the next) that has
 * outputs ends with a computed "Reading it" (a markdown output of its last
 * code cell), and every figure it quotes to 2 decimals is shown in an
 * output of that section above it (a table's text form or a printed line):
 * no reading quotes a row the display leaves out.
 */
function readingProblems(nb: Notebook): string[] {
  const problems: string[] = [];
  let heading = "";
  let section: Notebook["cells"] = [];
  const check = () => {
    const code = section.filter((c) => c.cell_type === "code" && (c.outputs ?? []).length > 0);
    if (!heading || code.length === 0) return;
    const last = code.at(-1)!.outputs!.map((o) => joined(o.data?.["text/markdown"])).join("");
    if (!/\*\*Reading it/.test(last)) {
      problems.push(`section "${heading}" does not end with a computed Reading it`);
      return;
    }
    const shown = code.slice(0, -1).flatMap((c) => c.outputs ?? []).map((o) =>
      joined(o.data?.["text/plain"]) + joined((o as unknown as { text?: string[] }).text)
    ).join("\n");
    for (const figure of new Set(last.match(/-?\d+\.\d\d(?!\d)/g) ?? [])) {
      if (!shown.includes(figure)) {
        problems.push(
          `section "${heading}": Reading it quotes ${figure}, which no output above shows`,
        );
      }
    }
  };
  for (const cell of nb.cells) {
    const src = joined(cell.source);
    if (cell.cell_type === "markdown" && /^#{2,3} /.test(src)) {
      check();
      heading = src.split("\n")[0].replace(/^#+ /, "");
      section = [];
    } else section.push(cell);
  }
  check();
  return problems;
}

/**
 * Options the docs call superseded ("old default", "previous default"): a
 * notebook must not use them. `code` finds the option in a code cell;
 * `named` finds the option's name next to such a phrase in the docs.
 */
const SUPERSEDED = [
  {
    label: 'cluster: "month"',
    code: /cluster:\s*["']month["']/,
    named: /`month`|month clustering|month \(old default\)|`cluster: "month"`/,
  },
  { label: 'spread: "step"', code: /spread:\s*["']step["']/, named: /`"step"`|`spread: "step"`/ },
];

/** README.md and every docs/ guide, whitespace collapsed. */
function docsText(): string {
  const root = new URL("../../", import.meta.url).pathname;
  const files = [`${root}README.md`];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".md")) files.push(`${dir}/${e.name}`);
    }
  };
  try {
    walk(`${root}docs`);
  } catch { /* no docs folder */ }
  return files.map((f) => Deno.readTextFileSync(f)).join("\n").replace(/\s+/g, " ");
}

/**
 * Widest code line that fits the input area of the nbconvert HTML (lab
 * template, 1100 px page in Chromium): a 130-character line ran 1,015 px
 * into a 966 px box; lines of 100 characters fit (every code cell of the
 * five notebooks, light and dark, checked in Chromium).
 */
const FITS = 100;

Deno.test("notebooks' code lines are wrapped to fit the nbconvert HTML input area", () => {
  const wide: string[] = [];
  for (const name of Object.keys(EXPECT)) {
    const nb: Notebook = JSON.parse(Deno.readTextFileSync(DIR + name));
    nb.cells.filter((c) => c.cell_type === "code").forEach((c, i) => {
      c.source.join("").split("\n").forEach((line, j) => {
        if ([...line].length > FITS) {
          wide.push(`${name} code cell ${i + 1}, line ${j + 1}: ${[...line].length} characters`);
        }
      });
    });
  }
  assert.deepEqual(wide, [], `lines over ${FITS} characters overflow the right edge`);
});

Deno.test("notebooks use no option the README calls superseded", () => {
  const docs = docsText();
  const phrases = [...docs.matchAll(/\b(?:old|previous) default\b/gi)].map((m) => m.index!);
  assert.ok(phrases.length > 0, "the docs name no superseded option: update SUPERSEDED");
  const near = (i: number) => docs.slice(Math.max(0, i - 150), i + 150);
  // every "old/previous default" in the docs is an option listed here, and every listed one is still so named
  const unknown = phrases.filter((i) => !SUPERSEDED.some((s) => s.named.test(near(i))));
  assert.deepEqual(unknown.map((i) => near(i)), [], "superseded options missing from SUPERSEDED");
  for (const s of SUPERSEDED) {
    assert.ok(
      phrases.some((i) => s.named.test(near(i))),
      `the docs no longer call ${s.label} superseded: drop it from SUPERSEDED`,
    );
  }
  const uses: string[] = [];
  for (const name of Object.keys(EXPECT)) {
    const nb: Notebook = JSON.parse(Deno.readTextFileSync(DIR + name));
    nb.cells.filter((c) => c.cell_type === "code").forEach((c, i) => {
      for (const s of SUPERSEDED) {
        if (s.code.test(joined(c.source))) uses.push(`${name} code cell ${i + 1}: ${s.label}`);
      }
    });
  }
  assert.deepEqual(uses, [], "options the README calls superseded (old or previous default)");
});

const jupyterTest = toolTest(await jupyterMissing(), "Jupyter", {
  skipped: "notebook tests",
  enable:
    "apt-get install python3-nbclient python3-nbformat jupyter-client && deno jupyter --install",
});

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
  jupyterTest(
    `notebook ${name} runs top to bottom through Jupyter with the expected outputs`,
    async () => {
      const out = await Deno.makeTempFile({ suffix: ".ipynb" });
      await execute(DIR + name, out);
      const fresh: Notebook = JSON.parse(await Deno.readTextFile(out));
      await Deno.remove(out);
      const outputs = fresh.cells.flatMap((c) => c.outputs ?? []);
      const errors = outputs.filter((o) => o.output_type === "error");
      assert.deepEqual(errors.map((e) => `${e.ename}: ${e.evalue}`), [], "error outputs");
      const charts = outputs.filter((o) => text(o, "text/html").startsWith('<img class="sb-chart"'))
        .length;
      const tables = outputs.filter((o) =>
        /<table>.*shape|shape: \(/s.test(text(o, "text/html")) &&
        text(o, "text/html").includes("<table")
      ).length;
      const want = EXPECT[name];
      assert.equal(charts, want.charts, `${name}: chart outputs`);
      assert.deepEqual(
        outputs.filter((o) => text(o, "image/svg+xml")).length,
        0,
        "no image/svg+xml outputs (nbconvert 6.5 blanks them)",
      );
      assert.deepEqual(
        outputs.filter((o) => o.output_type === "stream" && o.name === "stderr").map((o) =>
          ((o as unknown as { text: string[] }).text ?? []).join("")
        ),
        [],
        "no stderr in a notebook: notices are quiet notes, and nothing here warrants a warning",
      );
      assert.deepEqual(readingProblems(fresh), [], `${name}: Reading it`);
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
      const size = new TextEncoder().encode(committedText).length;
      // the notebooks run offline: frames with the demo badge, and every chart, carry a demo mark
      const marks = charts +
        outputs.filter((o) => text(o, "text/plain").includes("DEMO DATA")).length;
      const ceiling = SIZE_CEILING[name] + marks * DEMO_MARK_BYTES;
      assert.ok(
        size <= ceiling,
        `${name}: ${size} B, more than ${ceiling} B (${
          SIZE_CEILING[name]
        } B + ${marks} demo marks)`,
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
  );
}
