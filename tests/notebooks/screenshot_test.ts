/**
 * The committed (executed) notebooks as a reader sees them: rendered to HTML
 * by nbconvert (Debian 12's 6.5.3 here) in the light and the dark theme,
 * opened in headless Chromium, and every chart screenshotted. Checked as
 * pixels, not markup:
 * - every chart output of the notebook is on the page (none sanitised away);
 * - each chart's text areas (the title band at the top and the axis-label
 *   band at the bottom) hold text at a WCAG contrast of at least 4.5:1
 *   against the chart's own background, covering a visible share of the band;
 * - every result table (a frame's display, a `statsTable`/`portfolioTable`/
 *   `entryComparison`, a portfolio result's statistics) is on the page and
 *   its text reads at a WCAG contrast of at least 4.5:1 against the page
 *   (these take the theme's colours, unlike the charts' white card);
 * - no code cell's widest line is drawn past the right edge of its input box
 *   (a 100-character line takes about 780 of its 966 px);
 * - the dark theme really is dark (so the check means something).
 *
 * Skipped with a message without Jupyter's nbconvert or Chromium, unless
 * SIGNALBOOK_REQUIRE_JUPYTER=1 (as in CI), which makes them required.
 */
import assert from "node:assert/strict";
import { Browser, chromiumMissing, nbconvertHtml, nbconvertMissing } from "./_chromium.ts";
import { chartOutputs, checkPage, PAGE_BG, tableOutputs } from "./_pages.ts";
import { toolTest } from "../_tools.ts";

const DIR = new URL("../../notebooks/", import.meta.url).pathname;
const NAMES = [...Deno.readDirSync(DIR)].map((e) => e.name).filter((n) => n.endsWith(".ipynb"))
  .sort();
const THEMES = ["light", "dark"] as const;

const jupyterTest = toolTest(
  (await nbconvertMissing()) ?? (await chromiumMissing()),
  "nbconvert and Chromium",
  { skipped: "notebook screenshot tests", enable: "apt-get install python3-nbconvert chromium" },
);

function render(theme: string, out: string): Promise<void> {
  return nbconvertHtml(NAMES.map((n) => DIR + n), theme, out);
}

jupyterTest(
  "notebook charts and tables read and code fits in nbconvert HTML, light and dark, in Chromium",
  async () => {
    const out = await Deno.makeTempDir({ prefix: "signalbook-html-" });
    const browser = await Browser.launch();
    const problems: string[] = [];
    const lowest: Record<string, Record<string, number>> = {};
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
          problems.push(
            ...await checkPage(browser, `${theme} ${name}`, {
              charts: want,
              tables: tableOutputs(DIR + name),
              codeFits: true,
            }, lowest[theme] ??= {}),
          );
        }
      }
    } finally {
      await browser.close();
      await Deno.remove(out, { recursive: true }).catch(() => {});
    }
    console.log(
      `lowest text contrast (charts: title and axis bands; tables: whole table): ${
        Object.entries(lowest).map(([t, r]) =>
          `${t}: ${Object.entries(r).map(([k, v]) => `${k} ${v.toFixed(1)}:1`).join(", ")}`
        ).join("; ")
      }`,
    );
    assert.deepEqual(problems, [], "charts that do not read");
  },
);
