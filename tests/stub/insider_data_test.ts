/**
 * 10b5-1 plans in the generated insider data: informed trades are never
 * under a plan; about a third of the other sales and a few of the other
 * purchases are, and no other code.
 */
import assert from "node:assert/strict";
import { small } from "./_helpers.ts";

Deno.test("insider data: 10b5-1 plans by code; informed trades never under one", () => {
  const count = new Map<string, [number, number]>();
  for (const t of small().insider.trades) {
    const r = t.row;
    if (t.signal !== 0) {
      assert.equal(r.is_10b51, false, `${r.accession_number}: informed`);
      continue;
    }
    const [n, plan] = count.get(r.code!) ?? [0, 0];
    count.set(r.code!, [n + 1, plan + (r.is_10b51 ? 1 : 0)]);
  }
  const share = (code: string) => {
    const [n, plan] = count.get(code)!;
    return plan / n;
  };
  assert.ok(share("S") > 0.28 && share("S") < 0.42, `sales ${share("S")}`);
  assert.ok(share("P") > 0.005 && share("P") < 0.05, `purchases ${share("P")}`);
  for (const code of ["A", "M", "F", "G"]) assert.equal(share(code), 0, code);
});
