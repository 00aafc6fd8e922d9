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
 * The common answer pays one scan of its text: only literals of 16 or more
 * digits and points, or with an exponent of three digits or more, can be
 * rounded (15 significant digits always survive a double), and only when one
 * of them is is the text parsed again with a reviver reading each number's
 * source text (`context.source`, JSON.parse source text access, in V8 since
 * 11.4).
 *
 * @module
 */

/** Number literals that may be rounded: 16+ digits and points, or a 3-digit exponent, after `:`, `,` or `[`. */
const LONG_NUMBER =
  /(?<=[:,[]\s*)-?(?:\d[\d.]{15,}(?:[eE][+-]?\d+)?|\d[\d.]*[eE][+-]?\d{3,})(?=\s*[,\]}])/g;

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

/** The reviver: a number the double does not hold as written becomes its source text. */
function keepText(_key: string, v: unknown, context?: { source?: string }): unknown {
  const text = context?.source;
  return typeof v === "number" && text !== undefined && !holdsLiteral(text, v) ? text : v;
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
  for (const [lit] of text.matchAll(LONG_NUMBER)) if (!holdsLiteral(lit, Number(lit))) return true;
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
