/**
 * A parallel feeds pull splits after its first page: feeds list the newest
 * filings first, so the order is known before any row, and a first page
 * that holds a single (busy) day is split at once instead of waiting for a
 * second page of the list's own walk with one request in flight.
 */
import assert from "node:assert/strict";
import { InsiderClient, useProgressSink } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { easternDate } from "../../lib/insider/_windows.ts";

useProgressSink(null);
const stub = createStub({ seed: 1, scale: 0.5 });

Deno.test("feeds at parallel 8: the second request is already a date window, and the rows are the serial pull's", async () => {
  const urls: URL[] = [];
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: (input, init) => {
      urls.push(new URL(String(input instanceof Request ? input.url : input)));
      return stub.fetch(input, init);
    },
  });
  const FEEDS = { feedIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as 1[], limit: 2 };
  const serial = await insider.feeds(FEEDS).take(400);
  // the first page holds one day only: what made the old plan wait for a second page
  const firstDays = new Set(serial.slice(0, 2).map((r) => easternDate(r.filed_at)));
  assert.equal(firstDays.size, 1, `first page days: ${[...firstDays]}`);
  urls.length = 0;
  const parallel = await insider.feeds(FEEDS, { parallel: 8 }).take(400);
  assert.deepEqual(
    parallel.map((r) => `${r.accession_number}/${r.transaction_id}`),
    serial.map((r) => `${r.accession_number}/${r.transaction_id}`),
  );
  assert.equal(urls[0].searchParams.get("from"), null); // the list's own first page
  assert.ok(urls[1].searchParams.get("to") !== null, `second request: ${urls[1].search}`);
});
