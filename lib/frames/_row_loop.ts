/**
 * The generated row loop of the frame builder (`build.ts`): one pass over
 * the rows with every property read and conversion written out with a
 * constant key, per column list, cached. Each value type's inline reader
 * takes its canonical values only (`INLINE`, a total map from the value
 * types); anything else flags the row for the builder's full-grammar
 * reading.
 *
 * @module
 */
import type { ColumnSpec } from "./dtypes.ts";
import { PLAIN_TYPES, type PlainType } from "./_arrow.ts";
import { isCikField, isoDay, isoMs, type ValueType } from "../shared/values/mod.ts";

/** Where a column's values are held: a numeric buffer or a plain one, and which. */
export type Slot = { num: boolean; c: number };

/** Whether a value type is held in a plain buffer (text and lists), not a numeric one. */
export const isPlain = (t: ValueType): t is PlainType =>
  (PLAIN_TYPES as readonly string[]).includes(t);

/**
 * The generated row loop's inline reader of each value type: an expression
 * of the row's value `v` that is the value as its buffer holds it, or `ODD`
 * (null when `v` is null, else the row is flagged for `#redo`).
 */
const INLINE: Record<ValueType, string> = {
  decimal: `typeof v === "number" && v - v === 0 ? v : ODD`, // finite: not NaN or ±Infinity
  integer: `Number.isSafeInteger(v) ? v : ODD`,
  boolean: `v === true ? 1 : v === false ? 0 : ODD`,
  date: `typeof v === "string" && (x = isoDay(v)) === x ? x : ODD`,
  timestamp: `typeof v === "string" && (x = isoMs(v)) === x ? x : ODD`,
  code: `typeof v === "string" ? v : ODD`,
  list: `Array.isArray(v) && okList(v, true) ? v : ODD`,
  text_list: `Array.isArray(v) && okList(v, false) ? v : ODD`,
};

/** The inline reader of a CIK column (`code`, read by the CIK grammar: `shared/values/code.ts`). */
const CIK_INLINE = `typeof v === "string" && isCik(v) ? v : ODD`;

/** Whether a list's items are all canonical: safe integers, or text (`ints` false). */
function okList(v: unknown[], ints: boolean): boolean {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (ints ? !Number.isSafeInteger(x) : typeof x !== "string") return false;
  }
  return true;
}

/** What the generated row loop calls: the canonical readers of `shared/values/`. */
const FAST = { isoDay, isoMs, okList, isCik: (v: string) => TEN_DIGITS.test(v) };

/** A CIK's canonical form (`shared/values/code.ts`): ten digits. */
const TEN_DIGITS = /^\d{10}$/;

/** What both the row loop and each of its generated parts take first: rows `[from, to)` into the buffers from offset `off`. */
type Rows = [
  rows: readonly Record<string, unknown>[],
  from: number,
  to: number,
  off: number,
  num: Float64Array[],
  plain: unknown[][],
];
/** A row the row loop hands back to the builder, at buffer offset `o`. */
type RowCall = (row: Record<string, unknown>, o: number) => void;

export type Filler = (...args: [...Rows, redo: RowCall, scan: RowCall]) => void;

/**
 * Compiled per column list, keyed by its content (name, type and key of
 * every column) so a caller passing a fresh but equal list each time still
 * hits the cache. Bounded; the oldest entry goes first.
 */
const compiled = new Map<string, Filler>();
const MAX_COMPILED = 256;

export function compile(specs: readonly ColumnSpec[], slots: readonly Slot[]): Filler {
  const sig = specs.map((s) => `${s.name}\u0000${s.type}\u0000${s.key ?? ""}`).join("\u0001");
  let c = compiled.get(sig);
  if (!c) {
    c = filler(specs, slots);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(sig, c);
  }
  return c;
}

/**
 * The row loop, generated once per column list: one pass over the rows with
 * every property read and conversion written out with a constant key, which
 * V8 compiles to monomorphic loads (about twice as fast as a generic loop
 * over 174 keys). Keys are embedded with `JSON.stringify`, so no column name
 * can inject code.
 *
 * The columns are split into functions of {@link GROUP_COLUMNS} columns,
 * each one pass over the rows: V8 optimises small functions soon, and their
 * optimised code is smaller (one function over 174 columns stayed in V8's
 * baseline tier through a 20k-row pull).
 *
 * Per value, the right type and null are taken inline; anything else (a
 * missing key, a value of another type, a date that does not parse) only
 * flags the row, and once every group has run a flagged row is read again
 * by `redo` (lenient and counted), so the common path carries no call and
 * no counting. Per row, an unflagged row's key count
 * is compared with the declared columns'; a row with more keys goes to
 * `scan`.
 */
function filler(specs: readonly ColumnSpec[], slots: readonly Slot[]): Filler {
  // per column (numeric ones first): its declaration and its line of the row loop
  const cols = specs.map((s, i) => {
    const { num, c } = slots[i];
    const [to, nul] = num ? [`n${c}`, "NaN"] : [`p${c}`, "null"];
    const odd = `v === null ? ${nul} : (f = 1, ${nul})`;
    return {
      num,
      decl: `const ${to} = ${num ? "num" : "plain"}[${c}];`,
      line: `v = row[${JSON.stringify(s.key ?? s.name)}]; ${to}[o] = ${
        (s.type === "code" && isCikField(s.name) ? CIK_INLINE : INLINE[s.type]).replace("ODD", odd)
      };`,
    };
  }).sort((a, b) => +b.num - +a.num);
  const groups: Group[] = [];
  for (let g = 0; g < cols.length; g += GROUP_COLUMNS) {
    const part = cols.slice(g, g + GROUP_COLUMNS);
    const body = `${part.map((c) => c.decl).join("\n")}
const isoDay = fast.isoDay, isoMs = fast.isoMs, okList = fast.okList, isCik = fast.isCik;
for (let r = from, o = off; r < to; r++, o++) {
 const row = rows[r]; let v, x, f = 0;
 ${part.map((c) => c.line).join("\n ")}
 if (f !== 0) flagged[r - from] = 1;
}`;
    groups.push(
      new Function("rows", "from", "to", "off", "num", "plain", "fast", "flagged", body) as Group,
    );
  }
  const n = specs.length;
  return (rows, from, to, off, num, plain, redo, scan) => {
    const flagged = new Uint8Array(to - from);
    for (const g of groups) g(rows, from, to, off, num, plain, FAST, flagged);
    for (let r = from, o = off; r < to; r++, o++) {
      if (flagged[r - from] !== 0) redo(rows[r], o);
      else if (Object.keys(rows[r]).length !== n) scan(rows[r], o);
    }
  };
}

/** Columns per generated function of the row loop (see {@link filler}). */
const GROUP_COLUMNS = 32;

/** One generated part of the row loop: sets `flagged[r - from]` for a row it could not take. */
type Group = (...args: [...Rows, fast: typeof FAST, flagged: Uint8Array]) => void;
