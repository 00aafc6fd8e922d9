import assert from "node:assert/strict";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
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
