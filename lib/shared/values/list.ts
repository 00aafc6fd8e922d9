/**
 * The list grammar, over an item grammar (integers for `feed_ids`, codes
 * for lists of text). Accepted forms:
 *
 * - A JSON list whose every item reads by the item grammar (canonical when
 *   every item is canonical). One unreadable item refuses the whole list:
 *   a list with a hole would read as a different list.
 * - JSON text of such a list (`"[5, 15, 17]"`).
 * - For integer lists only: the items joined into one text by one
 *   separator, `,`, `;`, `|` or blanks (`"5,15,17"`, `"5; 15"`, `"5 15"`).
 *   Integers cannot contain any of them, so the split is exact; mixing two
 *   separators is refused.
 *
 * Refused: joined text for lists of text (an item may hold the separator:
 * the split would be a guess), a bare JSON item where a list is declared
 * (text of one integer is a joined list of one), and objects.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";
import { parseExactJson, roundsNumbers } from "../json_numbers.ts";

const JOINED = /^[+-]?\d+(?:\s*([,;|])\s*[+-]?\d+)*$|^[+-]?\d+(?:\s+[+-]?\d+)*$/;

/**
 * The list grammar over an item grammar.
 *
 * @example
 * ```ts
 * import { listOf } from "./list.ts";
 * import { integer } from "./integer.ts";
 * listOf(integer).read("5,15,17", () => {}); // [5, 15, 17]
 * ```
 */
export function listOf<T>(item: Grammar<T>): Grammar<T[]> {
  const items = (xs: unknown[], note: Note): T[] | typeof UNREADABLE => {
    const out: T[] = new Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i];
      if (x === null || x === undefined) return UNREADABLE;
      const r = item.read(x, (form) => note(`${form} in lists`));
      if (r === UNREADABLE) return UNREADABLE;
      out[i] = r;
    }
    return out;
  };
  const read = (v: unknown, note: Note): T[] | typeof UNREADABLE => {
    if (Array.isArray(v)) return items(v, note);
    if (typeof v !== "string") return UNREADABLE;
    const s = v.trim();
    if (s.startsWith("[")) {
      let parsed: unknown;
      try {
        // a number a double would round stays its text, for the item grammar (`json_numbers.ts`)
        parsed = roundsNumbers(s) ? parseExactJson(s) : JSON.parse(s);
      } catch {
        return UNREADABLE;
      }
      if (!Array.isArray(parsed)) return UNREADABLE;
      note("JSON text");
      return items(parsed, () => {});
    }
    if (item.type !== "integer") return UNREADABLE;
    const m = JOINED.exec(s);
    if (!m) return UNREADABLE;
    note("joined text");
    return items(m[1] ? s.split(m[1]) : s.split(/\s+/), () => {});
  };
  return {
    type: item.type === "integer" ? "list" : "text_list",
    item: item as Grammar<unknown>,
    forms: [
      `a JSON list of ${item.type} items (canonical)`,
      "JSON text of such a list",
      ...(item.type === "integer"
        ? ['the items joined by one of `,` `;` `|` or blanks (`"5,15,17"`)']
        : []),
    ],
    refused: [
      "a list with an unreadable or null item",
      item.type === "integer"
        ? 'two separators in one text (`"5,15;17"`), empty items'
        : 'joined text (`"a,b"`: an item may hold the separator)',
      "a bare JSON item, an object",
    ],
    read,
    row: (xs) => xs.map((x) => item.row(x)),
  };
}
