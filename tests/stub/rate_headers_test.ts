/**
 * The emulator's rate-limit-headers dialect (issue 31, Deliver 5): its
 * per-key windows are counted after authentication (an unknown key gets a
 * 401 with no rate-limit headers and takes no room) and in a map bounded
 * like the limiter's (least recently used keys dropped).
 */
import assert from "node:assert/strict";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { RateLimiter } from "../../lib/stub/guard.ts";

Deno.test("rate-limit headers: unknown keys are refused before they are counted; known keys get their window", async () => {
  const stub = createStub({ seed: 3, scale: 0.05, dialect: "rate-limit-headers" });
  const before = Deno.memoryUsage().heapUsed;
  for (let i = 0; i < 3000; i++) {
    const res = await stub.fetch("http://s/catalog/api/v1/tags", {
      headers: { authorization: `Bearer junk-${i}-${"x".repeat(200)}` },
    });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("x-ratelimit-limit"), null);
    await res.body?.cancel();
  }
  const growth = Deno.memoryUsage().heapUsed - before;
  const ok = await stub.fetch("http://s/catalog/api/v1/tags", {
    headers: { authorization: `Bearer ${DEMO_KEYS.catalog}` },
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("x-ratelimit-remaining"), "599");
  await ok.body?.cancel();
  // (a count of requests, not a time: 3000 junk keys hold nothing that grows with them)
  assert.ok(growth < 64 << 20, `${growth} bytes`);
});

Deno.test("the window map is bounded: least recently used keys are dropped", () => {
  const r = new RateLimiter({ limit: 5, windowMs: 1000 }, () => 0, 10);
  for (let i = 0; i < 100; i++) r.hit(`k${i}`);
  assert.equal(r.size, 10);
  assert.equal(r.windowOf("k0"), undefined);
  assert.deepEqual(r.windowOf("k99"), { start: 0, count: 1 });
});
