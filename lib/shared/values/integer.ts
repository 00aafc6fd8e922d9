/**
 * The integer grammar (counts, ids sent as numbers). Accepted forms:
 *
 * - A JSON number that is an integer within ±(2^53 − 1) (canonical):
 *   past that a double cannot hold every integer, so the digits received
 *   may already differ from the ones sent.
 * - Numeric text whose value is such an integer (`"42"`, `" 42 "`,
 *   `"4.2e1"`, `"42.000"`), decided from its digits, never from a rounded
 *   double: `"4503599627370496.5"`, `"0.99999999999999999"` and `"1e-400"`
 *   are fractions, refused (`Number()` would give 4503599627370496, 1 and 0).
 *
 * A JSON number in an answer that a double would round
 * (`4503599627370496.5`, `2.9999999999999999`, `1e-400`, any integer past
 * 2^53) reaches this grammar as its text (`shared/json_numbers.ts`), so it
 * too is decided from its digits: refused, never rounded to an integer.
 *
 * Refused: numbers with a fraction (`12.5` is not a count), integers past
 * 2^53 − 1 (as numbers or as text: refused rather than rounded), and
 * everything the decimal grammar refuses.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";
import { NUMERIC_TEXT } from "./decimal.ts";
import { holdsLiteral } from "../json_numbers.ts";

/**
 * The integer numeric text `s` writes, read from its digits, or
 * {@link UNREADABLE} when it is not numeric text, has a non-zero digit past
 * the point, or is past ±(2^53 − 1).
 *
 * @example
 * ```ts
 * import { exactInteger } from "./integer.ts";
 * exactInteger("4.2e1"); // 42
 * exactInteger("4503599627370496.5") === exactInteger("1e-400"); // true (both UNREADABLE)
 * ```
 */
export function exactInteger(s: string): number | typeof UNREADABLE {
  if (!NUMERIC_TEXT.test(s)) return UNREADABLE;
  const n = Number(s);
  // the double must hold the text's own digits (the exactness check of answers'
  // number literals), so a fraction rounded to an integer is refused; + 0 turns -0 into 0
  return Number.isSafeInteger(n) && holdsLiteral(s.replace(/^\+/, ""), n) ? n + 0 : UNREADABLE;
}

function read(v: unknown, note: Note): number | typeof UNREADABLE {
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : UNREADABLE;
  if (typeof v !== "string") return UNREADABLE;
  const n = exactInteger(v.trim());
  if (n !== UNREADABLE) note("text");
  return n;
}

/** The integer grammar (module doc). */
export const integer: Grammar<number> = {
  type: "integer",
  forms: [
    "a JSON integer within ±(2^53 − 1) (canonical)",
    "numeric text of such an integer, read from its digits",
  ],
  refused: [
    'a fraction (`12.5`, `"4503599627370496.5"`, `"1e-400"`)',
    "integers past 2^53 − 1",
    "what decimals refuse",
  ],
  read,
  row: (n) => n,
};
