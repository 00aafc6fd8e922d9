/**
 * Storms and silent servers in bounded time (issue 31, Deliver 4): a 429
 * storm without a usable Retry-After trips the client's circuit, so queued
 * requests fail as `RateLimitError` and a pool returns what it has, after a
 * bounded number of requests (not 5 attempts per row in turn); a server
 * that accepts the connection and never answers fails by the first-byte
 * timeout, tried twice at most; `Retry-After: 0` still backs off a minimum.
 * (Bounds are checked as request counts and reported waits, never as wall
 * time.)
 */
import assert from "node:assert/strict";
import { InsiderClient, RateLimitError, TimeoutError, Transport } from "../../mod.ts";
import { CIRCUIT_OPEN_MS, CIRCUIT_ROUNDS, RequestLimiter } from "../../lib/http/limiter.ts";
import { DEFAULT_FIRST_BYTE_TIMEOUT_MS, MAX_TIMEOUT_RETRIES } from "../../lib/http/transport.ts";
import { minRetryDelayMs } from "../../lib/http/retry.ts";
import { loopback } from "../_loopback.ts";

Deno.test("a 429 storm without Retry-After opens the circuit: 48 hydrations fail as RateLimitError after a bounded number of requests", async () => {
  let requests = 0;
  const insider = new InsiderClient({
    apiKey: "sk-test-storm-1",
    baseUrl: "http://x.test/insider",
    fetch: () => {
      requests++;
      return Promise.resolve(
        Response.json({ type: "rate", title: "Too Many Requests", detail: "slow down" }, {
          status: 429,
        }),
      );
    },
  });
  const rows = Array.from({ length: 48 }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: "2024-05-01T15:00:00Z",
  }));
  const { rows: got, failed } = await insider.hydrate(rows, { concurrency: 8 });
  assert.equal(got.length, 0);
  assert.equal(failed.length, 48);
  for (const f of failed) assert.ok(f.error instanceof RateLimitError, String(f.error));
  assert.ok(failed.some((f) => (f.error as RateLimitError).type === "circuit-open"));
  // without the circuit: 48 rows × 5 attempts = 240 requests, one row at a time
  assert.ok(requests <= 8 * CIRCUIT_ROUNDS + 8, `${requests} requests`);
});

Deno.test("the circuit: refused rounds open it whatever Retry-After says; a success resets it; it half-opens", async () => {
  let shift = 0;
  const l = new RequestLimiter({ maxInFlight: 4 }, () => performance.now() + shift);
  const round = async (status: number) => {
    const s = await l.acquire();
    s.release();
    shift += 1; // each round is sent after the previous refusal
    if (status === 429) l.throttled(s, 0);
    else l.refused(s, status);
  };
  for (let i = 0; i < CIRCUIT_ROUNDS - 1; i++) await round(i % 2 ? 503 : 429);
  const s = await l.acquire();
  s.release();
  l.succeeded(s);
  for (let i = 0; i < CIRCUIT_ROUNDS - 1; i++) await round(503);
  assert.ok((await l.acquire()).release() === undefined, "still closed");
  await round(504);
  await assert.rejects(
    l.acquire(),
    (e: Error & { status?: number }) => e.name === "CircuitOpenError" && e.status === 504,
  );
  shift += CIRCUIT_OPEN_MS + 1; // the open period is over: one request goes
  const probe = await l.acquire();
  probe.release();
  shift += 1;
  l.throttled(probe, 0);
  await assert.rejects(l.acquire(), /refused/);
});

Deno.test("a server that never answers fails by the first-byte timeout, tried twice at most", async () => {
  let conns = 0;
  const srv = loopback(async () => {
    conns++;
    await new Promise((r) => setTimeout(r, 5_000));
    return new Response("late");
  });
  try {
    const t = new Transport({
      apiKey: "sk-test-silent",
      baseUrl: srv.base,
      firstByteTimeoutMs: 200,
    });
    assert.equal(
      new Transport({ apiKey: "k", baseUrl: srv.base }).firstByteTimeoutMs,
      DEFAULT_FIRST_BYTE_TIMEOUT_MS,
    );
    const e = await t.json({ method: "GET", path: "/x" }).catch((e) => e);
    assert.ok(e instanceof TimeoutError, String(e));
    assert.match(e.message, /no answer within 200 ms \(firstByteTimeoutMs\)/);
    assert.equal(conns, 1 + MAX_TIMEOUT_RETRIES);
  } finally {
    await srv.close();
  }
});

Deno.test("Retry-After: 0 still backs off a minimum that grows with the attempts", async () => {
  let n = 0;
  const waits: number[] = [];
  const t = new Transport({
    apiKey: "sk-test-ra0",
    baseUrl: "http://x.test",
    fetch: () =>
      Promise.resolve(
        ++n <= 4
          ? new Response("{}", { status: 503, headers: { "retry-after": "0" } })
          : Response.json({ ok: true }),
      ),
    onRetry: (info) => waits.push(info.delayMs),
  });
  await t.json({ method: "GET", path: "/x" });
  assert.deepEqual(waits, [0, 1, 2, 3].map(minRetryDelayMs));
  assert.deepEqual(waits, [25, 50, 100, 200]);
});
