/**
 * Keys in any shape: a key is checked when the client is made (trimmed;
 * blank, or holding a newline, NUL or other control character, refused
 * naming the variable or option, never printing the key), and a key a
 * server echoes upper-cased, lower-cased or in hex is redacted in every door
 * (message, detail, stack, JSON, inspect, causes), in `sync`'s exit line,
 * in events and never written to the response cache.
 */
import assert from "node:assert/strict";
import {
  AuthenticationError,
  cacheStats,
  ConfigurationError,
  connect,
  InsiderClient,
  InvalidResponseError,
} from "../../mod.ts";
import { checkApiKey, checkBaseUrl } from "../../lib/http/_config.ts";
import { redactorFor } from "../../lib/http/_redact.ts";
import { keyTexts } from "../../lib/http/_key_forms.ts";
import { keyMatcher } from "../../lib/http/_key_match.ts";
import { httpEvents } from "../../lib/http/events.ts";
import { Transport } from "../../lib/http/transport.ts";
import { loopback } from "../_loopback.ts";
import { doors, syncWithKey } from "../_key_doors.ts";

/** The key: built, not written out. */
const KEY = ["sk", "live", "Hx7Q2pW9", "zR4mT8vK"].join("-");
const hex = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Every shape of the key a leak could take (and long parts of it). */
function shapes(key: string): string[] {
  return [
    key,
    key.toUpperCase(),
    key.toLowerCase(),
    key.slice(0, 12),
    key.slice(-10),
    key.slice(-10).toUpperCase(),
    hex(key),
    hex(key).toUpperCase(),
    hex(key.toUpperCase()),
    hex(key).slice(8, 40),
    btoa(key).slice(0, 16),
  ];
}

function assertClean(text: string, what: string, key = KEY) {
  const compact = text.replace(/\\x|0x|[\s:,;-]/gi, "");
  const found = shapes(key).filter((s) =>
    text.includes(s) || (/^[0-9a-f]+$/i.test(s) && compact.includes(s))
  );
  assert.deepEqual(
    found,
    [],
    `${what}: the key leaked as ${found.join(", ")}\n${text.slice(0, 2000)}`,
  );
}

/** A service that answers 401 with the key it was sent, in one shape per path. */
function echoServer() {
  return loopback((req) => {
    const sent = (req.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, "");
    const path = new URL(req.url).pathname;
    const shape = path.match(/\/s(\d)\//)?.[1] ?? "0";
    const shown =
      [sent, sent.toUpperCase(), sent.toLowerCase(), hex(sent), hex(sent).toUpperCase()][
        Number(shape) % 5
      ];
    return Response.json({
      type: "about:blank",
      title: "Unauthorized",
      detail: `invalid API key ${shown} (upper ${sent.toUpperCase()}, hex ${hex(sent)})`,
    }, { status: 401 });
  });
}

Deno.test("checkApiKey: surrounding whitespace trimmed, CR-LF too", () => {
  for (const raw of [`${KEY}\r\n`, `${KEY}\n`, `  ${KEY}  `, `\t${KEY}`, `${KEY}\u00a0`]) {
    assert.equal(checkApiKey(raw, "INSIDER_API_KEY"), KEY);
  }
});

Deno.test("checkApiKey: blank, or a control character inside, is a ConfigurationError naming the variable, never the key", () => {
  const cases: [unknown, RegExp][] = [
    ["", /^MY_KEY is empty/],
    ["   ", /^MY_KEY is blank \(only whitespace\)/],
    ["\r\n", /^MY_KEY is blank/],
    [`${KEY.slice(0, 10)}\n${KEY.slice(10)}`, /^MY_KEY holds a newline inside the key/],
    [`${KEY.slice(0, 10)}\r\n${KEY.slice(10)}`, /^MY_KEY holds a carriage return inside/],
    [`${KEY.slice(0, 10)}\u0000${KEY.slice(10)}`, /^MY_KEY holds a NUL inside/],
    [`${KEY.slice(0, 10)}\t${KEY.slice(10)}`, /^MY_KEY holds a tab inside/],
    [`${KEY.slice(0, 10)}\u007f${KEY.slice(10)}`, /^MY_KEY holds a control character \(U\+007F\)/],
    [`${KEY.slice(0, 10)}\u0085${KEY.slice(10)}`, /^MY_KEY holds a control character \(U\+0085\)/],
    [
      `${KEY.slice(0, 10)}\u200b${KEY.slice(10)}`,
      /^MY_KEY holds a character outside ASCII \(U\+200B\)/,
    ],
    [
      `${KEY.slice(0, 10)}\u00a0${KEY.slice(10)}`,
      /^MY_KEY holds a character outside ASCII \(U\+00A0\)/,
    ],
    [
      `${KEY.slice(0, 10)}\u20ac${KEY.slice(10)}`,
      /^MY_KEY holds a character outside ASCII \(U\+20AC\)/,
    ],
    [undefined, /^MY_KEY is required: a non-empty string \(got undefined\)/],
    [42, /^MY_KEY is required.*\(got number\)/],
  ];
  for (const [value, want] of cases) {
    const e = (() => {
      try {
        checkApiKey(value, "MY_KEY");
      } catch (e) {
        return e;
      }
      assert.fail(`${JSON.stringify(value)} was accepted`);
    })();
    assert.ok(e instanceof ConfigurationError, String(e));
    assert.match(e.message, want);
    assertClean(doors(e), String(value), KEY.slice(10));
    assertClean(doors(e), String(value), KEY.slice(0, 10));
  }
});

Deno.test("a client made with a bad key or base URL: ConfigurationError naming the option", () => {
  const make = (apiKey: unknown, baseUrl = "http://x.test/insider") => () =>
    new InsiderClient({ apiKey: apiKey as string, baseUrl });
  assert.throws(
    make("   "),
    (e) => e instanceof ConfigurationError && /^apiKey is blank/.test(e.message),
  );
  assert.throws(make(`${KEY}\nX`), /^ConfigurationError: apiKey holds a newline/);
  for (
    const [url, want] of [
      ["http://x.test/insider?tenant=7", /^baseUrl holds a query/],
      ["http://x.test/insider#top", /^baseUrl holds a fragment/],
      ["http://x.test/insider?", /^baseUrl holds a query/],
      ["http://u:p@x.test/insider", /^baseUrl holds credentials/],
      ["ftp://x.test/insider", /^baseUrl has the scheme "ftp:"/],
      ["x.test/insider", /^baseUrl is not an absolute URL/],
      ["  ", /^baseUrl is blank/],
    ] as const
  ) {
    assert.throws(make(KEY, url), (e) => e instanceof ConfigurationError && want.test(e.message));
  }
  assert.equal(checkBaseUrl(" http://x.test/insider/ \n", "B"), "http://x.test/insider");
});

Deno.test("a key read with CR-LF, echoed raw, upper-cased, lower-cased or in hex: every door of the 401 is clean", async () => {
  const srv = echoServer();
  try {
    for (const padded of [`${KEY}\r\n`, `${KEY} `, `\t${KEY}\n`]) {
      const { catalog } = await connect({
        env: { PITCH_API_KEY: padded, PITCH_BASE_URL: `${srv.base}/catalog` },
        quiet: true,
        maxRetries: 0,
      });
      for (let shape = 0; shape < 5; shape++) {
        const e = await catalog.pitch(`s${shape}`).catch((e) => e);
        assert.ok(e instanceof AuthenticationError, String(e));
        assert.match(
          e.detail,
          /^invalid API key \[redacted\] \(upper \[redacted\], hex \[redacted\]\)$/,
        );
        assertClean(doors(e), `shape ${shape}`);
      }
    }
  } finally {
    await srv.close();
  }
});

Deno.test("redactorFor: upper-, lower-case and hex forms, in any case, inside longer text", () => {
  const r = redactorFor(`${KEY}\r\n`);
  for (
    const text of [
      `a ${KEY.toUpperCase()} b`,
      `a ${KEY.toLowerCase()}b`,
      `0x${hex(KEY)}ff`,
      `0X${hex(KEY).toUpperCase()}`,
      `hex of caps ${hex(KEY.toUpperCase())}`,
      `b64 of caps ${btoa("u:" + KEY.toUpperCase())}`,
      `%${[...new TextEncoder().encode(KEY)].map((b) => b.toString(16)).join("%")}`,
      `json ${JSON.stringify(KEY.toUpperCase())}`,
      `dump ${hex(KEY).match(/../g)!.join(" ")}`,
      `dump ${hex(KEY).toUpperCase().match(/../g)!.join(":")}`,
      `escaped ${hex(KEY).match(/../g)!.map((b) => `\\x${b}`).join("")}`,
      `array [${hex(KEY).match(/../g)!.map((b) => `0x${b}`).join(", ")}]`,
    ]
  ) {
    const out = r(text);
    assert.match(out, /\[redacted\]/, text);
    assertClean(out, text);
  }
  assert.ok(keyTexts(KEY).some((t) => t.text === hex(KEY)));
  assert.equal(keyMatcher(KEY).holds(`{"x":"${hex(KEY).toUpperCase()}"}`), true);
  assert.equal(keyMatcher(KEY).holds(`{"x":"sk-live"}`), false);
});

Deno.test("a 200 body echoing the key (raw, upper-cased, hex, a hex dump; base64 inside credentials, refused) is never written to the response cache; a clean one is", async () => {
  const dir = await Deno.makeTempDir();
  const srv = loopback((req) => {
    const sent = (req.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, "");
    const path = new URL(req.url).pathname;
    const echo = path.endsWith("/s0")
      ? sent
      : path.endsWith("/s1")
      ? sent.toUpperCase()
      : path.endsWith("/s2")
      ? hex(sent)
      : path.endsWith("/s3")
      ? btoa(`user:${sent}`)
      : path.endsWith("/s4")
      ? hex(sent).toUpperCase().match(/../g)!.join(" ")
      : "nothing";
    return Response.json({ accessionNumber: "1", note: echo });
  });
  try {
    const t = new Transport({
      apiKey: `${KEY}\r\n`,
      baseUrl: `${srv.base}/insider`,
      cache: { dir },
      maxRetries: 0,
    });
    cacheStats({ reset: true });
    for (const s of ["s0", "s1", "s2", "s4"]) {
      const body = await t.json<{ note: string }>({ method: "GET", path: `/x/${s}` });
      assert.equal(body.note, "[redacted]", "the answer still reaches the caller");
    }
    // inside a longer text (`Basic` credentials): the answer is refused, nothing is cut
    const refused = await t.json({ method: "GET", path: "/x/s3" }).catch((e) => e);
    assert.ok(refused instanceof InvalidResponseError, String(refused));
    const notStored = cacheStats().notStored;
    await t.json({ method: "GET", path: "/x/clean" });
    const files: string[] = [];
    const walk = async (d: string) => {
      for await (const e of Deno.readDir(d)) {
        if (e.isDirectory) await walk(`${d}/${e.name}`);
        else files.push(`${d}/${e.name}`);
      }
    };
    await walk(dir);
    const all = (await Promise.all(files.map((f) => Deno.readTextFile(f)))).join("\n");
    assertClean(all, "cache folder");
    assert.equal(notStored, 4, "each keyed body read is counted as not stored");
    assert.equal(files.length, 1, `only the clean answer is stored: ${files.join(", ")}`);
    assert.match(all, /nothing/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a field named after the key: the frame event's extra[].name is redacted", async () => {
  const srv = loopback(() =>
    Response.json({
      data: [{
        accessionNumber: "0000000001-24-000001",
        transactionId: 1,
        filedAt: "2024-05-01T15:00:00Z",
        [KEY.toUpperCase()]: 1,
      }],
      hasMore: false,
    })
  );
  const seen: unknown[] = [];
  const listen = (e: Event) => seen.push((e as CustomEvent).detail);
  httpEvents.addEventListener("frame", listen);
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...a: unknown[]) => warnings.push(a.map(String).join(" "));
  try {
    const insider = new InsiderClient({ apiKey: KEY, baseUrl: `${srv.base}/insider` });
    await insider.search({}).frame({ progress: false });
  } finally {
    console.warn = warn;
    httpEvents.removeEventListener("frame", listen);
    await srv.close();
  }
  assert.ok(seen.length > 0, "a frame event was sent");
  const extra = seen.flatMap((d) => (d as { extra?: { name: string }[] }).extra ?? []);
  assert.ok(extra.some((x) => x.name === "[redacted]"), JSON.stringify(extra));
  assertClean(JSON.stringify(seen), "frame events");
  assertClean(warnings.join("\n"), "warnings");
});

Deno.test("sync's exit line, with a key read with CR-LF and echoed upper-cased and in hex, shows no key", async () => {
  const srv = echoServer();
  try {
    const out = await syncWithKey(srv.base, `${KEY}\r\n`);
    const text = out.stdout + out.stderr;
    assert.equal(out.code, 1, text);
    assert.match(text, /^sync: the service refused the API key \(401 invalid API key \[redacted\]/);
    assertClean(text, "sync's exit line");
  } finally {
    await srv.close();
  }
});
