/**
 * Field coverage of the rows a service sent, against a field catalog: which
 * catalog fields the raw rows carry (matched by meaning, as the clients do,
 * see `shared/field_keys.ts`), which are missing, which keys are extra,
 * which values the client read from another form than the canonical one
 * (coercions: the value grammars' notes, from the frame's report), and
 * which values the service sent that the client's frame holds as null
 * (lost: values it could not read).
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { KeyIndex } from "../shared/field_keys.ts";
import type { FrameReport } from "../frames/mod.ts";

/** One declared field: its name in the frame (its value type is the frame's affair). */
export interface DeclaredField {
  /** Name as declared (the frame's column). */
  name: string;
  /** Key as the spec spells it on the wire, when not `name` (camelCase search rows). */
  wire?: string;
}

/** Values of one field that came in another JSON type (and were read). */
export interface Coercion {
  /** Catalog field. */
  field: string;
  /** The form read, as the value grammars note it: `text`, `number`, `epoch milliseconds at UTC midnight`, … */
  from: string;
  /** Rows with such a value. */
  rows: number;
}

/** How the rows of one answer cover a field catalog. */
export interface FieldCoverage {
  /** Rows examined. */
  rows: number;
  /** Fields in the catalog. */
  fields: number;
  /** Catalog fields the rows carry (matched by meaning). */
  found: number;
  /** Catalog fields no row carries. */
  missing: string[];
  /** Keys of the rows that match no catalog field (kept as extra columns). */
  extra: string[];
  /** Keys spelled otherwise than the spec, e.g. `returns1W → returns1w` (first few). */
  renamed: string[];
  /** Values sent in another JSON type than declared. */
  coercions: Coercion[];
  /** Values the service sent (non-null) that are null in the client's frame. */
  lost: { field: string; rows: number }[];
  /**
   * True when the service leaves out null keys: fields are missing, yet no
   * row sent any `null` (rows of real data have many). Missing fields are
   * then nulls left out, which the client reads row by row: not a problem.
   */
  omitsNulls: boolean;
}

/**
 * Coverage of `raw` rows (as sent) against `declared`, and of the values
 * that reached `frame` (whose columns carry the declared names, row for
 * row), with the client's own `report` of that frame: its coercions are the
 * forms the value grammars read other than the canonical one, and a value
 * sent (not null, not empty text) that is null in the frame is lost, as is
 * every value the report counts as unreadable.
 */
export function coverage(
  raw: readonly Record<string, unknown>[],
  declared: readonly DeclaredField[],
  frame: pl.DataFrame,
  report: FrameReport,
): FieldCoverage {
  const index = new KeyIndex(declared.map((f) => f.name));
  const keyOf = new Map<string, string>();
  const extra = new Set<string>();
  const renamed: string[] = [];
  for (const row of raw) {
    for (const key of Object.keys(row)) {
      const name = index.nameOf(key);
      if (name === undefined) extra.add(key);
      else if (!keyOf.has(name)) {
        keyOf.set(name, key);
        const f = declared.find((d) => d.name === name)!;
        if (key !== (f.wire ?? name) && renamed.length < 4) {
          renamed.push(`${key} → ${f.wire ?? name}`);
        }
      }
    }
  }
  // rows per field: the larger of those the frame holds as null and those the builder could not read
  const lost = new Map<string, number>();
  for (const f of declared) {
    const key = keyOf.get(f.name);
    if (key === undefined || !frame.columns.includes(f.name)) continue;
    const nulls = frame.getColumn(f.name).isNull().toArray() as boolean[];
    const sent = (v: unknown) => v !== null && v !== undefined && v !== "";
    const gone = raw.filter((row, i) => nulls[i] && sent(row[key])).length;
    if (gone) lost.set(f.name, gone);
  }
  for (const u of report.unreadable) lost.set(u.column, Math.max(lost.get(u.column) ?? 0, u.rows));
  const missing = declared.filter((f) => !keyOf.has(f.name)).map((f) => f.name);
  return {
    rows: raw.length,
    fields: declared.length,
    found: keyOf.size,
    missing,
    omitsNulls: missing.length > 0 && raw.length > 0 &&
      !raw.some((row) => Object.values(row).some((v) => v === null)),
    extra: [...extra],
    renamed,
    coercions: report.coerced.map((c) => ({ field: c.column, from: c.from, rows: c.rows })),
    lost: [...lost].map(([field, rows]) => ({ field, rows })),
  };
}

/** `a, b, c and 4 more`: the first few names of a list. */
export function firstFew(names: readonly string[], n = 5): string {
  return names.length <= n
    ? names.join(", ")
    : `${names.slice(0, n).join(", ")} and ${names.length - n} more`;
}

/** `2 columns coerced from text: transaction_value (2 rows), …`, or `none`. */
export function describeCoercions(cs: readonly Coercion[]): string {
  if (cs.length === 0) return "none";
  return [...Map.groupBy(cs, (c) => c.from)].map(([from, list]) =>
    `${list.length} column${list.length === 1 ? "" : "s"} sent as ${from}: ${
      firstFew(list.map((c) => `${c.field} (${c.rows} row${c.rows === 1 ? "" : "s"})`), 3)
    }`
  ).join("; ");
}
