/**
 * Issue 11 item 8: property tests of the client against random server
 * behaviour — wrong types, truncated or non-JSON bodies, huge headers,
 * stalled or broken bodies, hanging or throwing fetches, non-Response
 * values, redirects to other schemes. Every call ends (no hang) with a value
 * or a typed signalbook error (never a raw TypeError, SyntaxError or
 * DOMException), and the key never shows.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { CatalogClient, SignalbookError, Transport } from "../../mod.ts";

const KEY = "sk-property-secret";
const STATUSES = [200, 201, 204, 301, 302, 307, 400, 401, 403, 404, 408, 409, 429, 500, 502, 503];

/** What one fake server answer does. */
type Behaviour =
  | { kind: "throw" }
  | { kind: "hang" }
  | { kind: "not-a-response"; value: unknown }
  | { kind: "answer"; status: number; headers: [string, string][]; body: Body };
type Body =
  | { kind: "text"; text: string }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "stall"; prefix: string }
  | { kind: "break"; prefix: string };

const validJson = fc.oneof(
  fc.constant('{"data":[],"has_more":false,"next_cursor":null}'),
  fc.constant('{"type":"x","title":"T","status":503,"detail":"d"}'),
  fc.json(),
);
const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  validJson.map((text) => ({ kind: "text" as const, text })),
  // wrong types
  fc.constantFrom("[1,2]", "null", "42", '"str"', '{"data":"rows"}', '{"data":{"a":1}}', "true")
    .map((text) => ({ kind: "text" as const, text })),
  // truncated JSON
  fc.tuple(validJson, fc.nat()).map(([t, n]) => ({
    kind: "text" as const,
    text: t.slice(0, t.length ? n % t.length : 0),
  })),
  fc.string().map((text) => ({ kind: "text" as const, text })),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: "bytes" as const, bytes })),
  fc.string({ maxLength: 20 }).map((prefix) => ({ kind: "stall" as const, prefix })),
  fc.string({ maxLength: 20 }).map((prefix) => ({ kind: "break" as const, prefix })),
);
const headerArb: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(
    fc.constantFrom("retry-after-ms", "retry-after"),
    fc.oneof(
      fc.constantFrom("3600000", "-1", "NaN", "1e309", "", "Wed, 21 Oct 2099 07:28:00 GMT", "0"),
      fc.integer({ min: 0, max: 20 }).map(String),
    ),
  ),
  fc.tuple(
    fc.constant("location"),
    fc.constantFrom(
      "file:///etc/hostname",
      "data:text/plain,hi",
      "javascript:alert(1)",
      "ftp://x/y",
      "/relative",
      "http://other.test/x",
      "::not a url::",
    ),
  ),
  // a huge header
  fc.integer({ min: 1, max: 256 }).map((kb): [string, string] => ["x-huge", "h".repeat(kb * 1024)]),
  fc.tuple(fc.constant("content-type"), fc.constantFrom("application/json", "text/html", "")),
);
const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "throw" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "hang" as const }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, undefined, {}, "ok", 200).map((value) => ({
      kind: "not-a-response" as const,
      value,
    })),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("answer" as const),
      status: fc.constantFrom(...STATUSES),
      headers: fc.array(headerArb, { maxLength: 3 }),
      body: bodyArb,
    }),
  },
);

function streamOf(body: Body): BodyInit {
  const enc = new TextEncoder();
  if (body.kind === "text") return body.text;
  if (body.kind === "bytes") return body.bytes as Uint8Array<ArrayBuffer>;
  return new ReadableStream<Uint8Array>({
    start(c) {
      if (body.prefix) c.enqueue(enc.encode(body.prefix));
      if (body.kind === "break") c.error(new TypeError("connection reset by peer"));
      // "stall": never enqueues again, never closes
    },
  });
}

/** A fetch that plays the behaviours in turn (the last one repeats). */
function fakeFetch(plan: Behaviour[]) {
  let i = 0;
  return (_input: Request | URL | string, _init?: RequestInit): Promise<Response> => {
    const b = plan[Math.min(i++, plan.length - 1)];
    if (b.kind === "throw") return Promise.reject(new TypeError("network down"));
    if (b.kind === "hang") return new Promise<Response>(() => {});
    if (b.kind === "not-a-response") return Promise.resolve(b.value as Response);
    const headers = new Headers();
    for (const [k, v] of b.headers) {
      try {
        headers.append(k, v);
      } catch {
        // an invalid header value cannot be sent: leave it out
      }
    }
    const nullBody = b.status === 204 || b.status === 304;
    return Promise.resolve(
      new Response(nullBody ? null : streamOf(b.body), { status: b.status, headers }),
    );
  };
}

/** `p` settles, or the test fails as a hang. */
async function settles<T>(p: Promise<T>, ms = 5000): Promise<{ ok: T } | { error: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HANG: no answer within ${ms} ms`)), ms);
  });
  try {
    return { ok: await Promise.race([p, hang]) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("HANG")) throw error;
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

function assertTyped(error: unknown, plan: unknown): void {
  assert.ok(
    error instanceof SignalbookError,
    `untyped ${(error as Error)?.name}: ${(error as Error)?.message} for ${
      JSON.stringify(plan).slice(0, 300)
    }`,
  );
  assert.ok(!String(error.message).includes(KEY), "the key never shows");
  assert.ok(!String(error.stack).includes(KEY), "the key never shows in the stack");
}

Deno.test("property: any single server answer gives a value or a typed error, never a hang", async () => {
  await fc.assert(
    fc.asyncProperty(behaviourArb, async (b) => {
      const t = new Transport({
        apiKey: KEY,
        baseUrl: "http://api.test/svc",
        fetch: fakeFetch([b]),
        maxRetries: 0,
        timeoutMs: 40,
      });
      const r = await settles(t.json({ method: "GET", path: "/pitches" }));
      if ("ok" in r) {
        assert.equal(b.kind, "answer");
        const a = b as Extract<Behaviour, { kind: "answer" }>;
        assert.ok(a.status < 300, `a ${a.status} resolved`);
        assert.ok(r.ok !== null && typeof r.ok === "object" && !Array.isArray(r.ok));
      } else assertTyped(r.error, b);
    }),
    { numRuns: 150, seed: 11, endOnFailure: true },
  );
});

Deno.test("property: retried sequences of bad answers end typed, within the retry budget", async () => {
  // server waits are kept short or over the cap (→ backoff of at most 0.5 s for the one retry)
  await fc.assert(
    fc.asyncProperty(fc.array(behaviourArb, { minLength: 1, maxLength: 3 }), async (plan) => {
      let calls = 0;
      const inner = fakeFetch(plan);
      const t = new Transport({
        apiKey: KEY,
        baseUrl: "http://api.test/svc",
        fetch: (i, init) => {
          calls++;
          return inner(i, init);
        },
        maxRetries: 1,
        timeoutMs: 40,
      });
      const r = await settles(t.json({ method: "POST", path: "/search", body: { filter: {} } }));
      assert.ok(calls >= 1 && calls <= 2, `${calls} calls for maxRetries 1`);
      if ("error" in r) assertTyped(r.error, plan);
    }),
    { numRuns: 20, seed: 12, endOnFailure: true },
  );
});

Deno.test("property: downloads never read a non-http(s) URL, end typed or inside dir", async () => {
  const dir = await Deno.makeTempDir();
  const urlArb = fc.constantFrom(
    "http://files.test/a",
    "https://files.test/b",
    "file:///etc/hostname",
    "data:text/plain,hi",
    "blob:http://x/1",
    "ftp://files.test/c",
    "not a url",
  );
  await fc.assert(
    fc.asyncProperty(
      urlArb,
      fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(42, null, ["x"])),
      fc.array(behaviourArb, { minLength: 1, maxLength: 3 }),
      async (url, filename, plan) => {
        const read: string[] = [];
        const files = fakeFetch(plan);
        const c = new CatalogClient({
          apiKey: KEY,
          baseUrl: "http://fake/catalog",
          maxRetries: 0,
          timeoutMs: 40,
          fetch: (input, init) => {
            const u = input instanceof Request ? input.url : String(input);
            if (u.startsWith("http://fake/")) {
              return Promise.resolve(Response.json({ url, filename, format: "pdf" }));
            }
            read.push(u);
            return files(input, init);
          },
        });
        const r = await settles(c.download("p1", { dir }));
        for (const u of read) assert.match(u, /^https?:/, `read ${u}`);
        if ("ok" in r) {
          assert.ok(r.ok.startsWith(dir + "/"), r.ok);
          assert.ok(!r.ok.slice(dir.length + 1).includes("/"));
        } else assertTyped(r.error, { url, filename, plan });
      },
    ),
    { numRuns: 60, seed: 13, endOnFailure: true },
  );
  for (const e of Deno.readDirSync(dir)) assert.ok(!e.name.endsWith(".part"), "no half files");
  await Deno.remove(dir, { recursive: true });
});
