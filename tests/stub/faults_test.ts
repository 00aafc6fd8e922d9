import assert from "node:assert/strict";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { RATE_LIMIT_MAX_KEYS, RateLimiter } from "../../lib/stub/guard.ts";
import { auth, expectProblem, stubWith } from "./_helpers.ts";

Deno.test("--fail-rate injects 503 problems at about the given rate", async () => {
  const s = stubWith({ failRate: 0.3, scale: 0.05 });
  let fails = 0;
  for (let i = 0; i < 200; i++) {
    const res = await s.app.request("/catalog/api/v1/tags", { headers: auth(DEMO_KEYS.catalog) });
    if (res.status === 503) {
      fails++;
      await expectProblem(res, 503, "service-unavailable");
    } else {
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
  }
  assert.ok(fails > 30 && fails < 90, String(fails));
});

Deno.test("the rate limit answers 429 with Retry-After, then recovers after the window", async () => {
  let clock = 1_000_000;
  const s = stubWith({ rateLimit: { limit: 3, windowMs: 2000 }, now: () => clock, scale: 0.05 });
  const get = () =>
    s.app.request("/insider/api/v1/feeds?feed_id=1", { headers: auth(DEMO_KEYS.insider) });
  for (let i = 0; i < 3; i++) assert.equal((await get()).status, 200);
  const limited = await get();
  assert.equal(limited.headers.get("retry-after"), "2");
  await expectProblem(limited, 429, "rate-limited");
  clock += 2000;
  assert.equal((await get()).status, 200);
});

Deno.test("--latency-ms delays each answer", async () => {
  const s = stubWith({ latencyMs: 40, scale: 0.05 });
  const t0 = performance.now();
  const res = await s.app.request("/catalog/api/v1/tags", { headers: auth(DEMO_KEYS.catalog) });
  await res.body?.cancel();
  assert.ok(performance.now() - t0 >= 39);
});

Deno.test("the rate limiter checks the key first: 13k junk keys get 401 and are never tracked", async () => {
  const s = stubWith({ rateLimit: { limit: 3, windowMs: 60_000 }, scale: 0.05 });
  const get = (key: string) =>
    s.app.request("/insider/api/v1/feeds?feed_id=1", { headers: auth(key) });
  const statuses = new Map<number, number>();
  for (let i = 0; i < 13_000; i++) {
    const res = await get(`junk-${i}-${"x".repeat(200)}`);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    await res.body?.cancel();
  }
  assert.deepEqual([...statuses], [[401, 13_000]]);
  // one junk key past the limit is still an unknown key (401), not a rate-limited one
  for (let i = 0; i < 5; i++) await expectProblem(await get("junk"), 401, "unauthorized");
  assert.equal(s.rateLimiter?.size, 0);
  // the valid key still has its whole window
  for (let i = 0; i < 3; i++) assert.equal((await get(DEMO_KEYS.insider)).status, 200);
  await expectProblem(await get(DEMO_KEYS.insider), 429, "rate-limited");
  assert.equal(s.rateLimiter?.size, 1);
});

Deno.test("the rate limiter's map is bounded: least recently used keys are dropped", () => {
  let clock = 0;
  const limiter = new RateLimiter({ limit: 2, windowMs: 1000 }, () => clock, 100);
  assert.equal(limiter.hit("kept"), 0);
  assert.equal(limiter.hit("kept"), 0);
  for (let i = 0; i < 13_000; i++) {
    limiter.hit(`key-${i}`);
    if (i % 50 === 0) limiter.hit("kept"); // used recently: never the oldest
    assert.ok(limiter.size <= 100, String(limiter.size));
  }
  assert.equal(limiter.size, 100);
  // each hit made "kept" the most recent: one window counted all 262 of its hits
  assert.equal(limiter.windowOf("kept")?.count, 262);
  // "kept" stayed tracked, so its window still counts: it is over the limit
  assert.equal(limiter.hit("kept"), 1);
  clock += 1000;
  assert.equal(limiter.hit("kept"), 0);
  assert.ok(RATE_LIMIT_MAX_KEYS >= 100);
});
