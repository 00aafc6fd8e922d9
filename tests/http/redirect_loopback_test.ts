/**
 * Redirects over a real socket (`lib/http/_transport_parts.ts`
 * `fetchResponse` asks fetch not to follow them): an API call that is
 * answered 302 fails with an InvalidResponseError naming the status and the
 * location, and the page the location points to is never requested; an
 * unsigned download follows the redirect itself (its own rules, at most 5),
 * so each hop is one request the client made. An injected fetch cannot show
 * this: only the platform's fetch follows a redirect on its own.
 */
import assert from "node:assert/strict";
import { InvalidResponseError, Transport } from "../../mod.ts";

function redirectingServer() {
  const seen: string[] = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      seen.push(path);
      if (path.endsWith("/moved")) {
        return new Response(null, { status: 302, headers: { location: "/api/v1/target" } });
      }
      if (path.endsWith("/file-moved")) {
        return new Response(null, { status: 302, headers: { location: "/file" } });
      }
      if (path === "/file") return new Response("pdf bytes");
      return Response.json({ data: [1, 2, 3] });
    },
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    seen,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

Deno.test("over loopback, an API call answered 302 is an InvalidResponseError and its target is never requested", async () => {
  const srv = redirectingServer();
  try {
    const t = new Transport({ apiKey: "k-redirect-test", baseUrl: srv.origin, maxRetries: 0 });
    await assert.rejects(
      t.json({ method: "GET", path: "/moved" }),
      (e) =>
        e instanceof InvalidResponseError && /answered 302/.test(e.message) &&
        /\/api\/v1\/target/.test(e.message) && /does not follow redirects/.test(e.message),
    );
    assert.deepEqual(srv.seen, ["/api/v1/moved"], "the redirect's target was not fetched");
    const ok = await t.json<{ data: number[] }>({ method: "GET", path: "/target" });
    assert.deepEqual(ok.data, [1, 2, 3], "the server answers the target itself");
  } finally {
    await srv.close();
  }
});

Deno.test("over loopback, an unsigned download follows a redirect by itself, one request per hop", async () => {
  const srv = redirectingServer();
  try {
    const t = new Transport({ apiKey: "k-redirect-test", baseUrl: srv.origin });
    const res = await t.fetchUnsigned(`${srv.origin}/file-moved`);
    assert.equal(await res.text(), "pdf bytes");
    assert.deepEqual(srv.seen, ["/file-moved", "/file"]);
  } finally {
    await srv.close();
  }
});
