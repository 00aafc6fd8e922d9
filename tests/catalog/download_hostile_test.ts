/**
 * Issue 25.5 (and 25.1 for documents): downloads fail only on a gap of `timeoutMs` without a byte,
 * with a `TimeoutError`; a slow but steady document longer than `timeoutMs`
 * arrives whole.
 */
import assert from "node:assert/strict";
import {
  CatalogClient,
  RequestValidationError,
  ResponseTooLargeError,
  TimeoutError,
} from "../../mod.ts";
import { loopback } from "../_loopback.ts";

const TIMEOUT_MS = 800;
const CHUNK = new TextEncoder().encode("x".repeat(64));

/** A loopback file server: `/steady` sends a chunk every 40 ms for `chunks` chunks; `/stall` one chunk then nothing. */
function fileServer(chunks: number) {
  const timers = new Set<ReturnType<typeof setInterval>>();
  const srv = loopback(
    (req) => {
      const steady = new URL(req.url).pathname === "/steady";
      let timer: ReturnType<typeof setInterval> | undefined;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(CHUNK);
          sent++;
          if (!steady) return;
          timer = setInterval(() => {
            try {
              if (sent++ < chunks) return c.enqueue(CHUNK);
              clearInterval(timer);
              c.close();
            } catch {
              clearInterval(timer);
            }
          }, 40);
          timers.add(timer);
        },
        cancel() {
          clearInterval(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "application/pdf" } });
    },
  );
  return {
    url: (p: string) => `${srv.base}${p}`,
    async close() {
      for (const t of timers) clearInterval(t);
      await srv.close();
    },
  };
}

/** A catalog whose signing answer points at `fileUrl`; the file itself is fetched for real. */
function catalogFor(fileUrl: string) {
  return new CatalogClient({
    apiKey: "demo-catalog-key",
    baseUrl: "http://fake/catalog",
    timeoutMs: TIMEOUT_MS,
    maxRetries: 0,
    fetch: (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith("http://fake/")) {
        return Promise.resolve(Response.json({
          url: fileUrl,
          format: "pdf",
          artifact: null,
          snapshot: "s1",
          filename: "doc.pdf",
          expires_in_seconds: 300,
        }));
      }
      return fetch(input, init);
    },
  });
}

Deno.test("a slow, steady document that takes longer than timeoutMs arrives whole", async () => {
  const chunks = Math.ceil((2.25 * TIMEOUT_MS) / 40); // more than twice timeoutMs in total
  const srv = fileServer(chunks);
  const dir = await Deno.makeTempDir();
  try {
    const path = await catalogFor(srv.url("/steady")).download("p1", { dir });
    const size = (await Deno.stat(path)).size;
    assert.equal(size, chunks * CHUNK.length);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a document that stalls fails with a TimeoutError naming the gap; nothing is saved", async () => {
  const srv = fileServer(0);
  const dir = await Deno.makeTempDir();
  try {
    const err = await catalogFor(srv.url("/stall")).download("p1", { dir }).then(
      () => assert.fail("a stalled document was saved"),
      (e) => e,
    );
    assert.ok(err instanceof TimeoutError, `got ${err?.name}: ${err?.message}`);
    assert.match(err.message, new RegExp(`no data for ${TIMEOUT_MS} ms while reading the body`));
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no file, no temp file left");
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a document past maxBytes (endless, or announced too large) is a ResponseTooLargeError; nothing is saved", async () => {
  const dir = await Deno.makeTempDir();
  let pulled = 0;
  const catalog = (file: () => Response) =>
    new CatalogClient({
      apiKey: "demo-catalog-key",
      baseUrl: "http://fake/catalog",
      fetch: (input) => {
        const url = input instanceof Request ? input.url : String(input);
        if (!url.startsWith("http://fake/")) return Promise.resolve(file());
        return Promise.resolve(Response.json({
          url: "http://files.test/doc.pdf",
          filename: "doc.pdf",
          expires_in_seconds: 300,
        }));
      },
    });
  const endless = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          pulled += 64 * 1024;
          c.enqueue(new Uint8Array(64 * 1024));
        },
      }, { highWaterMark: 0 }),
    );
  try {
    const err = await catalog(endless).download("p1", { dir, maxBytes: 1024 * 1024 }).then(
      () => assert.fail("an endless document was saved"),
      (e) => e,
    );
    assert.ok(err instanceof ResponseTooLargeError, `${err}`);
    assert.equal(err.limit, 1024 * 1024);
    assert.match(err.message, /^download of "p1" \("doc\.pdf"\): .*maxBytes = 1,048,576 bytes/);
    assert.ok(pulled <= 1024 * 1024 + 2 * 64 * 1024, `pulled ${pulled}`);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no file, no temp file left");
    const big = await catalog(() =>
      new Response("%PDF", { headers: { "content-length": String(2 * 1024 ** 3) } })
    ).download("p1", { dir }).then(() => assert.fail("saved"), (e) => e);
    assert.ok(big instanceof ResponseTooLargeError, `${big}`);
    assert.match(big.message, /Content-Length is 2,147,483,648 bytes/);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    const bad = await catalog(endless).download("p1", { dir, maxBytes: 0 }).then(
      () => assert.fail("accepted"),
      (e) => e,
    );
    assert.ok(bad instanceof RequestValidationError, `${bad}`);
    assert.match(
      bad.message,
      /maxBytes: 0 is not allowed; allowed: a whole number of bytes from 1/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
