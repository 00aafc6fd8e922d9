/**
 * Checks of a notebook page rendered by nbconvert, as Chromium draws it:
 * every chart and result table the notebook holds is on the page and reads
 * (text contrast by pixels), and no code line runs past its input box.
 * Shared by the screenshot tests.
 */
import { type Browser, textContrast } from "./_chromium.ts";

/** How many chart outputs a notebook file holds (the markup's count). */
export function chartOutputs(path: string): number {
  const nb = JSON.parse(Deno.readTextFileSync(path)) as {
    cells: { outputs?: { data?: Record<string, string | string[]> }[] }[];
  };
  const text = (v: string | string[] | undefined) => Array.isArray(v) ? v.join("") : v ?? "";
  return nb.cells.flatMap((c) => c.outputs ?? []).filter((o) =>
    text(o.data?.["text/html"]).includes('class="sb-chart"') || o.data?.["image/svg+xml"]
  ).length;
}

// Chart outputs on the page: signalbook's <img class="sb-chart">, and any
// other SVG output (as nbconvert renders image/svg+xml), in page coordinates.
const FIND = `[...document.querySelectorAll(
  '.jp-OutputArea-output img.sb-chart, .jp-OutputArea-output[data-mime-type="image/svg+xml"]')]
  .map((el) => { const r = el.getBoundingClientRect();
    return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; })`;
/** The page background colour, as CSS. */
export const PAGE_BG = `getComputedStyle(document.body).backgroundColor`;
// Result tables on the page (frames and result objects), in page coordinates.
const TABLES = `[...document.querySelectorAll(
  '.jp-OutputArea-output .sb-frame table, .jp-OutputArea-output .sb-table table')]
  .map((el) => { const r = el.getBoundingClientRect();
    return { x: r.x + scrollX, y: r.y + scrollY, width: Math.min(r.width, 1000), height: Math.min(r.height, 400) }; })`;

// Code cells on the page: the drawn width of each one's widest line and of its input box.
const CODE = `[...document.querySelectorAll('.jp-InputArea-editor pre')].map((pre) => {
  const range = document.createRange(); range.selectNodeContents(pre);
  return { line: range.getBoundingClientRect().width, box: pre.clientWidth }; })`;

/** How many result tables a notebook file holds (the markup's count). */
export function tableOutputs(path: string): number {
  const nb = JSON.parse(Deno.readTextFileSync(path)) as {
    cells: { outputs?: { data?: Record<string, string | string[]> }[] }[];
  };
  const text = (v: string | string[] | undefined) => Array.isArray(v) ? v.join("") : v ?? "";
  return nb.cells.flatMap((c) => c.outputs ?? []).map((o) => text(o.data?.["text/html"]))
    .map((h) => (h.match(/class="sb-(?:frame|table)"/g) ?? []).length).reduce((a, b) => a + b, 0);
}

/**
 * Checks the charts and result tables of one rendered notebook page, and with
 * `codeFits` that no code line is drawn past its input box (the shipped
 * notebooks; a scratch notebook's import of an absolute path may be wider);
 * returns the problems found and the lowest contrast per kind.
 */
export async function checkPage(
  browser: Browser,
  label: string,
  want: { charts: number; tables: number; codeFits?: boolean },
  lowest: Record<string, number>,
): Promise<string[]> {
  const problems: string[] = [];
  const charts = await browser.evaluate<
    { x: number; y: number; width: number; height: number }[]
  >(FIND);
  if (charts.length !== want.charts) {
    problems.push(`${label}: ${charts.length} charts on the page, ${want.charts} in the notebook`);
  }
  for (const [i, c] of charts.entries()) {
    if (c.width < 50 || c.height < 50) {
      problems.push(`${label} chart ${i + 1}: drawn ${c.width}×${c.height} px`);
      continue;
    }
    const bands = {
      title: { ...c, height: 24 },
      axis: { ...c, y: c.y + c.height - 28, height: 28 },
    };
    for (const [band, clip] of Object.entries(bands)) {
      const m = textContrast(await browser.shot(clip));
      lowest.charts = Math.min(lowest.charts ?? Infinity, m.ratio);
      if (m.ratio < 4.5 || m.ink < 0.005) {
        problems.push(
          `${label} chart ${i + 1} ${band}: contrast ${m.ratio.toFixed(1)}:1, ink ${
            (100 * m.ink).toFixed(1)
          }% of the band`,
        );
      }
    }
  }
  const tables = await browser.evaluate<
    { x: number; y: number; width: number; height: number }[]
  >(TABLES);
  if (tables.length !== want.tables) {
    problems.push(`${label}: ${tables.length} tables on the page, ${want.tables} in the notebook`);
  }
  for (const [i, t] of tables.entries()) {
    const m = textContrast(await browser.shot(t));
    lowest.tables = Math.min(lowest.tables ?? Infinity, m.ratio);
    if (m.ratio < 4.5 || m.ink < 0.01) {
      problems.push(
        `${label} table ${i + 1}: contrast ${m.ratio.toFixed(1)}:1, ink ${
          (100 * m.ink).toFixed(1)
        }% of the table`,
      );
    }
  }
  if (!want.codeFits) return problems;
  const code = await browser.evaluate<{ line: number; box: number }[]>(CODE);
  if (code.length === 0) problems.push(`${label}: no code cell on the page`);
  for (const [i, c] of code.entries()) {
    if (c.line > c.box) {
      problems.push(
        `${label} code cell ${i + 1}: its widest line is ${Math.ceil(c.line)} px, ` +
          `past the right edge of its ${c.box} px box`,
      );
    }
  }
  return problems;
}
