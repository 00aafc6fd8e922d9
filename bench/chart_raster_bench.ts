/**
 * Chart raster benchmark (issue 33): how many bytes a chart adds to a
 * notebook inline, as the SVG `<img>` and as the compact 2× PNG, by drawn
 * marks — the measurement behind `RASTER_ABOVE` (1,000 marks). Two kinds of
 * data: uniformly scattered dots (the worst case for PNG: noise does not
 * compress) and demo trades (value vs 3-month excess return, the scatter a
 * quant draws). Sizes are of the `text/html` output, base64 included.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import pl from "npm:nodejs-polars@0.25.2";
import { chartPng, connect, markCount, plot, RASTER_ABOVE } from "../mod.ts";
import { table } from "./loopback.ts";

const JUPYTER = Symbol.for("Jupyter.display");
const kb = (chart: unknown) =>
  (chart as Record<symbol, () => Record<string, string>>)[JUPYTER]()["text/html"].length / 1024;

function uniform(n: number): Record<string, unknown>[] {
  let seed = 7;
  const r = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, () => ({ x: r() * 100, y: r() * 50, g: r() < 0.5 ? "a" : "b" }));
}

/** Runs the chart raster benchmark and returns the printed table. */
export async function chartRasterBench(): Promise<string> {
  const { insider } = await connect({ quiet: true });
  const trades = (await insider.search({}).frame({ maxRows: 14_000, progress: false }))
    .filter(pl.col("excess_returns_3m").isNotNull().and(pl.col("transaction_value").gt(0)));
  const rows: (string | number)[][] = [];
  for (const n of [100, 300, 1000, 3000, 10_000]) {
    const specs = [
      ["uniform dots", { x: "x", y: "y", stroke: "g" }, uniform(n)],
      ["demo trades", {
        x: "transaction_value",
        y: "excess_returns_3m",
        stroke: "acquired_disposed_code",
      }, trades.head(n)],
    ] as const;
    for (const [kind, channels, data] of specs) {
      const make = (inline: "svg" | "png") =>
        plot({
          title: `${n} dots`,
          subtitle: kind,
          ...(kind === "demo trades" ? { x: { type: "log" } } : {}),
          color: { legend: true },
          marks: [Plot.dot(data as never, channels as never)],
          inline,
        });
      const svg = make("svg");
      const png = make("png");
      const [s, p] = [kb(svg), kb(png)];
      // the anti-aliased full-colour PNG saveChart writes, base64 as inline
      const aa = (chartPng(svg).length * 4) / 3 / 1024;
      rows.push([kind, n, markCount(svg.svg), s, p, s / p, aa]);
    }
  }
  return table(
    `inline chart bytes in a notebook by drawn marks (KB of text/html; PNG at 2×, indexed); RASTER_ABOVE = ${RASTER_ABOVE}`,
    ["data", "dots", "marks", "SVG KB", "PNG KB", "SVG / PNG", "anti-aliased PNG KB"],
    rows,
  );
}

if (import.meta.main) console.log(await chartRasterBench());
