/**
 * `plot(options)`: any Observable Plot spec, marks included, as a signalbook
 * {@link Chart} — inline in a notebook, saved with `saveChart` as SVG or PNG,
 * with the helpers' theme (Okabe–Ito colours for categories, dark text on a
 * white card, title and subtitle above the plot, an SVG colour legend whose
 * label is its title; a Boolean channel's values are named "label" / "not
 * label").
 *
 * `Plot.plot(...)` on its own needs a browser `document`; `plot` supplies
 * the one the chart helpers use. A nodejs-polars DataFrame can be given
 * wherever a mark takes data: its rows are used.
 *
 * @module
 */
import { isDemo } from "../shared/demo.ts";
import type * as Plot from "npm:@observablehq/plot@0.6.17";
import { didYouMean } from "../shared/suggest.ts";
import { isFrame } from "../shared/wrong_input.ts";
import defer * as PlotLib from "npm:@observablehq/plot@0.6.17";
import { type Chart, PALETTE, plotDocument, type PlotElement, render } from "./chart.ts";
import type { InlineFormat } from "./inline.ts";

/** Options of {@link plot}: any Observable Plot option, plus a title and subtitle. */
export type PlotSpec = Omit<Plot.PlotOptions, "title" | "subtitle" | "caption" | "document"> & {
  /** Title above the chart. */
  title?: string;
  /** Subtitle (units, data source). */
  subtitle?: string;
  /** A note added to the subtitle. */
  caption?: string;
  /** How it displays inline: `"auto"` (PNG above 1,000 drawn marks), `"svg"` or `"png"`. */
  inline?: InlineFormat;
};

/** Channels whose string value always names a field (never a constant). */
const FIELD_CHANNELS = ["x", "y", "x1", "x2", "y1", "y2", "r", "z", "fx", "fy", "text", "title"];

/**
 * Marks whose data is a DataFrame get its rows instead (Plot would read its
 * columns). Returns whether any mark's data is demo data (the chart then
 * says "offline emulator"). A field channel naming a column the frame lacks is an error with
 * close matches: Plot itself would silently draw nothing.
 */
function framesToRows(marks: Plot.PlotOptions["marks"]): boolean {
  let demo = false;
  for (const mark of (marks ?? []).flat(Infinity as 1)) {
    const m = mark as { data?: unknown; channels?: Record<string, { value?: unknown }> } | null;
    if (!m || typeof m !== "object") continue;
    if (isDemo(m.data)) demo = true;
    if (!isFrame(m.data)) continue;
    const columns = (m.data as unknown as { columns: string[] }).columns;
    for (const [name, ch] of Object.entries(m.channels ?? {})) {
      const field = ch?.value;
      if (!FIELD_CHANNELS.includes(name) || typeof field !== "string") continue;
      if (!columns.includes(field)) {
        throw new RangeError(
          `plot: channel ${name} names column ${JSON.stringify(field)}, which the frame lacks${
            didYouMean(field, columns)
          }`,
        );
      }
    }
    m.data = m.data.toRecords();
  }
  return demo;
}

/**
 * Renders any Observable Plot spec as a chart with the signalbook theme:
 * inline in a notebook, `saveChart(chart, "x.svg" | "x.png")`, `chart.svg`.
 * Categorical colour scales use the Okabe–Ito palette unless you give a
 * `range` or `scheme`; `color: { legend: true }` draws the legend.
 *
 * @example
 * ```ts
 * import * as Plot from "npm:@observablehq/plot@0.6.17";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, plot, saveChart } from "../../mod.ts";
 *
 * const { insider } = await connect();
 * const trades = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 1500 });
 * // open-market purchases (code P); the newest have no 3-month return yet: keep the realized ones
 * const buys = trades.filter(
 *   pl.col("code").eq(pl.lit("P")).and(pl.col("excess_returns_3m").isNotNull()),
 * );
 * const chart = plot({
 *   title: "Open-market purchases: value vs 3-month excess return",
 *   subtitle: "one dot per trade; the line is a least-squares fit",
 *   x: { type: "log", label: "Value (USD)" },
 *   y: { label: "Excess return after 3 months (%)", grid: true },
 *   color: { legend: true, label: "CEO" }, // is_ceo is Boolean: the legend reads "not CEO", "CEO"
 *   marks: [
 *     Plot.dot(buys, { x: "transaction_value", y: "excess_returns_3m", stroke: "is_ceo" }),
 *     Plot.ruleY([0]), // a custom mark: the zero line
 *     Plot.linearRegressionY(buys, { x: "transaction_value", y: "excess_returns_3m" }),
 *   ],
 * });
 * const dir = await Deno.makeTempDir();
 * await saveChart(chart, `${dir}/purchases.png`);
 * ```
 */
export function plot(options: PlotSpec): Chart {
  const { title, subtitle, caption, inline, ...spec } = options;
  const demo = framesToRows(spec.marks);
  const text = {
    demo,
    title,
    subtitle: [subtitle, caption].filter((s) => s).join(" — ") || undefined,
    inline,
  };
  const color = spec.color as Record<string, unknown> | undefined;
  const chosen = color && ("range" in color || "scheme" in color || "interpolate" in color);
  const type = chosen ? undefined : colorType(spec as Plot.PlotOptions);
  const themed = type === "ordinal" || type === "categorical"
    ? { ...spec, color: { ...color, range: PALETTE } }
    : spec;
  return render(themed as Plot.PlotOptions, text);
}

/** The type of colour scale Plot would make for these options (a dry run). */
function colorType(spec: Plot.PlotOptions): string | undefined {
  if (!spec.color && !(spec.marks ?? []).length) return undefined;
  // Plot's warnings about the spec come once, from the real render, not from this dry run too
  const warn = console.warn;
  console.warn = () => {};
  try {
    const el = PlotLib.plot({ ...spec, document: plotDocument() }) as unknown as PlotElement;
    return el.scale("color")?.type;
  } finally {
    console.warn = warn;
  }
}
