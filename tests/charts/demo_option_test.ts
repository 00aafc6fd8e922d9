/**
 * A chart helper's `demo` option (`ChartText.demo`, every helper's options):
 * `demo: false` leaves out the demo line of a chart of demo data, `demo:
 * true` draws it on any data, and neither reaches Plot as an option. Without
 * it, the line follows the data (drawn for the emulator's rows).
 */
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { connect, isDemo, tradeTimeline } from "../../mod.ts";

Deno.test("a chart helper's demo option decides the demo line; without it the data does", async () => {
  const { insider } = await connect({ quiet: true });
  const trades = await insider.search({}).frame({ maxRows: 60 });
  assert.ok(isDemo(trades));
  const line = /DEMO DATA/;
  assert.match(tradeTimeline(trades).svg, line, "demo rows: the line by default");
  const hidden = tradeTimeline(trades, { demo: false });
  assert.doesNotMatch(hidden.svg, line, "demo: false leaves it out");
  // the same values copied out column by column, where the mark cannot follow: plain data
  const plain = pl.DataFrame(
    Object.fromEntries(trades.columns.map((c) => [c, [...trades.getColumn(c).toArray()]])),
  );
  assert.equal(isDemo(plain), false);
  assert.doesNotMatch(tradeTimeline(plain).svg, line, "plain rows: no line");
  const shown = tradeTimeline(plain, { demo: true });
  assert.match(shown.svg, line, "demo: true draws it");
  assert.equal(isDemo(shown), true, "and marks the chart");
});
