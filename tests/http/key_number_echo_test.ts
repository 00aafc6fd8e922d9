/**
 * A key of digits only, echoed by a server as a bare JSON number (a row's
 * value, a cursor): the body scan replaces that number by the string
 * `"[redacted]"`, so the answer still parses, and the key shows through no
 * door (message, `JSON.stringify`, `Deno.inspect`, causes, `partial`),
 * whatever shape the key was configured in (digits alone, with a trailing
 * newline or CR-LF, with blanks around it, with leading zeros). A number
 * that merely holds the key's digits (`-key`, `key.5`, `1key`) is data and
 * is left as it is (see `_key_match.ts`).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { InsiderClient, PaginationError, partialOf } from "../../mod.ts";
import { KEY_MIN_LENGTH, keyMatcher } from "../../lib/http/_key_match.ts";
import { doors } from "../_key_doors.ts";
import { parseExactJson } from "../../lib/shared/json_numbers.ts";
import { captureWarnings } from "../_warnings.ts";

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
 * list, as a whole text, and as the next cursor (the same on every
 * page, so the pull ends in a `PaginationError` with a partial result).
 */
function echoFetch(form: (k: string) => string): typeof fetch {
  return (input, init) => {
    const auth = new Headers(init?.headers ?? (input as Request).headers).get("authorization");
    const sent = (auth ?? "").replace(/^Bearer\s+/i, "");
    const n = form(sent);
    const body = `{"data":[{"accessionNumber":"0000000001-24-000001","transactionId":1,` +
      `"filedAt":"2024-05-01T15:00:00Z","issuerName":"${sent}","echo":${n},` +
      `"echoList":[${n}, 2,${n}]}],"nextCursor":${n},"hasMore":true}`;
    return Promise.resolve(
      new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
}

const keyArb = fc.record({
  digits: fc.stringMatching(new RegExp(`^[0-9]{${KEY_MIN_LENGTH},24}$`)),
  before: fc.constantFrom("", " ", "\n", "\t"),
  after: fc.constantFrom("", "\n", "\r\n", " ", "\t\n"),
  form: fc.constant(0), // the key itself; numbers that merely hold it: the test below
});

Deno.test("a digits-only key echoed as a bare JSON number: the answer parses and no door shows the key", async () => {
  const captured = captureWarnings();
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
    captured.restore();
  }
});

Deno.test("a digits-only key echoed inside a longer number (a sign, a point, an exponent, a digit before): the number is data and reaches the rows unchanged", async () => {
  const key = "1234567890123456";
  for (const form of NUMBER_FORMS.slice(1)) {
    const last: typeof fetch = (input, init) =>
      echoFetch(form)(input, init).then(async (r) =>
        new Response((await r.text()).replace(/"nextCursor":.*$/, '"hasMore":false}'))
      );
    const insider = new InsiderClient({
      apiKey: key,
      baseUrl: "http://x.test/insider",
      maxRetries: 0,
      fetch: last,
    });
    const [row] = await insider.search({}).take(10) as unknown as Record<string, unknown>[];
    // as the client reads numbers: exactly (a literal a double would round stays its digits)
    const exact = parseExactJson(form(key));
    assert.equal(row.echo, exact, form(key));
    assert.deepEqual(row.echoList, [exact, 2, exact]);
    assert.equal(row.issuerName, "[redacted]", "the key itself, as a whole text, is not");
  }
});

Deno.test("keyMatcher.scrub: a key outside any string, a whole number token, becomes a quoted string; a number holding it stays", () => {
  const key = "1234567890123456";
  const scrub = keyMatcher(`${key}\n`).scrub;
  const cases: [string, unknown][] = [
    [`{"a":${key}}`, { a: "[redacted]" }],
    [`{"a": -${key}.25e3 ,"b":1}`, { a: -Number(`${key}.25e3`), b: 1 }],
    [`[${key},"${key}",7${key}]`, ["[redacted]", "[redacted]", Number(`7${key}`)]],
    [`{"esc\\\\":${key}}`, { "esc\\": "[redacted]" }],
    [`{"hex":${hex(key)}}`, { hex: "[redacted]" }],
  ];
  for (const [body, want] of cases) {
    const { text, count } = scrub(body);
    assert.equal(count, JSON.stringify(want).split("[redacted]").length - 1, body);
    assert.deepEqual(JSON.parse(text), want, `${body} → ${text}`);
  }
  // inside a longer text (after an escaped quote too): counted, never cut out
  for (const body of [`["x ${key} y"]`, `{"q\\"${key}":1}`]) {
    assert.deepEqual(scrub(body), { text: body, count: 0, inside: 1 }, body);
  }
});

Deno.test("keyMatcher.scrub: a key shaped as a JSON number but not digits alone (a sign, a point, an exponent) echoed bare also becomes a quoted string", () => {
  // a key found outside any string, as a whole number token, becomes a quoted placeholder and
  // the answer still parses
  for (
    const key of ["-123456789012345", "123456.789012345", "1234567890123e89", "12345678901234E+9"]
  ) {
    const scrub = keyMatcher(key).scrub;
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
