/**
 * Column buffers as one Arrow IPC stream, read by Polars in one native call.
 *
 * Building a frame chunk from one `pl.Series` per column leaves native
 * garbage behind that V8 cannot see: the uncast `Float64` series of every
 * numeric, date, timestamp and boolean column (`NaN` standing for null)
 * stay alive, with their buffers, until V8 happens to collect their small
 * JS wrappers, so every chunk was followed by a forced full collection
 * (a pause of 60–150 ms, during which no request went out). Written as
 * Arrow, each column already has its final type and a validity bitmap for
 * its nulls: `pl.readIPCStream` turns the stream into the chunk, and
 * nothing is left over but the stream's bytes (an `ArrayBuffer`, whose size
 * V8 does count).
 *
 * The stream is a schema message, one record batch and the end marker
 * (Arrow columnar format, IPC streaming, metadata version 5), written with
 * the `flatbuffers` builder. Types, by value type (`shared/values/`):
 * `decimal` `Float64`, `integer` `Int64`, `boolean` `Boolean`, `date`
 * `Date32` (days), `timestamp` `Timestamp(ms, "UTC")`, `code` `Utf8`,
 * `list` `List<Int64>`, `text_list` `List<Utf8>`; every field nullable. Text is written as UTF-8 exactly as
 * `TextEncoder` writes it (a lone surrogate becomes U+FFFD).
 *
 * @module
 */
import * as flatbuffers from "npm:flatbuffers@25.9.23";
import type { ValueType } from "../shared/values/mod.ts";

/** Value types held as encoded text or lists ({@link PlainBuffer}), as they come. */
export const PLAIN_TYPES = ["code", "list", "text_list"] as const satisfies readonly ValueType[];
/** A value type held in a {@link PlainBuffer}. */
export type PlainType = typeof PLAIN_TYPES[number];
/** A value type held as numbers: every type but the {@link PLAIN_TYPES}. */
export type NumericType = Exclude<ValueType, PlainType>;

/**
 * One column to write: numeric types (`decimal`, `integer`, `boolean` as
 * 0/1, `date` as days, `timestamp` as ms) in a `Float64Array` with `NaN` for
 * null; text and lists already encoded, in a {@link PlainBuffer}.
 */
export type ArrowColumn =
  // a column of numbers
  | { name: string; type: NumericType; values: Float64Array }
  // a column of text or lists
  | { name: string; type: PlainType; values: PlainBuffer };

/** Message header tags and the metadata version. */
const H_SCHEMA = 1;
const H_RECORD_BATCH = 3;
const V5 = 4;

/** A field node and its buffers, collected while the body is laid out. */
interface Body {
  nodes: [number, number][];
  buffers: Uint8Array[];
}

/**
 * The first `n` values of each column as one Arrow IPC stream.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { Buffer } from "node:buffer";
 * import { arrowStream, PlainBuffer } from "./_arrow.ts";
 * const text = new PlainBuffer("code");
 * text.add(["a", null], 0, 2);
 * const bytes = arrowStream([
 *   { name: "d", type: "date", values: new Float64Array([20089, NaN]) },
 *   { name: "t", type: "code", values: text },
 * ], 2);
 * const df = pl.readIPCStream(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
 * console.log(String(df.schema.d), df.getColumn("t").toArray()); // Date [ "a", null ]
 * ```
 */
export function arrowStream(columns: readonly ArrowColumn[], n: number): Uint8Array {
  const body: Body = { nodes: [], buffers: [] };
  for (const c of columns) {
    if (c.values instanceof PlainBuffer) c.values.write(body, n, c.name);
    else writeNumbers(c.values, c.type as NumericType, n, body);
  }
  const schema = schemaMessage(columns);
  const { meta, bodyLength, offsets } = batchMessage(body, n);
  const out = new Uint8Array(
    framed(schema.length) + framed(meta.length) + bodyLength + 8,
  );
  const view = new DataView(out.buffer);
  let at = writeFramed(out, view, 0, schema);
  at = writeFramed(out, view, at, meta);
  body.buffers.forEach((b, i) => out.set(b, at + offsets[i]));
  at += bodyLength;
  view.setUint32(at, 0xffffffff, true); // end of stream: continuation, length 0
  return out;
}

/** Bytes rounded up to a multiple of 8. */
const pad8 = (n: number) => (n + 7) & ~7;
/** A message's framed length: continuation, length, metadata padded to 8. */
const framed = (metaLength: number) => 8 + pad8(metaLength);

function writeFramed(out: Uint8Array, view: DataView, at: number, meta: Uint8Array): number {
  view.setUint32(at, 0xffffffff, true);
  view.setInt32(at + 4, pad8(meta.length), true);
  out.set(meta, at + 8);
  return at + framed(meta.length);
}

/** A validity bitmap of `n` values (bit set: present), and the null count. */
function bitmap(n: number, isNull: (i: number) => boolean): { bits: Uint8Array; nulls: number } {
  const bits = new Uint8Array(pad8((n + 7) >> 3));
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (isNull(i)) nulls++;
    else bits[i >> 3] |= 1 << (i & 7);
  }
  return { bits, nulls };
}

const NO_BUFFER = new Uint8Array(0);

function writeNumbers(v: Float64Array, type: NumericType, n: number, body: Body): void {
  // NaN is the only value not equal to itself
  const { bits, nulls } = bitmap(n, (i) => v[i] !== v[i]);
  body.nodes.push([n, nulls]);
  body.buffers.push(nulls ? bits : NO_BUFFER);
  switch (type) {
    case "decimal": {
      body.buffers.push(bytesOf(v.slice(0, n)));
      return;
    }
    case "boolean": // a bit set for true: the values' bitmap
      body.buffers.push(bitmap(n, (i) => v[i] !== 1).bits);
      return;
    case "date": // whole day numbers; an Int32Array holds NaN (null) as 0
      body.buffers.push(bytesOf(new Int32Array(v.subarray(0, n))));
      return;
    case "integer":
    case "timestamp": // whole numbers within ±(2^53 − 1)
      body.buffers.push(bytesOf(int64s(v, n)));
  }
}

/** The first `n` whole numbers of `v` as little-endian 64-bit integers (NaN as 0). */
function int64s(v: Float64Array, n: number): Int32Array {
  const out = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (x !== x) continue;
    out[2 * i] = x % 4294967296 | 0;
    out[2 * i + 1] = Math.floor(x / 4294967296) | 0;
  }
  return out;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The schema message of the columns. */
function schemaMessage(columns: readonly ArrowColumn[]): Uint8Array {
  const b = new flatbuffers.Builder(1024 + 64 * columns.length);
  b.forceDefaults(true);
  const fields = columns.map((c) => field(b, c.name, c.type));
  const vec = offsetVector(b, fields);
  b.startObject(4); // Schema
  b.addFieldInt16(0, 0, 0); // little endian
  b.addFieldOffset(1, vec, 0);
  const schema = b.endObject();
  return message(b, H_SCHEMA, schema, 0);
}

function offsetVector(b: flatbuffers.Builder, items: number[]): number {
  b.startVector(4, items.length, 4);
  for (let i = items.length - 1; i >= 0; i--) b.addOffset(items[i]);
  return b.endVector();
}

/** A Field table: name, nullable, its type, and its children (a list's item). */
function field(b: flatbuffers.Builder, name: string, t: ValueType): number {
  const children: number[] = [];
  if (t === "list") children.push(field(b, "item", "integer"));
  if (t === "text_list") children.push(field(b, "item", "code"));
  const nameAt = b.createString(name);
  const type = typeTable(b, t);
  const kids = offsetVector(b, children);
  b.startObject(7);
  b.addFieldOffset(0, nameAt, 0);
  b.addFieldInt8(1, 1, 0); // nullable
  b.addFieldInt8(2, TYPE_TAGS[t], 0);
  b.addFieldOffset(3, type, 0);
  b.addFieldOffset(5, kids, 0);
  return b.endObject();
}

/** The Arrow type union's tag of each value type (Schema.fbs `Type`). */
const TYPE_TAGS: Record<ValueType, number> = {
  decimal: 3, // FloatingPoint
  integer: 2, // Int
  boolean: 6, // Bool
  date: 8, // Date
  timestamp: 10, // Timestamp
  code: 5, // Utf8
  list: 12, // List
  text_list: 12, // List
};

/** The type table of a value type (its fields; types without any get an empty table). */
function typeTable(b: flatbuffers.Builder, t: ValueType): number {
  const zone = t === "timestamp" ? b.createString("UTC") : 0;
  b.startObject(2); // the widest type table written here; unset trailing fields are trimmed
  switch (t) {
    case "decimal":
      b.addFieldInt16(0, 2, 0); // DOUBLE
      break;
    case "integer":
      b.addFieldInt32(0, 64, 0);
      b.addFieldInt8(1, 1, 0); // signed
      break;
    case "date":
      b.addFieldInt16(0, 0, 1); // DAY (the default is MILLISECOND)
      break;
    case "timestamp":
      b.addFieldInt16(0, 1, 0); // MILLISECOND
      b.addFieldOffset(1, zone, 0);
  }
  return b.endObject();
}

/** The record batch message of `body`, the body's length and each buffer's offset in it. */
function batchMessage(
  body: Body,
  n: number,
): { meta: Uint8Array; bodyLength: number; offsets: number[] } {
  const offsets: number[] = [];
  let len = 0;
  for (const buf of body.buffers) {
    offsets.push(len);
    len += pad8(buf.length);
  }
  const b = new flatbuffers.Builder(256 + 32 * (body.nodes.length + body.buffers.length));
  b.forceDefaults(true);
  const buffers = pairVector(b, body.buffers.map((buf, i) => [offsets[i], buf.length]));
  const nodes = pairVector(b, body.nodes);
  b.startObject(5); // RecordBatch
  b.addFieldInt64(0, BigInt(n), BigInt(0));
  b.addFieldOffset(1, nodes, 0);
  b.addFieldOffset(2, buffers, 0);
  const batch = b.endObject();
  return { meta: message(b, H_RECORD_BATCH, batch, len), bodyLength: len, offsets };
}

/**
 * A vector of structs of two 64-bit integers, each pair in field order
 * (`Buffer`: offset, length; `FieldNode`: length, null count).
 */
function pairVector(b: flatbuffers.Builder, pairs: readonly (readonly [number, number])[]): number {
  // vectors of structs are written back to front; a struct's fields likewise
  b.startVector(16, pairs.length, 8);
  for (let i = pairs.length - 1; i >= 0; i--) {
    b.prep(8, 16);
    b.writeInt64(BigInt(pairs[i][1]));
    b.writeInt64(BigInt(pairs[i][0]));
  }
  return b.endVector();
}

/** A finished Message table around a header. */
function message(b: flatbuffers.Builder, tag: number, header: number, bodyLength: number) {
  b.startObject(5);
  b.addFieldInt16(0, V5, 0);
  b.addFieldInt8(1, tag, 0);
  b.addFieldOffset(2, header, 0);
  b.addFieldInt64(3, BigInt(bodyLength), BigInt(0));
  b.finish(b.endObject());
  return b.asUint8Array();
}

/** Most UTF-8 bytes of text one column of one chunk may hold (Arrow `Utf8`'s 32-bit offsets). */
export const MAX_TEXT_BYTES = 2 ** 31 - 1;

const encoder = new TextEncoder();
/** Any character outside ASCII (one UTF-16 unit is then not one UTF-8 byte). */
const NON_ASCII = /[\u0080-\uffff]/;

/** Growable UTF-8 bytes with their offsets: the two buffers of a `Utf8` column. */
class Utf8Bytes {
  offsets = new Int32Array(256);
  data = new Uint8Array(4 * 1024);
  count = 0;
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Adds `vals[from…to)` (a value that is not a string as empty text). */
  add(vals: readonly unknown[], from: number, to: number): void {
    if (this.count + (to - from) + 1 > this.offsets.length) {
      this.offsets = grow(this.offsets, this.count + (to - from) + 1);
    }
    let text = "";
    for (let i = from; i < to; i++) {
      const s = vals[i];
      if (typeof s === "string") text += s;
    }
    const at = this.offsets[this.count];
    this.#room(at + text.length);
    if (!NON_ASCII.test(text)) {
      // ASCII: one UTF-16 unit per byte, so the offsets are the running lengths
      encoder.encodeInto(text, this.data.subarray(at));
      for (let i = from, o = at; i < to; i++) {
        const s = vals[i];
        if (typeof s === "string") o += s.length;
        this.offsets[++this.count] = o;
      }
      return;
    }
    // each string's own UTF-8 length, as TextEncoder writes it (up to 3 bytes per unit)
    this.#room(at + text.length * 3);
    let o = at;
    for (let i = from; i < to; i++) {
      const s = vals[i];
      if (typeof s === "string") o += encoder.encodeInto(s, this.data.subarray(o)).written;
      this.offsets[++this.count] = o;
    }
  }

  #room(bytes: number): void {
    if (bytes > this.max) {
      throw new RangeError(
        `the text of one frame chunk's column would pass ${this.max} bytes ` +
          "(Arrow's 32-bit offsets); build frames of such text in smaller chunks (chunkRows)",
      );
    }
    if (bytes > this.data.length) this.data = grow(this.data, bytes);
  }

  /** The two buffers (offsets, bytes), trimmed. */
  buffers(): [Uint8Array, Uint8Array] {
    return [
      bytesOf(this.offsets.subarray(0, this.count + 1)),
      this.data.subarray(0, this.offsets[this.count]),
    ];
  }

  reset(): void {
    this.count = 0;
  }
}

/** A copy of `a` with room for at least `need` items (twice as many, or more). */
function grow<T extends Int32Array | Uint8Array | Float64Array>(a: T, need: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length));
  b.set(a);
  return b;
}

/**
 * A text or list column filled page by page: each value is encoded as it
 * is added (UTF-8 bytes, list offsets and items), so the page's strings and
 * arrays can be collected at once instead of living, and being promoted to
 * V8's old generation, until the chunk is built.
 *
 * @example
 * ```ts
 * import { PlainBuffer } from "./_arrow.ts";
 * const b = new PlainBuffer("code");
 * b.add(["a", null, "b"], 0, 3);
 * console.log(b.length); // 3
 * ```
 */
export class PlainBuffer {
  readonly type: PlainType;
  #valid = new Uint8Array(128);
  #nulls = 0;
  #n = 0;
  /** Text of a `code` column, or the items of a `text_list` one. */
  readonly #text: Utf8Bytes;
  /** List offsets (lists only). */
  #offsets = new Int32Array(256);
  /** Items of a `list` column. */
  #ints = new Float64Array(256);

  /** An empty buffer of a type, whose text may hold up to `maxTextBytes` UTF-8 bytes. */
  constructor(type: PlainType, maxTextBytes = MAX_TEXT_BYTES) {
    this.type = type;
    this.#text = new Utf8Bytes(maxTextBytes);
  }

  /** Values added since the last reset. */
  get length(): number {
    return this.#n;
  }

  /**
   * Adds `vals[from…to)`: strings (`code`), or arrays of safe integers
   * (`list`) or of strings (`text_list`); null or undefined is null.
   */
  add(vals: readonly unknown[], from: number, to: number): void {
    const n0 = this.#n;
    const n1 = n0 + (to - from);
    if (((n1 + 7) >> 3) > this.#valid.length) this.#valid = grow(this.#valid, (n1 + 7) >> 3);
    const valid = this.#valid;
    for (let i = from, o = n0; i < to; i++, o++) {
      const v = vals[i];
      if (v === null || v === undefined) this.#nulls++;
      else valid[o >> 3] |= 1 << (o & 7);
    }
    this.#n = n1;
    if (this.type === "code") {
      this.#text.add(vals, from, to);
      return;
    }
    if (n1 + 1 > this.#offsets.length) this.#offsets = grow(this.#offsets, n1 + 1);
    const offsets = this.#offsets;
    if (this.type === "text_list") {
      for (let i = from, o = n0; i < to; i++, o++) {
        const v = vals[i] as readonly unknown[] | null | undefined;
        if (v) this.#text.add(v, 0, v.length);
        offsets[o + 1] = this.#text.count;
      }
      return;
    }
    let at = offsets[n0];
    for (let i = from, o = n0; i < to; i++, o++) {
      const v = vals[i] as readonly number[] | null | undefined;
      if (v) {
        if (at + v.length > this.#ints.length) this.#ints = grow(this.#ints, at + v.length);
        for (let j = 0; j < v.length; j++) this.#ints[at++] = v[j];
      }
      offsets[o + 1] = at;
    }
  }

  /** Empties the buffer (its memory is kept for the next chunk). */
  reset(): void {
    this.#valid.fill(0, 0, (this.#n + 7) >> 3);
    this.#n = 0;
    this.#nulls = 0;
    this.#text.reset();
  }

  /** Its field nodes and buffers, in IPC order (a `RangeError` unless it holds `n` values). */
  write(body: Body, n: number, name: string): void {
    if (this.#n !== n) throw new RangeError(`column ${name} holds ${this.#n} values, not ${n}`);
    body.nodes.push([n, this.#nulls]);
    body.buffers.push(this.#nulls ? this.#valid.subarray(0, (n + 7) >> 3) : NO_BUFFER);
    if (this.type === "code") {
      body.buffers.push(...this.#text.buffers());
      return;
    }
    body.buffers.push(bytesOf(this.#offsets.subarray(0, n + 1)));
    if (this.type === "text_list") {
      const items = this.#text.count;
      body.nodes.push([items, 0]);
      body.buffers.push(NO_BUFFER, ...this.#text.buffers());
      return;
    }
    const items = this.#offsets[n];
    body.nodes.push([items, 0]);
    body.buffers.push(NO_BUFFER, bytesOf(int64s(this.#ints, items)));
  }
}
