/**
 * Issue 25.3: the client's own key never leaves in a message, even when a
 * server echoes the Authorization header back (library errors and a CLI's
 * one-line error).
 */
import assert from "node:assert/strict";
import {
  AuthenticationError,
  CatalogClient,
  ConnectionError,
  InsiderClient,
  InvalidResponseError,
  ServerError,
} from "../../mod.ts";
import { redactorFor } from "../../lib/http/_redact.ts";
import { loopback } from "../_loopback.ts";
import { syncWithKey } from "../_key_doors.ts";

const KEY = "sk-live-7f3a9c2e51d04b8a";

/** A loopback server that echoes the Authorization header in every way it can. */
function echoServer() {
  return loopback(
    (req) => {
      const auth = req.headers.get("authorization") ?? "";
      const key = auth.replace(/^Bearer\s+/i, "");
      const path = new URL(req.url).pathname;
      if (path.startsWith("/html/")) {
        return new Response(`<html><pre>${auth}</pre></html>`, { status: 500 });
      }
      if (path.startsWith("/ok-but-text/")) return new Response(`echo: ${auth}`);
      // the key straddles the cut of an excerpt (200 characters of detail, 40 of a bad 2xx body)
      if (path.startsWith("/cut/")) {
        return new Response(`${"x".repeat(185)} ${key}`, { status: 500 });
      }
      if (path.startsWith("/cut-ok/")) return new Response(`${"y".repeat(30)} ${key}`);
      if (path.startsWith("/raw-ok/")) return new Response(`${key} is your key`);
      if (path.startsWith("/encoded/")) {
        return Response.json({
          type: "about:blank",
          title: `Bad key ${encodeURIComponent(key)}`,
          detail: `see https://x.test/?key=${encodeURIComponent(key)}`,
        }, { status: 400 });
      }
      return Response.json({
        type: "https://x.test/problems/unauthorized",
        title: `Unauthorized (${auth})`,
        detail: `invalid API key ${auth}`,
      }, { status: 401 });
    },
  );
}

/** Every string an error shows: message, stack, problem fields, causes. */
function everything(e: unknown): string {
  const out: string[] = [];
  for (let x = e, i = 0; x instanceof Error && i < 8; x = x.cause, i++) {
    out.push(String(x), x.message, x.stack ?? "", JSON.stringify(x));
    for (const f of ["detail", "title", "url"]) out.push(String((x as never)[f] ?? ""));
  }
  return out.join("\n");
}

function noKey(e: unknown, what: string) {
  const text = everything(e);
  assert.ok(!text.includes(KEY), `${what}: the key leaked:\n${text}`);
  assert.ok(!text.includes(encodeURIComponent(KEY).slice(3)), `${what}: an encoded key leaked`);
  assert.ok(!text.includes(KEY.slice(0, 10)), `${what}: part of the key leaked:\n${text}`);
}

Deno.test("a server echoing the Authorization header: no key in message, detail, title, stack or JSON", async () => {
  const srv = echoServer();
  try {
    const catalog = new CatalogClient({
      apiKey: KEY,
      baseUrl: `${srv.base}/catalog`,
      maxRetries: 0,
    });
    const e401 = await catalog.tags().then(() => assert.fail("no error"), (e) => e);
    assert.ok(e401 instanceof AuthenticationError, `${e401}`);
    assert.match(e401.detail, /^invalid API key Bearer \[redacted\]$/);
    assert.match(e401.message, /Unauthorized \(Bearer \[redacted\]\)/);
    noKey(e401, "401");
    // the same through a list, a hydrate and a frame
    const insider = new InsiderClient({
      apiKey: KEY,
      baseUrl: `${srv.base}/insider`,
      maxRetries: 0,
    });
    const list = await insider.search({}).frame().then(() => assert.fail("no error"), (e) => e);
    noKey(list, "search().frame()");
    const h = await insider.hydrate([{ accessionNumber: "a", transactionId: 1 }] as never, {
      progress: false,
    });
    assert.equal(h.failed.length, 1);
    noKey(h.failed[0].error, "hydrate");
    // a 500 HTML page, a 200 that is not JSON, a URL-encoded echo, keys across an excerpt's cut
    const paths = [
      ["/html", ServerError],
      ["/ok-but-text", InvalidResponseError],
      ["/encoded", Error],
      ["/cut", ServerError],
      ["/cut-ok", InvalidResponseError],
      ["/raw-ok", InvalidResponseError],
    ] as const;
    for (const [path, type] of paths) {
      const t = new CatalogClient({ apiKey: KEY, baseUrl: `${srv.base}${path}`, maxRetries: 0 });
      const e = await t.tags().then(() => assert.fail(`${path}: no error`), (x) => x);
      assert.ok(e instanceof type, `${path}: ${e}`);
      noKey(e, path);
      assert.match(e.message, /\[redacted/, `${path}: ${e.message}`);
    }
  } finally {
    await srv.close();
  }
});

Deno.test("an injected fetch whose exception holds the key: the ConnectionError and its cause are clean", async () => {
  const catalog = new CatalogClient({
    apiKey: KEY,
    baseUrl: "http://api.test/catalog",
    maxRetries: 0,
    fetch: (_input, init) => {
      const auth = new Headers(init?.headers).get("authorization");
      return Promise.reject(new TypeError(`proxy refused request with authorization=${auth}`));
    },
  });
  const e = await catalog.tags().then(() => assert.fail("no error"), (x) => x);
  assert.ok(e instanceof ConnectionError, `${e}`);
  noKey(e, "ConnectionError");
  assert.match(e.message, /authorization=Bearer \[redacted\]/);
});

Deno.test("the CLI's one-line error never shows the key a server echoed", async () => {
  const srv = echoServer();
  try {
    const { code, stdout, stderr } = await syncWithKey(srv.base, KEY);
    assert.equal(code, 1, stderr);
    assert.match(
      stderr,
      /^sync: the service refused the API key \(401 invalid API key Bearer \[redacted\]\)/,
    );
    assert.ok(!stderr.includes(KEY) && !stdout.includes(KEY), `the key leaked:\n${stderr}`);
  } finally {
    await srv.close();
  }
});

Deno.test("redactorFor: the key anywhere (raw, URL-encoded, JSON-escaped), any credential-like bearer token; short keys only as whole tokens", () => {
  const r = redactorFor('sk"live/12345');
  assert.equal(r('a sk"live/12345 b'), "a [redacted] b");
  assert.equal(r("a sk%22live%2F12345 b"), "a [redacted] b");
  assert.equal(r('a sk\\"live/12345 b'), "a [redacted] b");
  assert.equal(r("Authorization: bearer abcdefgh12"), "Authorization: bearer [redacted]");
  assert.equal(r("send Authorization: Bearer <API_KEY>"), "send Authorization: Bearer <API_KEY>");
  assert.equal(r(r("Bearer abcdefgh12")), "Bearer [redacted]", "idempotent");
  const short = redactorFor("k1");
  assert.equal(
    short("k1 and (k1) but not k12 or ak1"),
    "[redacted] and ([redacted]) but not k12 or ak1",
  );
});

Deno.test("errors built above the transport from server data (a malformed row) hide every client's key too", async () => {
  const { pitchesFrame } = await import("../../mod.ts");
  new CatalogClient({ apiKey: KEY, baseUrl: "http://api.test/catalog" }); // registers the key
  const err = (() => {
    try {
      pitchesFrame([{ pitch_id: "p1", pitch: `Bearer ${KEY}` }, { pitch_id: KEY }] as never);
    } catch (e) {
      return e as Error;
    }
    assert.fail("no error");
  })();
  assert.ok(err instanceof InvalidResponseError, `${err}`);
  noKey(err, "malformed row");
  assert.match(err.message, /"pitch" is "Bearer \[redacted\]"/);
});

Deno.test("a key echoed into a problem's type is redacted too", async () => {
  const catalog = new CatalogClient({
    apiKey: KEY,
    baseUrl: "http://api.test/catalog",
    maxRetries: 0,
    fetch: () =>
      Promise.resolve(
        Response.json({ type: `https://x.test/${KEY}`, title: "No", detail: "no" }, {
          status: 403,
        }),
      ),
  });
  const e = await catalog.tags().then(() => assert.fail("no error"), (x) => x);
  noKey(e, "type");
  assert.equal(e.type, "https://x.test/[redacted]");
});
