/**
 * The committed (executed) notebooks as a reader sees them: rendered to HTML
 * by nbconvert (Debian 12's 6.5.3 here) in the light and the dark theme,
 * opened in headless Chromium, and every chart screenshotted. Checked as
 * pixels, not markup:
 * - every chart output of the notebook is on the page (none sanitised away);
 * - each chart's text areas (the title band at the top and the axis-label
 *   band at the bottom) hold text at a WCAG contrast of at least 4.5:1
 *   against the chart's own background, covering a visible share of the band;
 * - the dark theme really is dark (so the check means something).
 *
 * Skipped with a message without Jupyter's nbconvert or Chromium, unless
 * SIGNALBOOK_REQUIRE_JUPYTER=1 (as in CI), which makes them required.
 */
import assert from "node:assert/strict";
import { python } from "../../lib/notebook/_jupyter.ts";
import { Browser, chromiumMissing, textContrast } from "./_chromium.ts";

const DIR = new URL("../../notebooks/", import.meta.url).pathname;
const NAMES = [...Deno.readDirSync(DIR)].map((e) => e.name).filter((n) => n.endsWith(".ipynb"))
  .sort();
const THEMES = ["light", "dark"] as const;

async function nbconvertMissing(): Promise<string | null> {
  try {
    const out = await new Deno.Command(python(), {
      args: ["-c", "import nbconvert"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success ? null : `${python()} cannot import nbconvert`;
  } catch {
    return `${python()} was not found`;
  }
}

const missing = (await nbconvertMissing()) ?? (await chromiumMissing());
const required = Deno.env.get("SIGNALBOOK_REQUIRE_JUPYTER") === "1";
if (missing && !required) {
  console.warn(
    `notebook screenshot tests skipped: ${missing}. To enable: apt-get install python3-nbconvert chromium`,
  );
}

/** How many chart outputs a notebook file holds (the markup's count). */
function chartOutputs(path: string): number {
  const nb = JSON.parse(Deno.readTextFileSync(path)) as {
    cells: { outputs?: { data?: Record<string, string | string[]> }[] }[];
  };
  const text = (v: string | string[] | undefined) => Array.isArray(v) ? v.join("") : v ?? "";
  return nb.cells.flatMap((c) => c.outputs ?? []).filter((o) =>
    text(o.data?.["text/html"]).includes('class="sb-chart"') || o.data?.["image/svg+xml"]
  ).length;
}

async function render(theme: string, out: string): Promise<void> {
  const res = await new Deno.Command(python(), {
    args: [
      "-m",
      "nbconvert",
      "--to",
      "html",
      `--HTMLExporter.theme=${theme}`,
      "--output-dir",
      out,
      ...NAMES.map((n) => DIR + n),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!res.success) throw new Error(`nbconvert failed:\n${new TextDecoder().decode(res.stderr)}`);
}

// Chart outputs on the page: signalbook's <img class="sb-chart">, and any
// other SVG output (as nbconvert renders image/svg+xml), in page coordinates.
const FIND = `[...document.querySelectorAll(
  '.jp-OutputArea-output img.sb-chart, .jp-OutputArea-output[data-mime-type="image/svg+xml"]')]
  .map((el) => { const r = el.getBoundingClientRect();
    return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; })`;
const PAGE_BG = `getComputedStyle(document.body).backgroundColor`;

Deno.test({
  name: "notebook charts read in nbconvert HTML, light and dark, as Chromium draws them",
  ignore: missing !== null && !required,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    if (missing) {
      throw new Error(
        `nbconvert and Chromium are required (SIGNALBOOK_REQUIRE_JUPYTER=1) but ${missing}`,
      );
    }
    const out = await Deno.makeTempDir({ prefix: "signalbook-html-" });
    const browser = await Browser.launch();
    const problems: string[] = [];
    const lowest: Record<string, number> = {};
    try {
      for (const theme of THEMES) {
        await render(theme, `${out}/${theme}`);
        for (const name of NAMES) {
          const want = chartOutputs(DIR + name);
          await browser.open(`${out}/${theme}/${name.replace(/\.ipynb$/, ".html")}`);
          const bg = await browser.evaluate<string>(PAGE_BG);
          const [r, g, b] = (bg.match(/\d+/g) ?? ["255", "255", "255"]).map(Number);
          const dark = r + g + b < 3 * 96;
          assert.equal(dark, theme === "dark", `${theme} ${name}: page background ${bg}`);
          const charts = await browser.evaluate<
            { x: number; y: number; width: number; height: number }[]
          >(FIND);
          if (charts.length !== want) {
            problems.push(
              `${theme} ${name}: ${charts.length} charts on the page, ${want} in the notebook`,
            );
          }
          for (const [i, c] of charts.entries()) {
            if (c.width < 50 || c.height < 50) {
              problems.push(`${theme} ${name} chart ${i + 1}: drawn ${c.width}×${c.height} px`);
              continue;
            }
            const bands = {
              title: { ...c, height: 24 },
              axis: { ...c, y: c.y + c.height - 28, height: 28 },
            };
            for (const [band, clip] of Object.entries(bands)) {
              const m = textContrast(await browser.shot(clip));
              lowest[theme] = Math.min(lowest[theme] ?? Infinity, m.ratio);
              if (m.ratio < 4.5 || m.ink < 0.005) {
                problems.push(
                  `${theme} ${name} chart ${i + 1} ${band}: contrast ${m.ratio.toFixed(1)}:1, ink ${
                    (100 * m.ink).toFixed(1)
                  }% of the band`,
                );
              }
            }
          }
        }
      }
    } finally {
      await browser.close();
      await Deno.remove(out, { recursive: true }).catch(() => {});
    }
    console.log(
      `lowest text contrast over every chart's title and axis bands: ${
        Object.entries(lowest).map(([t, r]) => `${t} ${r.toFixed(1)}:1`).join(", ")
      }`,
    );
    assert.deepEqual(problems, [], "charts that do not read");
  },
});
