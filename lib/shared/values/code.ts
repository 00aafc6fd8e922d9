/**
 * The code grammar: text fields (codes, identifiers, names, free text).
 * Accepted forms:
 *
 * - Text (canonical), kept exactly as sent: no trimming and no case change
 *   (a code's spelling is the service's).
 * - A JSON number that is an integer within ±(2^53 − 1): its digits
 *   (`320193` → `"320193"`; a number cannot carry leading zeros, so a CIK
 *   sent as a number has none).
 *
 * - An integer past 2^53 in an answer: its digits as written. A double
 *   cannot hold them (`12345678901234567890` would be 12345678901234567000),
 *   so the transport hands such a literal on as its text
 *   (`shared/json_numbers.ts`), which is kept as sent; so is any literal
 *   a double would round (a fraction of 17 digits).
 *
 * Refused: any other number, since its digits are not the ones sent: a
 * double past 2^53 (one built in code, not read from an answer) has
 * already rounded them, and a fraction or an exponent (`1e21`, written
 * back as `"1e+21"`) is no identifier's spelling. Booleans, lists and
 * objects (a structure where text was declared is a different field, not a
 * spelling of this one).
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";

function read(v: unknown, note: Note): string | typeof UNREADABLE {
  if (typeof v === "string") return v;
  if (Number.isSafeInteger(v)) {
    note("number");
    return String(v);
  }
  return UNREADABLE;
}

/** The code grammar (module doc). */
export const code: Grammar<string> = {
  type: "code",
  means: "text, as sent",
  forms: [
    "text, kept as sent (canonical)",
    "an integer within ±(2^53 − 1): its digits",
    "a longer integer in an answer: its digits as written",
  ],
  refused: [
    "other numbers (fractions, exponents; past 2^53 when not read from an answer's text)",
    "booleans, lists, objects",
  ],
  read,
  row: (s) => s,
};
