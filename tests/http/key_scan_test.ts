/**
 * The key scan of answer bodies (`holdsKey`, `bodyScrubberFor`) finds what
 * the one pattern of every form finds, after it was made cheap on clean
 * pages (probes of rare characters, then sticky checks where one stands):
 * a property compares them with a copy of the code they replaced (kept
 * here only) over generated keys (lengths around `MIN_ANYWHERE` and
 * `MIN_BODY_KEY`, digits only, other scripts, a trailing newline) and
 * texts embedding every form of the key in random case, hex dumps with
 * every separator, near misses, and slices of a real emulator page.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  bodyScrubberFor,
  caseVariants,
  hexDump,
  holdsKey,
  keyForms,
  keyPattern,
  MIN_ANYWHERE,
  redactorFor,
} from "../../lib/http/_redact.ts";
import { DEMO_KEYS } from "../../mod.ts";
import { emulatorPage } from "../../bench/_emulator_page.ts";

// ---- the code before the probes (reference only): its hex-dump scan; the exact forms
// (`keyPattern`) and the dump text (`hexDump`) are unchanged, so today's are used ----------

function oldHoldsKey(key: string): (text: string) => boolean {
  const own = keyPattern(key, "", false);
  const k = key.trim();
  const variants = k.length >= MIN_ANYWHERE ? caseVariants(k) : [];
  const start = variants.length
    ? new RegExp(variants.map((v) => hexDump(v.slice(0, 4))).join("|"), "gi")
    : null;
  const whole = new RegExp(variants.map(hexDump).join("|"), "iy");
  return (text) => {
    if (own === null || typeof text !== "string") return false;
    if (own.test(text)) return true;
    if (start === null) return false;
    for (const m of text.matchAll(start)) {
      whole.lastIndex = m.index;
      if (whole.test(text)) return true;
    }
    return false;
  };
}
/**
 * The body scrubber before the probes: today's replacement loop over the
 * scan it had (`holds` given: that scan instead), the only part the probes
 * changed.
 */
function oldBodyScrubberFor(key: string, holds?: (text: string) => boolean) {
  return bodyScrubberFor(key, holds ?? oldHoldsKey(key.trim()));
}
/**
 * What the scans must find: the pattern of every form but dumps (as the
 * scan before did; for a key outside ASCII V8's folding of its merged
 * alternatives is kept), or a dump of a case variant.
 */
const exactHolds = (key: string) => {
  const own = keyPattern(key, "", false);
  const k = key.trim();
  const dumps = k.length >= MIN_ANYWHERE
    ? caseVariants(k).map((v) => new RegExp(hexDump(v), "i"))
    : [];
  return (text: string) => own !== null && (own.test(text) || dumps.some((d) => d.test(text)));
};

// ---- generated keys and texts ------------------------------------------------------------------

/** A real emulator answer (a 100-row search page), fetched once; tests take slices of it. */
const PAGE = await emulatorPage();

const KEY_CHARS = [..."abcdefkqxzABCFKQXZ0123456789-_./+~= "];
const ODD_CHARS = [..."éßſµΣσςİıкл\u212a\u00a0", "😀"];
const keyArb = fc.oneof(
  fc.array(fc.constantFrom(...KEY_CHARS), { minLength: 4, maxLength: 14 }).map((a) => a.join("")),
  fc.array(fc.constantFrom(..."0123456789"), { minLength: 4, maxLength: 14 }).map((a) =>
    a.join("")
  ),
  fc.array(fc.constantFrom(...KEY_CHARS, ...ODD_CHARS), { minLength: 4, maxLength: 12 })
    .map((a) => a.join("")),
  fc.constantFrom(DEMO_KEYS.insider, "sk-live-Q7fG2pX9zR-4mT8/wK+v", "abababcdef", "ключ-ключ"),
).chain((k) => fc.constantFrom(k, `${k}\n`, `${k}\r\n`, ` ${k} `))
  .filter((k) => k.trim() !== "");

/** Random case for each letter. */
const flipCase = (s: string, bits: number[]) =>
  [...s].map((c, i) => (bits[i % bits.length] & 1 ? c.toUpperCase() : c.toLowerCase())).join("");
const GAPS = ["", " ", ":", "-", ", ", "\\x", "0x", " 0x", "\\X", "0X", ";", "\t", "\u00a0", ",,"];

/** A text built from the key: one of its forms or a dump of it, maybe changed, in a page slice. */
const textArb = (key: string) => {
  const k = key.trim();
  const forms = keyForms(k);
  const bytes = (v: string) =>
    [...new TextEncoder().encode(v)].map((b) => b.toString(16).padStart(2, "0"));
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

Deno.test("holdsKey and bodyScrubberFor find and replace exactly what the one pattern of every form does", () => {
  fc.assert(
    fc.property(keyArb.chain((key) => fc.tuple(fc.constant(key), textArb(key))), ([key, text]) => {
      const holds = holdsKey(key)(text);
      const exact = exactHolds(key)(text);
      const old = oldHoldsKey(key)(text);
      assert.equal(holds, exact, `holdsKey(${JSON.stringify(key)}) of ${JSON.stringify(text)}`);
      // the old scan missed nothing the new one finds, but a dump overlapping a false start of one
      if (old !== holds) assert.ok(holds && !old);
      const scrubbed = bodyScrubberFor(key)(text);
      assert.deepEqual(scrubbed, oldBodyScrubberFor(key, exactHolds(key))(text));
      if (old === holds) assert.deepEqual(scrubbed, oldBodyScrubberFor(key)(text));
    }),
    { numRuns: 600 },
  );
});

Deno.test("holdsKey on whole emulator pages: clean, and with the key in each form at random places", () => {
  for (
    const key of [DEMO_KEYS.insider, "sk-live-Q7fG2pX9zR-4mT8/wK+v", "12345678901", "ключ-ключ"]
  ) {
    assert.equal(holdsKey(key)(PAGE), false);
    assert.equal(exactHolds(key)(PAGE), false);
    keyForms(key).forEach((form, i) => {
      const at = (i * 7919) % PAGE.length;
      const text = PAGE.slice(0, at) + flipCase(form, [i, i >> 1, i >> 2]) + PAGE.slice(at);
      assert.equal(holdsKey(key)(text), true, `${key}: form ${form}`);
      assert.deepEqual(bodyScrubberFor(key)(text), oldBodyScrubberFor(key)(text));
    });
  }
});

Deno.test("a dump whose start overlaps a false start of it is found (the scan before the probes missed it)", () => {
  const key = "abababcdef";
  const text = `{"x":"61 62 61 62 61 62 61 62 63 64 65 66"}`;
  assert.equal(oldHoldsKey(key)(text), false);
  assert.equal(redactorFor(key)(text), `{"x":"61 62 [redacted]"}`);
  assert.equal(holdsKey(key)(text), true);
  assert.deepEqual(bodyScrubberFor(key)(text), {
    text: `{"x":"61 62 [redacted]"}`,
    count: 1,
  });
});

Deno.test("holdsKey: a text that is not a string, and a blank key, hold nothing", () => {
  assert.equal(holdsKey("sk-live-123456")(42 as unknown as string), false);
  assert.equal(holdsKey("   ")("   "), false);
  assert.equal(holdsKey("sk-live-123456")(""), false);
});
