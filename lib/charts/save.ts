/**
 * `saveChart`: writes a chart as SVG, or as PNG rendered by resvg with a
 * real font (DejaVu Sans from Debian's `fonts-dejavu-core` when present,
 * else the system's fonts), dark text on white. Written atomically.
 *
 * Saved files carry the same explicit background as the notebook display: a
 * file embedded in a page (report.md, an `<img>`) inherits no text colour,
 * and with a transparent background it would be unreadable on a dark page.
 * So both the SVG and the PNG file are dark text (`#1a1a1a`) on a white
 * rectangle ({@link standaloneSvg}).
 *
 * @module
 */
import { type Chart, standaloneSvg } from "./chart.ts";
import { atomic } from "../shared/atomic.ts";
import { svgToPng } from "./_raster.ts";

/**
 * PNG bytes of a chart (2× scale for sharp text).
 *
 * @example
 * ```ts
 * import { chartPng, connect, pitchesOverTime } from "../../mod.ts";
 * const { catalog } = await connect();
 * const png = chartPng(pitchesOverTime(await catalog.pitches().frame()));
 * ```
 */
export function chartPng(chart: Chart, scale = 2): Uint8Array {
  return svgToPng(standaloneSvg(chart), scale);
}

/**
 * Saves a chart as `.svg` or `.png` (by the extension); returns the path.
 *
 * @example
 * ```ts
 * import { connect, pitchesOverTime, saveChart } from "../../mod.ts";
 * const { catalog } = await connect();
 * await saveChart(pitchesOverTime(await catalog.pitches().frame()), "out/pitches.png");
 * ```
 */
export function saveChart(chart: Chart, path: string): Promise<string> {
  const ext = path.toLowerCase().split(".").pop();
  if (ext === "svg") return atomic(path, (tmp) => Deno.writeTextFile(tmp, standaloneSvg(chart)));
  if (ext === "png") return atomic(path, (tmp) => Deno.writeFile(tmp, chartPng(chart)));
  return Promise.reject(new Error(`saveChart: ${JSON.stringify(path)} must end in .svg or .png`));
}
