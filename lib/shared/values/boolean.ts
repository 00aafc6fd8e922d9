/**
 * The boolean grammar. Accepted forms:
 *
 * - `true`, `false` (canonical).
 * - The text `"true"`/`"false"` in any case, blanks around it allowed
 *   (Python's `str(True)` is `"True"`).
 * - The numbers `1`/`0` and the text `"1"`/`"0"` (SQL bit and tinyint columns).
 *
 * Refused: `"yes"`/`"no"`, `"y"`/`"n"`, `"t"`/`"f"`, `"on"`/`"off"`, other
 * numbers, and empty lists or objects: none of them is unambiguous across
 * the stacks a service may run on.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";

/** The texts read (trimmed, lower-cased), and their values. */
const TEXT = new Map([["true", true], ["1", true], ["false", false], ["0", false]]);

function read(v: unknown, note: Note): boolean | typeof UNREADABLE {
  if (typeof v === "boolean") return v;
  if (v === 1 || v === 0) {
    note("number");
    return v === 1;
  }
  const b = typeof v === "string" ? TEXT.get(v.trim().toLowerCase()) : undefined;
  if (b === undefined) return UNREADABLE;
  note("text");
  return b;
}

/** The boolean grammar (module doc). */
export const boolean: Grammar<boolean> = {
  type: "boolean",
  forms: [
    "`true`/`false` (canonical)",
    '`"true"`/`"false"` in any case',
    '`1`/`0` and `"1"`/`"0"`',
  ],
  refused: ['`"yes"`/`"no"`, `"y"`/`"n"`, `"t"`/`"f"`, `"on"`/`"off"`', "other numbers"],
  read,
  row: (b) => b,
};
