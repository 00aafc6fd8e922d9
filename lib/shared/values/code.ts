/**
 * The code grammar: text fields (codes, identifiers, names, free text).
 * Accepted forms:
 *
 * - Text (canonical), kept exactly as sent: no trimming and no case change
 *   (a code's spelling is the service's).
 * - A finite JSON number: its decimal text (`320193` → `"320193"`; a
 *   number cannot carry leading zeros, so a CIK sent as a number has none).
 *
 * Refused: booleans, lists and objects (a structure where text was
 * declared is a different field, not a spelling of this one).
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";

function read(v: unknown, note: Note): string | typeof UNREADABLE {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) {
    note("number");
    return String(v);
  }
  return UNREADABLE;
}

/** The code grammar (module doc). */
export const code: Grammar<string> = {
  type: "code",
  means: "text, as sent",
  forms: ["text, kept as sent (canonical)", "a finite number: its decimal text"],
  refused: ["booleans, lists, objects"],
  read,
  row: (s) => s,
};
