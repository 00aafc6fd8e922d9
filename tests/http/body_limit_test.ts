/**
 * Issue 25.1: bounded bodies. A gzip bomb, an endless body and a 2 GB body
 * each end with a `ResponseTooLargeError` naming the limit, downloaded once,
 * with bounded memory; error answers are read only up to a small prefix.
 */
import assert from "node:assert/strict";
import {
  CatalogClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  InsiderClient,
  ResponseTooLargeError,
  ServerError,
  Transport,
} from "../../mod.ts";
import { ERROR_PREFIX_BYTES } from "../../lib/http/_body.ts";
import { loopback } from "../_loopback.ts";

const MiB = 1024 * 1024;
const ZEROS = new Uint8Array(64 * 1024);

type Bytes = TransformStream<Uint8Array, Uint8Array>;
const gzip = () => new CompressionStream("gzip") as unknown as Bytes;
const gunzip = () => new DecompressionStream("gzip") as unknown as Bytes;

/** An endless stream of zero chunks that counts what was pulled from it. */
function endless(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      pulled += ZEROS.length;
      c.enqueue(ZEROS.slice());
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

/** Counts the bytes passing through. */
function counter(): { through: TransformStream<Uint8Array, Uint8Array>; seen: () => number } {
  let seen = 0;
  return {
    through: new TransformStream({
      transform(chunk, c) {
        seen += chunk.length;
        c.enqueue(chunk);
      },
    }),
    seen: () => seen,
  };
}

/** The error `p` rejects with (fails when it resolves). */
async function failure(p: Promise<unknown>): Promise<Error> {
  return await p.then(
    () => assert.fail("expected an error"),
    (e) => e as Error,
  );
}

function checkTooLarge(err: Error, limit: number) {
  assert.ok(err instanceof ResponseTooLargeError, `got ${err.name}: ${err.message}`);
  assert.equal(err.limit, limit);
  assert.ok(
    err.message.includes(`maxResponseBytes = ${limit.toLocaleString("en-US")} bytes`),
    err.message,
  );
}

/** A loopback server answering every request with `answer()`; counts requests and bytes sent. */
function server(answer: (count: (n: number) => void) => Response) {
  let requests = 0;
  let sent = 0;
  const srv = loopback(() => {
    requests++;
    return answer((n) => sent += n);
  });
  return {
    url: `${srv.base}/svc`,
    requests: () => requests,
    sent: () => sent,
    close: srv.close,
  };
}

/** A response whose body stream counts the bytes actually sent. */
function counted(
  body: ReadableStream<Uint8Array>,
  count: (n: number) => void,
  init?: ResponseInit,
) {
  return new Response(
    body.pipeThrough(
      new TransformStream({
        transform(chunk, c) {
          count(chunk.length);
          c.enqueue(chunk);
        },
      }),
    ),
    init,
  );
}

Deno.test("injected fetch: a gzip bomb stops at the limit on the decoded stream, fetched once", async () => {
  let calls = 0;
  const decoded = counter();
  const compressed = counter();
  const t = new Transport({
    apiKey: "k",
    baseUrl: "http://api.test/svc",
    maxResponseBytes: MiB,
    fetch: () => {
      calls++;
      // what a decoding fetch hands over: an endless gzip stream, decoded lazily
      const bomb = endless().stream.pipeThrough(gzip())
        .pipeThrough(compressed.through)
        .pipeThrough(gunzip())
        .pipeThrough(decoded.through);
      return Promise.resolve(
        new Response(bomb, { headers: { "content-type": "application/json" } }),
      );
    },
  });
  const err = await failure(t.json({ method: "GET", path: "/search" }));
  checkTooLarge(err, MiB);
  assert.match(err.message, /^GET \/search: /);
  assert.equal(calls, 1, "not retried");
  assert.ok(decoded.seen() <= 2 * MiB, `decoded ${decoded.seen()} bytes`);
  assert.ok(compressed.seen() < 64 * 1024, `compressed bytes read: ${compressed.seen()}`);
});

Deno.test("injected fetch: endless and announced-2-GB bodies end with the typed error; exactly the limit passes", async () => {
  const seen: { calls: number; pulled: () => number } = { calls: 0, pulled: () => 0 };
  const client = (answer: () => Response, maxResponseBytes?: number) =>
    new CatalogClient({
      apiKey: "k",
      baseUrl: "http://api.test/catalog",
      maxResponseBytes,
      fetch: () => (seen.calls++, Promise.resolve(answer())),
    });
  // endless, default limit
  seen.calls = 0;
  const err = await failure(
    client(() => {
      const e = endless();
      seen.pulled = e.pulled;
      return new Response(e.stream);
    }).tags(),
  );
  checkTooLarge(err, DEFAULT_MAX_RESPONSE_BYTES);
  assert.equal(seen.calls, 1);
  assert.ok(seen.pulled() <= DEFAULT_MAX_RESPONSE_BYTES + 2 * ZEROS.length, `${seen.pulled()}`);
  // a 2 GB Content-Length is refused before reading
  seen.calls = 0;
  const big = await failure(
    client(() => {
      const e = endless();
      seen.pulled = e.pulled;
      return new Response(e.stream, { headers: { "content-length": String(2 * 1024 ** 3) } });
    }, 10 * MiB).tags(),
  );
  checkTooLarge(big, 10 * MiB);
  assert.match(big.message, /Content-Length is 2,147,483,648 bytes/);
  assert.equal(seen.calls, 1);
  assert.ok(seen.pulled() <= ZEROS.length, `pulled ${seen.pulled()} bytes of a refused body`);
  // the edge: exactly the limit is read, one byte more is not
  const body = JSON.stringify({ data: [{ tagTypeKey: "t", tags: [] }], pad: "y".repeat(100) });
  const limit = new TextEncoder().encode(body).length;
  const tags = await client(() => new Response(body), limit).tags();
  assert.equal(tags.types.length, 1);
  checkTooLarge(await failure(client(() => new Response(body), limit - 1).tags()), limit - 1);
});

Deno.test("maxResponseBytes is checked: a bad value names itself and the allowed range", () => {
  for (const bad of [0, -1, 1.5, 2 ** 40, Number.NaN]) {
    assert.throws(
      () => new InsiderClient({ apiKey: "k", baseUrl: "http://x/i", maxResponseBytes: bad }),
      (e: Error) =>
        e instanceof TypeError && e.message.startsWith(`maxResponseBytes ${String(bad)} `) &&
        /allowed: an integer from 1 to 524288000/.test(e.message),
    );
  }
});

Deno.test("an error answer is read only up to a small prefix, even when endless", async () => {
  let pulled = () => 0;
  let calls = 0;
  const t = new Transport({
    apiKey: "k",
    baseUrl: "http://api.test/svc",
    maxRetries: 0,
    fetch: () => {
      calls++;
      const e = endless();
      pulled = e.pulled;
      const zeros = e.stream.getReader();
      const head = new TextEncoder().encode('{"type":"oops","title":"Down","detail":"');
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(head);
        },
        async pull(c) {
          const r = await zeros.read();
          c.enqueue(r.value!.fill(120)); // "xxxx…": the detail never ends
        },
      }, { highWaterMark: 0 });
      return Promise.resolve(new Response(body, { status: 500 }));
    },
  });
  const err = await failure(t.json({ method: "GET", path: "/x" }));
  assert.ok(err instanceof ServerError, `${err.name}: ${err.message.slice(0, 200)}`);
  assert.equal(err.status, 500);
  assert.equal(calls, 1);
  assert.ok(pulled() <= ERROR_PREFIX_BYTES + ZEROS.length, `pulled ${pulled()} bytes`);
  assert.ok(err.message.length < 1000, "the message holds an excerpt, not the body");
});

Deno.test("loopback: a gzip bomb, an endless body and a 2 GB body each end with the typed error, downloaded once", async () => {
  const rss0 = Deno.memoryUsage().rss;
  // a 64 KB gzip that expands to 64 MiB, sent with Content-Encoding: gzip (fetch decodes it)
  const packed = new Uint8Array(
    await new Response(new Blob([new Uint8Array(64 * MiB)]).stream().pipeThrough(gzip()))
      .arrayBuffer(),
  );
  const bomb = server((count) => {
    count(packed.length);
    return new Response(packed, {
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
  });
  const flood = server((count) => counted(endless().stream, count));
  const twoGb = server((count) =>
    counted(endless().stream, count, { headers: { "content-length": String(2 * 1024 ** 3) } })
  );
  try {
    for (const [srv, limit] of [[bomb, 4 * MiB], [flood, DEFAULT_MAX_RESPONSE_BYTES]] as const) {
      const t = new Transport({ apiKey: "k", baseUrl: srv.url, maxResponseBytes: limit });
      checkTooLarge(await failure(t.json({ method: "GET", path: "/x" })), limit);
      assert.equal(srv.requests(), 1, "not retried");
    }
    assert.ok(bomb.sent() < MiB, `the bomb is ${bomb.sent()} compressed bytes`);
    const big = new Transport({ apiKey: "k", baseUrl: twoGb.url });
    const err = await failure(big.json({ method: "GET", path: "/x" }));
    checkTooLarge(err, DEFAULT_MAX_RESPONSE_BYTES);
    assert.match(err.message, /Content-Length is 2,147,483,648 bytes/);
    assert.equal(twoGb.requests(), 1);
    assert.ok(twoGb.sent() < 2 * 1024 ** 3 / 8, `sent ${twoGb.sent()} of 2 GB`);
  } finally {
    await Promise.all([bomb.close(), flood.close(), twoGb.close()]);
  }
  const grew = Deno.memoryUsage().rss - rss0;
  assert.ok(grew < 1024 * MiB, `RSS grew by ${Math.round(grew / MiB)} MiB`);
});
