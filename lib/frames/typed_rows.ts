/**
 * Typed rows: the rows `take()`, `firstPage()`, iteration, details and
 * `hydrate` give, each declared field read by the same grammar as the
 * frames (`shared/values/`), so a row holds its declared types (`"false"`
 * → `false`, `"5,15,17"` → `[5, 15, 17]`, a zone-less timestamp → ISO text
 * in UTC). A row already in its row form stays the same object; a row with
 * a value to convert is copied, so the answer's own objects are never
 * changed.
 *
 * Outside the grammar: in a page (or a detail) where a field has values
 * outside its grammar and none that reads, the page is an
 * `InvalidResponseError` naming the field, one value (described) and the
 * row; where some read, the rest are null and one warning per field and
 * list says how many. `raw: true` on a list or a detail call skips all of
 * it: rows then hold the server's values as sent.
 *
 * @module
 */
import { InvalidResponseError } from "../http/errors.ts";
import { plural } from "../shared/plural.ts";
import {
  type FieldGrammar,
  grammarOf,
  ReadLog,
  readRecord,
  type Unreadable,
  unreadFields,
  type ValueType,
} from "../shared/values/mod.ts";
import { redactKnownKeys } from "../http/_redact.ts";
import { carriesDemoMark, isDemo, markDemo } from "../shared/demo.ts";

/** How one kind of row is typed: its fields and the endpoint named in errors. */
export interface RowTyping {
  /** Endpoint named in errors (`POST /search`). */
  endpoint: string;
  /** The declared fields: key in the row and grammar. */
  fields: readonly FieldGrammar[];
  /** Fields of one nested object (a pitch row's `pitch`), labelled `key.field`. */
  inner?: { key: string; fields: readonly FieldGrammar[] };
}

/**
 * The typing of rows with these declared keys and value types.
 *
 * @example
 * ```ts
 * import { rowTyping, typeRows } from "./typed_rows.ts";
 * const t = rowTyping("GET /x", [["is_ceo", "boolean"], ["filed_at", "timestamp"]]);
 * typeRows(t, [{ is_ceo: "false", filed_at: "2025-01-02T02:48:00" }]);
 * // [{ is_ceo: false, filed_at: "2025-01-02T02:48:00.000Z" }]
 * ```
 */
export function rowTyping(
  endpoint: string,
  fields: readonly (readonly [key: string, type: ValueType])[],
  inner?: { key: string; fields: readonly (readonly [key: string, type: ValueType])[] },
): RowTyping {
  const of = (fs: readonly (readonly [string, ValueType])[], prefix = "") =>
    fs.map(([key, t]) => ({ key, grammar: grammarOf(t, key), label: prefix + key }));
  return {
    endpoint,
    fields: of(fields),
    ...(inner ? { inner: { key: inner.key, fields: of(inner.fields, inner.key + ".") } } : {}),
  };
}

/** Fields already warned about, per warn set (one warning per field and list). */
export type Warned = Set<string>;

/**
 * The rows typed (module doc). Throws for a field none of whose values in
 * `rows` reads; warns once per field (per `warned` set) for fields where
 * some values did not read.
 */
export function typeRows<Row>(
  t: RowTyping,
  rows: readonly Row[],
  warned: Warned = new Set(),
): Row[] {
  const log = new ReadLog();
  const out = rows.map((r, i) => {
    if (r === null || typeof r !== "object" || Array.isArray(r)) return r;
    let row = readRecord(t.fields, r as Record<string, unknown>, log, i);
    const o = t.inner && row[t.inner.key];
    if (t.inner && o !== null && typeof o === "object" && !Array.isArray(o)) {
      const q = readRecord(t.inner.fields, o as Record<string, unknown>, log, i);
      if (q !== o) row = { ...row, [t.inner.key]: q };
    }
    // a copy keeps the demo mark of the row it was read from
    if (row !== r && carriesDemoMark(r)) markDemo(row);
    return row as Row;
  });
  if (isDemo(rows)) markDemo(out);
  const bad = log.unreadable();
  if (bad.length === 0) return out;
  const dead = unreadFields(log, out as Record<string, unknown>[]);
  if (dead.length) throw unreadableError(t, dead[0]);
  for (const u of bad) {
    if (warned.has(u.column)) continue;
    warned.add(u.column);
    console.warn(redactKnownKeys(
      `signalbook: ${t.endpoint}: ${plural(u.rows, "value")} of ${u.column} outside its grammar, ` +
        `now null (e.g. ${u.example} in row ${u.row})`,
    ));
  }
  return out;
}

/** The error for a field none of whose values reads. */
function unreadableError(t: RowTyping, u: Unreadable): InvalidResponseError {
  const g = [...t.fields, ...(t.inner?.fields ?? [])].find((f) => (f.label ?? f.key) === u.column)!
    .grammar;
  return InvalidResponseError.unreadable({
    endpoint: t.endpoint,
    field: u.column,
    expected: `${g.type} (${g.forms.join("; ")})`,
    got: u.example,
    row: u.row,
  });
}
