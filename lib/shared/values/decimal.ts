/**
 * The decimal grammar (prices, values, returns, ratios). Accepted forms:
 *
 * - A finite JSON number (canonical).
 * - Numeric text, blanks around it allowed: `"412.5"`, `"-3e2"`, `".5"`,
 *   `"+1"` (what a server that quotes decimals to keep their digits sends).
 *
 * Refused: text with a thousands separator or a decimal comma (`"1,234"`
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
    if (!Number.isFinite(n)) return UNREADABLE;
    note("text");
    return n;
  }
  return UNREADABLE;
}

/** The decimal grammar (module doc). */
export const decimal: Grammar<number> = {
  type: "decimal",
  means: "a number",
  forms: ["a finite JSON number (canonical)", 'numeric text (`"412.5"`, `" -3e2 "`)'],
  refused: [
    'thousands separators and decimal commas (`"1,234"`)',
    'units and symbols (`"5%"`, `"$5"`)',
    '`"NaN"`, `"Infinity"`, booleans',
  ],
  read,
  row: (n) => n,
};
