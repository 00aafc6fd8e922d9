import assert from "node:assert/strict";
import { KeyIndex } from "../../lib/shared/field_keys.ts";

Deno.test("KeyIndex.mapFor: a row holding two spellings of one field reads the first, in found and in apply alike", () => {
  const row = { accessionNumber: "first", accession_number: "second", x: 1 };
  const m = new KeyIndex(["accession_number"]).mapFor(row);
  assert.equal(m.found.get("accession_number"), "accessionNumber");
  assert.equal(m.identity, false);
  assert.deepEqual(m.apply(row), { accession_number: "first", x: 1 });
});
