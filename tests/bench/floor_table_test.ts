import assert from "node:assert/strict";
import { floorRunsTable } from "../../bench/parallel_bench.ts";
import type { FloorRun } from "../../bench/parallel_floor_child.ts";

Deno.test("the floor table prints each pull's longest pause of the loop thread", () => {
  const run: FloorRun = {
    pull: "search .frame() 20k",
    parallel: 8,
    rows: 20_000,
    pages: 200,
    requests: 215,
    s: 3.3,
    loopCpuS: 1.1,
    load: 0.4,
    maxInFlight: 8,
    longestPauseMs: 73.4,
  };
  const text = floorRunsTable([run]);
  const [head, , row] = text.split("\n").filter((l) => l.startsWith("|"));
  const cells = (l: string) => l.split("|").slice(1, -1).map((c) => c.trim());
  const at = cells(head).indexOf("longest pause ms");
  assert.ok(at > 0, head);
  assert.equal(Number(cells(row)[at]), 73.4);
});
