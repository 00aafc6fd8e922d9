/**
 * The integer grammar (counts, ids sent as numbers). Accepted forms:
 *
 * - A JSON number that is an integer within ±(2^53 − 1) (canonical):
 *   past that a double cannot hold every integer, so the digits received
 *   may already differ from the ones sent.
 * - Numeric text whose value is such an integer (`"42"`, `" 42 "`, `"4.2e1"`).
 *
 * Refused: numbers with a fraction (`12.5` is not a count), integers past
 * 2^53 − 1 (as numbers or as text: refused rather than rounded), and
 * everything the decimal grammar refuses.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";
import { NUMERIC_TEXT } from "./decimal.ts";

function read(v: unknown, note: Note): number | typeof UNREADABLE {
  if (typeof v === "number") return Number.isSafeInteger(v) ? v : UNREADABLE;
  if (typeof v === "string") {
    const s = v.trim();
    if (!NUMERIC_TEXT.test(s)) return UNREADABLE;
    const n = Number(s);
    // digits past 2^53 would be rounded by Number(): check them as written
    if (!Number.isSafeInteger(n) || (/^[+-]?\d+$/.test(s) && BigInt(s) !== BigInt(n))) {
      return UNREADABLE;
    }
    note("text");
    return n;
  }
  return UNREADABLE;
}

/** The integer grammar (module doc). */
export const integer: Grammar<number> = {
  type: "integer",
  means: "an integer within ±(2^53 − 1)",
  forms: ["a JSON integer within ±(2^53 − 1) (canonical)", "numeric text of such an integer"],
  refused: ["a fraction (`12.5`)", "integers past 2^53 − 1", "what decimals refuse"],
  read,
  row: (n) => n,
};
