/**
 * The shared case suite of a key matcher (as Hono's router case suite): one
 * table of keys and texts, run by `runKeyCases` against any implementation
 * of the `KeyMatcher` interface (`lib/http/_key_match.ts`).
 */
import assert from "node:assert/strict";
import type { KeyMatcher } from "../../lib/http/_key_match.ts";

/** One case: a key, a text, and what `redact` (a message) and `scrub` (a body) give. */
export interface KeyCase {
  name: string;
  key: string;
  text: string;
  /** `redact(text)`. */
  message: string;
  /**
   * `scrub(text).text` (a body), or null when the key stands inside a longer
   * value: nothing may be cut out of it, so the answer is refused.
   */
  body: string | null;
}

const K = "sk-live-0123456789abcdef"; // 24 characters
const hex = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The cases (see `_key_match.ts` for the rules). */
export const KEY_CASES: KeyCase[] = [
  {
    name: "the key as a JSON string value",
    key: K,
    text: `{"a":"${K}"}`,
    message: `{"a":"[redacted]"}`,
    body: `{"a":"[redacted]"}`,
  },
  {
    name: "upper-cased inside a sentence",
    key: K,
    text: `{"a":"you are ${K.toUpperCase()}!"}`,
    message: `{"a":"you are [redacted]!"}`,
    body: null,
  },
  {
    name: "a value holding the key and more of its alphabet is data",
    key: K,
    text: `{"a":"${K}-2","b":"x${K}"}`,
    message: `{"a":"[redacted]-2","b":"x[redacted]"}`,
    body: `{"a":"${K}-2","b":"x${K}"}`,
  },
  {
    name: "a field named after the key",
    key: K,
    text: `{"x_${K}":1}`,
    message: `{"x_[redacted]":1}`,
    body: null,
  },
  {
    name: "hex, packed",
    key: K,
    text: `{"h":"${hex(K)}"}`,
    message: `{"h":"[redacted]"}`,
    body: `{"h":"[redacted]"}`,
  },
  {
    name: "a digits key of 16 as a bare number, and inside longer numbers",
    key: "1234567890123456",
    text: `{"a":1234567890123456,"b":91234567890123456,"c":1234567890123456.5}`,
    message: `{"a":[redacted],"b":9[redacted],"c":[redacted].5}`,
    body: `{"a":"[redacted]","b":91234567890123456,"c":1234567890123456.5}`,
  },
  {
    name: "a key made of words, as a whole value: the key itself",
    key: "Stock Option (Right to Buy",
    text: `{"t":"Stock Option (Right to Buy","n":1}`,
    message: `{"t":"[redacted]","n":1}`,
    body: `{"t":"[redacted]","n":1}`,
  },
  {
    name: "a key made of words inside a longer value: never cut out of it",
    key: "Stock Option (Right to Buy",
    text: `{"t":"Stock Option (Right to Buy)","u":"Stock Option (Right to Buy"}`,
    message: `{"t":"[redacted])","u":"[redacted]"}`,
    body: null,
  },
  {
    name: "an 8-digit key is too short to look for in a body; in a message only as a token",
    key: "00011276",
    text: `{"accession":"0001127602-26-000005","k":"00011276"}`,
    message: `{"accession":"0001127602-26-000005","k":"[redacted]"}`,
    body: `{"accession":"0001127602-26-000005","k":"00011276"}`,
  },
  {
    name: "a short key of digits inside a larger number",
    key: "12345678",
    text: `{"sharesTraded":912345678}`,
    message: `{"sharesTraded":912345678}`,
    body: `{"sharesTraded":912345678}`,
  },
];

/** Runs every case against the matcher `make` builds for a key. */
export function runKeyCases(make: (key: string) => KeyMatcher): void {
  for (const c of KEY_CASES) {
    const m = make(c.key);
    assert.equal(m.redact(c.text), c.message, `${c.name}: message`);
    const { text, inside } = m.scrub(c.text);
    if (c.body === null) assert.ok(inside > 0, `${c.name}: refused`);
    else assert.deepEqual({ text, inside }, { text: c.body, inside: 0 }, `${c.name}: body`);
    assert.equal(m.holds(c.text), c.body !== c.text, `${c.name}: holds`);
  }
}
