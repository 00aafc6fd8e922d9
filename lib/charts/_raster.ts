/**
 * SVG to PNG with resvg and a real font (DejaVu Sans from Debian's
 * `fonts-dejavu-core` when present, else the system's fonts), dark text on
 * white: for saved files (anti-aliased, full colour) and for the compact
 * PNG a dense chart displays inline (see {@link compactPng}).
 *
 * @module
 */
import defer * as resvgLib from "npm:@resvg/resvg-js@2.6.2";
import defer * as upngLib from "npm:upng-js@2.1.0";
import { existsSync } from "node:fs";

const FONT_FILES = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
];

function resvg(svg: string, scale: number, crisp: boolean): resvgLib.Resvg {
  // the font files present (none: the system's fonts)
  const files = FONT_FILES.filter((f) => existsSync(f));
  return new resvgLib.Resvg(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: scale },
    // 0: optimizeSpeed (shapes without anti-aliasing), 2: geometricPrecision
    shapeRendering: crisp ? 0 : 2,
    font: {
      loadSystemFonts: files.length === 0,
      fontFiles: files,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  });
}

/** A full-colour, anti-aliased PNG of an SVG at `scale` (for files). */
export function svgToPng(svg: string, scale = 2): Uint8Array {
  return resvg(svg, scale, false).render().asPng();
}

/**
 * The PNG a dense chart displays inline: drawn at `scale` (2: sharp on a
 * HiDPI screen, shown at 1× size), shapes without anti-aliasing (text keeps
 * it) and written as an indexed PNG — exact when the image has at most 256
 * colours (a chart drawn this way has about 60), else quantized to 256.
 * Anti-aliased edges give every overlap of thousands of dots its own shade,
 * which PNG cannot compress (the bench's "anti-aliased PNG" column: several
 * times the compact PNG for dense scatters); the browser's downscaling of the
 * 2× image smooths the edges again on a 1× screen.
 */
export function compactPng(svg: string, scale = 2): Uint8Array {
  const img = resvg(svg, scale, true).render();
  const px = img.pixels;
  const rgba = px.buffer.slice(px.byteOffset, px.byteOffset + px.byteLength) as ArrayBuffer;
  return new Uint8Array(upngLib.default.encode([rgba], img.width, img.height, 256));
}
