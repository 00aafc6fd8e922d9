/**
 * The search rows' JSON text, written field by field (`camelJsonOf`), is
 * byte for byte what `JSON.stringify` gives for the camelCase row object,
 * in both key spellings, for rows with nulls, arrays and left-out keys.
 */
import assert from "node:assert/strict";
import { createStub } from "../../lib/stub/mod.ts";
import { camelJsonOf } from "../../lib/stub/insider/insider_service.ts";
import { fieldsOf } from "../../lib/stub/insider/stored_trades.ts";
import { TRANSACTION_FIELDS, type TransactionRow } from "../../lib/insider/fields.ts";
import { searchKey } from "../../lib/stub/search_keys.ts";
import { DEFAULT_DIALECT, type Dialect } from "../../lib/stub/dialect.ts";

function viaObject(row: TransactionRow, d: Dialect): string {
  const r = row as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of TRANSACTION_FIELDS) out[searchKey(f, d)] = r[f.name];
  return JSON.stringify(out);
}

Deno.test("search rows as JSON text: the same bytes as JSON.stringify of the row object", () => {
  const stub = createStub({ seed: 3, scale: 0.1 });
  const dialects: Dialect[] = [
    DEFAULT_DIALECT,
    { ...DEFAULT_DIALECT, searchKeys: "camel-upper-digits" },
  ];
  for (const d of dialects) {
    const json = camelJsonOf(d);
    let nulls = 0;
    for (const t of stub.insider.trades) {
      const row = fieldsOf(t);
      const text = json(row);
      assert.equal(text, viaObject(row, d));
      if (text.includes(":null")) nulls++;
    }
    assert.ok(nulls > 0, "rows with nulls were compared");
    // a key whose value is undefined is left out, as JSON.stringify leaves it out
    const row = {
      ...stub.insider.trades[0].row,
      returns_1w: undefined,
    } as unknown as TransactionRow;
    assert.equal(json(row), viaObject(row, d));
    assert.ok(!json(row).includes(`"${searchKey({ name: "returns_1w", camel: "returns1w" }, d)}"`));
  }
  assert.equal(camelJsonOf()({} as TransactionRow), "{}");
});
