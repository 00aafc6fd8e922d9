/**
 * The decimal grammar (prices, values, returns, ratios). Accepted forms:
 *
 * - A finite JSON number (canonical).
 * - Numeric text, blanks around it allowed: `"412.5"`, `"-3e2"`, `".5"`,
 *   `"+1"` (what a server that quotes decimals to keep their digits sends).
 *
 * A JSON number in an answer that a double would round reaches this
 * grammar as its text (`shared/json_numbers.ts`) and is read by the text
 * rule: `1e-400` is refused, not 0; `0.30000000000000004441` is the double
 * nearest it, as its text would be.
 *
 * Refused: text past the range of a double (`"1e400"`), or so small it
 * would read as zero (`"1e-400"`: a value sent that is not zero never
 * reads as 0), text with a thousands separator or a decimal comma (`"1,234"`
 * is 1234 or 1.234 depending on the writer's locale), units or symbols
 * (`"5%"`, `"$5"`), `"NaN"`, `"Infinity"`, hexadecimal, booleans, lists and
 * objects.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";

/** Numeric text, the only text the number grammars read. */
export const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function read(v: unknown, note: Note): number | typeof UNREADABLE {
  if (typeof v === "number") return Number.isFinite(v) ? v : UNREADABLE;
  if (typeof v === "string") {
    const s = v.trim();
    if (!NUMERIC_TEXT.test(s)) return UNREADABLE;
    const n = Number(s);
    // past a double's range, or a non-zero value that would read as 0
    if (!Number.isFinite(n) || (n === 0 && /[1-9]/.test(s.split(/[eE]/)[0]))) return UNREADABLE;
    note("text");
    return n;
  }
  return UNREADABLE;
}

/** The decimal grammar (module doc). */
export const decimal: Grammar<number> = {
  type: "decimal",
  forms: ["a finite JSON number (canonical)", 'numeric text (`"412.5"`, `" -3e2 "`)'],
  refused: [
    'thousands separators and decimal commas (`"1,234"`)',
    'units and symbols (`"5%"`, `"$5"`)',
    '`"NaN"`, `"Infinity"`, booleans',
    'text past a double\'s range (`"1e400"`), or non-zero text that would read as 0 (`"1e-400"`)',
  ],
  read,
  row: (n) => n,
};
