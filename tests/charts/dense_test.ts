/**
 * Dense charts stay small: above RASTER_ABOVE drawn marks a chart displays
 * inline as a compact PNG drawn at 2× (sharp on HiDPI screens), legible by
 * pixels; `inline: "svg" | "png"` per chart and `chartInlineFormat` for the
 * session force one form; saved files are unchanged.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as Plot from "npm:@observablehq/plot@0.6.17";
import pl from "npm:nodejs-polars@0.25.2";
import { PNG } from "pngjs";
import {
  type Chart,
  chartInlineFormat,
  connect,
  eventStudy,
  eventStudyChart,
  markCount,
  plot,
  RASTER_ABOVE,
  saveChart,
  tradeTimeline,
} from "../../mod.ts";
import { displayBundle } from "../_util.ts";
import { contrast, luminance, textContrast } from "../notebooks/_chromium.ts";

const bundle = displayBundle;

const { insider } = await connect({ quiet: true });
const trades = (await insider.search({}).frame({ maxRows: 14_000, progress: false }))
  .filter(pl.col("excess_returns_3m").isNotNull().and(pl.col("transaction_value").gt(0)))
  .head(10_000);

const made = new Map<string, Chart>();

/** A 10,000-dot scatter of demo trades: value against 3-month excess return, by side (made once per form). */
function scatter(inline?: "auto" | "svg" | "png"): Chart {
  const key = inline ?? "";
  if (!made.has(key)) made.set(key, draw(inline));
  return made.get(key)!;
}

function draw(inline?: "auto" | "svg" | "png"): Chart {
  return plot({
    title: "10,000 trades: value vs 3-month excess return",
    subtitle: "one dot per trade",
    x: { type: "log", label: "Value (USD)" },
    y: { label: "Excess return after 3 months (%)", grid: true },
    color: { legend: true, label: "Side" },
    marks: [
      Plot.dot(trades, {
        x: "transaction_value",
        y: "excess_returns_3m",
        stroke: "acquired_disposed_code",
      }),
    ],
    ...(inline ? { inline } : {}),
  });
}

function decode(html: string) {
  const m = /src="data:image\/png;base64,([^"]+)"/.exec(html);
  assert.ok(m, "a PNG data URL");
  const png = PNG.sync.read(Buffer.from(m[1], "base64"));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
}

function crop(
  px: { width: number; height: number; data: Uint8Array },
  x: number,
  y: number,
  w: number,
  h: number,
) {
  const data = new Uint8Array(w * h * 4);
  for (let r = 0; r < h; r++) {
    data.set(
      px.data.subarray(((y + r) * px.width + x) * 4, ((y + r) * px.width + x + w) * 4),
      r * w * 4,
    );
  }
  return { width: w, height: h, data };
}

Deno.test("a 10,000-dot scatter displays as a 2× PNG under 60 KB, legible by pixels", () => {
  assert.equal(trades.height, 10_000);
  const chart = scatter();
  assert.ok(markCount(chart.svg) > RASTER_ABOVE);
  const b = bundle(chart);
  const html = b["text/html"];
  assert.match(
    html,
    /^<img class="sb-chart" width="640" height="\d+" style="max-width:100%;height:auto" alt="10,000 trades/,
  );
  assert.match(b["text/plain"], /^Chart 640×\d+ \(PNG, 10,\d{3} marks\): 10,000 trades/);
  const kb = html.length / 1024;
  console.log(
    `10,000-dot scatter inline: ${kb.toFixed(0)} KB as PNG, ${
      (bundle(scatter("svg"))["text/html"].length / 1024).toFixed(0)
    } KB as SVG`,
  );
  assert.ok(kb < 60, `${kb.toFixed(0)} KB`);
  const px = decode(html);
  assert.equal(px.width, 2 * chart.width, "drawn at 2×: sharp on a HiDPI screen");
  assert.equal(px.height, 2 * chart.height);
  // the title band: dark text on white at a WCAG contrast of at least 4.5:1
  const title = textContrast(crop(px, 0, 0, px.width, 48));
  assert.ok(title.ratio >= 4.5 && title.ink > 0.01, JSON.stringify(title));
  // the axis band at the bottom holds tick labels
  const axis = textContrast(crop(px, 0, px.height - 56, px.width, 56));
  assert.ok(axis.ratio >= 4.5 && axis.ink > 0.005, JSON.stringify(axis));
  // the plot area shows both sides' colours (Okabe–Ito blue and vermillion) as dots, not a smear
  const plotArea = crop(px, 120, 400, px.width - 160, px.height - 500);
  let blue = 0, orange = 0, white = 0;
  for (let i = 0; i < plotArea.data.length; i += 4) {
    const [r, g, bl] = [plotArea.data[i], plotArea.data[i + 1], plotArea.data[i + 2]];
    if (Math.abs(r - 0x00) < 40 && Math.abs(g - 0x72) < 40 && Math.abs(bl - 0xb2) < 40) blue++;
    if (Math.abs(r - 0xd5) < 40 && Math.abs(g - 0x5e) < 40 && Math.abs(bl - 0x00) < 40) orange++;
    if (r > 245 && g > 245 && bl > 245) white++;
  }
  const n = plotArea.data.length / 4;
  assert.ok(blue / n > 0.01 && orange / n > 0.01, `blue ${blue / n}, orange ${orange / n}`);
  assert.ok(white / n > 0.2, `white between the dots: ${white / n}`);
  // each dot colour stands out from the white card
  assert.ok(contrast(luminance(0, 0x72, 0xb2), 1) >= 3);
});

Deno.test("ordinary charts stay SVG; inline forces a form per chart and for the session", () => {
  const study = eventStudyChart(eventStudy(trades, { horizons: ["1m", "3m"] }));
  assert.ok(markCount(study.svg) < RASTER_ABOVE);
  assert.match(bundle(study)["text/html"], /src="data:image\/svg\+xml;base64,/);
  // per chart
  assert.match(bundle(scatter("svg"))["text/html"], /src="data:image\/svg\+xml;base64,/);
  const forced = eventStudyChart(eventStudy(trades, { horizons: ["1m"] }), { inline: "png" });
  assert.equal(forced.inline, "png");
  assert.match(bundle(forced)["text/html"], /src="data:image\/png;base64,/);
  assert.match(
    bundle(tradeTimeline(trades.head(200), { inline: "png" }))["text/html"],
    /image\/png/,
  );
  // session: a chart's own choice wins over it
  const before = chartInlineFormat("png");
  try {
    assert.equal(before, "auto");
    assert.match(bundle(study)["text/html"], /src="data:image\/png;base64,/);
    assert.match(bundle(scatter("svg"))["text/html"], /image\/svg\+xml/);
    chartInlineFormat("svg");
    assert.match(bundle(scatter())["text/html"], /image\/svg\+xml/);
  } finally {
    chartInlineFormat(before);
  }
  assert.match(bundle(scatter())["text/html"], /image\/png/);
});

Deno.test("inline: a bad value names it, the allowed values and a close match", () => {
  assert.throws(
    () => chartInlineFormat("PNG" as never),
    /chartInlineFormat: inline "PNG" is not allowed; allowed: auto, svg, png \(did you mean "png"\?\)/,
  );
  assert.throws(
    () => eventStudyChart(eventStudy(trades, { horizons: ["1m"] }), { inline: "raster" as never }),
    /inline "raster" is not allowed; allowed: auto, svg, png/,
  );
  assert.throws(
    () => plot({ marks: [Plot.dot([1, 2], { x: (d: number) => d })], inline: "jpg" as never }),
    /inline "jpg" is not allowed/,
  );
});

Deno.test("saved files are unaffected: saveChart still writes the full SVG and an anti-aliased PNG", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const chart = scatter();
    const svg = await Deno.readTextFile(await saveChart(chart, `${dir}/s.svg`));
    assert.ok(markCount(svg) > 10_000);
    const png = PNG.sync.read(
      Buffer.from(await Deno.readFile(await saveChart(chart, `${dir}/s.png`))),
    );
    assert.equal(png.width, 2 * chart.width);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
