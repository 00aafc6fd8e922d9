/**
 * Feed rules of the emulator that tests reading the user's cached world
 * could not see (issue 50): a served feed row's keys in the documented
 * order (`accession_number`, `transaction_id`, `filed_at`), and feed
 * membership (`feedIdsOf`: only open-market trades, code P or S, that are
 * not anomalous) checked on a world generated afresh, never read from a
 * world cache file, so a change to the generator is seen.
 */
import assert from "node:assert/strict";
import { InsiderClient } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

Deno.test("a served feed row has its keys in the documented order", async () => {
  const stub = createStub({ seed: 1, scale: 0.02, worldCache: false });
  const res = await stub.fetch("http://s/insider/api/v1/feeds?feed_id=1&feed_id=2&limit=25", {
    headers: { authorization: `Bearer ${DEMO_KEYS.insider}` },
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ["data", "next_cursor", "has_more"]);
  assert.ok(body.data.length > 0);
  for (const row of body.data) {
    assert.deepEqual(Object.keys(row), ["accession_number", "transaction_id", "filed_at"]);
  }
});

Deno.test("a freshly generated world: only open-market trades that are not anomalous are in a feed", async () => {
  const stub = createStub({ seed: 5, scale: 0.05, worldCache: false });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  const df = await insider.search({ excludeAnomalousTransactions: false }).frame({
    progress: false,
  });
  const rows = df.select("code", "is_anomalous_transaction", "feed_ids").toRecords() as {
    code: string | null;
    is_anomalous_transaction: boolean | null;
    feed_ids: number[] | null;
  }[];
  const inFeed = rows.filter((r) => (r.feed_ids ?? []).length > 0);
  assert.ok(inFeed.length > 0, "no trade is in a feed");
  // the rule is exercised: anomalous open-market trades exist, and none of them is in a feed
  const anomalousOpen = rows.filter((r) =>
    r.is_anomalous_transaction === true && (r.code === "P" || r.code === "S")
  );
  assert.ok(anomalousOpen.length > 0, "the world has no anomalous open-market trade");
  for (const r of anomalousOpen) assert.deepEqual(r.feed_ids, [], JSON.stringify(r));
  for (const r of inFeed) {
    assert.ok(r.code === "P" || r.code === "S", JSON.stringify(r));
    // buy ids are odd, sell ids even
    for (const id of r.feed_ids!) assert.equal(id % 2 === 1, r.code === "P", JSON.stringify(r));
  }
});
