/**
 * The chart core: Observable Plot renders into one linkedom document made once
 * (so charts work in the Jupyter kernel and under `deno run` alike), and the
 * plot is composed with its title, subtitle and legend into one
 * self-contained SVG. A {@link Chart} renders inline in a notebook and can be
 * saved as SVG or PNG (`saveChart`).
 *
 * Colours: the Okabe–Ito palette (safe for colour-blind readers); text and
 * axes are drawn in `currentColor`, which every output fixes to dark text on
 * an explicit white background (see {@link Chart} for why).
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import defer * as linkedom from "npm:linkedom@0.18.12/worker";
import { escapeHtml as esc } from "../shared/html.ts";
import { DEMO_COLOR, DEMO_LABEL, isDemo, markDemo } from "../shared/demo.ts";
import { checkInlineFormat, type InlineFormat, markCount, resolveInline } from "./inline.ts";
import { compactPng } from "./_raster.ts";
import { textWidth, wrapText } from "./_text.ts";

/** Okabe–Ito colours. */
export const PALETTE = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#E69F00",
  "#56B4E9",
  "#F0E442",
  "#000000",
];
/** Colours of the two sides (buy, sell; or acquired, disposed under `sides: "acquiredDisposed"`). */
export const SIDE_COLORS = { domain: ["Buy", "Sell"], range: ["#0072B2", "#D55E00"] };

type PlotDocument = NonNullable<Plot.PlotOptions["document"]>;
let doc: PlotDocument | undefined;

/**
 * The shared document Plot draws into: linkedom's, a DOM made for rendering
 * outside a browser. It replaced jsdom (issue 34, a departure from the
 * pinned jsdom of DESIGN.md): jsdom was the slowest and largest import of
 * every process that imported signalbook, for a first cell that draws no
 * chart. Plot needs only element creation, attributes, text and
 * serialisation; the chart snapshots rendered pixel-identical through resvg
 * under both, and the charts' tests check the drawn PNGs by pixels.
 */
export function plotDocument(): PlotDocument {
  if (!doc) {
    const page = linkedom.parseHTML("<!DOCTYPE html><html><body></body></html>") as unknown as {
      document: PlotDocument;
    };
    doc = page.document;
  }
  return doc;
}

/** What signalbook uses of the element Plot returns. */
export interface PlotElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  outerHTML: string;
  scale(name: string): ColorScale | undefined;
}

/** Title options shared by every helper. */
export interface ChartText {
  /** Title above the chart. */
  title?: string;
  /** Subtitle (units, data source); a `\n` starts another line. */
  subtitle?: string;
  /**
   * How the chart displays inline in a notebook: `"auto"` (default: PNG
   * above 1,000 drawn marks, else SVG), `"svg"` or `"png"`; see
   * `chartInlineFormat` for the session-wide setting.
   */
  inline?: InlineFormat;
  /**
   * Draw the "DEMO DATA · offline emulator" line above the title (default:
   * when a chart helper has just read a demo frame, see {@link noteDemoData}).
   */
  demo?: boolean;
}

/** The options of every chart helper: the text options, and any other Plot option, passed through. */
export interface ChartOptions extends ChartText {
  /** Extra Plot options (width, height, margins, scales…). */
  [plotOption: string]: unknown;
}

let pendingDemo = false;

/**
 * Notes that the data a chart helper is reading is demo data (the offline
 * emulator's; see `shared/demo.ts`): the next {@link render} in the same
 * synchronous run draws the demo line. Chart helpers read their frames and
 * render in one synchronous call, so the note is cleared at the next
 * microtask and never reaches another chart.
 */
export function noteDemoData(data: unknown): void {
  if (!isDemo(data) || pendingDemo) return;
  pendingDemo = true;
  queueMicrotask(() => pendingDemo = false);
}

const JUPYTER = Symbol.for("Jupyter.display");

/**
 * A rendered chart: one standalone SVG.
 *
 * Notebook display (decided for issue 23, measured with nbconvert + headless
 * Chromium in light and dark themes, see tests/notebooks/screenshot_test.ts):
 * a `text/html` output holding `<img src="data:image/svg+xml;base64,…">` of
 * the {@link standaloneSvg} (dark text `#1a1a1a` on a white card), plus
 * `text/plain`. (A percent-encoded data URL would be about a quarter smaller,
 * but mini-svg-data-uri's encoding of these charts failed to load in
 * Chromium 156: base64 is the form every browser and sanitiser reads.) Why
 * this form:
 * - `image/svg+xml` outputs are shown as `<img>` by JupyterLab (so
 *   `currentColor` is black, unreadable in dark themes), are sanitised to
 *   nothing by nbconvert 6.5 (nbconvert#1849) and are inlined and broken by
 *   GitHub's notebook view; an HTML output is none of these, and an `<img>`
 *   with a data URL is what GitHub's and JupyterLab's sanitisers keep.
 * - Inline `<svg>` in HTML would follow the theme, but then every chart's
 *   colours depend on what each front end sets as the text colour, its ids
 *   collide between charts in one page, and sanitisers (GitHub, untrusted
 *   notebooks) drop or rewrite it. An explicit background reads the same
 *   everywhere: a white card in a dark theme, like a printed figure.
 * - A PNG fallback was measured at 19–51 KB per chart (1×) against 4–8 KB of
 *   SVG: it would double the committed notebooks; the vector image also
 *   stays sharp on high-density screens.
 * - Except for dense charts (issue 33): above 1,000 drawn marks the SVG
 *   outweighs a PNG, so `inline: "auto"` shows a compact PNG drawn at 2×
 *   (`src="data:image/png;base64,…"`, same white card); `inline: "svg"` or
 *   `"png"` forces one form (see lib/charts/inline.ts for the measurements).
 *
 * @example
 * ```ts
 * import { connect, tradeTimeline } from "../../mod.ts";
 * const { insider } = await connect();
 * const chart = tradeTimeline(await insider.search({}).frame({ maxRows: 500 }));
 * chart; // renders inline in a notebook
 * ```
 */
export class Chart {
  /** The SVG markup. */
  readonly svg: string;
  /** Width in px. */
  readonly width: number;
  /** Height in px. */
  readonly height: number;
  /** The chart's title ("" without one): the image's alt text in a notebook. */
  readonly title: string;
  /** How it displays inline: `"auto"` (by its mark count and `chartInlineFormat`), `"svg"`, `"png"`. */
  readonly inline: InlineFormat;
  /** Creates a chart from SVG markup. */
  constructor(
    svg: string,
    width: number,
    height: number,
    title = "",
    inline: InlineFormat = "auto",
  ) {
    this.svg = svg;
    this.width = width;
    this.height = height;
    this.title = title;
    this.inline = checkInlineFormat("Chart", inline);
  }
  /** Notebook display: an `<img>` of the standalone SVG, or of a 2× PNG when dense (see the class doc). */
  [JUPYTER](): Record<string, string> {
    const format = resolveInline(this.inline, this.svg);
    return {
      "text/html": chartHtml(this, format),
      "text/plain": `Chart ${this.width}×${this.height}${
        format === "png" ? ` (PNG, ${markCount(this.svg).toLocaleString("en-US")} marks)` : ""
      }${this.title ? `: ${this.title}` : ""}`,
    };
  }
  /** The SVG markup. */
  toString(): string {
    return this.svg;
  }
}

/**
 * The chart's SVG for a file or an `<img>`: explicit dark text colour on a
 * white background (a chart drawn in `currentColor` inherits no colour there).
 *
 * @example
 * ```ts
 * import { connect, pitchesOverTime, standaloneSvg } from "../../mod.ts";
 * const { catalog } = await connect();
 * standaloneSvg(pitchesOverTime(await catalog.pitches().frame())).includes('fill="#ffffff"'); // true
 * ```
 */
export function standaloneSvg(chart: Chart): string {
  const open = chart.svg.indexOf(">") + 1;
  return chart.svg.slice(0, open).replace("<svg ", '<svg color="#1a1a1a" ') +
    '<rect class="background" width="100%" height="100%" fill="#ffffff"/>' +
    chart.svg.slice(open);
}

/**
 * The notebook HTML of a chart: an `<img>` of its standalone SVG, sized to
 * the chart. The test of this form is a browser drawing it
 * (tests/notebooks/screenshot_test.ts). Inside an image the SVG's ARIA attributes reach no one (the
 * `alt` text does), so they are dropped, empty elements are written
 * self-closed and Plot's stylesheet is cut to its one rule that acts in an
 * image, to keep notebooks small.
 */
function chartHtml(chart: Chart, format: "svg" | "png" = "svg"): string {
  // the image as a data URL of its bytes: a compact 2× PNG, or the SVG
  const img = (type: string, bytes: Uint8Array) =>
    `<img class="sb-chart" width="${chart.width}" height="${chart.height}" ` +
    `style="max-width:100%;height:auto" alt="${esc(chart.title || "chart")}" ` +
    `src="data:image/${type};base64,${bytes.toBase64()}">`;
  if (format === "png") return img("png", compactPng(standaloneSvg(chart), 2));
  const svg = standaloneSvg(chart).replace(/ aria-(?:label|hidden|description)="[^"]*"/g, "")
    .replace(/<(circle|path|line|rect|stop)( [^>]*)?><\/\1>/g, "<$1$2/>")
    // Plot's per-chart stylesheet sizes the element in a page; in an image only this rule acts
    .replace(
      /<style>:where\(\.(plot-[0-9a-f]+)\)[^<]*<\/style>/g,
      "<style>.$1 text{white-space:pre}</style>",
    );
  return img("svg+xml", new TextEncoder().encode(svg));
}

/**
 * Rounds the coordinates Plot writes with up to 17 digits to 1 decimal (a
 * tenth of a pixel; inside tags only, text is untouched): about a third of a
 * chart's bytes, no visible change.
 */
function roundCoordinates(svg: string): string {
  return svg.replace(
    /<[^>]+>/g,
    (tag) => tag.replace(/-?\d+\.\d{2,}/g, (m) => (Math.round(Number(m) * 10) / 10).toFixed(1)),
  );
}

type ColorScale = {
  type?: string;
  domain?: unknown[];
  range?: unknown[];
  interpolate?: (t: number) => string;
  label?: string;
};

/**
 * The name a legend shows for a value of a Boolean channel: the label for
 * `true`, "not <label>" for `false` ("CEO" / "not CEO"); a field-like label
 * (`is_ceo`) is read as words first. Without a label: "yes" / "no".
 */
export function booleanName(value: boolean, label?: string): string {
  const words = (label ?? "").replace(/^(is|has)_/, "").replaceAll("_", " ").trim();
  if (!words) return value ? "yes" : "no";
  return value ? words : `not ${words}`;
}

function swatchLegend(scale: ColorScale, width: number): { svg: string; height: number } {
  const domain = scale.domain ?? [];
  const bool = domain.every((d) => typeof d === "boolean");
  const title = scale.label ? esc(scale.label) : "";
  let x = title ? Math.ceil(textWidth(title, 11, true)) + 14 : 0;
  let y = 0;
  const items = domain.map((d, i) => {
    const label = esc(bool ? booleanName(d as boolean, scale.label) : String(d));
    const w = 18 + Math.ceil(textWidth(label, 11)) + 14;
    if (x + w > width && x > 0) {
      x = 0;
      y += 18;
    }
    const item = `<g transform="translate(${x},${y})"><rect width="12" height="12" rx="2" fill="${
      scale.range?.[i % (scale.range?.length ?? 1)] ?? PALETTE[i % PALETTE.length]
    }"/><text x="17" y="10" font-size="11" fill="currentColor">${label}</text></g>`;
    x += w;
    return item;
  });
  const head = title
    ? `<text y="10" font-size="11" font-weight="600" fill="currentColor">${title}</text>`
    : "";
  return { svg: `<g class="legend">${head}${items.join("")}</g>`, height: y + 20 };
}

function legendSvg(scale: ColorScale | undefined, width: number): { svg: string; height: number } {
  if (!scale || !scale.domain?.length) return { svg: "", height: 0 };
  if (scale.type === "ordinal" || scale.type === "categorical") return swatchLegend(scale, width);
  const [lo, hi] = scale.domain as number[];
  const stops = scale.interpolate
    ? Array.from(
      { length: 11 },
      (_, i) => `<stop offset="${i * 10}%" stop-color="${scale.interpolate!(i / 10)}"/>`,
    ).join("")
    : (scale.range ?? []).map((c, i, a) =>
      `<stop offset="${(i / Math.max(1, a.length - 1)) * 100}%" stop-color="${c}"/>`
    ).join("");
  const fmt = (v: number) => Number.isInteger(v) ? String(v) : v.toFixed(1);
  return {
    svg: `<g class="legend"><defs><linearGradient id="ramp">${stops}</linearGradient></defs>` +
      `<text y="10" font-size="11" fill="currentColor">${esc(scale.label ?? "")}</text>` +
      `<rect x="0" y="16" width="200" height="10" fill="url(#ramp)"/>` +
      `<text x="0" y="38" font-size="10" fill="currentColor">${fmt(lo)}</text>` +
      `<text x="200" y="38" font-size="10" text-anchor="end" fill="currentColor">${
        fmt(hi)
      }</text></g>`,
    height: 44,
  };
}

/**
 * Renders Plot options into a {@link Chart} with a title, subtitle and SVG
 * legend. The title, the subtitle and the demo line are wrapped to the
 * chart's width (lines break between words; `\n` starts a new line), so no
 * text is cut at any width. `extra` (the caller's Plot options) override the defaults; scale
 * objects (`x`, `y`, `color`, …) are merged one level deep. An `inline`
 * option (in `text` or `extra`) sets how the chart displays in a notebook.
 */
export function render(
  options: Plot.PlotOptions,
  text: ChartText,
  extra: Record<string, unknown> = {},
): Chart {
  // the caller's own title and subtitle (in `extra`) win over the helper's (`text`)
  const { inline: extraInline, title, subtitle, demo: extraDemo, ...rest } = extra as
    & ChartText
    & Record<string, unknown>;
  // `demo` is signalbook's option (the demo line), never a Plot option
  text = {
    ...text,
    title: title ?? text.title,
    subtitle: subtitle ?? text.subtitle,
    demo: text.demo ?? (extraDemo as boolean | undefined),
  };
  // checked by the Chart it makes
  const inline = text.inline ?? extraInline;
  const merged: Record<string, unknown> = { ...options };
  for (const [k, v] of Object.entries(rest)) {
    const base = merged[k];
    merged[k] =
      v && typeof v === "object" && !Array.isArray(v) && base && typeof base === "object" &&
        !Array.isArray(base)
        ? { ...base, ...v }
        : v;
  }
  const color = merged.color as Record<string, unknown> | undefined;
  const plot = Plot.plot({
    ...merged,
    color: color ? { ...color, legend: false } : undefined,
    title: undefined,
    subtitle: undefined,
    document: plotDocument(),
  } as Plot.PlotOptions) as unknown as PlotElement;
  const width = Number(plot.getAttribute("width") ?? 640);
  const plotHeight = Number(plot.getAttribute("height") ?? 400);
  const head: string[] = [];
  let y = 0;
  const demo = text.demo ?? pendingDemo;
  pendingDemo = false;
  // each block wrapped to the chart's width (see _text.ts): [text, size, bold, attributes, line step, gap after]
  const blocks: [string | undefined, number, boolean, string, number, number][] = [
    // amber, bold: reads on the chart's white card in every theme
    [demo ? DEMO_LABEL : undefined, 11, true, `fill="${DEMO_COLOR}"`, 14, 4],
    [text.title, 15, true, `fill="currentColor"`, 20, 4],
    [text.subtitle, 12, false, `fill="currentColor" opacity="0.75"`, 18, 2],
  ];
  for (const [words, size, bold, attributes, step, after] of blocks) {
    if (!words) continue;
    for (const line of wrapText(words, width - 4, size, bold)) {
      head.push(
        `<text x="0" y="${y + size + 1}" font-size="${size}"${
          bold ? ' font-weight="bold"' : ""
        } ${attributes}>${esc(line)}</text>`,
      );
      y += step;
    }
    y += after;
  }
  if (color && color.legend !== false) {
    const scale = plot.scale("color");
    const lg = legendSvg(
      scale && { ...scale, label: scale.label ?? (color.label as string | undefined) },
      width,
    );
    if (lg.height) {
      head.push(`<g transform="translate(0,${y + 4})">${lg.svg}</g>`);
      y += lg.height + 6;
    }
  }
  plot.setAttribute("y", String(y));
  const inner = roundCoordinates(plot.outerHTML);
  const height = y + plotHeight;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'DejaVu Sans', sans-serif" fill="currentColor">` +
    `${head.join("")}${inner}</svg>`;
  const chart = new Chart(svg, width, height, text.title ?? "", inline);
  // isDemo(chart) too; the SVG (and the files saveChart writes) carry the demo line
  return demo ? markDemo(chart) : chart;
}
