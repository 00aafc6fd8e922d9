/**
 * A key of digits only, echoed by a server as a bare JSON number (a row's
 * value, a cursor): the body scrubber replaces the whole number by the
 * string `"[redacted]"`, so the answer still parses, and the key shows
 * through no door (message, `JSON.stringify`, `Deno.inspect`, causes,
 * `partial`), whatever shape the key was configured in (digits alone, with
 * a trailing newline or CR-LF, with blanks around it, with leading zeros).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { InsiderClient, PaginationError, partialOf } from "../../mod.ts";
import { bodyScrubberFor } from "../../lib/http/_redact.ts";
import { doors } from "../_key_doors.ts";

const hex = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The key's shapes a leak could take: as is, its hex, long parts of it. */
function leaks(text: string, key: string): string[] {
  return [key, hex(key), key.slice(0, 8), key.slice(-8)].filter((s) => text.includes(s));
}

/** The ways a server may write the key as a bare JSON number. */
const NUMBER_FORMS = [
  (k: string) => k,
  (k: string) => `-${k}`,
  (k: string) => `${k}.5`,
  (k: string) => `${k}e2`,
  (k: string) => `1${k}`,
];

/**
 * A search page echoing the key as a bare number in a row's value, in a
 * list, beside a text holding it, and as the next cursor (the same on every
 * page, so the pull ends in a `PaginationError` with a partial result).
 */
function echoFetch(form: (k: string) => string): typeof fetch {
  return (input, init) => {
    const auth = new Headers(init?.headers ?? (input as Request).headers).get("authorization");
    const sent = (auth ?? "").replace(/^Bearer\s+/i, "");
    const n = form(sent);
    const body = `{"data":[{"accessionNumber":"0000000001-24-000001","transactionId":1,` +
      `"filedAt":"2024-05-01T15:00:00Z","issuerName":"echo ${sent}","echo":${n},` +
      `"echoList":[${n}, 2,${n}]}],"nextCursor":${n},"hasMore":true}`;
    return Promise.resolve(
      new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
}

const keyArb = fc.record({
  digits: fc.stringMatching(/^[0-9]{8,24}$/),
  before: fc.constantFrom("", " ", "\n", "\t"),
  after: fc.constantFrom("", "\n", "\r\n", " ", "\t\n"),
  form: fc.integer({ min: 0, max: NUMBER_FORMS.length - 1 }),
});

Deno.test("a digits-only key echoed as a bare JSON number: the answer parses and no door shows the key", async () => {
  const warn = console.warn;
  console.warn = () => {};
  try {
    await fc.assert(
      fc.asyncProperty(keyArb, async ({ digits, before, after, form }) => {
        const insider = new InsiderClient({
          apiKey: `${before}${digits}${after}`,
          baseUrl: "http://x.test/insider",
          maxRetries: 0,
          fetch: echoFetch(NUMBER_FORMS[form]),
        });
        const e = await insider.search({}).take(10).catch((e) => e);
        assert.ok(e instanceof PaginationError, `not a PaginationError: ${e}`);
        const partial = partialOf<Record<string, unknown>[]>(e);
        assert.ok(partial && partial.rows.length >= 1, "the first page was read");
        const row = partial.rows[0];
        assert.equal(row.echo, "[redacted]");
        assert.deepEqual(row.echoList, ["[redacted]", 2, "[redacted]"]);
        const shown = [
          doors(e),
          e.message,
          JSON.stringify(e),
          Deno.inspect(e, { showHidden: true, depth: 100 }),
          String(e.cause),
          Deno.inspect(e.cause, { depth: 100 }),
          JSON.stringify(partial.rows),
          Deno.inspect(partial, { depth: 100 }),
        ].join("\n");
        assert.deepEqual(leaks(shown, digits), [], shown.slice(0, 2000));
      }),
      { numRuns: 60 },
    );
  } finally {
    console.warn = warn;
  }
});

Deno.test("bodyScrubberFor: a key outside any string takes its whole number token and becomes a quoted string", () => {
  const key = "12345678901";
  const scrub = bodyScrubberFor(`${key}\n`);
  const cases: [string, unknown][] = [
    [`{"a":${key}}`, { a: "[redacted]" }],
    [`{"a": -${key}.25e3 ,"b":1}`, { a: "[redacted]", b: 1 }],
    [`[${key},"${key}","x ${key} y",7${key}]`, [
      "[redacted]",
      "[redacted]",
      "x [redacted] y",
      "[redacted]",
    ]],
    [`{"q\\"${key}":${key}}`, { 'q"[redacted]': "[redacted]" }],
    [`{"esc\\\\":${key}}`, { "esc\\": "[redacted]" }],
    [`{"hex":${hex(key)}}`, { hex: "[redacted]" }],
  ];
  for (const [body, want] of cases) {
    const { text, count } = scrub(body);
    assert.ok(count >= 1, body);
    assert.deepEqual(JSON.parse(text), want, `${body} → ${text}`);
    assert.ok(!text.includes(key), text);
  }
});

Deno.test("bodyScrubberFor: a key shaped as a JSON number but not digits alone (a sign, a point, an exponent) echoed bare also becomes a quoted string", () => {
  // the doc: a key found outside any string takes its whole number token and the answer
  // still parses; only keys of digits alone did, the others left `"a":[redacted]` (not JSON)
  for (const key of ["-123456789", "123456.789", "1234567e89", "12345678E+9"]) {
    const scrub = bodyScrubberFor(key);
    for (const body of [`{"a":${key}}`, `[${key},"${key}",1]`, `{"a": ${key} }`]) {
      const { text, count } = scrub(body);
      assert.ok(count >= 1, body);
      assert.ok(!text.includes(key), text);
      const value = JSON.parse(text);
      assert.ok(JSON.stringify(value).includes('"[redacted]"'), `${body} → ${text}`);
    }
    assert.deepEqual(JSON.parse(scrub(`{"a":${key},"b":2}`).text), { a: "[redacted]", b: 2 });
  }
});
