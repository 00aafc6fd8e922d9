/**
 * SVG snapshot tests of charts against `tests/fixtures/charts/<name>.svg`,
 * shared by the chart and backtest-chart tests: Plot's random class names
 * and float noise are normalised away (one decimal), one element a line so
 * a diff reads. `UPDATE_SNAPSHOTS=1` rewrites the fixtures.
 */
import assert from "node:assert/strict";
import type { Chart } from "../../mod.ts";

/** The SVG as compared: class names fixed, numbers to one decimal, one element a line. */
export function normalize(svg: string): string {
  return svg
    .replace(/plot-[0-9a-f]{6}/g, "plot-x")
    .replace(/-?\d+\.\d+/g, (m) => (Math.round(Number(m) * 10) / 10).toFixed(1))
    .replace(/></g, ">\n<");
}

/** One `snapshot: <name>` test per case, comparing the chart with its fixture. */
export function snapshotTests(cases: readonly [string, () => Chart][]): void {
  for (const [name, make] of cases) {
    Deno.test(`snapshot: ${name}`, async () => {
      const svg = normalize(make().svg);
      const file = new URL(`../fixtures/charts/${name}.svg`, import.meta.url);
      if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") await Deno.writeTextFile(file, svg);
      const want = await Deno.readTextFile(file);
      assert.equal(svg, want, `${name} differs from its snapshot (UPDATE_SNAPSHOTS=1 to accept)`);
    });
  }
}
