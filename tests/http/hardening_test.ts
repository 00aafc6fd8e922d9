/** Issue 11: retry-wait caps, body timeouts and typed errors for bad 2xx bodies. */
import assert from "node:assert/strict";
import { InvalidResponseError, TimeoutError, Transport } from "../../mod.ts";
import { serverDelayMs } from "../../lib/http/retry.ts";

Deno.test("retry-after-ms is capped at 60 s like Retry-After; above the cap the backoff is used", async () => {
  const h = (v: Record<string, string>) => new Headers(v);
  assert.equal(serverDelayMs(h({ "retry-after-ms": "60000" })), 60_000);
  assert.equal(serverDelayMs(h({ "retry-after-ms": "60001" })), undefined);
  assert.equal(serverDelayMs(h({ "retry-after-ms": "3600000" })), undefined);
  assert.equal(serverDelayMs(h({ "retry-after-ms": "-5" })), undefined);
  // a usable Retry-After still applies when retry-after-ms is over the cap
  assert.equal(serverDelayMs(h({ "retry-after-ms": "3600000", "retry-after": "2" })), 2000);
  // end to end: the client does not plan an hour's wait
  const seen: number[] = [];
  const stop = new Error("stop before sleeping");
  const t = new Transport({
    apiKey: "k",
    baseUrl: "http://api.test/svc",
    fetch: () =>
      Promise.resolve(
        new Response("{}", { status: 503, headers: { "retry-after-ms": "3600000" } }),
      ),
    onRetry: (info) => {
      seen.push(info.delayMs);
      throw stop;
    },
  });
  await assert.rejects(t.json({ method: "GET", path: "/x" }), (e) => e === stop);
  assert.equal(seen.length, 1);
  assert.ok(seen[0] > 0 && seen[0] <= 500, `first backoff is at most 0.5 s, got ${seen[0]}`);
});

/** A loopback server that sends headers at once, then one byte of body every 100 ms. */
function tricklingServer() {
  let requests = 0;
  const timers = new Set<ReturnType<typeof setInterval>>();
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    () => {
      requests++;
      let timer: ReturnType<typeof setInterval> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"data":['));
          timer = setInterval(() => {
            try {
              controller.enqueue(new TextEncoder().encode("1,"));
            } catch {
              clearInterval(timer);
            }
          }, 100);
          timers.add(timer);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "application/json" } });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests: () => requests,
    async close() {
      for (const t of timers) clearInterval(t);
      ac.abort();
      await server.finished;
    },
  };
}

Deno.test("a body that trickles past the per-attempt timeout is a typed TimeoutError, retried", async () => {
  const srv = tricklingServer();
  const retries: string[] = [];
  try {
    const t = new Transport({
      apiKey: "k",
      baseUrl: srv.url,
      timeoutMs: 300,
      maxRetries: 1,
      onRetry: (info) => retries.push(info.reason),
    });
    const err = await t.json({ method: "GET", path: "/slow" }).then(
      () => assert.fail("expected a timeout"),
      (e) => e,
    );
    assert.ok(err instanceof TimeoutError, `got ${err?.name}: ${err?.message}`);
    assert.match(err.message, /GET \/slow timed out after 300 ms/);
    assert.equal(srv.requests(), 2, "the timed-out attempt was retried once");
    assert.deepEqual(retries, ["TimeoutError"]);
  } finally {
    await srv.close();
  }
});

Deno.test("a 2xx answer that is not a JSON object is an InvalidResponseError naming the request", async () => {
  for (
    const [body, what] of [
      ['{"data": [1, 2', /not valid JSON/],
      ["<html>oops</html>", /not valid JSON/],
      ["[1,2]", /not a JSON object/],
      ["null", /not a JSON object/],
      ['{"data": "rows"}', /"data" is not a list/],
    ] as const
  ) {
    const t = new Transport({
      apiKey: "k",
      baseUrl: "http://api.test/svc",
      fetch: () => Promise.resolve(new Response(body, { status: 200 })),
      maxRetries: 0,
    });
    const err = await t.json({ method: "GET", path: "/pitches" }).then(
      () => assert.fail(`expected an error for ${body}`),
      (e) => e,
    );
    assert.ok(err instanceof InvalidResponseError, `${body}: got ${err?.name}`);
    assert.match(err.message, /GET \/pitches/);
    assert.match(err.message, what);
  }
});

Deno.test("an unsigned download whose server never sends its headers is a TimeoutError after timeoutMs", async () => {
  let calls = 0;
  const t = new Transport({
    apiKey: "k",
    baseUrl: "http://api.test/svc",
    timeoutMs: 200,
    // a fetch that never answers and ignores its signal: only the client's own deadline ends it
    fetch: () => {
      calls++;
      return new Promise<Response>(() => {});
    },
  });
  const started = performance.now();
  const err = await t.fetchUnsigned("http://files.test/doc.pdf?signature=abc").then(
    () => assert.fail("expected a timeout"),
    (e) => e,
  );
  assert.ok(err instanceof TimeoutError, `got ${err?.name}: ${err?.message}`);
  assert.match(
    err.message,
    /GET http:\/\/files\.test\/doc\.pdf\?signature=… timed out after 200 ms/,
  );
  assert.ok(performance.now() - started < 5_000, "ended by the 200 ms deadline");
  assert.equal(calls, 1, "a download is not retried");
});

Deno.test("an unsigned download follows a relative redirect against the URL it came from; an invalid location names the redirecting URL", async () => {
  const seen: string[] = [];
  const t = new Transport({
    apiKey: "k",
    baseUrl: "http://api.test/svc",
    fetch: (input) => {
      const url = String(input);
      seen.push(url);
      const location = url.endsWith("/a") ? "../b/doc" : url.endsWith("/bad") ? "http://[bad" : "";
      return Promise.resolve(
        location ? new Response(null, { status: 302, headers: { location } }) : new Response("pdf"),
      );
    },
  });
  const res = await t.fetchUnsigned("http://files.test/x/a");
  assert.equal(await res.text(), "pdf");
  assert.deepEqual(seen, ["http://files.test/x/a", "http://files.test/b/doc"]);
  await assert.rejects(
    t.fetchUnsigned("http://files.test/bad"),
    (e) =>
      e instanceof InvalidResponseError &&
      e.message === 'GET http://files.test/bad redirected to an invalid URL "http://[bad"',
  );
});
