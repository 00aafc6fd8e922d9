import assert from "node:assert/strict";
import { stub } from "./_helpers.ts";
import { TRANSACTION_FIELDS } from "../../lib/insider/fields.ts";

// what the insider description says of each field, by its value type: a client generated from
// the description reads an integer column as integers, not as any number
const WANT: Record<string, unknown> = {
  date: { type: ["string", "null"] },
  timestamp: { type: ["string", "null"] },
  code: { type: ["string", "null"] },
  decimal: { type: ["number", "null"] },
  integer: { type: ["integer", "null"] },
  boolean: { type: ["boolean", "null"] },
  list: { type: "array", items: { type: "integer" } },
  text_list: { type: "array", items: { type: "string" } },
};

Deno.test("insider OpenAPI: every transaction field is described by its value type (integers as integer)", async () => {
  const doc = await (await stub().app.request("/insider/api/v1/openapi.json")).json();
  const { Transaction, SearchRow } = doc.components.schemas;
  for (const f of TRANSACTION_FIELDS) {
    assert.deepEqual(Transaction.properties[f.name], WANT[f.type], `Transaction.${f.name}`);
  }
  // a search row holds the same fields under their search keys: the same types, as many of each
  const count = (props: Record<string, unknown>) =>
    Object.values(props).map((v) => JSON.stringify(v)).sort();
  assert.deepEqual(count(SearchRow.properties), count(Transaction.properties));
  assert.ok(TRANSACTION_FIELDS.some((f) => f.type === "integer"));
});
