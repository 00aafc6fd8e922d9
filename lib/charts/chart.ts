/**
 * The chart core: Observable Plot renders into one jsdom document made once
 * (so charts work in the Jupyter kernel and under `deno run` alike), and the
 * plot is composed with its title, subtitle and legend into one
 * self-contained SVG. A {@link Chart} renders inline in a notebook and can be
 * saved as SVG or PNG (`saveChart`).
 *
 * Colours: the Okabe–Ito palette (safe for colour-blind readers); text and
 * axes use `currentColor`, so inline charts follow light and dark themes (PNG
 * files are rendered dark-on-white).
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { JSDOM } from "npm:jsdom@31.0.1";
import { escapeHtml as esc } from "../shared/html.ts";

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
/** Buy / sell colours. */
export const SIDE_COLORS = { domain: ["Buy", "Sell"], range: ["#0072B2", "#D55E00"] };

type PlotDocument = NonNullable<Plot.PlotOptions["document"]>;
let doc: PlotDocument | undefined;

/** The shared jsdom document Plot draws into. */
export function plotDocument(): PlotDocument {
  if (!doc) {
    doc = new JSDOM("<!DOCTYPE html><html><body></body></html>").window
      .document as unknown as PlotDocument;
  }
  return doc;
}

/** What signalbook uses of the element Plot returns. */
interface PlotElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  outerHTML: string;
  scale(name: string): ColorScale | undefined;
}

/** Title options shared by every helper. */
export interface ChartText {
  /** Title above the chart. */
  title?: string;
  /** Subtitle (units, data source). */
  subtitle?: string;
}

const JUPYTER = Symbol.for("Jupyter.display");

/**
 * A rendered chart: one standalone SVG.
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
  /** Creates a chart from SVG markup. */
  constructor(svg: string, width: number, height: number) {
    this.svg = svg;
    this.width = width;
    this.height = height;
  }
  /** Notebook display: inline SVG. */
  [JUPYTER](): Record<string, string> {
    return { "image/svg+xml": this.svg, "text/plain": `Chart ${this.width}×${this.height}` };
  }
  /** The SVG markup. */
  toString(): string {
    return this.svg;
  }
}

type ColorScale = {
  type?: string;
  domain?: unknown[];
  range?: unknown[];
  interpolate?: (t: number) => string;
  label?: string;
};

function legendSvg(scale: ColorScale | undefined, width: number): { svg: string; height: number } {
  if (!scale || !scale.domain?.length) return { svg: "", height: 0 };
  if (scale.type === "ordinal" || scale.type === "categorical") {
    let x = 0;
    let y = 0;
    const items = scale.domain.map((d, i) => {
      const label = esc(String(d));
      const w = 18 + label.length * 6.5 + 14;
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
    return { svg: `<g class="legend">${items.join("")}</g>`, height: y + 20 };
  }
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
 * legend. `extra` (the caller's Plot options) override the defaults; scale
 * objects (`x`, `y`, `color`, …) are merged one level deep.
 */
export function render(
  options: Plot.PlotOptions,
  text: ChartText,
  extra: Record<string, unknown> = {},
  legend = true,
): Chart {
  const merged: Record<string, unknown> = { ...options };
  for (const [k, v] of Object.entries(extra)) {
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
  if (text.title) {
    head.push(
      `<text x="0" y="${y + 16}" font-size="15" font-weight="bold" fill="currentColor">${
        esc(text.title)
      }</text>`,
    );
    y += 24;
  }
  if (text.subtitle) {
    head.push(
      `<text x="0" y="${y + 13}" font-size="12" fill="currentColor" opacity="0.75">${
        esc(text.subtitle)
      }</text>`,
    );
    y += 20;
  }
  if (legend && color && color.legend !== false) {
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
  const inner = plot.outerHTML;
  const height = y + plotHeight;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'DejaVu Sans', sans-serif" fill="currentColor">` +
    `${head.join("")}${inner}</svg>`;
  return new Chart(svg, width, height);
}
