import assert from "node:assert/strict";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InsiderClient,
  NotFoundError,
  PermissionDeniedError,
  PremiumRequiredError,
  ProblemError,
  RateLimitError,
  ServerError,
  TimeoutError,
  Transport,
} from "../../mod.ts";
import { backoffMs, serverDelayMs } from "../../lib/http/retry.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

type Handler = (req: Request, n: number) => Response | Promise<Response>;
function fakeFetch(handler: Handler) {
  const calls: Request[] = [];
  const f = async (input: Request | URL | string, init?: RequestInit) => {
    const req = new Request(input, init);
    calls.push(req);
    return await handler(req, calls.length);
  };
  return { fetch: f, calls };
}
const problemRes = (status: number, type = "x", headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type, title: "T", status, detail: "d" }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
const transport = (fetch: ReturnType<typeof fakeFetch>["fetch"], extra = {}) =>
  new Transport({ apiKey: "sk-secret-123", baseUrl: "http://api.test/svc/", fetch, ...extra });

Deno.test("URL: base + /api/v1, arrays as repeated parameters, bearer key, JSON body", async () => {
  const f = fakeFetch(() => Response.json({ ok: true }));
  const t = transport(f.fetch);
  await t.json({
    method: "GET",
    path: "/pitches",
    query: { sentiment: ["bullish", "bearish"], limit: 5, x: undefined },
  });
  assert.equal(
    f.calls[0].url,
    "http://api.test/svc/api/v1/pitches?sentiment=bullish&sentiment=bearish&limit=5",
  );
  assert.equal(f.calls[0].headers.get("authorization"), "Bearer sk-secret-123");
  await t.json({ method: "POST", path: "/search", body: { filter: {} } });
  assert.equal(f.calls[1].headers.get("content-type"), "application/json");
  assert.deepEqual(await f.calls[1].json(), { filter: {} });
});

Deno.test("status → error class mapping, with status, type, title, detail, method and URL", async () => {
  const cases: [number, string, unknown][] = [
    [400, "invalid-request", BadRequestError],
    [401, "unauthorized", AuthenticationError],
    [403, "premium-required", PremiumRequiredError],
    [403, "author-access-required", PermissionDeniedError],
    [404, "not-found", NotFoundError],
    [429, "rate-limited", RateLimitError],
    [503, "service-unavailable", ServerError],
    [500, "internal-error", ServerError],
  ];
  for (const [status, type, cls] of cases) {
    const t = transport(fakeFetch(() => problemRes(status, type)).fetch, { maxRetries: 0 });
    const err = await t.json<never>({ method: "GET", path: "/x" }).catch((e) => e);
    assert.ok(err instanceof (cls as typeof ProblemError), `${status} ${type} → ${err?.name}`);
    assert.equal(err.status, status);
    assert.equal(err.type, type);
    assert.equal(err.title, "T");
    assert.equal(err.detail, "d");
    assert.equal(err.method, "GET");
    assert.equal(err.url, "http://api.test/svc/api/v1/x");
  }
  assert.ok(
    new PremiumRequiredError({
      status: 403,
      type: "premium-required",
      title: "",
      detail: "",
      method: "",
      url: "",
    }) instanceof PermissionDeniedError,
  );
});

Deno.test("a non-JSON or malformed error body still yields a typed error with the status", async () => {
  for (const body of ["<html>Bad gateway</html>", "{not json", "[1,2]", ""]) {
    const t = transport(
      fakeFetch(() => new Response(body, { status: 502, statusText: "Bad Gateway" })).fetch,
      { maxRetries: 0 },
    );
    const err = await t.json<never>({ method: "GET", path: "/x" }).catch((e) => e);
    assert.ok(err instanceof ServerError);
    assert.equal(err.status, 502);
    assert.equal(err.type, "unknown");
  }
});

Deno.test("retries 408, 409, 429, 5xx and POST /search; never 400/401/403/404", async () => {
  for (const status of [408, 409, 429, 500, 502, 503]) {
    const f = fakeFetch((_r, n) =>
      n === 1 ? problemRes(status, "x", { "retry-after-ms": "1" }) : Response.json({ ok: 1 })
    );
    const t = transport(f.fetch);
    assert.deepEqual(await t.json({ method: "POST", path: "/search", body: {} }), { ok: 1 });
    assert.equal(f.calls.length, 2, String(status));
  }
  for (const status of [400, 401, 403, 404]) {
    const f = fakeFetch(() => problemRes(status));
    const err = await transport(f.fetch).json<never>({ method: "GET", path: "/x" }).catch((e) => e);
    assert.ok(err instanceof ProblemError);
    assert.equal(f.calls.length, 1, String(status));
  }
});

Deno.test("after the last try the typed error itself is thrown; maxRetries counts retries", async () => {
  const f = fakeFetch(() => problemRes(503, "service-unavailable", { "retry-after-ms": "1" }));
  const err = await transport(f.fetch, { maxRetries: 3 }).json<never>({ method: "GET", path: "/x" })
    .catch(
      (e) => e,
    );
  assert.ok(err instanceof ServerError);
  assert.equal(f.calls.length, 4);
});

Deno.test("wait: retry-after-ms, else Retry-After seconds or HTTP date within 0–60 s, else backoff", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(serverDelayMs(h({ "retry-after-ms": "250", "retry-after": "9" })), 250);
  assert.equal(serverDelayMs(h({ "retry-after": "2" })), 2000);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(serverDelayMs(h({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now), 5000);
  assert.equal(serverDelayMs(h({ "retry-after": "61" })), undefined);
  assert.equal(serverDelayMs(h({ "retry-after": "-1" })), undefined);
  assert.equal(serverDelayMs(h({ "retry-after": "soon" })), undefined);
  assert.equal(backoffMs(0, () => 0), 500);
  assert.equal(backoffMs(3, () => 0), 4000);
  assert.equal(backoffMs(10, () => 0), 8000);
  assert.equal(backoffMs(10, () => 1), 6000);
});

Deno.test("connection errors and timeouts are retried, then thrown as ConnectionError / TimeoutError", async () => {
  const refused = fakeFetch(() => {
    throw new TypeError("connection refused");
  });
  const err = await transport(refused.fetch, { maxRetries: 1 }).json<never>({
    method: "GET",
    path: "/x",
  })
    .catch((e) => e);
  assert.ok(err instanceof ConnectionError && !(err instanceof TimeoutError));
  assert.equal(refused.calls.length, 2);
  const hang = fakeFetch((req) =>
    new Promise((_, reject) =>
      req.signal.addEventListener("abort", () => reject(req.signal.reason))
    )
  );
  const err2 = await transport(hang.fetch, { maxRetries: 1, timeoutMs: 30 }).json<never>({
    method: "GET",
    path: "/x",
  }).catch((e) => e);
  assert.ok(err2 instanceof TimeoutError, err2?.name);
  assert.equal(hang.calls.length, 2);
});

Deno.test("a caller's abort is not retried and surfaces as the abort reason", async () => {
  const ac = new AbortController();
  const hang = fakeFetch((req) =>
    new Promise((_, reject) =>
      req.signal.addEventListener("abort", () => reject(req.signal.reason))
    )
  );
  const p = transport(hang.fetch).json<never>({ method: "GET", path: "/x", signal: ac.signal });
  setTimeout(() => ac.abort(new DOMException("stop", "AbortError")), 10);
  const err = await p.catch((e) => e);
  assert.equal(err.name, "AbortError");
  assert.equal(hang.calls.length, 1);
});

Deno.test("a 429 with Retry-After from the emulator is honoured", async () => {
  const stub = createStub({ seed: 1, scale: 0.05, rateLimit: { limit: 2, windowMs: 1000 } });
  const retries: { reason: string; delayMs: number }[] = [];
  const client = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: stub.fetch,
    onRetry: (i) => retries.push(i),
  });
  const t0 = performance.now();
  for (let i = 0; i < 3; i++) await client.feed("ceo-trades", "buy").firstPage();
  assert.equal(retries.length, 1);
  assert.equal(retries[0].reason, "429");
  assert.equal(retries[0].delayMs, 1000);
  assert.ok(performance.now() - t0 >= 900);
});

Deno.test("at fail-rate 0.3 a full pull returns every row exactly once", async () => {
  const stub = createStub({ seed: 1, scale: 0.05, failRate: 0.3 });
  let retried = 0;
  const client = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: stub.fetch,
    onRetry: () => retried++,
  });
  const rows = [];
  for await (const r of client.search({ excludeAnomalousTransactions: false })) rows.push(r);
  assert.equal(rows.length, stub.insider.trades.length);
  assert.equal(
    new Set(rows.map((r) => `${r.accessionNumber}/${r.transactionId}`)).size,
    rows.length,
  );
  assert.ok(retried > 0);
});

Deno.test("maxRetries: 0 surfaces the typed error at once", async () => {
  const stub = createStub({ seed: 1, scale: 0.05, failRate: 1 });
  const client = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: stub.fetch,
    maxRetries: 0,
  });
  const err = await client.search().firstPage().catch((e) => e);
  assert.ok(err instanceof ServerError);
  assert.equal(err.type, "service-unavailable");
});

Deno.test("the API key never appears in console output, JSON, errors or their stacks", async () => {
  const key = "sk-live-SUPERSECRET";
  const f = fakeFetch(() => problemRes(401, "unauthorized"));
  const client = new InsiderClient({
    apiKey: key,
    baseUrl: "http://api.test/insider",
    fetch: f.fetch,
  });
  const err = await client.search().firstPage().catch((e) => e);
  for (
    const text of [
      Deno.inspect(client),
      JSON.stringify(client),
      String(err),
      err.stack,
      Deno.inspect(err),
      JSON.stringify(err),
      Object.keys(client).join(),
    ]
  ) {
    assert.ok(!text.includes(key), text);
  }
  assert.match(Deno.inspect(client), /redacted/);
});

Deno.test("constructor checks: key required, absolute base URL without credentials, sane numbers", () => {
  assert.throws(() => new Transport({ apiKey: "", baseUrl: "http://x" }), /apiKey/);
  assert.throws(
    () => new Transport({ apiKey: "k", baseUrl: "not a url" }),
    /^ConfigurationError: baseUrl is not an absolute URL/,
  );
  assert.throws(() => new Transport({ apiKey: "k", baseUrl: "http://u:p@x" }), /credentials/);
  assert.throws(
    () => new Transport({ apiKey: "k", baseUrl: "http://x", maxRetries: -1 }),
    /maxRetries -1/,
  );
  assert.throws(
    () => new Transport({ apiKey: "k", baseUrl: "http://x", timeoutMs: 0 }),
    /timeoutMs 0/,
  );
});

Deno.test("the caller's abort ends the wait before a retry at once (a 30 s Retry-After is not slept)", async () => {
  let calls = 0;
  const ac = new AbortController();
  const stop = new Error("caller stopped");
  const t = new Transport({
    apiKey: "k",
    baseUrl: "http://api.test/svc",
    fetch: () => {
      calls++;
      return Promise.resolve(new Response("{}", { status: 503, headers: { "retry-after": "30" } }));
    },
    // the retry is announced, then the caller gives up during its wait
    onRetry: () => setTimeout(() => ac.abort(stop), 20),
  });
  const started = performance.now();
  await assert.rejects(
    t.json<never>({ method: "GET", path: "/x", signal: ac.signal }),
    (e) => e === stop,
  );
  assert.ok(performance.now() - started < 5_000, "ended by the abort, not the 30 s wait");
  assert.equal(calls, 1);
});

Deno.test("what came instead of a Response or a JSON object is described in the error", async () => {
  const notResponse = new Transport({
    apiKey: "sk-secret-123",
    baseUrl: "http://api.test/svc",
    fetch: () => Promise.resolve({ ok: true, status: 200 } as unknown as Response),
  });
  await assert.rejects(
    notResponse.json<never>({ method: "GET", path: "/x" }),
    /GET \/x: fetch gave a JSON object with keys "ok", "status", not a Response/,
  );
  const list = transport(fakeFetch(() => Response.json([1, 2])).fetch);
  await assert.rejects(
    list.json<never>({ method: "GET", path: "/x" }),
    /GET \/x: the answer is not a JSON object but a JSON array of 2/,
  );
  const data = transport(fakeFetch(() => Response.json({ data: "rows" })).fetch);
  await assert.rejects(
    data.json<never>({ method: "GET", path: "/x" }),
    /GET \/x: the answer's "data" is not a list but a string/,
  );
});

Deno.test("the whole-number options: their defaults, and firstByteTimeoutMs at most timeoutMs", () => {
  const t = new Transport({ apiKey: "sk-secret-123", baseUrl: "http://api.test/svc" });
  assert.deepEqual(
    [t.maxRetries, t.retryBudgetMs, t.timeoutMs, t.firstByteTimeoutMs, t.maxResponseBytes],
    [4, 60_000, 30_000, 10_000, 16 * 1024 * 1024],
  );
  const short = new Transport({
    apiKey: "sk-secret-123",
    baseUrl: "http://api.test/svc",
    timeoutMs: 500,
    firstByteTimeoutMs: 2_000,
  });
  assert.equal(short.firstByteTimeoutMs, 500);
});

Deno.test("a body that stalls from a fetch that ignores the signal fails by timeoutMs (a 200 and an error answer)", async () => {
  for (const status of [200, 404]) {
    const t = transport(
      () =>
        Promise.resolve(
          new Response(
            new ReadableStream({
              start: (c) => c.enqueue(new TextEncoder().encode('{"data":[')),
            }),
            { status },
          ),
        ),
      { maxRetries: 0, timeoutMs: 100 },
    );
    let guard: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise((r) => (guard = setTimeout(() => r("no error in 5 s"), 5_000)));
    const err = await Promise.race([
      t.json<never>({ method: "GET", path: "/x" }).catch((e) => e),
      late,
    ]);
    clearTimeout(guard);
    assert.ok(err instanceof TimeoutError, `${status}: ${err}`);
    assert.match(String(err.message), /timed out after 100 ms/);
  }
});
