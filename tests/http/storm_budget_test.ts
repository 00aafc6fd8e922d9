/**
 * A storm budget: a call group (a pull, a `hydrate`) ends a refusal storm
 * in a bounded number of calls, whatever the number of rows and whatever
 * `Retry-After` says — the client's circuit opens on repeated `429`/`503`
 * rounds, and the group's retry budget in time ends it with a typed error
 * (`type: "retry-budget"`) and its partial results. Bounds are request
 * counts and booked waits (an injected clock), never wall time.
 */
import assert from "node:assert/strict";
import { InsiderClient, partialOf, RateLimitError, ServerError } from "../../mod.ts";
import { CIRCUIT_ROUNDS } from "../../lib/http/limiter.ts";
import { callGroup, groupOf, joinGroup, RetryGroup } from "../../lib/http/retry.ts";
import { mapPool } from "../../lib/http/pool.ts";
import { lyingFeeds } from "./_lies.ts";

const feedRows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: "2024-05-01T15:00:00Z",
  }));

/** A client whose every call is refused with `status` and these headers, counting calls. */
function refusing(status: number, headers: Record<string, string>, retryBudgetMs?: number) {
  const counts = { calls: 0 };
  const insider = new InsiderClient({
    apiKey: "sk-test-storm-budget",
    baseUrl: "http://storm.test/insider",
    retryBudgetMs,
    fetch: () => {
      counts.calls++;
      return Promise.resolve(
        Response.json({ type: "busy", title: "Refused", detail: "come back later" }, {
          status,
          headers,
        }),
      );
    },
  });
  return { insider, counts };
}

Deno.test("hydrate of 24 rows at concurrency 8 under 429 with a usable Retry-After: the circuit opens after a few rounds", async () => {
  // (the storm had Retry-After: 2 and made 120 calls; 20 ms keeps the test short)
  const { insider, counts } = refusing(429, { "retry-after-ms": "20" });
  const { rows, failed } = await insider.hydrate(feedRows(24), { concurrency: 8, progress: false });
  assert.equal(rows.length, 0);
  assert.equal(failed.length, 24);
  for (const f of failed) assert.ok(f.error instanceof RateLimitError, String(f.error));
  assert.ok(failed.some((f) => (f.error as RateLimitError).type === "circuit-open"));
  // at most 8 a round (each 429 halves the limit) for 5 rounds, not 24 × 5 = 120
  console.log(`429 storm, hydrate of 24 rows at concurrency 8: ${counts.calls} calls`);
  assert.ok(counts.calls <= 8 * CIRCUIT_ROUNDS, `${counts.calls} calls`);
});

Deno.test("hydrate of 48 rows under 503: the circuit opens on 503 rounds too, a bounded number of calls", async () => {
  const { insider, counts } = refusing(503, { "retry-after-ms": "20" });
  const { rows, failed } = await insider.hydrate(feedRows(48), { concurrency: 8, progress: false });
  assert.equal(rows.length, 0);
  assert.equal(failed.length, 48);
  for (const f of failed) assert.ok(f.error instanceof ServerError, String(f.error));
  assert.ok(failed.some((f) => (f.error as ServerError).type === "circuit-open"));
  console.log(`503 storm, hydrate of 48 rows at concurrency 8: ${counts.calls} calls`);
  assert.ok(counts.calls <= 8 * CIRCUIT_ROUNDS, `${counts.calls} calls, not 48 × 5`);
});

Deno.test("a retry budget spent ends the group: Retry-After: 2 with a budget of 0 makes one round of calls", async () => {
  const { insider, counts } = refusing(429, { "retry-after": "2" }, 0);
  const { failed } = await insider.hydrateFrame(feedRows(48), { concurrency: 8, progress: false });
  assert.equal(failed.length, 48);
  assert.ok(counts.calls <= 8, `${counts.calls} calls`);
  for (const f of failed) {
    assert.ok(f.error instanceof RateLimitError, String(f.error));
    assert.equal((f.error as RateLimitError).type, "retry-budget");
    assert.match((f.error as Error).message, /retry budget of 0 s is spent/);
  }
});

Deno.test("a pull under a storm ends with a typed error and its partial rows; the budget bounds its calls", async () => {
  const honest = lyingFeeds({ days: 10, perDay: 10, pageCursor: true });
  let calls = 0;
  const insider = new InsiderClient({
    apiKey: "sk-test-storm-pull",
    baseUrl: "http://storm.test/insider",
    retryBudgetMs: 50,
    fetch: (input) => {
      calls++;
      const page = new URL(input instanceof Request ? input.url : String(input)).searchParams
        .get("cursor");
      // pages 0 and 1 answer; from page 2 on, 429 asking for 30 ms
      return Number(page ?? 0) < 2 ? honest.fetch(input) : Promise.resolve(
        new Response("{}", { status: 429, headers: { "retry-after-ms": "30" } }),
      );
    },
  });
  const e = await insider.feeds({ feedIds: [1] }).frame({ progress: false }).catch((e) => e);
  assert.ok(e instanceof RateLimitError, String(e));
  assert.equal(e.type, "retry-budget");
  const partial = partialOf<{ height: number }>(e)!;
  assert.equal(partial.rows.height, 20);
  assert.equal(partial.cursor, "2");
  // two pages, then page 2 twice: one 30 ms wait fits the 50 ms budget, a second does not
  assert.equal(calls, 4);
});

Deno.test("RetryGroup: concurrent waits are booked once; a wait past the budget is refused and books nothing", () => {
  let t = 0;
  const g = new RetryGroup(() => t);
  assert.equal(g.charge(2000, 5000), true);
  assert.equal(g.charge(2000, 5000), true); // 8 requests waiting the same 2 s cost 2 s
  assert.equal(g.spentMs, 2000);
  t = 1000;
  assert.equal(g.charge(2000, 5000), true); // overlaps 1 s: books 1 s more
  assert.equal(g.spentMs, 3000);
  t = 10_000;
  assert.equal(g.charge(3000, 5000), false);
  assert.equal(g.spentMs, 3000);
  assert.equal(g.charge(2000, 5000), true);
  assert.equal(g.spentMs, 5000);
});

Deno.test("call groups: a derived signal joins its parent's group; callGroup makes a new one; a stopped pool fails the rest without a call", async () => {
  const { signal, group } = callGroup();
  assert.equal(groupOf(signal), group);
  const child = joinGroup(AbortSignal.any([signal]), signal);
  assert.equal(groupOf(child), group);
  assert.notEqual(groupOf(callGroup(signal).signal), group);
  // a joined signal aborts with its own signal, and with its parent (and the parent's parent)
  const own = new AbortController();
  const mine = joinGroup(own.signal, signal);
  assert.equal(groupOf(mine), group);
  own.abort();
  assert.ok(mine.aborted);
  const top = new AbortController();
  const joined = joinGroup(new AbortController().signal, callGroup(top.signal).signal);
  assert.ok(!joined.aborted);
  top.abort();
  assert.ok(joined.aborted);
  let calls = 0;
  const stop = new RangeError("storm");
  const { failed } = await mapPool(
    [1, 2, 3, 4, 5],
    1,
    (n) => {
      calls++;
      if (n === 2) group.stopped = stop;
      return Promise.resolve(n);
    },
    undefined,
    () => group.stopped,
  );
  assert.equal(calls, 2);
  assert.deepEqual(failed.map((f) => [f.index, f.error]), [[2, stop], [3, stop], [4, stop]]);
});
