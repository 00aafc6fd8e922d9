/**
 * Memory bound under hostile answers (issue 31, Deliver 5): 8 answers in
 * flight that never end hold at most one body of `maxResponseBytes` plus
 * 1 MiB for each other one (`LargeBodyGate`), counted as the bytes pulled
 * from streams not yet ended; every row fails with `ResponseTooLargeError`.
 */
import assert from "node:assert/strict";
import { InsiderClient, ResponseTooLargeError } from "../../mod.ts";
import { LARGE_BODY_BYTES } from "../../lib/http/_body.ts";

Deno.test("8 endless bodies at hydration concurrency 8 hold at most one full body plus 1 MiB each", async () => {
  const CHUNK = 64 * 1024;
  const live = new Map<number, number>(); // stream → bytes pulled, while it runs
  let most = 0;
  let next = 0;
  const fetch = () => {
    const id = next++;
    live.set(id, 0);
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        live.set(id, live.get(id)! + CHUNK);
        let sum = 0;
        for (const v of live.values()) sum += v;
        most = Math.max(most, sum);
        c.enqueue(new Uint8Array(CHUNK));
      },
      cancel() {
        live.delete(id);
      },
    }, { highWaterMark: 0 });
    return Promise.resolve(
      new Response(stream, { headers: { "content-type": "application/json" } }),
    );
  };
  const limit = 4 << 20;
  const insider = new InsiderClient({
    apiKey: "sk-test-gate",
    baseUrl: "http://x.test/insider",
    fetch,
    maxResponseBytes: limit,
  });
  const rows = Array.from({ length: 16 }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: "2024-05-01T15:00:00Z",
  }));
  const { failed } = await insider.hydrate(rows, { concurrency: 8 });
  assert.equal(failed.length, 16);
  for (const f of failed) assert.ok(f.error instanceof ResponseTooLargeError, String(f.error));
  // one large body read at a time: the others wait holding at most LARGE_BODY_BYTES each
  const bound = (limit + 2 * CHUNK) + 7 * (LARGE_BODY_BYTES + 2 * CHUNK);
  assert.ok(most <= bound, `${most} bytes held at once; bound ${bound}`);
  assert.ok(most < 8 * limit / 2, "well under 8 full bodies");
});
