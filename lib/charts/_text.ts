/**
 * Text width and line wrapping for the text signalbook draws itself (titles,
 * subtitles, legends): SVG has no wrapping, so a long line is cut at the
 * chart's edge unless it is broken into lines beforehand.
 *
 * Widths are DejaVu Sans's advance widths (regular and bold, read from
 * Debian's `fonts-dejavu-core` 2.37 files, rounded up to 1/100 em), the font
 * saved PNGs are drawn in (`_raster.ts`); it is one of the widest sans
 * faces, so a line that fits by this measure fits in the narrower system
 * faces a browser picks for `system-ui` too. Any character outside printable
 * ASCII counts as 1 em (the widest DejaVu glyphs in use, `—` and `…`; `≥`
 * and `−` are 0.84).
 *
 * @module
 */

// advance widths of " " to "~" in 1/100 em, two hex digits each
const REGULAR =
  "20292e5440604e1c282832542025202240404040404040404040222254545436644545464e403a4e4c1e1e4238574b4f3d4f46403e4a4563453e452822285432323e4037403e2440401c1c3a1c62403e40402a3528403c523c3c3540224054";
const BOLD =
  "232e35544665581f2e2e3554262a26254646464646464646464628285454543b644e4d4a544545535426264e406454564a564e4945524e6f4e49492e252e54323244483c48442c4848232343236948454848323c3048425d41423b48254854";
const table = (hex: string) => Uint8Array.from(hex.match(/../g)!, (h) => parseInt(h, 16));
const WIDTHS = { regular: table(REGULAR), bold: table(BOLD) };

/** Width in px of `text` at `size` px (see the module doc for the font). */
export function textWidth(text: string, size: number, bold = false): number {
  const w = bold ? WIDTHS.bold : WIDTHS.regular;
  let em = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)! - 32;
    em += c >= 0 && c < w.length ? w[c] : 100;
  }
  return (em / 100) * size;
}

/**
 * `text` broken into lines of at most `width` px at `size` px: at each
 * `\n`, and between words (a word wider than a line is broken between
 * characters). Every word is kept, in order.
 *
 * @example
 * ```ts
 * import { wrapText } from "./_text.ts";
 * wrapText("Mean excess return vs the market (%)", 160, 12);
 * // ["Mean excess return vs", "the market (%)"]
 * ```
 */
export function wrapText(text: string, width: number, size: number, bold = false): string[] {
  const fits = (s: string) => textWidth(s, size, bold) <= width;
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (let word of paragraph.split(" ").filter((w) => w !== "")) {
      if (fits(line ? `${line} ${word}` : word)) {
        line = line ? `${line} ${word}` : word;
        continue;
      }
      if (line) lines.push(line);
      line = "";
      // a word wider than the line: as many characters as fit on each line
      while (!fits(word)) {
        let cut = 1;
        while (cut < word.length && fits(word.slice(0, cut + 1))) cut++;
        lines.push(word.slice(0, cut));
        word = word.slice(cut);
      }
      line = word;
    }
    lines.push(line);
  }
  return lines;
}
