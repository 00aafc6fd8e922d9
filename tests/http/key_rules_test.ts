/**
 * The key's rules (`lib/http/_key_match.ts`, `_redact.ts`): the shared case
 * suite; bodies whose values merely hold the key are returned unchanged and
 * bodies that echo it never carry it; keys of any length (4,096 and 100,000
 * characters) work and never throw; the `KEY_MIN_LENGTH` boundary through
 * the client; the error walker through `Map`, `Set`, getters, deep and wide
 * graphs and cycles; the statuses that open the circuit, through the
 * transport.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ConnectionError,
  InsiderClient,
  InvalidResponseError,
  partialOf,
  SignalbookError,
  Transport,
} from "../../mod.ts";
import { KEY_MIN_LENGTH, keyMatcher } from "../../lib/http/_key_match.ts";
import { knownKeys, redactError, redactKnownKeys } from "../../lib/http/_redact.ts";
import { CIRCUIT_ROUNDS } from "../../lib/http/limiter.ts";
import { runKeyCases } from "./_key_cases.ts";

Deno.test("the shared key cases hold for keyMatcher", () => {
  runKeyCases(keyMatcher);
});

const ALPHABET = [..."abcdefghijkXYZ0123456789-_."];
const WORD = [..."abcdefghijkXYZ0123456789"];
const keyArb = fc.array(fc.constantFrom(...ALPHABET), { minLength: KEY_MIN_LENGTH, maxLength: 40 })
  .map((a) => a.join(""))
  .filter((k) => /[a-z]/.test(k));

Deno.test("a body whose values hold the key as a proper part (beside more of its alphabet) comes back unchanged", () => {
  fc.assert(
    fc.property(
      keyArb,
      fc.array(
        fc.tuple(
          // letters and digits: always of the key's alphabet (its own other characters too)
          fc.array(fc.constantFrom(...WORD), { maxLength: 4 }).map((a) => a.join("")),
          fc.array(fc.constantFrom(...WORD), { maxLength: 4 }).map((a) => a.join("")),
        ).filter(([a, b]) => a !== "" || b !== ""),
        { minLength: 1, maxLength: 5 },
      ),
      (key, parts) => {
        const body = JSON.stringify({
          data: parts.map(([a, b], i) => ({ [`f${i}`]: `${a}${key}${b}`, n: i })),
        });
        assert.deepEqual(keyMatcher(key).scrub(body), { text: body, count: 0, inside: 0 });
        assert.equal(keyMatcher(key).holds(body), false);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a body that echoes the key is never returned with it: a whole value (upper-cased too) is replaced; a word of a value or of a field name is refused, nothing cut", () => {
  fc.assert(
    fc.property(keyArb, fc.constantFrom("v", "word", "field", "upper"), (key, how) => {
      const echo = how === "upper" ? key.toUpperCase() : key;
      const body = JSON.stringify({
        data: [
          how === "field" ? { [`x ${echo}`]: 1 } : {
            a: how === "word" ? `you are ${echo} ok` : echo,
            b: "x",
          },
        ],
      });
      const { text, count, inside } = keyMatcher(key).scrub(body);
      if (how === "word" || how === "field") {
        assert.deepEqual({ text, count, inside }, { text: body, count: 0, inside: 1 }, body);
        return;
      }
      assert.ok(count >= 1, body);
      assert.equal(inside, 0, body);
      assert.ok(!text.toLowerCase().includes(key.toLowerCase()), text);
      JSON.parse(text);
    }),
    { numRuns: 300 },
  );
});

/** A fetch that echoes the key it was sent in a problem's detail (401) or a 200 body. */
function echoKey(status: number): typeof fetch {
  return (_input, init) => {
    const sent = new Headers(init?.headers).get("authorization")!.replace(/^Bearer /, "");
    return Promise.resolve(
      status === 200
        ? Response.json({ data: [{ echo: sent }], hasMore: false })
        : Response.json({ type: "about:blank", title: "No", detail: `bad key ${sent}` }, {
          status,
        }),
    );
  };
}

Deno.test("keys of 4,096 and 100,000 characters: requests work, nothing throws, the key shows nowhere", async () => {
  for (const n of [4096, 100_000]) {
    const key = Array.from(
      { length: n },
      (_, i) => "abcdefghijklmnopqrstuvwxyz0123456789"[(i * 7 + (i >> 3)) % 36],
    )
      .join("");
    const t0 = performance.now();
    const ok = new Transport({
      apiKey: key,
      baseUrl: "http://x.test/insider",
      fetch: echoKey(200),
    });
    const body = await ok.json<{ data: { echo: string }[] }>({ method: "GET", path: "/x" });
    assert.equal(body.data[0].echo, "[redacted]");
    const bad = new Transport({
      apiKey: key,
      baseUrl: "http://x.test/insider",
      maxRetries: 0,
      fetch: echoKey(401),
    });
    const e = (await bad.json({ method: "GET", path: "/x" }).catch((e) => e)) as Error;
    assert.equal(e.name, "AuthenticationError", String(e).slice(0, 300));
    const shown = [e.message, String(e), JSON.stringify(e), Deno.inspect(e, { depth: 20 })].join(
      "\n",
    );
    assert.ok(!shown.includes(key.slice(0, 64)), shown.slice(0, 300));
    assert.ok(shown.length < 10_000, `a message of ${shown.length} characters`);
    const ms = performance.now() - t0;
    // linear: a 100,000-character key costs seconds at most, never minutes (the old pattern threw)
    assert.ok(ms < 30_000, `${n}: ${ms} ms`);
  }
});

/** Warnings printed while `f` runs. */
async function warningsOf(f: () => unknown): Promise<string[]> {
  const warn = console.warn;
  const said: string[] = [];
  console.warn = (...a: unknown[]) => said.push(a.map(String).join(" "));
  try {
    await f();
  } finally {
    console.warn = warn;
  }
  return said;
}

Deno.test("KEY_MIN_LENGTH through the client: a key of that length is scanned in bodies and hidden in errors made far from it; one character less is warned about once, and hidden in the client's own errors", async () => {
  const long = "Zq".repeat(KEY_MIN_LENGTH / 2); // exactly KEY_MIN_LENGTH
  const short = long.slice(1); // one less
  for (const key of [long, short]) {
    const said = await warningsOf(async () => {
      const client = () =>
        new InsiderClient({ apiKey: key, baseUrl: "http://x.test/insider", fetch: echoKey(200) });
      const rows = await client().search({}).take(1).catch(() => []);
      client(); // a second client with the same key: no second warning
      const e = await new Transport({
        apiKey: key,
        baseUrl: "http://x.test/insider",
        maxRetries: 0,
        fetch: echoKey(401),
      }).json({ method: "GET", path: "/x" }).catch((e) => e) as Error;
      assert.ok(!String(e.message).includes(key), e.message);
      const far = new InvalidResponseError(`row 3 is "${key}"`);
      if (key === long) {
        assert.ok(!far.message.includes(key), "registered: hidden in errors built anywhere");
        assert.ok(knownKeys.holds(`{"a":"${key}"}`));
        assert.ok(!JSON.stringify(rows).includes(key), "scanned in bodies");
      } else {
        assert.ok(far.message.includes(key), "a short key is not registered for the process");
        assert.equal(redactKnownKeys(key), key);
      }
    });
    const about = said.filter((w) => w.includes(`fewer than ${KEY_MIN_LENGTH}`));
    assert.equal(about.length, key === long ? 0 : 1, said.join("\n"));
    assert.ok(!about.join("").includes(key), "the warning holds no key");
  }
});

Deno.test("redactError walks Map keys and values, Set members, getters, 20,000-deep and 20,000-wide graphs and cycles", () => {
  const KEY = "sk-live-walker-0123456789";
  knownKeys.register(KEY);
  let deep: Record<string, unknown> = { leaf: `deep ${KEY}` };
  for (let i = 0; i < 20_000; i++) deep = { next: deep };
  const wide = Array.from({ length: 20_000 }, (_, i) => ({ i, v: i === 19_999 ? KEY : "x" }));
  const cycle: Record<string, unknown> = { s: `cycle ${KEY}` };
  cycle.self = cycle;
  const withGetter = {};
  Object.defineProperty(withGetter, "secret", {
    get: () => `got ${KEY}`,
    enumerable: true,
    configurable: true,
  });
  const cause = {
    map: new Map<unknown, unknown>([[KEY, 1], ["v", `value ${KEY}`], [{ k: KEY }, 2]]),
    set: new Set([`member ${KEY}`, 3]),
    withGetter,
    deep,
    wide,
    cycle,
  };
  const e = new SignalbookError("failed", { cause });
  redactError(e, redactKnownKeys); // already done by the constructor; again is harmless
  const shown = [
    e.message,
    String(e),
    JSON.stringify(e),
    JSON.stringify(withGetter),
    Deno.inspect(e, { depth: Infinity, showHidden: true, getters: true }),
    Deno.inspect(cause.map, { depth: 5 }),
    Deno.inspect(cause.set),
    JSON.stringify(wide),
    JSON.stringify([...cause.map.entries()]),
  ].join("\n");
  assert.ok(!shown.includes(KEY), shown.slice(shown.indexOf(KEY) - 200, shown.indexOf(KEY) + 50));
  let d: Record<string, unknown> = deep;
  while (d.next) d = d.next as Record<string, unknown>;
  assert.equal(d.leaf, "deep [redacted]");
  assert.equal(wide[19_999].v, "[redacted]");
  assert.equal((withGetter as { secret: string }).secret, "got [redacted]");
});

for (const status of [502, 503, 504]) {
  Deno.test(`${status} answers through the transport open the circuit after ${CIRCUIT_ROUNDS} refused rounds`, async () => {
    let requests = 0;
    const t = new Transport({
      apiKey: "sk-test-circuit-statuses",
      baseUrl: "http://x.test/insider",
      maxRetries: 20,
      fetch: () => {
        requests++;
        return Promise.resolve(
          new Response("{}", { status, headers: { "retry-after-ms": "0" } }),
        );
      },
    });
    const e = (await t.json({ method: "GET", path: "/x" }).catch((e) => e)) as {
      type: string;
      status: number;
    };
    assert.equal(e.type, "circuit-open", String(e));
    assert.equal(e.status, status);
    assert.equal(requests, CIRCUIT_ROUNDS);
  });
}

Deno.test("a text full of a key's anchor character: the key is still found (each form is then searched whole), in time linear in the text", () => {
  const key = "sk/live+0123456789abcdef"; // plain and quote() share the anchor "/"
  for (const filler of ["/", "k", "%", "sk/", "x"]) {
    const text = `{"a":"${filler.repeat(300_000 / filler.length)} ${key}"}`;
    const t0 = performance.now();
    assert.equal(keyMatcher(key).holds(text), true, filler);
    assert.ok(keyMatcher(key).redact(text).endsWith(' [redacted]"}'), filler);
    assert.ok(performance.now() - t0 < 10_000, `${filler}: ${performance.now() - t0} ms`);
  }
});

Deno.test("a key in a failed request's cause as a RegExp or as bytes is printed nowhere (message, String, JSON, Deno.inspect)", async () => {
  const key = "sk_live_cause_secret_ABCDEF123456";
  const bytes = [...new TextEncoder().encode(key)];
  const causes: Record<string, () => unknown> = {
    regexp: () => new RegExp(`token=${key}`),
    bytes: () => new TextEncoder().encode(`{"key":"${key}"}`),
    "bytes alone": () => new TextEncoder().encode(key),
    "a buffer": () => new TextEncoder().encode(key).buffer,
    "a view of a larger buffer": () => new DataView(new TextEncoder().encode(`..${key}..`).buffer),
  };
  for (const [name, cause] of Object.entries(causes)) {
    const client = new InsiderClient({
      apiKey: key,
      baseUrl: "http://cause.test/insider",
      maxRetries: 0,
      fetch: () =>
        Promise.reject(new TypeError(`fetch failed: ${String(cause())}`, { cause: cause() })),
    });
    const e = await client.feeds({ feedIds: [1] }).take(1).catch((e) => e);
    assert.ok(e instanceof Error, name);
    for (
      const [where, text] of Object.entries({
        message: e.message,
        string: String(e),
        json: JSON.stringify(e) ?? "",
        inspect: Deno.inspect(e, { depth: 100 }),
      })
    ) {
      assert.ok(!text.includes(key), `${name}: the key in ${where}`);
      assert.ok(!text.includes(bytes.join(",")), `${name}: its bytes in ${where}`);
      assert.ok(!text.includes(bytes.slice(0, 8).join(", ")), `${name}: its bytes in ${where}`);
    }
  }
});

Deno.test("a key in a read-only property of a failed request's cause (non-enumerable, or of a frozen object) is printed nowhere, Deno.inspect with showHidden included", async () => {
  const key = "sk_live_hidden_secret_ABCDEF123456";
  const causes: Record<string, () => unknown> = {
    "a non-enumerable property": () => Object.defineProperty({}, "h", { value: key }),
    "a frozen object": () => Object.freeze({ authorization: `Bearer ${key}` }),
    "a frozen object without a prototype (no string form)": () =>
      Object.freeze(Object.assign(Object.create(null), { token: key })),
  };
  for (const [name, cause] of Object.entries(causes)) {
    const client = new InsiderClient({
      apiKey: key,
      baseUrl: "http://hidden.test/insider",
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError("fetch failed", { cause: cause() })),
    });
    const e = await client.feeds({ feedIds: [1] }).take(1).catch((e) => e);
    assert.ok(e instanceof ConnectionError, `${name}: ${e}`);
    const shown = Deno.inspect(e, { showHidden: true, depth: 100 });
    assert.ok(!shown.includes(key), `${name}: the key in ${shown}`);
    assert.match(shown, /\[Object redacted\]/, `${name}: ${shown}`);
  }
});

Deno.test("a key made of words: a whole value that is the key is replaced; inside a longer value it is never cut out, the answer is refused with the rows read before it", async () => {
  const key = "Stock Option (Right to Buy";
  const row = (id: number, title: string) => ({
    accessionNumber: `0000000001-24-00000${id}`,
    transactionId: id,
    filedAt: "2024-05-01T15:00:00Z",
    securityTitle: title,
  });
  const pages = [
    { data: [row(1, key), row(2, "Common Stock")], nextCursor: "p2", hasMore: true },
    { data: [row(3, `${key})`)], nextCursor: null, hasMore: false },
  ];
  let sent = 0;
  const client = new InsiderClient({
    apiKey: key,
    baseUrl: "http://words.test/insider",
    maxRetries: 0,
    fetch: () => Promise.resolve(Response.json(pages[Math.min(sent++, 1)])),
  });
  const warn = console.warn;
  console.warn = () => {};
  try {
    const e = await client.search({}).take(10).catch((e) => e);
    assert.ok(e instanceof InvalidResponseError, String(e));
    assert.match(e.message, /API key inside a longer text .*the answer is refused/);
    const rows = partialOf<Record<string, unknown>[]>(e)?.rows ?? [];
    assert.deepEqual(rows.map((r) => r.securityTitle), ["[redacted]", "Common Stock"]);
    const shown = [e.message, JSON.stringify(e), Deno.inspect(e, { showHidden: true, depth: 50 })];
    assert.ok(!shown.join("\n").includes(key), shown.join("\n"));
  } finally {
    console.warn = warn;
  }
});
