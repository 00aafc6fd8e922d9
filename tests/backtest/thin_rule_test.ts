/**
 * The thin rule at its edges (issue 50 named the `minClusters` edge twice):
 * a cell is thin below `minN` trades or below `minClusters` clusters;
 * exactly `minN` trades over exactly `minClusters` clusters is not thin.
 */
import assert from "node:assert/strict";
import { thinReason } from "../../lib/backtest/_study_cells.ts";

const cell = (n: number, clusters: number) => ({
  n,
  clusters,
  what: "months",
  se: 1,
  m: 0.5,
  sd: 3,
});

Deno.test("thin: exactly minN trades over exactly minClusters clusters is a figure", () => {
  assert.equal(thinReason(cell(20, 20), 20, 20), null);
  assert.equal(thinReason(cell(30, 12), 30, 12), null);
});

Deno.test("thin: one trade or one cluster short is thin, and says which", () => {
  assert.equal(thinReason(cell(19, 20), 20, 20), "19 trades < minN 20");
  assert.equal(thinReason(cell(20, 19), 20, 20), "19 months < minClusters 20");
  assert.equal(thinReason(cell(0, 0), 20, 20), "no trade with a return at this horizon");
});
