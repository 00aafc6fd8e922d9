/**
 * Titles and subtitles wrap within the chart at any width: at 320, 560 and
 * 960 px no line of the event-study, author and portfolio charts is wider
 * than the chart, by the wrapper's own measure and by resvg drawing it in
 * DejaVu Sans (the font of saved PNGs), and every word of the title and
 * subtitle is drawn, in order.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { Resvg } from "npm:@resvg/resvg-js@2.6.2";
import { type Chart, eventStudyChart, plot } from "../../mod.ts";
import { textWidth, wrapText } from "../../lib/charts/_text.ts";

/** The lines drawn above the plot: size, bold, text. */
function headLines(chart: Chart): { size: number; bold: boolean; text: string }[] {
  const head = chart.svg.slice(0, chart.svg.indexOf("<svg ", 5));
  return [
    ...head.matchAll(
      /<text x="0" y="\d+" font-size="(\d+)"( font-weight="bold")?[^>]*>(.*?)<\/text>/g,
    ),
  ]
    .map((m) => ({
      size: Number(m[1]),
      bold: !!m[2],
      text: m[3].replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
        .replaceAll("&#39;", "'").replaceAll("&amp;", "&"),
    }));
}

const FONTS = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
];
const haveFonts = FONTS.every((f) => {
  try {
    return Deno.statSync(f).isFile;
  } catch {
    return false;
  }
});

/** The width resvg draws a line in, in DejaVu Sans. */
function drawnWidth(text: string, size: number, bold: boolean): number {
  const esc = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="40" font-family="system-ui, -apple-system, 'DejaVu Sans', sans-serif"><text x="0" y="20" font-size="${size}"${
      bold ? ' font-weight="bold"' : ""
    }>${esc}</text></svg>`;
  const r = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: FONTS, sansSerifFamily: "DejaVu Sans" },
  });
  const box = r.getBBox();
  return box ? box.x + box.width : 0;
}

const words = (s: string) => s.split(/\s+/).filter((w) => w);

const study = pl.DataFrame({
  group: ["CEO buys", "All purchases", "10b5-1 plan sales by officers and directors"],
  horizon: ["3m", "3m", "3m"],
  horizon_days: [91, 91, 91],
  mean_excess: [2.1, 0.8, -1.2],
  ci_low: [0.5, 0.1, -2.5],
  ci_high: [3.7, 1.5, 0.1],
});

const charts: [string, (width: number) => Chart][] = [
  ["event study", (width) => eventStudyChart(study, { width })],
  [
    "a long title",
    (width) =>
      plot({
        width,
        title:
          "A title long enough to need two lines at 560 px: what CEO buys did after the filing, by month, with intervals",
        subtitle:
          "A subtitle with a\nline break, and then a very long unbreakable word: Supercalifragilisticexpialidocious-and-then-some-more-text-without-spaces-anywhere",
        marks: [],
      }),
  ],
];

for (const [name, make] of charts) {
  Deno.test(`wrap: ${name}: no title or subtitle line is cut at 320, 560 or 960 px`, () => {
    for (const width of [320, 560, 960]) {
      const chart = make(width);
      assert.equal(chart.width, width);
      const lines = headLines(chart);
      assert.ok(lines.length >= 2, `${name} at ${width}: ${lines.length} lines`);
      for (const l of lines) {
        const measured = textWidth(l.text, l.size, l.bold);
        assert.ok(measured <= width - 4, `${name} at ${width}: "${l.text}" measures ${measured}`);
        if (haveFonts) {
          const drawn = drawnWidth(l.text, l.size, l.bold);
          assert.ok(drawn <= width, `${name} at ${width}: "${l.text}" is drawn ${drawn} px wide`);
        }
      }
      // every word of the title and subtitle is drawn, in order (a word wider than the line
      // may be split): the same text as the chart drawn 4,000 px wide, where nothing wraps
      const joined = (c: Chart) => words(headLines(c).map((l) => l.text).join(" ")).join("");
      assert.equal(joined(chart), joined(make(4000)), `${name} at ${width}: every word drawn`);
      if (width === 320) assert.ok(lines.length > (name === "event study" ? 3 : 4), "wrapped");
    }
  });
}

Deno.test("wrap: the event study's subtitle is drawn whole at 560 px (it was cut at '…bar: 95% interval of t')", () => {
  const chart = eventStudyChart(study, { width: 560 });
  const text = headLines(chart).slice(1).map((l) => l.text).join(" ");
  assert.match(text, /bar: 95% interval of the mean/);
});

Deno.test("wrapText: breaks between words, keeps every word and line break, splits only a word wider than the line", () => {
  assert.deepEqual(wrapText("Mean excess return vs the market (%)", 160, 12), [
    "Mean excess return vs",
    "the market (%)",
  ]);
  assert.deepEqual(wrapText("one\ntwo three", 1000, 12), ["one", "two three"]);
  const long = "x".repeat(100);
  const parts = wrapText(long, 100, 12);
  assert.equal(parts.join(""), long);
  for (const p of parts) assert.ok(textWidth(p, 12) <= 100, p);
  // DejaVu Sans advance widths: "W" 0.99 em, "i" 0.28 em, bold wider
  assert.equal(textWidth("W", 100), 99);
  assert.equal(Math.round(textWidth("i", 100)), 28);
  assert.ok(textWidth("abc", 12, true) > textWidth("abc", 12));
});
