/**
 * How a chart displays inline in a notebook: as an `<img>` of its SVG, or —
 * for a dense chart, above {@link RASTER_ABOVE} drawn marks — of a compact
 * PNG drawn at 2× (sharp on HiDPI screens), since every SVG element adds
 * about 70 bytes to the notebook (a 10,000-dot scatter: a 714 KB output). `inline: "svg" | "png"` on a chart, or
 * {@link chartInlineFormat} for the session, forces one form.
 *
 * The threshold was measured (`deno task bench`, chart raster table, KB of
 * the output): at 1,000 dots the SVG is 1.2–1.6× the PNG (75 against 64 KB
 * for uniformly scattered dots, 80 against 50 KB for demo trades); at 300
 * dots it is smaller (26 against 31 KB, 31 against 32 KB). Ordinary charts
 * (bars, lines, a few hundred dots: 40–400 elements) stay vector.
 *
 * @module
 */
import { refuse } from "../shared/options.ts";

/** How a chart displays inline: `"auto"` (PNG above {@link RASTER_ABOVE} marks), `"svg"` or `"png"`. */
export type InlineFormat = "auto" | "svg" | "png";

/** The allowed {@link InlineFormat} values. */
export const INLINE_FORMATS: readonly InlineFormat[] = ["auto", "svg", "png"];

/** Above this many drawn SVG elements a chart displays as PNG under `"auto"`. */
export const RASTER_ABOVE = 1000;

let session: InlineFormat = "auto";

/** Checks an {@link InlineFormat} value; throws naming it, the allowed values and a close match. */
export function checkInlineFormat(where: string, value: unknown): InlineFormat {
  return (INLINE_FORMATS as readonly unknown[]).includes(value)
    ? value as InlineFormat
    : refuse(where, "inline", value, INLINE_FORMATS);
}

/**
 * Sets how every chart without its own `inline` option displays in a
 * notebook from now on — `"auto"` (the default: PNG above
 * {@link RASTER_ABOVE} drawn marks, SVG below), `"svg"` or `"png"` — and
 * returns the previous setting. Saved files (`saveChart`) are not affected.
 *
 * @example
 * ```ts
 * import { chartInlineFormat } from "../../mod.ts";
 * const before = chartInlineFormat("svg"); // vector everywhere, whatever the size
 * chartInlineFormat(before);
 * ```
 */
export function chartInlineFormat(format: InlineFormat): InlineFormat {
  const checked = checkInlineFormat("chartInlineFormat", format);
  const before = session;
  session = checked;
  return before;
}

/** How many drawing elements an SVG holds (dots, paths, rects, lines, text…). */
export function markCount(svg: string): number {
  return (svg.match(/<(?:circle|ellipse|path|rect|line|polyline|polygon|text|image|use)\b/g) ?? [])
    .length;
}

/** The form a chart displays in: its own choice, else the session's; `"auto"` decided by marks. */
export function resolveInline(own: InlineFormat | undefined, svg: string): "svg" | "png" {
  const format = own && own !== "auto" ? own : session;
  if (format !== "auto") return format;
  return markCount(svg) > RASTER_ABOVE ? "png" : "svg";
}
