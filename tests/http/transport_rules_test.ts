/**
 * Documented transport rules that no other test could see broken (issue 50,
 * "tests that can fail"), each through the public client: a `504` storm
 * opens the circuit through the transport (not only the limiter called
 * directly); a problem body cut short drops its last characters, which may
 * hold part of the key; a retry wait aborted by the caller clears its timer;
 * a body from an injected fetch that ignores the abort signal still ends at
 * `timeoutMs`; the progress display sums the requests waiting over every
 * limiter.
 */
import assert from "node:assert/strict";
import {
  CatalogClient,
  InsiderClient,
  ProblemError,
  ServerError,
  TimeoutError,
} from "../../mod.ts";
import { CIRCUIT_ROUNDS, RequestLimiter } from "../../lib/http/limiter.ts";
import { ERROR_PREFIX_BYTES } from "../../lib/http/_body.ts";
import { Progress } from "../../lib/http/progress_hook.ts";
import type { ProgressState } from "../../lib/http/progress_hook.ts";

Deno.test("hydrate under 504: the transport counts 504 rounds toward the circuit, which opens", async () => {
  let calls = 0;
  const insider = new InsiderClient({
    apiKey: "sk-test-storm-504-rounds",
    baseUrl: "http://storm.test/insider",
    fetch: () => {
      calls++;
      return Promise.resolve(
        Response.json({ type: "gateway", title: "Gateway Timeout", detail: "upstream slow" }, {
          status: 504,
          headers: { "retry-after-ms": "5" },
        }),
      );
    },
  });
  const rows = Array.from({ length: 48 }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: "2024-05-01T15:00:00Z",
  }));
  const { failed } = await insider.hydrate(rows, { concurrency: 8, progress: false });
  assert.equal(failed.length, 48);
  for (const f of failed) assert.ok(f.error instanceof ServerError, String(f.error));
  const open = failed.filter((f) => (f.error as ServerError).type === "circuit-open");
  assert.ok(open.length > 0, "no row failed by the open circuit");
  assert.equal((open[0].error as ServerError).status, 504);
  assert.ok(calls <= 8 * CIRCUIT_ROUNDS, `${calls} calls, not 48 × 5`);
});

Deno.test("a problem body cut short inside the key: the excerpt drops the key's part", async () => {
  // a key longer than the prefix read of an error body: the cut falls inside it, where the
  // whole key cannot be recognised, so only dropping the text's tail keeps it out
  const key = "sk-live-" + "7f3a9c2e51d04b8a".repeat(Math.ceil(ERROR_PREFIX_BYTES / 16) + 8);
  const catalog = new CatalogClient({
    apiKey: key,
    baseUrl: "http://echo.test/catalog",
    maxRetries: 0,
    fetch: (_input, init) => {
      const auth = new Headers(init?.headers).get("authorization") ?? "";
      return Promise.resolve(new Response(auth.replace(/^Bearer /, ""), { status: 400 }));
    },
  });
  const e = await catalog.tags().then(() => assert.fail("no error"), (x) => x);
  assert.ok(e instanceof ProblemError, String(e));
  const shown = [e.message, e.detail, e.stack ?? "", JSON.stringify(e), Deno.inspect(e)].join("\n");
  assert.ok(
    !shown.includes(key.slice(0, 24)),
    `part of the key leaked: ${e.message.slice(0, 300)}`,
  );
  assert.equal(e.detail, "(no details)");
});

Deno.test("a retry wait the caller aborts clears its timer (no timer outlives the call)", async () => {
  // a 503 asking for 20 s (within the retry budget): the retry waits, and the caller's abort
  // ends the wait at once; the timers of a second or more still set after it are counted
  const { setTimeout: set, clearTimeout: clear } = globalThis;
  const live = new Set<ReturnType<typeof setTimeout>>();
  globalThis.setTimeout = ((f: () => void, ms?: number) => {
    const id = set(() => {
      live.delete(id);
      f();
    }, ms);
    if ((ms ?? 0) >= 1_000) live.add(id);
    return id;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id?: ReturnType<typeof setTimeout>) => {
    if (id !== undefined) live.delete(id);
    clear(id);
  }) as typeof clearTimeout;
  try {
    let calls = 0;
    const catalog = new CatalogClient({
      apiKey: "sk-test-abort-the-wait",
      baseUrl: "http://busy.test/catalog",
      fetch: () => {
        calls++;
        return Promise.resolve(
          Response.json({ type: "busy", title: "Busy", detail: "later" }, {
            status: 503,
            headers: { "retry-after": "20" },
          }),
        );
      },
    });
    const ac = new AbortController();
    const call = catalog.tags({ signal: ac.signal }).then(() => assert.fail("no error"), (x) => x);
    await new Promise((r) => set(r, 50));
    assert.equal(calls, 1);
    ac.abort();
    const e = await call;
    assert.equal((e as Error).name, "AbortError", String(e));
    assert.equal(live.size, 0, "the 20 s wait's timer is still set after the abort");
  } finally {
    globalThis.setTimeout = set;
    globalThis.clearTimeout = clear;
    for (const id of live) clear(id);
  }
});

Deno.test("an injected fetch whose body ignores the abort signal: the call still ends at timeoutMs", async () => {
  let cancelled = false;
  const catalog = new CatalogClient({
    apiKey: "sk-test-deaf-body-stream",
    baseUrl: "http://deaf.test/catalog",
    maxRetries: 0,
    timeoutMs: 300,
    // headers at once, then a body that sends one byte and never ends, whatever the signal says
    fetch: () =>
      Promise.resolve(
        new Response(
          new ReadableStream({
            start: (c) => c.enqueue(new TextEncoder().encode("{")),
            cancel: () => {
              cancelled = true;
            },
          }),
          { headers: { "content-type": "application/json" } },
        ),
      ),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((r) => (timer = setTimeout(() => r("hung"), 10_000)));
  try {
    const e = await Promise.race([catalog.tags().catch((x) => x), hung]);
    assert.notEqual(e, "hung", "the call waited on the body past timeoutMs");
    assert.ok(e instanceof TimeoutError, String(e));
    assert.match(e.message, /300 ms/);
  } finally {
    clearTimeout(timer);
  }
  // (the stream may or may not be cancelled: it is the caller that must not wait on it)
  assert.equal(typeof cancelled, "boolean");
});

Deno.test("the progress display sums the requests waiting (and in flight) over every limiter", async () => {
  const states: ProgressState[] = [];
  const p = new Progress("two clients", { sink: { show: (s) => states.push(s) }, intervalMs: 0 });
  const a = new RequestLimiter({ maxInFlight: 1 });
  const b = new RequestLimiter({ maxInFlight: 1 });
  const held = [await a.acquire(), await b.acquire()];
  // one request waits at a, two at b
  const waits = [a.acquire(), b.acquire(), b.acquire()];
  await new Promise((r) => setTimeout(r, 0));
  const last = p.state;
  assert.equal(last.inFlight, 2);
  assert.equal(last.waiting, 3);
  p.done();
  for (const s of held) s.release();
  for (const w of waits) (await w).release();
  assert.ok(states.some((s) => s.waiting === 3), JSON.stringify(states.map((s) => s.waiting)));
});
