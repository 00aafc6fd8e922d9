/**
 * The encodings of an API key that a leak can take: one row per named form,
 * each an encoder from one spelling of the key to the texts it makes. Every
 * form is searched for in each spelling of the key (as given, upper-cased,
 * lower-cased), in any letter case (see `_key_match.ts`, which never builds a
 * pattern from a key: it searches these texts as they are).
 *
 * | form | example of `sk/live+key` | matched |
 * | --- | --- | --- |
 * | plain | `sk/live+key` | as a token |
 * | URL-encoded (`encodeURIComponent`) | `sk%2Flive%2Bkey` | as a token |
 * | Python `quote()` | `sk/live%2Bkey` | as a token |
 * | Python `quote_plus()` | `sk%2Flive%2Bkey` | as a token |
 * | a form field | `sk%2Flive%2Bkey` | as a token |
 * | every byte escaped | `%73%6B%2F…` | as a token |
 * | JSON-escaped | `sk/live+key` (`\"`, `\\`) | as a token |
 * | JSON-escaped, `\/` too (PHP) | `sk\/live+key` | as a token |
 * | an identifier (a column named after the key) | `sk_live_key` | as a token |
 * | hex of the UTF-8 bytes | `736b2f…` | as a token |
 * | a hex dump of them, in the usual ways | `73 6b 2f`, `73:6b`, `\x73\x6b`, `0x73, 0x6b` | as a token |
 * | base64 and base64url, at each of the 3 byte alignments | the key's own characters of `Basic dXNlcjpzay9s…` | inside longer text |
 *
 * "As a token" and "inside" are the rules for answer bodies (data); in
 * messages every form is matched anywhere once the key is long enough, and
 * hex dumps in any mix of separators (see `_key_match.ts`). A base64 row gives only the characters made of the key's
 * bits alone (the few at its two ends that share bits with the text around
 * it stay), so it is found inside a longer base64 text: a `Basic` header, an
 * encoded cursor.
 *
 * @module
 */

/** One encoding of the key. */
export interface KeyForm {
  /** What the form is, in words. */
  readonly name: string;
  /** The texts of one spelling of the key in this form (several for base64: its alignments). */
  readonly encode: (key: string) => string[];
  /**
   * Where it is matched in an answer body: `token` (a whole token of the
   * text) or `inside` (anywhere, even inside a longer token).
   */
  readonly match: "token" | "inside";
}

const bytesOf = (k: string) => [...new TextEncoder().encode(k)];
/** The hex of `k`'s UTF-8 bytes, two digits a byte. */
export const hexOf = (k: string): string => new TextEncoder().encode(k).toHex();
/** Those two digits of each byte, in order. */
const hexPairs = (k: string) => hexOf(k).match(/../g) ?? [];
/** How dumps write bytes: what stands before each, and between two. */
const DUMPS = [
  ["", " "],
  ["", ":"],
  ["", "-"],
  ["", ","],
  ["", ", "],
  ["\\x", ""],
  [
    "0x",
    " ",
  ],
  ["0x", ","],
  ["0x", ", "],
];

/**
 * `encodeURIComponent` with `!'()*` escaped too: what Python's `quote_plus`
 * leaves of `A-Za-z0-9_.~-` (before `+` for a space).
 */
const quoted = (k: string) => encodeURIComponent(k).replace(/[!'()*]/g, (c) => "%" + hexOf(c));

/**
 * The parts of base64 texts that hold `key` whatever its byte offset in the
 * encoded text: for each of the 3 alignments, the characters made of the
 * key's bits alone (8 or more of them).
 */
function base64Cores(key: string): string[] {
  const bytes = bytesOf(key);
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const text = Uint8Array.from([...Array(shift).fill(0), ...bytes]).toBase64();
    // before: characters sharing bits with the shift bytes; after: those past the key's last full 6 bits
    const core = text.slice(
      Math.ceil((shift * 8) / 6),
      Math.floor(((shift + bytes.length) * 8) / 6),
    );
    if (core.length >= 8) out.push(core);
  }
  return out;
}

/** The forms of a key, one row each (see the module doc). */
export const KEY_FORMS: readonly KeyForm[] = [
  { name: "plain", match: "token", encode: (k) => [k] },
  { name: "URL-encoded", match: "token", encode: (k) => [encodeURIComponent(k)] },
  {
    name: "Python quote()",
    match: "token",
    encode: (k) => [quoted(k).replace(/%2F/g, "/")],
  },
  {
    name: "Python quote_plus()",
    match: "token",
    encode: (k) => [quoted(k).replace(/%20/g, "+")],
  },
  {
    name: "a form field",
    match: "token",
    encode: (k) => [new URLSearchParams({ k }).toString().slice(2)],
  },
  {
    name: "every byte escaped",
    match: "token",
    encode: (k) => [hexOf(k).replace(/../g, "%$&")],
  },
  { name: "JSON-escaped", match: "token", encode: (k) => [JSON.stringify(k).slice(1, -1)] },
  {
    name: "JSON-escaped with \\/ (PHP)",
    match: "token",
    encode: (k) => [JSON.stringify(k).slice(1, -1).replace(/\//g, "\\/")],
  },
  { name: "an identifier", match: "token", encode: (k) => [k.replace(/[^A-Za-z0-9]/g, "_")] },
  { name: "hex", match: "token", encode: (k) => [hexOf(k)] },
  {
    name:
      "a hex dump (`73 6b`, `73:6b`, `73-6b`, `73,6b`, `73, 6b`, `\\x73\\x6b`, `0x73 0x6b`, `0x73, 0x6b`)",
    match: "token",
    encode: (k) =>
      DUMPS.map(([before, between]) => hexPairs(k).map((p) => before + p).join(between)),
  },
  {
    name:
      "its bytes in decimal (`115,107`, `115, 107`: how `String()` and `join()` print a `Uint8Array`)",
    match: "token",
    encode: (k) => [bytesOf(k).join(","), bytesOf(k).join(", ")],
  },
  { name: "base64", match: "inside", encode: base64Cores },
  {
    name: "base64url",
    match: "inside",
    encode: (k) => base64Cores(k).map((c) => c.replace(/\+/g, "-").replace(/\//g, "_")),
  },
];

/** One text to search for: a form of one spelling of the key, lower-cased. */
export interface KeyText {
  /** The text, lower-cased (texts are searched in any case). */
  readonly text: string;
  /** Where it is matched (its form's rule). */
  readonly match: KeyForm["match"];
}

/**
 * Every text of every form of `key` (as given, upper-cased, lower-cased),
 * lower-cased, without repeats, longest first.
 *
 * @example
 * ```ts
 * import { keyTexts } from "./_key_forms.ts";
 * const texts = keyTexts("sk/live+key").map((t) => t.text);
 * console.log(texts.includes("sk%2flive%2bkey"), texts.includes("736b2f6c6976652b6b6579")); // true true
 * ```
 */
export function keyTexts(key: string): KeyText[] {
  const seen = new Map<string, KeyText>();
  for (const spelling of new Set([key, key.toUpperCase(), key.toLowerCase()])) {
    for (const form of KEY_FORMS) {
      for (const raw of form.encode(spelling)) {
        const text = raw.toLowerCase();
        if (text !== "" && !seen.has(text)) seen.set(text, { text, match: form.match });
      }
    }
  }
  return [...seen.values()].sort((a, b) => b.text.length - a.text.length);
}
