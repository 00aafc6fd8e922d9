/**
 * Keys leak through no door (issue 31, Deliver 2): one key, built here, is
 * put where a hostile server or a broken `fetch` would put it — a cursor, a
 * row's value, a field name, a URL, a string cause, an axios-style config,
 * an `AggregateError`, a cause 12 deep, `Headers` — in each of its
 * encodings, and every way an error or a warning can be read is searched
 * for it: `message`, `String(err)`, `stack`, `JSON.stringify`,
 * `Deno.inspect` with hidden properties, causes, `partial`, `cursor`,
 * console warnings.
 */
import assert from "node:assert/strict";
import {
  InsiderClient,
  InvalidResponseError,
  PaginationError,
  SignalbookError,
} from "../../mod.ts";
import { knownKeys, redactError, redactKnownKeys } from "../../lib/http/_redact.ts";
import { keyTexts } from "../../lib/http/_key_forms.ts";
import { loopback } from "../_loopback.ts";
import { b64, doors, KEY, keyedSearchPage, leaks, lowerEscapes, pyQuote } from "../_key_doors.ts";

function assertNoKey(text: string, what: string) {
  const found = leaks(text);
  assert.deepEqual(
    found,
    [],
    `${what}: the key leaked as ${found.join(", ")}\n${text.slice(0, 3000)}`,
  );
}

knownKeys.register(KEY);

Deno.test("every encoding of the key is redacted: URL-encoded in either case, Python quote, form, JSON with \\/, base64 at 3 alignments", () => {
  const texts = [
    KEY,
    `key=${encodeURIComponent(KEY)}`,
    `key=${lowerEscapes(encodeURIComponent(KEY))}`,
    `q=${pyQuote(KEY)}&p=${pyQuote(KEY, true)}`,
    `form ${new URLSearchParams({ k: KEY })}`,
    `{"k":${JSON.stringify(KEY).replace(/\//g, "\\/")}}`,
    `Basic ${b64("user:" + KEY)}`,
    `c=${b64(JSON.stringify({ o: 1, k: KEY }))}`,
    `c=${b64("a" + KEY + "b")} ${b64("ab" + KEY)}`,
    `url-safe ${b64("abc" + KEY).replace(/\+/g, "-").replace(/\//g, "_")}`,
  ];
  for (const t of texts) assertNoKey(redactKnownKeys(t), t);
  assert.ok(keyTexts(KEY).length >= 6);
});

Deno.test("redactError walks every door: string cause, axios config, AggregateError, plain objects, 12 deep, Headers", () => {
  let deep: unknown = new Error(`bottom ${KEY}`);
  for (let i = 0; i < 12; i++) deep = new Error(`level ${i}`, { cause: deep });
  const cases: unknown[] = [
    new Error("string cause", { cause: `token ${KEY}` }),
    Object.assign(new Error("axios"), {
      config: { headers: { Authorization: `Bearer ${KEY}` }, url: `https://x/?k=${KEY}` },
    }),
    new AggregateError([new Error(`first ${KEY}`), { detail: KEY }], "several"),
    new Error("plain", { cause: { nested: [{ deeper: { key: KEY } }] } }),
    deep,
    new Error("headers", { cause: { headers: new Headers({ authorization: `Bearer ${KEY}` }) } }),
    new SignalbookError("wrapped", { cause: { response: { data: `echo ${b64(KEY)}` } } }),
  ];
  for (const e of cases) {
    redactError(e, redactKnownKeys);
    assertNoKey(doors(e), String(e));
  }
});

/** A loopback insider service that puts the key everywhere it can. */
function hostileServer() {
  return loopback(async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path.endsWith("/search")) return await keyedSearchPage(req);
    if (path.endsWith("/feeds")) {
      return Response.json({
        type: "about:blank",
        title: "Bad",
        detail: `key ${lowerEscapes(encodeURIComponent(KEY))} / ${pyQuote(KEY)} / ${
          b64("u:" + KEY)
        } / ${JSON.stringify(KEY).replace(/\//g, "\\/")}`,
      }, { status: 400 });
    }
    return new Response("no", { status: 404 });
  });
}

Deno.test("a cursor holding the key: PaginationError's message, cursor, partial, JSON and inspect are clean; warnings print no value", async () => {
  const srv = hostileServer();
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...a: unknown[]) => warnings.push(a.map(String).join(" "));
  try {
    const insider = new InsiderClient({
      apiKey: KEY,
      baseUrl: `${srv.base}/insider`,
      maxRetries: 0,
    });
    for (const parallel of [1, 4]) {
      const e = await insider.search({}, { parallel }).take(100).catch((e) => e);
      assert.ok(e instanceof PaginationError, String(e));
      assertNoKey(doors(e), `take, parallel ${parallel}`);
      const f = await insider.search({}, { parallel }).frame({ progress: false }).catch((e) => e);
      assert.ok(f instanceof PaginationError, String(f));
      assertNoKey(doors(f), `frame, parallel ${parallel}`);
    }
    const df = await insider.search({}).frame({ maxRows: 1, progress: false });
    assert.equal(df.height, 1);
    const bad = await insider.feeds({ feedIds: [15] }).take(5).catch((e) => e);
    assert.equal(bad.name, "BadRequestError");
    assertNoKey(doors(bad), "problem detail");
    const transport = (insider as unknown as {
      transport: { fetchUnsigned(u: string): Promise<Response> };
    }).transport;
    const url = await transport.fetchUnsigned(`file:///${KEY}/x`).catch((e) => e);
    assert.equal(url.name, "UnsupportedUrlError");
    assertNoKey(doors(url), "unsupported URL");
  } finally {
    console.warn = warn;
    await srv.close();
  }
  assert.ok(warnings.length > 0, "the bad value was reported");
  assertNoKey(warnings.join("\n"), "warnings");
});

Deno.test("an injected fetch that throws the key every way: the thrown error is clean", async () => {
  const throwers: (() => never)[] = [
    () => {
      throw new TypeError("fetch failed", { cause: `Authorization: Bearer ${KEY}` });
    },
    () => {
      throw Object.assign(new Error("Request failed"), {
        config: { headers: { Authorization: `Bearer ${KEY}`, "X-Api-Key": KEY } },
      });
    },
    () => {
      throw new AggregateError([new Error(`connect ${KEY}`)], "all failed");
    },
    () => {
      let e: unknown = new Error(`root ${b64("k:" + KEY)}`);
      for (let i = 0; i < 12; i++) e = new Error(`wrap ${i}`, { cause: e });
      throw e;
    },
  ];
  for (const thrower of throwers) {
    const insider = new InsiderClient({
      apiKey: KEY,
      baseUrl: "http://x.test/insider",
      maxRetries: 0,
      fetch: () => Promise.resolve().then(thrower),
    });
    const e = await insider.search({}).take(1).catch((e) => e);
    assert.ok(e instanceof Error);
    assertNoKey(doors(e), e.message);
  }
  assert.ok(InvalidResponseError);
});
