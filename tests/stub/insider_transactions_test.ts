import assert from "node:assert/strict";
import { TRANSACTION_FIELD_NAMES } from "../../lib/insider/fields.ts";
import { expectProblem, ins, ok, small } from "./_helpers.ts";

const key = () => {
  const t = small().insider.trades[3].row;
  return `${t.accession_number}/${t.transaction_id}`;
};

Deno.test("transaction detail: the full default set, every key present, feed_ids an int array", async () => {
  const row = await ok(await ins(`/transactions/${key()}`));
  assert.deepEqual(Object.keys(row).sort(), [...TRANSACTION_FIELD_NAMES].sort());
  assert.ok(Array.isArray(row.feed_ids));
  assert.ok((row.feed_ids as unknown[]).every((x) => Number.isInteger(x)));
  assert.equal(TRANSACTION_FIELD_NAMES.length, 174);
});

Deno.test("fields= selects columns in catalog order and always includes feed_ids", async () => {
  const row = await ok(
    await ins(`/transactions/${key()}?fields=transaction_value,filed_at,win_rate_1y_pct`),
  );
  assert.deepEqual(Object.keys(row), [
    "filed_at",
    "transaction_value",
    "win_rate_1y_pct",
    "feed_ids",
  ]);
  const spaced = await ok(
    await ins(`/transactions/${key()}?fields=${encodeURIComponent(" code , issuer_cik ")}`),
  );
  assert.deepEqual(Object.keys(spaced), ["code", "issuer_cik", "feed_ids"]);
});

Deno.test("unknown fields are 400 naming them; unknown transactions 404", async () => {
  const d = await expectProblem(
    await ins(`/transactions/${key()}?fields=code,colour,win_rate_9y_pct`),
    400,
  );
  assert.ok(d.includes('"colour"') && d.includes('"win_rate_9y_pct"'), d);
  await expectProblem(await ins(`/transactions/0000000000-00-000000/1`), 404, "not-found");
  const acc = small().insider.trades[3].row.accession_number;
  await expectProblem(await ins(`/transactions/${acc}/99`), 404);
  await expectProblem(await ins(`/transactions/${acc}/abc`), 404);
  await expectProblem(await ins(`/transactions/${acc}/${"9".repeat(40)}`), 404);
});
