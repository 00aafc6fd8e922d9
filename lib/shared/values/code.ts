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
 * CIKs ({@link cik}): an SEC Central Index Key is a number of up to 10
 * digits, shown zero-padded (`0000320193`) or not (`320193`), as text or
 * as a JSON number. One value, so one canonical form: every field that
 * names a CIK ({@link isCikField}: `cik`, a name ending in `_cik` or
 * `Cik`, such as `issuer_cik`, `reporting_owner_cik`, `reportingOwnerCik`),
 * wherever it is read (frames, typed rows, details, `hydrate`, lookup hits
 * and their issuers), is read by the CIK grammar, which keeps the code
 * grammar's type (text, `Utf8`):
 *
 * - Text of 10 digits (canonical), kept.
 * - Text of other digits, or an integer number from 0 to 9,999,999,999:
 *   its value as 10 digits, zero-padded (`"320193"`, `320193`,
 *   `"00000320193"` → `"0000320193"`), noted.
 *
 * Refused (null, counted): a value past 10 digits (`12345678901234567890`
 * is no CIK), any other character (`"CIK320193"`, `" 320193"`, `"-1"`),
 * fractions; blank text stays the text it is, as in the code grammar.
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

/** A CIK field's name (module doc): `cik`, or ending in `_cik` or `Cik`, in any case but `xcik`. */
export const isCikField = (name: string): boolean => /(?:^|_)[cC][iI][kK]$|[a-z0-9]Cik$/.test(name);

/** The CIK grammar (module doc): ten digits, zero-padded. */
export const cik: Grammar<string> = {
  type: "code",
  forms: [
    "text of 10 digits (canonical)",
    "other digits as text or an integer number up to 9,999,999,999: zero-padded to 10",
  ],
  refused: ["more than 10 significant digits, any other character, fractions"],
  read(v, note) {
    const t = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v;
    if (typeof t !== "string" || !/^\d*$/.test(t)) return UNREADABLE;
    if (t === "") return t; // blank text: as in the code grammar
    const padded = t.replace(/^0+/, "").padStart(10, "0");
    if (padded.length > 10) return UNREADABLE;
    if (padded !== v) note(typeof v === "number" ? "number" : "digits not padded to 10 (padded)");
    return padded;
  },
  row: (s) => s,
};
