/** Issue 11: emulator body limit (413), unknown query parameters, signed-URL origin. */
import assert from "node:assert/strict";
import { CatalogClient, createStub, DEMO_KEYS } from "../../mod.ts";
import { serveStub } from "../../lib/stub/serve.ts";
import { auth, cat, expectProblem, ok, small, stub } from "./_helpers.ts";

const MB = 1024 * 1024;
const searchInit = (body: BodyInit, extra: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { ...auth(DEMO_KEYS.insider), "content-type": "application/json", ...extra },
  body,
});
/** A body of `n` bytes in 64 KB chunks, without a Content-Length. */
const streamOf = (n: number, byte = 0x20) => {
  let left = n;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (left <= 0) return c.close();
      const k = Math.min(left, 64 * 1024);
      left -= k;
      c.enqueue(new Uint8Array(k).fill(byte));
    },
  });
};
/** A valid search body padded with spaces to exactly `n` bytes. */
const padded = (n: number) => {
  const json = '{"filter":{},"pagination":{"pageSize":1}}';
  return json + " ".repeat(n - json.length);
};

Deno.test("a request body over 1 MB is 413 problem+json before parsing (in-process)", async () => {
  const s = small();
  // a body of exactly 1 MB is accepted
  await ok(await s.app.request("/insider/api/v1/search", searchInit(padded(MB))));
  // one byte more is refused, even though it is valid JSON
  let detail = await expectProblem(
    await s.app.request("/insider/api/v1/search", searchInit(padded(MB + 1))),
    413,
    "body-too-large",
  );
  assert.match(detail, /larger than 1048576 bytes \(1 MB\)/);
  // garbage is refused for its size, not parsed (would be a 400 otherwise)
  await expectProblem(
    await s.app.request("/insider/api/v1/search", searchInit("x".repeat(2 * MB))),
    413,
    "body-too-large",
  );
  // a declared Content-Length over the limit is refused without reading
  await expectProblem(
    await s.app.request(
      "/insider/api/v1/search",
      searchInit("{}", { "content-length": String(100 * MB) }),
    ),
    413,
  );
  // a streamed body without Content-Length is counted while read
  detail = await expectProblem(
    await s.app.request("/insider/api/v1/search", {
      ...searchInit(streamOf(8 * MB)),
      duplex: "half",
    } as RequestInit),
    413,
    "body-too-large",
  );
  // before authentication and routing too: any path, any key
  await expectProblem(
    await s.app.request("/catalog/api/v1/nope", { method: "POST", body: "x".repeat(MB + 1) }),
    413,
  );
});

Deno.test("over loopback: Content-Length and chunked bodies over 1 MB get 413, small ones pass", async () => {
  const ac = new AbortController();
  const { url, server } = await serveStub({ port: 0, seed: 1, scale: 0.2, signal: ac.signal });
  try {
    const post = (body: BodyInit) =>
      fetch(`${url}/insider/api/v1/search`, {
        ...searchInit(body),
        ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit);
    await expectProblem(await post(new Uint8Array(100 * MB).fill(0x20)), 413, "body-too-large");
    await expectProblem(await post(streamOf(8 * MB)), 413, "body-too-large");
    const r = await post(streamOf(MB - 100));
    assert.notEqual(r.status, 413, "a small (blank) body is not refused for its size");
    await r.body?.cancel();
    await ok(await post(padded(MB)));
  } finally {
    ac.abort();
    await server.finished;
  }
});

Deno.test("GET /pitches/{id}, /tags and /filter-sets reject unknown query parameters with 400", async () => {
  const id = stub().catalog.pitches[0].pitch_id;
  for (const path of [`/pitches/${id}?foo=1`, "/tags?foo=1", "/filter-sets?foo=1&bar=2"]) {
    const detail = await expectProblem(await cat(path), 400, "invalid-request");
    assert.match(detail, /foo: unknown parameter/);
  }
  assert.match(await expectProblem(await cat("/filter-sets?foo=1&bar=2"), 400), /bar/);
  // the staging bypass parameter of the spec is still accepted, and no parameter at all
  await ok(await cat(`/pitches/${id}?x-hosting-protection-bypass=t`));
  await ok(await cat(`/pitches/${id}`));
  await ok(await cat("/tags?x-hosting-protection-bypass=t"));
});

function docPitch(s = stub()) {
  return s.catalog.pitches.find((p) =>
    !s.catalog.locked(p) && p.archive.available && p.archive.formats.includes("pdf")
  )!.pitch_id;
}

Deno.test("signed document URLs use the configured origin, never the Host header", async () => {
  const configured = createStub({ seed: 1, scale: 0.2, origin: "https://files.example:8443" });
  const id = docPitch(configured);
  for (const host of [undefined, "evil.example", "127.0.0.1:1"]) {
    const res = await configured.app.request(
      `http://${host ?? "localhost"}/catalog/api/v1/pitches/${id}/document`,
      { headers: { ...auth(DEMO_KEYS.catalog), ...(host ? { host } : {}) } },
    );
    const doc = await ok<{ url: string }>(res);
    assert.ok(doc.url.startsWith("https://files.example:8443/catalog/files/"), doc.url);
  }
  // default: the offline origin, whatever the request said
  const d = await ok<{ url: string }>(
    await stub().app.request(`http://evil.example/catalog/api/v1/pitches/${docPitch()}/document`, {
      headers: { ...auth(DEMO_KEYS.catalog), host: "evil.example" },
    }),
  );
  assert.ok(d.url.startsWith("http://signalbook.offline/catalog/files/"), d.url);
  // redirect form too
  const r = await configured.app.request(
    `http://evil.example/catalog/api/v1/pitches/${id}/document?redirect=true`,
    { headers: { ...auth(DEMO_KEYS.catalog), host: "evil.example" } },
  );
  assert.equal(r.status, 302);
  assert.ok(r.headers.get("location")!.startsWith("https://files.example:8443/"));
});

Deno.test("over loopback a forged Host header does not move the signed URL; download works", async () => {
  const ac = new AbortController();
  const { url, server } = await serveStub({ port: 0, seed: 1, scale: 0.2, signal: ac.signal });
  try {
    const id = docPitch(createStub({ seed: 1, scale: 0.2 }));
    // fetch() will not forge Host, so speak HTTP/1.1 over a raw socket
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(
      new TextEncoder().encode(
        `GET /catalog/api/v1/pitches/${id}/document HTTP/1.1\r\nHost: evil.example\r\n` +
          `Authorization: Bearer ${DEMO_KEYS.catalog}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    assert.match(raw, /^HTTP\/1\.1 200/);
    const doc = JSON.parse(raw.slice(raw.indexOf("{"), raw.lastIndexOf("}") + 1));
    assert.ok(doc.url.startsWith(`${url}/catalog/files/`), doc.url);
    assert.ok(!doc.url.includes("evil.example"));
    const client = new CatalogClient({ apiKey: DEMO_KEYS.catalog, baseUrl: `${url}/catalog` });
    const dir = await Deno.makeTempDir();
    const path = await client.download(id, { dir, format: "pdf" });
    assert.equal(new TextDecoder().decode((await Deno.readFile(path)).slice(0, 8)), "%PDF-1.4");
    await Deno.remove(dir, { recursive: true });
  } finally {
    ac.abort();
    await server.finished;
  }
});

Deno.test("problem titles are HTTP's reason phrases, 413 under RFC 9110's name", async () => {
  const { problem } = await import("../../lib/stub/problem.ts");
  const titles = Object.fromEntries(
    await Promise.all([400, 401, 403, 404, 405, 413, 429, 500, 503].map(async (s) => {
      return [s, (await problem(s, "x", "y").json()).title];
    })),
  );
  assert.deepEqual(titles, {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Content Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
  });
});
