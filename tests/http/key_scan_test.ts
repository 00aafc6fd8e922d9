/**
 * The key scan (`keyMatcher` of `lib/http/_key_match.ts`, a plain search
 * of each form's text, hex dumps in the text's hex view) finds what one
 * regular expression of every form finds: a property compares them, with
 * the pattern the matcher replaced (kept here only, as the reference: a
 * pattern built from the key, which the library no longer builds), over
 * generated keys (lengths from `KEY_MIN_LENGTH`, digits only, a trailing
 * newline) and texts embedding every form of the key in random case, hex
 * dumps with every separator, near misses, and slices of a real emulator
 * page.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { keyTexts } from "../../lib/http/_key_forms.ts";
import { KEY_MIN_LENGTH, keyMatcher } from "../../lib/http/_key_match.ts";
import { redactorFor } from "../../lib/http/_redact.ts";
import { DEMO_KEYS } from "../../mod.ts";
import { emulatorPage } from "../../bench/_emulator_page.ts";

// ---- the pattern the matcher replaced (reference only) ------------------------------------------

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const caseVariants = (k: string) => [...new Set([k, k.toUpperCase(), k.toLowerCase()])];
const bytes = (v: string) =>
  [...new TextEncoder().encode(v)].map((b) => b.toString(16).padStart(2, "0"));
/** A hex dump as the old pattern read it: up to two separators, then `\x` or `0x`, between bytes. */
const hexDump = (v: string) => bytes(v).join("[\\s:,;-]{0,2}(?:\\\\x|0x)?");
/** Every form of the key anywhere, in any case: the old `keyPattern` with its dumps. */
function exactHolds(key: string): (text: string) => boolean {
  const k = key.trim();
  const forms = keyTexts(k).map((t) => escapeRe(t.text));
  const re = new RegExp([...forms, ...caseVariants(k).map(hexDump)].join("|"), "i");
  return (text) => re.test(text);
}
/** Whether the matcher finds the key in a message (anywhere, for a key of KEY_MIN_LENGTH or more). */
const holdsKey = (key: string) => {
  const m = keyMatcher(key);
  return (text: string) => m.redact(text) !== text;
};

// ---- generated keys and texts ------------------------------------------------------------------

/** A real emulator answer (a 100-row search page), fetched once; tests take slices of it. */
const PAGE = await emulatorPage();

const KEY_CHARS = [..."abcdefkqxzABCFKQXZ0123456789-_./+~= "];
const keyArb = fc.oneof(
  fc.array(fc.constantFrom(...KEY_CHARS), { minLength: KEY_MIN_LENGTH, maxLength: 30 }).map((a) =>
    a.join("")
  ),
  fc.array(fc.constantFrom(..."0123456789"), { minLength: KEY_MIN_LENGTH, maxLength: 30 }).map((
    a,
  ) => a.join("")),
  fc.constantFrom(DEMO_KEYS.insider, "sk-live-Q7fG2pX9zR-4mT8/wK+v", "abababcdefabababcdef"),
).chain((k) => fc.constantFrom(k, `${k}\n`, `${k}\r\n`, ` ${k} `))
  .filter((k) => k.trim().length >= KEY_MIN_LENGTH);

/** Random case for each letter. */
const flipCase = (s: string, bits: number[]) =>
  [...s].map((c, i) => (bits[i % bits.length] & 1 ? c.toUpperCase() : c.toLowerCase())).join("");
const GAPS = ["", " ", ":", "-", ", ", "\\x", "0x", " 0x", "\\X", "0X", ";", "\t", "\u00a0", ",,"];

/** A text built from the key: one of its forms or a dump of it, maybe changed, in a page slice. */
const textArb = (key: string) => {
  const k = key.trim();
  const forms = keyTexts(k).map((t) => t.text);
  const dump = fc.record({
    v: fc.constantFrom(...caseVariants(k)),
    gaps: fc.array(fc.constantFrom(...GAPS), { minLength: 1, maxLength: 6 }),
    upper: fc.boolean(),
  }).map(({ v, gaps, upper }) => {
    const pairs = bytes(v).map((p) => (upper ? p.toUpperCase() : p));
    return pairs.map((p, i) => (i ? gaps[i % gaps.length] : "") + p).join("");
  });
  const echo = fc.oneof(
    fc.constantFrom(...forms),
    dump,
    fc.tuple(fc.constantFrom(...forms), fc.array(fc.integer(), { minLength: 1, maxLength: 5 }))
      .map(([f, bits]) => flipCase(f, bits)),
  );
  // a near miss: a character changed, dropped or doubled, or the echo cut short
  const changed = fc.tuple(
    echo,
    fc.nat(),
    fc.constantFrom(0, 1, 2, 3),
    fc.constantFrom(..."0aZ-x "),
  )
    .map(([e, at, how, c]) => {
      const i = e.length ? at % e.length : 0;
      return [
        e.slice(0, i) + c + e.slice(i + 1),
        e.slice(0, i) + e.slice(i + 1),
        e.slice(0, i) + e[i] + e.slice(i),
        e.slice(0, Math.max(0, e.length - 1 - (at % 3))),
      ][how];
    });
  const slice = fc.tuple(fc.nat(PAGE.length), fc.integer({ min: 0, max: 400 }))
    .map(([at, n]) => PAGE.slice(at, at + n));
  return fc.tuple(slice, fc.array(fc.oneof(echo, changed), { maxLength: 3 }), slice)
    .map(([a, parts, b]) => a + parts.join(PAGE.slice(200, 200 + (a.length % 40))) + b);
};

// ---- the properties ----------------------------------------------------------------------------

Deno.test("keyMatcher finds in a message exactly what the one pattern of every form finds, and replaces only there", () => {
  fc.assert(
    fc.property(keyArb.chain((key) => fc.tuple(fc.constant(key), textArb(key))), ([key, text]) => {
      const holds = holdsKey(key)(text);
      assert.equal(
        holds,
        exactHolds(key)(text),
        `holds(${JSON.stringify(key)}) of ${JSON.stringify(text)}`,
      );
      const redacted = keyMatcher(key).redact(text);
      assert.equal(exactHolds(key)(redacted), false, `left in ${JSON.stringify(redacted)}`);
      // what the body scan finds, the message scan finds too
      if (keyMatcher(key).holds(text)) assert.ok(holds);
    }),
    {
      numRuns: 600,
      // a dump whose last byte's "0" stands before an "x" and a hex digit (the 0 is no "0x" prefix)
      examples: [[[
        " C1/z2x595a0c8Be20XCC50 ",
        "4331 2f7a 3278 3539 3561 3063 3842 6532 3058 4343 3530xc",
      ]]],
    },
  );
});

Deno.test("keyMatcher on whole emulator pages: clean, and with the key in each form at random places", () => {
  for (const key of [DEMO_KEYS.insider, "sk-live-Q7fG2pX9zR-4mT8/wK+v", "12345678901234567"]) {
    assert.equal(holdsKey(key)(PAGE), false);
    assert.equal(keyMatcher(key).holds(PAGE), false);
    assert.equal(exactHolds(key)(PAGE), false);
    keyTexts(key).forEach(({ text: form }, i) => {
      const at = PAGE.indexOf('"', (i * 7919) % PAGE.length) + 1; // inside a string, at its start
      const text = PAGE.slice(0, at) + flipCase(form, [i, i >> 1, i >> 2]) + " " + PAGE.slice(at);
      assert.equal(holdsKey(key)(text), true, `${key}: form ${form}`);
      assert.equal(keyMatcher(key).holds(text), true, `${key}: form ${form} in a body`);
      // a whole value is replaced; inside a longer text it is counted and left (refused)
      const scrubbed = keyMatcher(key).scrub(text);
      assert.equal(scrubbed.count + scrubbed.inside, 1, form);
      assert.equal(exactHolds(key)(scrubbed.text), scrubbed.inside > 0, form);
    });
  }
});

Deno.test("a dump whose start overlaps a false start of it is found", () => {
  const key = "abababcdefabababcdef";
  const dump = bytes(key).join(" ");
  const text = `{"x":"61 62 ${dump}"}`;
  assert.equal(redactorFor(key)(text), `{"x":"61 62 [redacted]"}`);
  // in a body, inside a longer text: found, counted, never cut out
  assert.deepEqual(keyMatcher(key).scrub(text), { text, count: 0, inside: 1 });
});

Deno.test("keyMatcher: a text that is not a string, and a blank key, hold nothing", () => {
  const key = "sk-live-1234567890";
  assert.equal(keyMatcher(key).holds(42 as unknown as string), false);
  assert.equal(keyMatcher(key).redact(42 as unknown as string), 42 as unknown as string);
  assert.equal(keyMatcher("   ").holds("   "), false);
  assert.equal(keyMatcher("   ").redact("   "), "   ");
  assert.equal(keyMatcher(key).holds(""), false);
});

Deno.test("keyTexts: the forms of the module doc's table, as it writes them for sk/live+key", () => {
  const texts = keyTexts("sk/live+key").map((t) => t.text);
  for (
    const form of [
      "sk%2flive%2bkey", // URL-encoded, a form field, quote_plus
      "sk/live%2bkey", // quote()
      "%73%6b%2f%6c%69%76%65%2b%6b%65%79", // every byte escaped
      "sk\\/live+key", // JSON-escaped with \/
      "sk_live_key", // an identifier
      "736b2f6c6976652b6b6579", // hex
      "73 6b 2f 6c 69 76 65 2b 6b 65 79",
      "73:6b:2f:6c:69:76:65:2b:6b:65:79",
      "\\x73\\x6b\\x2f\\x6c\\x69\\x76\\x65\\x2b\\x6b\\x65\\x79",
      "0x73, 0x6b, 0x2f, 0x6c, 0x69, 0x76, 0x65, 0x2b, 0x6b, 0x65, 0x79",
      "115,107,47,108,105,118,101,43,107,101,121", // its bytes in decimal
    ]
  ) assert.ok(texts.includes(form), form);
});
