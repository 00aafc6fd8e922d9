/**
 * JSON text parsed so that no number is read rounded in silence.
 *
 * `JSON.parse` reads every number as a double: `12345678901234567890`
 * arrives as 12345678901234567000, `4503599627370496.5` as 4503599627370496,
 * `2.9999999999999999` as 3 and `1e-400` as 0, and no grammar after it can
 * tell. So a number literal the double does not hold as written — its value
 * rounded (more significant digits than a double keeps, past its range,
 * below its smallest) or an integer past 2^53 (where doubles stop holding
 * every integer) — is handed on as its own text, exactly as sent. The value
 * grammars read numeric text from its digits (`shared/values/`): an integer
 * is read exactly or refused, an identifier (`code`) keeps its digits, a
 * decimal is the double nearest the text or refused when it would read as 0
 * or past a double's range, an epoch's digits past the millisecond are cut
 * and noted (the grammars note such a value as read from text).
 *
 * The common answer pays one light scan of its text: only literals of 16
 * or more digits and points, or with an exponent of three digits or more,
 * can be rounded (15 significant digits always survive a double). The scan
 * reads every 8th character and looks closer only where two of them 8 apart
 * are digits or points (any run of 16 holds two such), then finds
 * three-digit exponents with one regular expression (in place of one
 * regular expression with a look-behind tried at every character, which
 * was slower). Only when such a literal is one a double does not hold is
 * the text parsed again with a reviver reading each number's source text
 * (`context.source`, JSON.parse source text access, in V8 since 11.4).
 *
 * A cursor is opaque: a number sent as one (`"next_cursor": 0.1e1`) is
 * its text as written (`"0.1e1"`, never `"1"`), whatever a double makes of
 * it. In an answer ({@link parseAnswer}) with a number under a name that
 * says cursor (`next_cursor`, `nextPageToken`, `next`, …), at its top or
 * one object down, where lists put their cursors, each such number is
 * replaced by its source text, read by a second parse with a reviver; rows
 * and every other value stay as the first parse gave them. The check reads
 * the parsed answer's top two levels, not its text.
 *
 * @module
 */

/** A digit or a point: the characters of a number literal's digits. */
const digitOrPoint = (c: number) => (c >= 48 && c <= 57) || c === 46;
/** Where a run of digits and points this long starts, the literal may be rounded (15 significant digits survive a double). */
const LONG_RUN = 16;
/** Exponents of three digits or more: the only ones past a double's range (about 1e±308). */
const LONG_EXPONENT = /\d[eE][+-]?\d{3}/g;
/** A JSON text's whitespace. */
const space = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * The number literal whose digits hold `text[i]`, when it stands as a member's
 * value or an array's element (after `:`, `,` or `[`, before `,`, `]` or
 * `}`); undefined for digits in a string or elsewhere.
 */
function literalAround(text: string, i: number): string | undefined {
  let a = i;
  while (a > 0 && digitOrPoint(text.charCodeAt(a - 1))) a--;
  if (text[a - 1] === "-") a--;
  let b = i;
  while (digitOrPoint(text.charCodeAt(b))) b++;
  if (text[b] === "e" || text[b] === "E") {
    b++;
    if (text[b] === "+" || text[b] === "-") b++;
    while (digitOrPoint(text.charCodeAt(b))) b++;
  }
  let before = a - 1;
  while (before >= 0 && space(text.charCodeAt(before))) before--;
  let after = b;
  while (after < text.length && space(text.charCodeAt(after))) after++;
  return ":,[".includes(text[before] ?? "x") && ",]}".includes(text[after] ?? "x")
    ? text.slice(a, b)
    : undefined;
}

/** Numeric text as its significant digits and the power of ten of the last (`"1.50e2"` → `"15e1"`); other text as it is. */
function canonical(s: string): string {
  const m = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m) return s;
  const frac = m[2] ?? "";
  const digits = (m[1] + frac).replace(/^0+/, "");
  const sig = digits.replace(/0+$/, "");
  if (sig === "") return "0";
  const exp = Number(m[3] ?? 0) - frac.length + digits.length - sig.length;
  return `${s[0] === "-" ? "-" : ""}${sig}e${exp}`;
}

/**
 * Whether `n` (what `JSON.parse` gave for the literal `text`) holds the
 * literal as written: the same value (JSON writes it back with the same
 * digits) and, for an integer, within ±(2^53 − 1) or written with an
 * exponent.
 *
 * @example
 * ```ts
 * import { holdsLiteral } from "./json_numbers.ts";
 * holdsLiteral("1.50e2", 150); // true
 * holdsLiteral("4503599627370496.5", 4503599627370496.5); // false: the double is 4503599627370496
 * holdsLiteral("12345678901234567000", 12345678901234567000); // false: an integer past 2^53
 * ```
 */
export function holdsLiteral(text: string, n: number): boolean {
  if (Number.isInteger(n) && !Number.isSafeInteger(n) && /^-?\d+$/.test(text)) return false;
  return String(n) === text || canonical(String(n)) === canonical(text);
}

/** A member named as a cursor: its number is opaque text (module doc). */
const CURSOR_KEY = /(?:cursor|token)$|^next$/i;

/** The reviver: a number the double does not hold as written becomes its source text. */
function keepText(_key: string, v: unknown, context?: { source?: string }): unknown {
  const text = context?.source;
  return typeof v === "number" && text !== undefined && !holdsLiteral(text, v) ? text : v;
}

/** The reviver of cursors: a number under a cursor's name becomes its source text. */
const cursorText = (key: string, v: unknown, context?: { source?: string }) =>
  typeof v === "number" && CURSOR_KEY.test(key) ? context?.source : v;

/**
 * Replaces each number under a cursor's name at `v`'s top or one object
 * down by the same place of `exact()` (the answer parsed by `cursorText`).
 */
function keepCursors(v: unknown, exact: () => unknown, depth = 0): void {
  if (v === null || typeof v !== "object" || Array.isArray(v) || depth > 1) return;
  const o = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(o)) {
    if (typeof x === "number" && CURSOR_KEY.test(k)) o[k] = (exact() as typeof o)[k];
    else keepCursors(x, () => (exact() as typeof o)[k], depth + 1);
  }
}

/**
 * Whether JSON text `text` may hold a number literal a double does not hold
 * as written (see the module doc); false for almost every answer, at the
 * cost of one scan.
 *
 * @example
 * ```ts
 * import { roundsNumbers } from "./json_numbers.ts";
 * roundsNumbers('{"a":0.30000000000000004,"id":"12345678901234567890"}'); // false
 * roundsNumbers('{"cik":12345678901234567890}'); // true
 * ```
 */
export function roundsNumbers(text: string): boolean {
  const rounds = (i: number) => {
    const lit = literalAround(text, i);
    return lit !== undefined && !holdsLiteral(lit, Number(lit));
  };
  // a run of 16 or more digits and points holds two places 8 apart that are multiples of 8:
  // only those places are read first (an eighth of the text), the run only around them
  for (let i = 8; i < text.length; i += 8) {
    if (!digitOrPoint(text.charCodeAt(i)) || !digitOrPoint(text.charCodeAt(i - 8))) continue;
    let a = i - 8, b = i;
    while (a > 0 && digitOrPoint(text.charCodeAt(a - 1))) a--;
    while (digitOrPoint(text.charCodeAt(b + 1))) b++;
    if (b - a + 1 < LONG_RUN) continue;
    if (rounds(i)) return true;
    i = b - (b % 8); // on past the run
  }
  for (const m of text.matchAll(LONG_EXPONENT)) if (rounds(m.index)) return true;
  return false;
}

/**
 * `text` parsed as `JSON.parse` parses it (throwing its errors), except that
 * each number literal a double does not hold as written is its text.
 *
 * @example
 * ```ts
 * import { parseExactJson } from "./json_numbers.ts";
 * parseExactJson('{"cik":12345678901234567890,"n":1e-400,"p":412.5}');
 * // { cik: "12345678901234567890", n: "1e-400", p: 412.5 }
 * ```
 */
export function parseExactJson(text: string): unknown {
  return JSON.parse(text, keepText);
}

/**
 * An answer's JSON text parsed (by `parse`, `JSON.parse` by default) so that
 * no number is read rounded in silence and a cursor sent as a number keeps
 * its text (module doc).
 *
 * @example
 * ```ts
 * import { parseAnswer } from "./json_numbers.ts";
 * parseAnswer('{"data":[],"next_cursor":0.1e1,"total":1.0}');
 * // { data: [], next_cursor: "0.1e1", total: 1 }
 * ```
 */
export function parseAnswer(text: string, parse: (text: string) => unknown = JSON.parse): unknown {
  const v = roundsNumbers(text) ? parseExactJson(text) : parse(text);
  let exact: unknown;
  keepCursors(v, () => exact ??= JSON.parse(text, cursorText));
  return v;
}
