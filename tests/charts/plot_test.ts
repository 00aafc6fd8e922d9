/** `plot(options)`: any Observable Plot spec, themed, inline and saved. */
import assert from "node:assert/strict";
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import { Chart, PALETTE, plot, saveChart, transactionsFrame } from "../../mod.ts";
import { displayBundle } from "../_util.ts";
import { createStub } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const trades = transactionsFrame(stub.insider.trades.slice(0, 300).map((t) => t.row));

Deno.test("plot: a custom spec over a frame renders inline with the theme", () => {
  const buys = trades.filter(pl.col("transaction_value").gt(0));
  const chart = plot({
    title: "Value vs 3-month excess",
    subtitle: "percent",
    x: { type: "log" },
    color: { legend: true },
    marks: [
      Plot.dot(buys, { x: "transaction_value", y: "excess_returns_3m", stroke: "is_ceo" }),
      Plot.ruleY([0]),
    ],
  });
  assert.ok(chart instanceof Chart);
  const bundle = displayBundle(chart);
  const svg = bundle["image/svg+xml"] ?? bundle["text/html"];
  assert.ok(svg, `bundle keys ${Object.keys(bundle)}`);
  assert.match(chart.svg, /Value vs 3-month excess/);
  assert.match(chart.svg, /<circle/);
  assert.match(chart.svg, /<line/); // the custom rule mark
  // categorical colours use the Okabe–Ito palette
  assert.ok(chart.svg.includes(PALETTE[0]) || chart.svg.includes(PALETTE[1]), "palette used");
});

Deno.test("plot: a swatch legend carries its label as a title; Boolean values get names", () => {
  const rows = [{ x: 1, y: 2, ceo: true }, { x: 2, y: 1, ceo: false }];
  const labelled = plot({
    color: { legend: true, label: "CEO" },
    marks: [Plot.dot(rows, { x: "x", y: "y", stroke: "ceo" })],
  });
  const legend = /<g class="legend">(.*?)<\/g><\/g>/.exec(labelled.svg)?.[1] ?? "";
  const texts = [...legend.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(texts, ["CEO", "not CEO", "CEO"]);
  const unlabelled = plot({
    color: { legend: true },
    marks: [Plot.dot(rows, { x: "x", y: "y", stroke: "ceo" })],
  });
  assert.doesNotMatch(unlabelled.svg, />(true|false)</, "no bare true/false in the legend");
  const sides = plot({
    color: { legend: true, label: "Side" },
    marks: [Plot.dot([{ x: 1, s: "A" }, { x: 2, s: "D" }], { x: "x", stroke: "s" })],
  });
  assert.match(sides.svg, /font-weight="600"[^>]*>Side</);
});

Deno.test("plot: a chosen scheme is kept; continuous colour is not forced to the palette", () => {
  const chart = plot({
    marks: [Plot.cell([{ x: "a", v: 1 }, { x: "b", v: 2 }], { x: "x", fill: "v" })],
    color: { scheme: "blues" },
  });
  assert.ok(!chart.svg.includes(PALETTE[1]));
});

Deno.test("plot: saveChart writes SVG and PNG; Plot.plot's missing document is supplied", async () => {
  const dir = await Deno.makeTempDir();
  const chart = plot({ marks: [Plot.barY([3, 1, 2])], title: "bars" });
  await saveChart(chart, `${dir}/bars.svg`);
  await saveChart(chart, `${dir}/bars.png`);
  assert.match(await Deno.readTextFile(`${dir}/bars.svg`), /^<svg|^<\?xml/);
  const png = await Deno.readFile(`${dir}/bars.png`);
  assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("plot: a channel naming a missing column is an error with close matches", () => {
  assert.throws(
    () => plot({ marks: [Plot.dot(trades, { x: "transaction_value", y: "returns_3m_excess" })] }),
    (e: Error) =>
      e.message.includes(`"returns_3m_excess"`) && e.message.includes(`"excess_returns_3m"`) &&
      e.message.length < 600,
  );
});

Deno.test("plot: a warning Plot raises about the spec reaches the user once, not twice", () => {
  const data = Array.from({ length: 200 }, (_, i) => ({ x: i, y: Math.sin(i), c: i * 1.37 }));
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    plot({ marks: [Plot.line(data, { x: "x", y: "y", stroke: "c" })] });
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /high cardinality/);
});
