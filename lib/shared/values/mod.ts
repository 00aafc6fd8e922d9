/**
 * One grammar per value type, used by every reader of both services:
 * frames (`frames/build.ts`), typed rows of `take()`/`firstPage()`, details,
 * feeds, `hydrate`, pitches, tags, and the day readers of the date windows.
 * Each type's file opens with its accepted forms as a list and reads exactly
 * those; {@link GRAMMARS} is the table.
 *
 * | type | file |
 * | - | - |
 * | `date` | `date.ts` |
 * | `timestamp` | `timestamp.ts` |
 * | `decimal` | `decimal.ts` |
 * | `integer` | `integer.ts` |
 * | `boolean` | `boolean.ts` |
 * | `code` | `code.ts` |
 * | `list`, `text_list` | `list.ts` (over the `integer` or `code` grammar) |
 *
 * Null: JSON `null` and a missing key are null in every type; blank text
 * (`""`, `"  "`) is null in every type but `code` (where it is the text it
 * is) and `list` (where it is the empty list joined: `[]`, as `[]` sent as
 * a list), noted as `empty text (now null)` or `empty text (an empty
 * list)`. No other text means null (`"null"`, `"N/A"`, `"NaN"` are
 * refused).
 *
 * A value outside its grammar is never guessed at: a reader counts it
 * ({@link ReadLog}). Where no value of a field reads, the reader throws an
 * `InvalidResponseError` naming the field, one value (described, never
 * printed: `shared/describe.ts`) and its row; where some do, the rest are
 * null, counted in a warning and in the frame's own summary.
 *
 * @module
 */
import { describeValue } from "../describe.ts";
import {
  type Grammar,
  IGNORE,
  type Note,
  UNREADABLE,
  type ValueOf,
  type ValueType,
} from "./_grammar.ts";
import { boolean } from "./boolean.ts";
import { cik, code, isCikField } from "./code.ts";
import { date, dayText, isoDay, newYorkMidnight } from "./date.ts";
import { decimal } from "./decimal.ts";
import { integer } from "./integer.ts";
import { listOf } from "./list.ts";
import { isoMs, timestamp } from "./timestamp.ts";

export { type Grammar, IGNORE, type Note, UNREADABLE, type ValueOf, type ValueType };
// what other modules import by name (every grammar is also in GRAMMARS)
export { cik, code, date, dayText, isCikField, isoDay, isoMs, listOf, newYorkMidnight };

/**
 * The grammar of each value type: a total map from {@link ValueType}.
 *
 * @example
 * ```ts
 * import { GRAMMARS, UNREADABLE } from "./mod.ts";
 * GRAMMARS.boolean.read("false", () => {}); // false
 * GRAMMARS.date.read("2025-02-30", () => {}) === UNREADABLE; // true
 * ```
 */
export const GRAMMARS: { readonly [K in ValueType]: Grammar<ValueOf[K]> } = {
  date,
  timestamp,
  decimal,
  integer,
  boolean,
  code,
  list: listOf(integer),
  text_list: listOf(code),
};

/**
 * The grammar a field is read by: its type's, but a CIK field's
 * ({@link isCikField}) for `code` ({@link cik}: one canonical form).
 *
 * @example
 * ```ts
 * import { grammarOf } from "./mod.ts";
 * grammarOf("code", "issuer_cik").read(320193, () => {}); // "0000320193"
 * ```
 */
export function grammarOf(type: ValueType, name: string): Grammar<unknown> {
  return (type === "code" && isCikField(name) ? cik : GRAMMARS[type]) as Grammar<unknown>;
}

/** Every value type, in the order of {@link GRAMMARS}. */
export const VALUE_TYPES: readonly ValueType[] = Object.keys(GRAMMARS) as ValueType[];

/** Note of blank text read as null. */
export const BLANK = "empty text (now null)";
/** Note of blank text read as an empty list of integers (the empty list joined). */
export const EMPTY_LIST = "empty text (an empty list)";

/**
 * A value by a grammar with the null rule of the module doc: null for
 * null, undefined and (but for `code`) blank text; else the grammar's value
 * or {@link UNREADABLE}.
 */
export function readValue<T>(g: Grammar<T>, v: unknown, note: Note): T | null | typeof UNREADABLE {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" && g.type !== "code" && v.trim() === "") {
    // an empty list joined is blank text: the same list as `[]` (a list of
    // text is never read joined, so its blank text stays null)
    if (g.type === "list") {
      note(EMPTY_LIST);
      return [] as T;
    }
    note(BLANK);
    return null;
  }
  return g.read(v, note);
}

/** One field unreadable values were found in. */
export interface Unreadable {
  /** The field (column) name. */
  column: string;
  /** Values that did not read (now null). */
  rows: number;
  /** The first of them, described (never printed). */
  example: string;
  /** Index of the row it was in (0-based, in the order read). */
  row: number;
}

/**
 * What readers did with the values of one pull, per field: which forms
 * other than the canonical one were read (and how many values), which
 * values did not read (how many, one described, its row).
 */
export class ReadLog {
  readonly #noted = new Map<string, number>(); // `${field}\u0000${form}` → values
  readonly #bad = new Map<string, Unreadable>();

  /** A note function for one field. */
  noteFor(field: string): Note {
    return (form) => {
      const k = `${field}\u0000${form}`;
      this.#noted.set(k, (this.#noted.get(k) ?? 0) + 1);
    };
  }

  /** Records a value of `field` in row `row` that did not read. */
  bad(field: string, v: unknown, row: number): void {
    const u = this.#bad.get(field);
    if (u) u.rows++;
    else this.#bad.set(field, { column: field, rows: 1, example: describeValue(v), row });
  }

  /** Forms read other than the canonical one: per field and form, how many values. */
  noted(): { column: string; rows: number; from: string }[] {
    return [...this.#noted].map(([k, rows]) => {
      const [column, from] = k.split("\u0000");
      return { column, rows, from };
    });
  }

  /** The fields with values that did not read. */
  unreadable(): Unreadable[] {
    return [...this.#bad.values()].map((u) => ({ ...u }));
  }
}

/** A field a typed-row reader reads: its key in the row and its grammar. */
export interface FieldGrammar {
  /** Key in the row. */
  key: string;
  /** Grammar of its values. */
  grammar: Grammar<unknown>;
  /** Name in the log and in errors (default `key`; `pitch.pitch_date` for a nested field). */
  label?: string;
}

/** Whether `v` is already in its type's row form (the fast path of {@link readRecord}). */
function canonical(g: Grammar<unknown>, v: unknown): boolean {
  return IN_ROW_FORM[g.type](v, g);
}

/** Each value type's test of a value already in its row form (a total map of the types). */
const IN_ROW_FORM: Record<ValueType, (v: unknown, g: Grammar<unknown>) => boolean> = {
  decimal: (v) => typeof v === "number" && Number.isFinite(v),
  integer: (v) => Number.isSafeInteger(v),
  boolean: (v) => typeof v === "boolean",
  code: (v, g) => typeof v === "string" && (g === code || g.read(v, IGNORE) === v),
  date: (v) => typeof v === "string" && !Number.isNaN(isoDay(v)),
  timestamp: (v) =>
    typeof v === "string" && v.length === 24 && v.charCodeAt(23) === 90 && !Number.isNaN(isoMs(v)),
  list: (v, g) => Array.isArray(v) && v.every((x) => x !== null && canonical(g.item!, x)),
  text_list: (v, g) => Array.isArray(v) && v.every((x) => x !== null && canonical(g.item!, x)),
};

/**
 * One row with every declared field in its row form (see each grammar's
 * `row`): the same object when every value already is, else a copy. A value
 * that does not read becomes null and is counted in `log` (row `at`).
 *
 * @example
 * ```ts
 * import { GRAMMARS, readRecord, ReadLog } from "./mod.ts";
 * const log = new ReadLog();
 * readRecord([{ key: "is_ceo", grammar: GRAMMARS.boolean }], { is_ceo: "false" }, log, 0);
 * // { is_ceo: false }
 * ```
 */
export function readRecord<R extends Record<string, unknown>>(
  fields: readonly FieldGrammar[],
  row: R,
  log: ReadLog,
  at: number,
): R {
  let out: Record<string, unknown> | null = null;
  for (const f of fields) {
    const v = row[f.key];
    if (v === null || v === undefined) continue;
    const g = f.grammar;
    if (canonical(g, v)) continue;
    const r = readValue(g, v, log.noteFor(f.label ?? f.key));
    out ??= { ...row };
    if (r === UNREADABLE) {
      log.bad(f.label ?? f.key, v, at);
      out[f.key] = null;
    } else out[f.key] = r === null ? null : g.row(r);
  }
  return (out ?? row) as R;
}

/**
 * Fields where values did not read and none did: a field of `rows` whose
 * every value is null or unreadable. What a reader throws for.
 */
export function unreadFields(
  log: ReadLog,
  rows: readonly Record<string, unknown>[],
): Unreadable[] {
  const at = (r: unknown, path: string[]) =>
    path.reduce<unknown>((o, k) => (o as Record<string, unknown> | null | undefined)?.[k], r);
  return log.unreadable().filter((u) => {
    const path = u.column.split(".");
    return rows.every((r) => at(r, path) === null || at(r, path) === undefined);
  });
}

export { describeValue };

/**
 * The grammars as a Markdown table (type → accepted encodings → refused):
 * the table of `docs/clients.md`, which a test keeps equal to this.
 *
 * @example
 * ```ts
 * import { grammarTable } from "./mod.ts";
 * grammarTable().split("\n")[0]; // "| type | accepted (canonical first) | refused |"
 * ```
 */
export function grammarTable(): string {
  const rows = Object.entries(GRAMMARS) as [string, Grammar<unknown>][];
  const cell = (x: string | undefined) => (x ?? "").replaceAll("|", "\\|");
  // one form a line: a table cell stays short
  const lines = rows.flatMap(([name, g]) =>
    Array.from(
      { length: Math.max(g.forms.length, g.refused.length) },
      (_, i) => `| ${i ? "" : `\`${name}\``} | ${cell(g.forms[i])} | ${cell(g.refused[i])} |`,
    )
  );
  return [
    "| type | accepted (canonical first) | refused |",
    "| - | - | - |",
    ...lines,
  ].join("\n");
}
