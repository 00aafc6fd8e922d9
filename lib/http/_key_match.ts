/**
 * Finding one API key in a text: one matcher for every form of the key
 * (`_key_forms.ts`), which never builds a pattern from the key. Each form's
 * text is searched for with `indexOf` in the text lower-cased (forms are
 * matched in any case), and hex dumps in the text's hex view (its hex
 * digits, a dump's separators left out): linear in the text's length at any
 * key length, and nothing a key holds can make it throw.
 *
 * **{@link KEY_MIN_LENGTH}.** A key of at least 16 characters is long
 * enough that a match cannot be a coincidence: even a key of digits only
 * has 10^16 values, so the chance that a whole number of an answer equals
 * it by accident is below 10^-12 a number. Such a key is matched:
 * - in messages (errors, warnings, URLs, headers, CLI lines, events):
 *   every form anywhere, even inside a longer word (a message is not data);
 * - in answer bodies (data), before they are parsed: only the key itself,
 *   never a value that merely holds the same characters. A form matches
 *   only as a whole token: a whole JSON string value, or with no letter,
 *   digit or character of the key itself on either side of it (`12345678`
 *   is not found in `912345678`, nor `sk-live-x…` in `sk-live-x…-2`, but
 *   `x_sk-live-x…` is a field named after it), and a match outside a JSON
 *   string must not touch a number's characters (`.`, `e`, `+`, `-`). A hex form must be a whole token of the hex view; base64 forms
 *   are found inside a longer base64 text (`Basic` credentials, an encoded
 *   cursor), since their characters are the key's own bits.
 *
 * **Data is never damaged.** In a body, only a match that is a whole value
 * (a whole JSON string, or a bare value outside strings) is the key echoed
 * and is replaced by `[redacted]` (a bare one by `"[redacted]"`, so the
 * answer still parses). A match inside a longer value (`"echo <key>"`, a
 * field named `x_<key>`, `"Stock Option (Right to Buy)"` for a key made of
 * those words) cannot be taken out without changing the value: nothing is
 * replaced there, it is counted (`Scrubbed.inside`), and the transport
 * refuses the answer with an `InvalidResponseError` (without the key; a
 * pull hands back the rows read before it).
 *
 * A shorter key is matched only as a whole token, in messages only: its
 * answers are not scanned, since a short key of digits or a field's name
 * would match real data (the client warns once when it is made).
 *
 * @module
 */
import { hexOf, type KeyText, keyTexts } from "./_key_forms.ts";

/**
 * Shortest key whose answers are scanned, and which is hidden in messages
 * wherever it stands (see the module doc for why 16).
 */
export const KEY_MIN_LENGTH = 16;

/** What replaces the key. */
export const REDACTED = "[redacted]";

/** An answer body without the values that are the key, and what was found. */
export interface Scrubbed {
  /** The text, each whole value that is the key (any form) replaced by `[redacted]`. */
  text: string;
  /** Values replaced (0 and no `inside`: `text` is the text given). */
  count: number;
  /**
   * Occurrences inside a longer value (a text, a field's name), left as
   * they are: the key cannot be taken out of them without changing the
   * value, so the answer must be refused.
   */
  inside: number;
}

/** The matcher of one key (see the module doc). */
export interface KeyMatcher {
  /** Whether the key is long enough for its answers to be scanned ({@link KEY_MIN_LENGTH}). */
  readonly scansData: boolean;
  /** `text` with every occurrence of the key in a message replaced by `[redacted]`. */
  redact(text: string): string;
  /** Whether an answer body holds the key (as {@link KeyMatcher.scrub} finds it). */
  holds(text: string): boolean;
  /**
   * An answer body with each whole value that is the key replaced by
   * `[redacted]` (a bare value outside a JSON string by `"[redacted]"`, so
   * the answer still parses); the key inside a longer value is counted in
   * `inside` and never replaced.
   */
  scrub(text: string): Scrubbed;
}

/** A table of the ASCII codes: 1 for each of `chars`. */
const asciiTable = (chars: string) =>
  Uint8Array.from({ length: 128 }, (_, c) => chars.includes(String.fromCharCode(c)) ? 1 : 0);
const ALNUM = asciiTable("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
/** Characters of a JSON number: no match outside a string may touch them. */
const NUMBER_CHARS = asciiTable("0123456789.eE+-");

/**
 * The matcher of `key` (trimmed; a blank key matches nothing).
 *
 * @example
 * ```ts
 * import { keyMatcher } from "./_key_match.ts";
 * const key = keyMatcher("sk-live-0123456789abcdef");
 * key.redact("invalid key SK-LIVE-0123456789ABCDEF!"); // "invalid key [redacted]!"
 * key.scrub('{"echo":"sk-live-0123456789abcdef","id":"sk-live-0123456789abcdef-2"}');
 * // { text: '{"echo":"[redacted]","id":"sk-live-0123456789abcdef-2"}', count: 1, inside: 0 }
 * ```
 */
export function keyMatcher(key: string): KeyMatcher {
  const k = typeof key === "string" ? key.trim() : "";
  const scansData = k.length >= KEY_MIN_LENGTH;
  const needles = k === "" ? [] : keyTexts(k);
  // the key's alphabet: letters, digits and the key's own characters continue a token
  const word = ALNUM.slice();
  for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) < 128) word[k.charCodeAt(i)] = 1;
  const hexes = k === "" ? [] : [...new Set([k, k.toUpperCase(), k.toLowerCase()].map(hexOf))];
  // every hex dump holds each of its bytes' two digits side by side: one of them rules dumps out
  const f: Finder = { anchors: anchorsOf(needles), hexes, hexProbes: hexes.map(probePair), word };
  // no form is shorter than the key itself: a shorter text (a field's name) holds none
  const shortest = Math.min(...needles.map((n) => n.text.length));
  const find = (text: string, data: boolean) =>
    typeof text === "string" && text.length >= shortest
      ? findAll(text, f, data ? "data" : scansData ? "anywhere" : "token")
      : [];
  return {
    scansData,
    redact: (text) => replaceAt(text, find(text, false), () => REDACTED),
    holds: (text) => scansData && find(text, true).length > 0,
    scrub: (text) => scansData ? scrub(text, find(text, true)) : { text, count: 0, inside: 0 },
  };
}

/** Of a hex text, a pair of digits at a byte's place, with a letter when one has one (rarer in text). */
function probePair(hex: string): string {
  return hex.match(/../g)!.find((pair) => /[a-f]/.test(pair)) ?? hex.slice(0, 2);
}

/**
 * Characters of a JSON answer from the most frequent to the least (lower-
 * cased, as counted on a 100-row search page of the emulator; those not
 * listed are rarer still): a text's rarest character is its anchor.
 */
const BY_FREQUENCY = '"eisrtanl:,u1ocw03m6dh2bpf.y547g8-v9xk zq{[]}';

/**
 * The search plan of a key's texts: grouped by their anchor character,
 * each with the anchor's offset in it, so that a clean text is passed over
 * once per anchor, not once per text (the long ones under `""`, each
 * searched whole).
 */
type Anchors = Map<string, { needle: KeyText; at: number }[]>;

/** Texts longer than this are not anchored (under `""`): `indexOf` alone finds them fast. */
const ANCHORED_MAX = 256;

function anchorsOf(needles: KeyText[]): Anchors {
  const rank = (c: string) => BY_FREQUENCY.indexOf(c) === -1 ? 99 : BY_FREQUENCY.indexOf(c);
  const anchored = needles.map((needle) => {
    let at = 0;
    for (let i = 1; i < needle.text.length && needle.text.length <= ANCHORED_MAX; i++) {
      if (rank(needle.text[i]) > rank(needle.text[at])) at = i;
    }
    return { needle, at };
  });
  return Map.groupBy(
    anchored,
    ({ needle, at }) => needle.text.length > ANCHORED_MAX ? "" : needle.text[at],
  );
}

/** How matches are taken: anywhere, or as whole tokens (of a message, or of data). */
type Mode = "anywhere" | "token" | "data";

/**
 * What one key's matcher searches with: its texts' search plan, the hex of
 * its spellings and a pair of digits of each, and the characters that
 * continue a token of it (letters, digits, the key's own).
 */
interface Finder {
  readonly anchors: Anchors;
  readonly hexes: string[];
  readonly hexProbes: string[];
  readonly word: Uint8Array;
}

/**
 * Where the key stands in `text`: [start, end) ranges, in order, overlaps
 * merged.
 */
function findAll(text: string, f: Finder, mode: Mode): number[][] {
  const { anchors, hexProbes, word } = f;
  const folded = foldCase(text);
  const hits: number[][] = []; // [start, end, 1 when it must be a whole token]
  const whole = (n: KeyText) => mode !== "anywhere" && !(mode === "data" && n.match === "inside");
  const each = (n: KeyText) => {
    for (let i = folded.indexOf(n.text); i !== -1; i = folded.indexOf(n.text, i + 1)) {
      hits.push([i, i + n.text.length, whole(n) ? 1 : 0]);
    }
  };
  for (const [c, group] of anchors) {
    if (c === "") {
      group.forEach(({ needle }) => each(needle));
      continue;
    }
    // where the anchor stands, each text that holds it is compared (at most ANCHORED_MAX
    // characters each); past a budget of comparisons (a text full of the anchor), each text is
    // searched whole: linear either way
    const cost = group.length;
    let budget = folded.length + 4096;
    const found: number[][] = [];
    let i = folded.indexOf(c);
    for (; i !== -1 && (budget -= cost) >= 0; i = folded.indexOf(c, i + 1)) {
      for (const { needle: n, at } of group) {
        if (i >= at && folded.startsWith(n.text, i - at)) {
          found.push([i - at, i - at + n.text.length, whole(n) ? 1 : 0]);
        }
      }
    }
    if (i !== -1) group.forEach(({ needle }) => each(needle));
    else hits.push(...found);
  }
  hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // in order of offset: one pass of the JSON string state in all
  const inString = mode === "data" ? jsonStringIndex(text) : undefined;
  const found = hits.filter(([s, e, whole]) => !whole || bounded(text, s, e, word, inString));
  // in a message, hex dumps with any mix of separators (the hex view costs a pass over the text)
  if (mode !== "data" && hexProbes.some((p) => folded.includes(p))) {
    found.push(...hexMatches(text, folded, f, mode));
  }
  found.sort((a, b) => a[0] - b[0]);
  const merged: number[][] = [];
  for (const r of found) {
    const last = merged[merged.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}

/**
 * Whether [start, end) of `text` is a whole token: a whole JSON string
 * value, or no character of `word` (nor of a number, outside a JSON string)
 * beside it.
 */
function bounded(
  text: string,
  start: number,
  end: number,
  word: Uint8Array,
  inString?: (at: number) => boolean,
): boolean {
  // (NaN past either end of the text: no character)
  const before = text.charCodeAt(start - 1);
  const after = text.charCodeAt(end);
  // a whole JSON string value
  if (inString && before === 34 && after === 34 && inString(start)) return true;
  const stop = inString && !inString(start)
    ? (c: number) => word[c] || NUMBER_CHARS[c]
    : (c: number) => word[c];
  return !(before < 128 && stop(before)) && !(after < 128 && stop(after));
}

/**
 * `text` lower-cased, letter for letter (same length, same offsets): the
 * fast `toLowerCase`, unless the text holds a character it would lower-case
 * into ASCII or into two (`İ`, the Kelvin sign), then only ASCII letters.
 */
function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length && !text.includes("\u212a")) return lower;
  let out = "";
  for (let i = 0; i < text.length; i += 8192) {
    out += text.slice(i, i + 8192).replace(/[A-Z]+/g, (s) => s.toLowerCase());
  }
  return out;
}

/** What may stand between two bytes of a dump: a blank (JavaScript's `\s`), `:`, `,`, `;`, `-`. */
const DUMP_SEPARATOR = /[\s:,;-]/;

const ASCII = new TextDecoder("latin1");
const isHexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102);

/**
 * The hex view of a (lower-cased) text: its hex digits in order, `|` where
 * two digits are not joined; `at` maps a digit to its offset in the text,
 * and `loose[i]` is 1 when digit `i` follows the one before after a gap: up
 * to two separators (space, `:`, `,`, `;`, `-`), then `\x` or `0x` or
 * nothing (`73 6b`, `73:6b`, `\x73\x6b`, `0x73, 0x6b`). A gap may only fall
 * between two bytes. A `0x` right after a digit is ambiguous (`…35 30xc`: the
 * `0` may end the byte `30`): read as a prefix, or with `digitFirst` as a digit.
 */
function hexView(
  folded: string,
  digitFirst = false,
): { view: string; at: Int32Array; loose: Uint8Array } {
  const codes = new Uint8Array(folded.length + 1);
  const at = new Int32Array(folded.length + 1);
  const loose = new Uint8Array(folded.length + 1);
  let n = 0;
  let seps = 0; // separators in the current gap
  let prefix = 0; // 1 once the gap has its `\x` or `0x`
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    if (isHexDigit(c)) {
      if (
        c === 48 && folded.charCodeAt(i + 1) === 120 && isHexDigit(folded.charCodeAt(i + 2)) &&
        prefix === 0 && !(digitFirst && n > 0 && codes[n - 1] !== 124 && at[n - 1] === i - 1)
      ) {
        prefix = 1; // "0x"
        i++;
        continue;
      }
      loose[n] = seps > 0 || prefix ? 1 : 0;
      at[n] = i;
      codes[n++] = c;
      seps = 0;
      prefix = 0;
    } else if (
      c === 92 && prefix === 0 && folded.charCodeAt(i + 1) === 120 &&
      isHexDigit(folded.charCodeAt(i + 2))
    ) {
      prefix = 1; // "\x"
      i++;
    } else if (prefix === 0 && seps < 2 && DUMP_SEPARATOR.test(folded[i])) seps++;
    else {
      if (n > 0 && codes[n - 1] !== 124) codes[n++] = 124; // "|": the digits around are not joined
      seps = 0;
      prefix = 0;
    }
  }
  return { view: ASCII.decode(codes.subarray(0, n)), at, loose };
}

/**
 * The ranges of `text` where a hex form of the key stands in its hex view
 * (each view of the text, see {@link hexView}).
 */
function hexMatches(text: string, folded: string, { hexes, word }: Finder, mode: Mode): number[][] {
  const out: number[][] = [];
  // a "0x" right after a digit is read both ways (the text holds one rarely: a second pass then)
  for (const digitFirst of AMBIGUOUS_PREFIX.test(folded) ? [false, true] : [false]) {
    const { view, at, loose } = hexView(folded, digitFirst);
    // loose digits at even and at odd places, counted: a gap inside a byte rules a match out
    const count = [new Int32Array(view.length + 1), new Int32Array(view.length + 1)];
    for (let i = 0; i < view.length; i++) {
      count[0][i + 1] = count[0][i] + (loose[i] && (i & 1) === 0 ? 1 : 0);
      count[1][i + 1] = count[1][i] + (loose[i] && (i & 1) === 1 ? 1 : 0);
    }
    for (const hex of hexes) {
      for (let s = view.indexOf(hex); s !== -1; s = view.indexOf(hex, s + 1)) {
        const e = s + hex.length;
        // digits at odd distance from the start begin no byte: none may follow a gap
        const odd = 1 - (s & 1);
        if (count[odd][e] - count[odd][s + 1] > 0) continue;
        const start = at[s] - (prefixBefore(folded, at[s]) ? 2 : 0);
        const end = at[e - 1] + 1;
        if (mode !== "anywhere" && !bounded(text, start, end, word)) continue;
        out.push([start, end]);
      }
    }
  }
  return out;
}

/** A `0x` right after a hex digit, before one: a prefix, or a byte's last digit and an `x`. */
const AMBIGUOUS_PREFIX = /[0-9a-f]0x[0-9a-f]/;

/** Whether `\x` or `0x` stands right before offset `i` of the (lower-cased) text. */
const prefixBefore = (folded: string, i: number) =>
  i >= 2 && folded.charCodeAt(i - 1) === 120 &&
  (folded.charCodeAt(i - 2) === 48 || folded.charCodeAt(i - 2) === 92);

/**
 * Whether offset `at` of `text` (a JSON text) lies inside a string, asked
 * for increasing offsets: one pass over the text in all.
 */
function jsonStringIndex(text: string): (at: number) => boolean {
  const state = { pos: 0, inside: false };
  return (at) => {
    let { pos, inside } = state; // locals in the loop (a closure's own variables are slow there)
    for (; pos < at; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 34) inside = !inside; // "
      else if (c === 92 && inside) pos++; // \ escapes the next character
    }
    state.pos = pos;
    state.inside = inside;
    return inside;
  };
}

/** `text` with each range replaced by what `by` gives for it (undefined: left as it is). */
function replaceAt(
  text: string,
  ranges: number[][],
  by: (start: number, end: number) => string | undefined,
): string {
  if (ranges.length === 0) return text;
  let out = "";
  let done = 0;
  for (const [s, e] of ranges) {
    const put = by(s, e);
    if (put === undefined) continue;
    out += text.slice(done, s) + put;
    done = e;
  }
  return out + text.slice(done);
}

/** Whether a JSON value starts at `at`: after `:`, `[`, `,` or nothing (blanks aside). */
function atValue(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i < 0 || text[i] === ":" || text[i] === "[" || text[i] === ",";
}

/**
 * An answer body with each whole value that is the key replaced: a whole
 * JSON string's text by `[redacted]`, a bare value by `"[redacted]"` (at a
 * JSON value's place; elsewhere in a text that is not JSON, unquoted); a
 * match inside a longer string (`"echo <key>"`, a field named `x_<key>`)
 * is counted in `inside` and left as it is (see the module doc).
 */
function scrub(text: string, ranges: number[][]): Scrubbed {
  const inString = jsonStringIndex(text);
  let count = 0;
  let inside = 0;
  const out = replaceAt(text, ranges, (s, e) => {
    // outside any string, or a whole string: its opening quote at s - 1, its closing one at e
    const opened = !inString(s - 1);
    const bare = !inString(s);
    if (bare || (opened && text.charCodeAt(e) === 34 && !inString(e + 1))) {
      count++;
      return bare && atValue(text, s) ? JSON.stringify(REDACTED) : REDACTED;
    }
    inside++;
    return undefined;
  });
  return { text: out, count, inside };
}
