/**
 * Columns of plain records, for the emulator's stored world: a list of rows
 * that all have the same keys in the same order becomes one typed array (or
 * dictionary) per key, and any row comes back out exactly: same keys, same
 * order, same values (so `JSON.stringify` of a row read back is byte-for-byte
 * the original's).
 *
 * Each key's kind is chosen from its values, and only when every value
 * survives the round trip:
 * - `int`: 32-bit integers (and null), as int32 with a null mask;
 * - `num`: other numbers (and null), as float64 with a null mask;
 * - `bool`: booleans (and null), one byte each;
 * - `day`: `YYYY-MM-DD` dates, as day numbers;
 * - `iso`: ISO instants (`Date#toISOString()`), as epoch milliseconds;
 * - `ids`: short arrays of distinct ascending integers 0–31 (feed ids), as a bit mask;
 * - `str`: other strings, dictionary-coded;
 * - `json`: anything else, dictionary-coded JSON.
 *
 * Reading is lazy: {@link RecordColumns.view} is a live object whose
 * properties read the columns (a filter over 100k rows touches only the
 * columns it tests), and {@link RecordColumns.row} makes a plain object.
 * A column's values may themselves be {@link BlockValues}, read from disk
 * a block of rows at a time when first touched (the world cache), so a
 * page of 10 rows does not load 23,000.
 *
 * @module
 */
import { dayOf, isoOf } from "./calendar.ts";
import isEqual from "npm:lodash-es@4.17.21/isEqual.js";

/** How one key is stored. */
export type ColumnKind = "int" | "num" | "bool" | "day" | "iso" | "ids" | "str" | "json";

/** A column's typed array: Float64Array, Int32Array, Uint8Array or Uint32Array by kind. */
export type ColumnArray = Float64Array | Int32Array | Uint8Array | Uint32Array;

/** Rows in one block of {@link BlockValues}: 1,024 (8 KiB of a float64 column). */
export const BLOCK_ROWS = 1024;

/**
 * A column's values read a block of {@link BLOCK_ROWS} rows at a time, when
 * one of them is first asked for, and kept: the stored world's columns,
 * whose first page of rows then reads one block per column, not the whole
 * column.
 *
 * @example
 * ```ts
 * import { BlockValues } from "./columns.ts";
 * const all = Int32Array.from({ length: 3000 }, (_, i) => i * 2);
 * const v = new BlockValues(all.length, (from, count) => all.slice(from, from + count));
 * console.log(v.at(2049), v.blocksRead); // 4098 1
 * ```
 */
export class BlockValues<T extends ColumnArray = ColumnArray> {
  /** Number of values. */
  readonly length: number;
  readonly #load: (from: number, count: number) => T;
  readonly #blocks: (T | undefined)[];

  /** `load(from, count)` returns values `from`…`from + count − 1`. */
  constructor(length: number, load: (from: number, count: number) => T) {
    this.length = length;
    this.#load = load;
    this.#blocks = new Array(Math.ceil(length / BLOCK_ROWS));
  }

  /** Value `i` (a RangeError outside 0…length − 1: there is no block to read). */
  at(i: number): number {
    if (!(i >= 0 && i < this.length)) {
      throw new RangeError(`value ${i} is not allowed; allowed: 0 to ${this.length - 1}`);
    }
    const b = (i / BLOCK_ROWS) | 0;
    const block = this.#blocks[b] ??= this.#read(b);
    return block[i - b * BLOCK_ROWS];
  }

  /** Blocks in all. */
  get blockCount(): number {
    return this.#blocks.length;
  }

  /** Blocks read so far. */
  get blocksRead(): number {
    return this.#blocks.filter((b) => b !== undefined).length;
  }

  #read(b: number): T {
    const from = b * BLOCK_ROWS;
    const count = Math.min(BLOCK_ROWS, this.length - from);
    const block = this.#load(from, count);
    if (block.length !== count) {
      throw new Error(`block ${b}: ${block.length} values read for ${count}`);
    }
    return block;
  }
}

/** One key's column, as stored: its kind, its typed array and, for coded kinds, the dictionary. */
export interface ColumnData {
  /** The key. */
  name: string;
  /** The storage kind. */
  kind: ColumnKind;
  /** Values (or codes), in memory or read from disk by blocks. */
  values: ColumnArray | BlockValues;
  /** `int` and `num`: 1 where the value is null (absent when none is). */
  nulls?: Uint8Array | BlockValues<Uint8Array>;
  /** `str` and `json`: the distinct values; code k is `dict[k − 1]`, code 0 is null. */
  dict?: string[];
}

const NULL_DAY = -2147483648;
const INDEX = Symbol("row index");

/** Encodes rows (all with the same keys in the same order) as columns. */
export function encodeColumns(rows: readonly Record<string, unknown>[]): ColumnData[] {
  if (rows.length === 0) return [];
  const names = Object.keys(rows[0]);
  const cols: unknown[][] = names.map(() => new Array(rows.length));
  const differ = () => new Error("encodeColumns: rows differ in their keys or key order");
  rows.forEach((r, i) => {
    // values in key order (fast even for objects with many keys); the order itself is checked
    // on every 64th row, the count on every row
    const vals = Object.values(r);
    if (vals.length !== names.length) throw differ();
    if (i % 64 === 0) {
      let k = 0;
      for (const key in r) if (key !== names[k++]) throw differ();
    }
    for (let k = 0; k < vals.length; k++) cols[k][i] = vals[k];
  });
  return names.map((name, k) => encodeOne(name, cols[k]));
}

function encodeOne(name: string, vals: unknown[]): ColumnData {
  const n = vals.length;
  const present = vals.filter((v) => v !== null);
  const every = (ok: (v: unknown) => boolean) => present.every(ok);
  if (every((v) => typeof v === "number")) {
    const int = every((v) => (v as number) === ((v as number) | 0) && !Object.is(v, -0));
    const values = int ? new Int32Array(n) : new Float64Array(n);
    const nulls = new Uint8Array(n);
    let anyNull = false;
    vals.forEach((v, i) => {
      if (v === null) [nulls[i], anyNull] = [1, true];
      else values[i] = v as number;
    });
    const kind = int ? "int" : "num";
    return anyNull ? { name, kind, values, nulls } : { name, kind, values };
  }
  if (every((v) => typeof v === "boolean")) {
    return { name, kind: "bool", values: Uint8Array.from(vals, (v) => v === null ? 2 : v ? 1 : 0) };
  }
  if (every((v) => typeof v === "string" && /^\d{4}-\d\d-\d\d$/.test(v) && isoOf(dayOf(v)) === v)) {
    return {
      name,
      kind: "day",
      values: Int32Array.from(vals, (v) => v === null ? NULL_DAY : dayOf(v as string)),
    };
  }
  if (
    every((v) => typeof v === "string" && v.length === 24 && isoInstant(Date.parse(v)) === v)
  ) {
    return {
      name,
      kind: "iso",
      values: Float64Array.from(vals, (v) => v === null ? NaN : Date.parse(v as string)),
    };
  }
  // ids only where no value is null
  if (present.length === n && every((v) => Array.isArray(v) && isEqual(idsOf(maskOf(v)), v))) {
    return { name, kind: "ids", values: Uint32Array.from(vals, (v) => maskOf(v as unknown[])) };
  }
  const text = every((v) => typeof v === "string");
  const key = (v: unknown) => text ? v as string : JSON.stringify(v);
  const codes = new Map<string, number>();
  const dict: string[] = [];
  const values = Uint32Array.from(vals, (v) => {
    // a new text's code is its place in the dictionary, counted from 1 (push's new length)
    return v === null ? 0 : codes.getOrInsertComputed(key(v), (k) => dict.push(k));
  });
  return { name, kind: text ? "str" : "json", values, dict };
}

function isoInstant(ms: number): string | null {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function maskOf(v: unknown[]): number {
  let m = 0;
  for (const x of v) {
    if (typeof x !== "number" || !Number.isInteger(x) || x < 0 || x > 31) return -1;
    m |= 1 << x;
  }
  return m >>> 0;
}

function idsOf(mask: number): number[] {
  return mask < 0 ? [] : BITS.filter((b) => mask & (1 << b));
}
const BITS = Array.from({ length: 32 }, (_, b) => b);

/** Value `i` of a column's values or null mask, in memory or by blocks. */
function indexer(v: ColumnArray | BlockValues): (i: number) => number {
  return v instanceof BlockValues ? (i) => v.at(i) : (i) => v[i];
}

/** Per kind: a stored number (value or code) as the row's value; the null mask aside. */
const DECODE: Record<ColumnKind, (x: number, dict: readonly string[]) => unknown> = {
  int: (x) => x,
  num: (x) => x,
  bool: (x) => x === 2 ? null : x === 1,
  day: (x) => x === NULL_DAY ? null : isoOf(x),
  iso: (x) => Number.isNaN(x) ? null : new Date(x).toISOString(),
  ids: idsOf,
  str: (x, dict) => x === 0 ? null : dict[x - 1],
  json: (x, dict) => x === 0 ? null : JSON.parse(dict[x - 1]),
};

/** A column's values (by row), read through its null mask when it has one. */
function through<T>(c: ColumnData, nul: T, f: (x: number) => T): (i: number) => T {
  const v = indexer(c.values);
  const nulls = c.nulls && indexer(c.nulls);
  return nulls ? (i) => nulls(i) ? nul : f(v(i)) : (i) => f(v(i));
}

function reader(c: ColumnData): (i: number) => unknown {
  const decode = DECODE[c.kind];
  const dict = c.dict ?? [];
  return through<unknown>(c, null, (x) => decode(x, dict));
}

/** A string's JSON text is the string in quotes unless it holds a quote, backslash, control or surrogate. */
// deno-lint-ignore no-control-regex -- control characters are what JSON escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** Most entries in the small text caches of `day` and `ids` columns (their values are few). */
const TEXTS_KEPT = 4096;

/**
 * Per kind, where the JSON text is written faster than `JSON.stringify` of
 * the decoded value (the other kinds' text): from the stored number, or
 * kept per value for the kinds whose values are few.
 */
const TEXTS: Partial<Record<ColumnKind, (dict: readonly string[]) => (x: number) => string>> = {
  int: () => String,
  num: () => (x) => Number.isFinite(x) ? String(x) : "null",
  bool: () => (x) => x === 2 ? "null" : x === 1 ? "true" : "false",
  day: () => kept((x) => x === NULL_DAY ? "null" : `"${isoOf(x)}"`),
  ids: () => kept((x) => `[${idsOf(x).join(",")}]`),
  str: (dict) => {
    // per entry: 0 not yet seen, 1 plain (quotes suffice), 2 escaped by JSON.stringify
    const plain = new Uint8Array(dict.length);
    return (x) => {
      if (x === 0) return "null";
      const s = dict[x - 1];
      const p = plain[x - 1] ||= PLAIN.test(s) ? 1 : 2;
      return p === 1 ? `"${s}"` : JSON.stringify(s);
    };
  },
  // the dictionary holds each value's JSON text
  json: (dict) => (x) => x === 0 ? "null" : dict[x - 1],
};

/** `text` with its results kept, up to {@link TEXTS_KEPT} of them. */
function kept(text: (x: number) => string): (x: number) => string {
  const texts = new Map<number, string>();
  return (x) => {
    let t = texts.get(x);
    if (t === undefined) {
      t = text(x);
      if (texts.size < TEXTS_KEPT) texts.set(x, t);
    }
    return t;
  };
}

/** Value `i` of a column as JSON text: what `JSON.stringify` gives for the value {@link reader} reads. */
function textReader(c: ColumnData): (i: number) => string {
  const dict = c.dict ?? [];
  const decode = DECODE[c.kind];
  return through(c, "null", TEXTS[c.kind]?.(dict) ?? ((x) => JSON.stringify(decode(x, dict))));
}

/**
 * Rows read back from their columns.
 *
 * @example
 * ```ts
 * import { encodeColumns, RecordColumns } from "./columns.ts";
 * const rows = [{ a: 1, on: "2026-01-02" }, { a: null, on: null }];
 * const cols = new RecordColumns(encodeColumns(rows), rows.length);
 * console.log(JSON.stringify(cols.row(0)), cols.view(1).a); // {"a":1,"on":"2026-01-02"} null
 * ```
 */
export class RecordColumns<Row extends object = Record<string, unknown>> {
  /** Number of rows. */
  readonly length: number;
  /** The stored columns. */
  readonly columns: readonly ColumnData[];
  readonly #read: ((i: number) => unknown)[];
  readonly #names: string[];
  readonly #proto: object;
  #texts?: Map<string, (i: number) => string>;

  /**
   * Reads `length` rows from columns made by {@link encodeColumns} (each
   * with `length` values: the encoder's, or the world file's, whose layout
   * gives every row column the trades' count).
   */
  constructor(columns: readonly ColumnData[], length: number) {
    this.length = length;
    this.columns = columns;
    this.#read = columns.map(reader);
    this.#names = columns.map((c) => c.name);
    const proto: Record<string | symbol, unknown> = {};
    this.#names.forEach((name, k) => {
      const read = this.#read[k];
      Object.defineProperty(proto, name, {
        get(this: { [INDEX]: number }) {
          return read(this[INDEX]);
        },
        enumerable: true,
      });
    });
    const row = (i: number) => this.row(i);
    proto.toJSON = function (this: { [INDEX]: number }) {
      return row(this[INDEX]);
    };
    this.#proto = proto;
  }

  /**
   * Per key, a reader of row `i`'s value as JSON text, byte for byte what
   * `JSON.stringify` gives for `row(i)[key]`, read from the columns without
   * making the value (a dictionary string is quoted as it is when it needs
   * no escapes). For writing rows as JSON.
   */
  get texts(): ReadonlyMap<string, (i: number) => string> {
    return this.#texts ??= new Map(this.columns.map((c) => [c.name, textReader(c)]));
  }

  /** Row `i` as a plain object (keys in the original order). */
  row(i: number): Row {
    const out: Record<string, unknown> = {};
    for (let k = 0; k < this.#names.length; k++) out[this.#names[k]] = this.#read[k](i);
    return out as Row;
  }

  /**
   * Row `i` as a live read-only view: each property reads its column when
   * asked, and `JSON.stringify` gives the plain row. For scans that test a
   * few keys of many rows.
   */
  view(i: number): Row {
    const v = Object.create(this.#proto);
    v[INDEX] = i;
    return v as Row;
  }
}
