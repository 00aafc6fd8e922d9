/**
 * The world file's layout, declared once ({@link PREFIX}, {@link LAYOUT}),
 * with the one writer ({@link encodeWorldFile}) and the one reader
 * ({@link WorldFile}) that both go by it; `tests/stub/world_format_test.ts`
 * checks them by round trip. `world_cache.ts` says what goes in and when it
 * is read; this file says where each byte is.
 *
 * The file: a 32-byte {@link PREFIX} (a tag, the header's length, the
 * body's length, the header's digest), the JSON header (the {@link WorldMeta}:
 * everything that is not a typed array, and the digest of the digest
 * table), zeros up to a multiple of 8, then the body: the sections of
 * {@link LAYOUT} in order, each array 8-byte aligned and padded with zeros
 * to the next multiple of 8, and last the digest table. Every array's place
 * follows from the header's meta alone, so a header that states lengths
 * the file's size cannot hold is refused before anything else is read.
 *
 * Digests (the first 16 bytes of a SHA-256): one per array, or, in a section
 * read by blocks, one per block of {@link BLOCK_ROWS} values; the last digest
 * of an array covers its padding too. The header's digest (in the prefix)
 * covers the prefix's fields before it, the header and its padding.
 *
 * Caps: the file at most 64 MiB and its header 4 MiB per unit of scale
 * (never under 1; a scale-1 world is 39 MiB with a 1.1 MiB header).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { BLOCK_ROWS, type ColumnKind } from "./columns.ts";
import type { WorldParts } from "./world.ts";

/** The typed arrays a world file holds, by the name the header gives their type. */
export const ARRAY_TYPES = {
  Float64Array,
  Int32Array,
  Uint8Array,
  Uint32Array,
  Int8Array,
} as const;
/** The name of a typed array's type. */
export type ArrayType = keyof typeof ARRAY_TYPES;
/** A typed array a world file holds. */
export type Typed = Float64Array | Int32Array | Uint8Array | Uint32Array | Int8Array;

/** Bytes of a digest: the first 16 of a SHA-256. */
const DIGEST_BYTES = 16;
/** The file's first bytes, declared: each field's place and how it is written and read. */
export const PREFIX = {
  /** ASCII, four bytes: this format's tag. */
  tag: { at: 0, bytes: 4 },
  /** The JSON header's length (uint32, little-endian). */
  headerBytes: { at: 4, bytes: 4 },
  /** The body's length (float64, little-endian: the file may exceed 4 GiB in principle). */
  bodyBytes: { at: 8, bytes: 8 },
  /** The digest of the prefix's fields above, the header and its padding. */
  headerDigest: { at: 16, bytes: DIGEST_BYTES },
} as const;
const HEADER_DIGEST_AT = PREFIX.headerDigest.at;
const PREFIX_BYTES = HEADER_DIGEST_AT + PREFIX.headerDigest.bytes;
/** This format's tag (raised with the layout: a file of another layout is refused at once). */
const TAG = "SBW3";
const MAGIC = "signalbook-world";
/** Largest world file read, per unit of scale (never under 1). */
const FILE_BYTES_PER_SCALE = 64 << 20;
/** Largest header read, per unit of scale (never under 1). */
const HEADER_BYTES_PER_SCALE = 4 << 20;

/** Largest world file read for a world of `scale`. */
export function maxFileBytes(scale: number): number {
  return FILE_BYTES_PER_SCALE * Math.max(1, scale);
}

/** What the header holds: the world's scalars and lists, the insiders, the columns' shapes. */
export interface WorldMeta {
  /** The world's parts that are not arrays of prices. */
  world: Omit<WorldParts, "market" | "paths" | "abnormal" | "companies"> & {
    companies: unknown[];
    /** Companies with abnormal returns, ascending: the order of the `abnormal` array's rows. */
    withAbnormal: number[];
  };
  /** The reporting owners. */
  insiders: unknown[];
  /** Number of trades: the length of every index array and row column. */
  trades: number;
  /** The row columns, in order: name, kind, dictionary, values' type, whether nulls are stored. */
  rows: { name: string; kind: ColumnKind; dict?: string[]; type: ArrayType; nulls: boolean }[];
  /** Bytes of the catalog (`catalog/stored_catalog.ts`), or null when the file holds none. */
  catalogBytes: number | null;
}

/** The trades' index fields: one typed array each, in this order (`StoredInsider`'s fields). */
export const INDEX_FIELDS = [
  // per trade: transaction day; filing instant, epoch ms; Eastern filing day
  ["day", "Int32Array"],
  ["filedMs", "Float64Array"],
  ["etDay", "Int32Array"],
  // per trade: issuer index; insider index; +1, −1 or 0; the informed signal
  ["company", "Int32Array"],
  ["insider", "Int32Array"],
  ["dir", "Int8Array"],
  ["signal", "Float64Array"],
  // per trade: 1 when in a 90-day cluster
  ["cluster90", "Uint8Array"],
] as const satisfies readonly (readonly [string, ArrayType])[];

/** One array the layout declares: its name in its section, its type and its number of values. */
type Declared = readonly [name: string, type: ArrayType, length: number];

/**
 * The body's sections in file order, declared once: how each is checked
 * (one digest per array, or per block of rows) and its arrays, from the
 * header's meta. The index is read at open; the row columns a block at a
 * time; the prices at the first price asked for; the catalog at the first
 * catalog request.
 */
export const LAYOUT = [
  {
    section: "index",
    per: "array",
    arrays: (m: WorldMeta): Declared[] =>
      INDEX_FIELDS.map(([name, type]) => [name, type, m.trades]),
  },
  {
    section: "rows",
    per: "block",
    arrays: (m: WorldMeta): Declared[] =>
      m.rows.flatMap((c, k): Declared[] => [
        [`${k}`, c.type, m.trades],
        ...(c.nulls ? [[`${k}.nulls`, "Uint8Array", m.trades] as const] : []),
      ]),
  },
  {
    section: "prices",
    per: "array",
    arrays: (m: WorldMeta): Declared[] => {
      const days = m.world.asOf - m.world.start + 1;
      return [
        ["market", "Float64Array", days],
        ["paths", "Float64Array", m.world.companies.length * days],
        ["abnormal", "Float64Array", m.world.withAbnormal.length * days],
      ];
    },
  },
  {
    section: "catalog",
    per: "array",
    arrays: (m: WorldMeta): Declared[] =>
      m.catalogBytes === null ? [] : [["text", "Uint8Array", m.catalogBytes]],
  },
] as const;
/** A section's name. */
export type Section = typeof LAYOUT[number]["section"];

/** Where one declared array lies in the body, and its digests. */
export interface Place {
  section: Section;
  name: string;
  type: ArrayType;
  length: number;
  /** Body offset (a multiple of 8). */
  offset: number;
  /** Bytes in the file: the values', then zeros up to the next multiple of 8. */
  bytes: number;
  /** Index of its first digest in the table. */
  digest: number;
  /** Values per digest: {@link BLOCK_ROWS} in a section read by blocks, else all of them. */
  unit: number;
}

/** The places of every array of a meta and the digest table's place. */
export interface Plan {
  places: Map<string, Place>;
  /** Body offset of the digest table. */
  tableAt: number;
  /** Digests in the table. */
  digests: number;
  /** The body's length. */
  bodyBytes: number;
}

/** The key of an array in {@link Plan.places}. */
const keyOf = (section: Section, name: string) => `${section}/${name}`;

/**
 * The places the layout gives a meta's arrays. Throws (`does not hold
 * together`) at a length that is not a whole number or a type that is no
 * array type, naming it.
 */
export function planOf(m: WorldMeta): Plan {
  const places = new Map<string, Place>();
  let offset = 0;
  let digests = 0;
  for (const spec of LAYOUT) {
    for (const [name, type, length] of spec.arrays(m)) {
      const what = `${spec.section} ${name}`;
      if (!Object.hasOwn(ARRAY_TYPES, type)) bad(`${what} type ${JSON.stringify(type)}`);
      if (!Number.isSafeInteger(length) || length < 0) bad(`${what} length ${length}`);
      const unit = spec.per === "block" ? BLOCK_ROWS : Math.max(1, length);
      const bytes = Math.ceil(length * ARRAY_TYPES[type].BYTES_PER_ELEMENT / 8) * 8;
      places.set(keyOf(spec.section, name), {
        section: spec.section,
        name,
        type,
        length,
        offset,
        bytes,
        digest: digests,
        unit,
      });
      digests += Math.max(1, Math.ceil(length / unit));
      offset += bytes;
    }
  }
  return { places, tableAt: offset, digests, bodyBytes: offset + digests * DIGEST_BYTES };
}

function bad(what: string): never {
  throw new Error(`has a header that does not hold together (${what})`);
}

/** The file is not (or no longer) the one written: cut short, changed, replaced. */
export class WorldFileChanged extends Error {}

/**
 * The first {@link DIGEST_BYTES} bytes of the SHA-256 of `parts`, one after
 * another (a node `Buffer`: compared with `equals`, written with `toString("hex")`).
 */
function digestOf(...parts: Uint8Array[]): Buffer {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, DIGEST_BYTES);
}

/** The header's JSON: the format's name and version, the meta, the digest table's digest. */
interface Header {
  magic: string;
  version: number;
  meta: WorldMeta;
  tableDigest: string;
}

/**
 * The file for `meta`, with each declared array from `arrayOf(section,
 * name)`; an array of another type or length than declared throws, naming
 * it.
 *
 * @example
 * ```ts
 * import { ARRAY_TYPES, encodeWorldFile, WorldFile } from "./_world_format.ts";
 * const meta = {
 *   world: { seed: 1, scale: 1, asOf: 1, start: 0, firstDay: 0, companies: [], betas: [], vols: [], landmark: -1, withAbnormal: [] },
 *   insiders: [], trades: 0, rows: [], catalogBytes: null,
 * };
 * const bytes = encodeWorldFile(meta, 1, (_s, _n, type, length) => new ARRAY_TYPES[type](length));
 * const read = (pos: number, len: number) => bytes.slice(pos, pos + len);
 * const f = WorldFile.open({ size: bytes.length, read }, 1, 1);
 * console.log(f.section("prices", read).get("market")!.length); // 2
 * ```
 */
export function encodeWorldFile(
  meta: WorldMeta,
  version: number,
  arrayOf: (section: Section, name: string, type: ArrayType, length: number) => Typed,
): Uint8Array {
  const plan = planOf(meta);
  const body = new Uint8Array(plan.bodyBytes);
  const table = body.subarray(plan.tableAt);
  for (const p of plan.places.values()) {
    const a = arrayOf(p.section, p.name, p.type, p.length);
    if (a.constructor.name !== p.type || a.length !== p.length) {
      throw new Error(
        `world file: ${p.section} ${p.name} is a ${a.constructor.name} of ${a.length}, ` +
          `not the ${p.type} of ${p.length} the layout declares`,
      );
    }
    body.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), p.offset);
    forEachUnit(p, (u, from, to) => {
      table.set(
        digestOf(body.subarray(p.offset + from, p.offset + to)),
        (p.digest + u) * DIGEST_BYTES,
      );
    });
  }
  const header: Header = {
    magic: MAGIC,
    version,
    meta,
    tableDigest: digestOf(table).toString("hex"),
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((PREFIX_BYTES + head.length) / 8) * 8;
  const out = new Uint8Array(start + body.length);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode(TAG), PREFIX.tag.at);
  dv.setUint32(PREFIX.headerBytes.at, head.length, true);
  dv.setFloat64(PREFIX.bodyBytes.at, body.length, true);
  out.set(head, PREFIX_BYTES);
  out.set(
    digestOf(out.subarray(0, HEADER_DIGEST_AT), out.subarray(PREFIX_BYTES, start)),
    HEADER_DIGEST_AT,
  );
  out.set(body, start);
  return out;
}

/**
 * Calls `f(u, from, to)` for each digest unit of an array: its byte range
 * within the array's place (the last one up to the padding's end).
 */
function forEachUnit(p: Place, f: (u: number, from: number, to: number) => void): void {
  const per = p.unit * ARRAY_TYPES[p.type].BYTES_PER_ELEMENT;
  const units = Math.max(1, Math.ceil(p.length / p.unit));
  for (let u = 0; u < units; u++) f(u, u * per, u === units - 1 ? p.bytes : (u + 1) * per);
}

/**
 * Reads `len` bytes from `pos` (a fresh, so 8-byte aligned, buffer); fewer
 * bytes (a file cut short since it was opened) throw, or fail the part's
 * digest.
 */
export type ReadBytes = (pos: number, len: number) => Uint8Array;

/**
 * A world file opened: its prefix, header and digest table read and
 * checked; its sections and blocks read on demand (each from a
 * {@link ReadBytes} given then, as the file may have to be opened again),
 * each checked against its digest.
 */
export class WorldFile {
  /** The header's meta. */
  readonly meta: WorldMeta;
  /** Where each array lies. */
  readonly plan: Plan;
  readonly #start: number;
  readonly #table: Uint8Array;

  private constructor(meta: WorldMeta, plan: Plan, start: number, table: Uint8Array) {
    this.meta = meta;
    this.plan = plan;
    this.#start = start;
    this.#table = table;
  }

  /**
   * Opens a file of `size` bytes written by {@link encodeWorldFile} with
   * `version`, for a world of `scale`: its prefix, header and digest table
   * checked against the caps, the file's size, the layout and their digests
   * before any section is read. Throws naming what is wrong
   * ({@link WorldFileChanged} for a file cut short or changed).
   */
  static open(src: { size: number; read: ReadBytes }, version: number, scale: number): WorldFile {
    const cap = Math.max(1, scale);
    const { size, read } = src;
    if (size > maxFileBytes(scale)) {
      throw new Error(`is ${size} bytes, over the cap of ${maxFileBytes(scale)}`);
    }
    if (size < PREFIX_BYTES) throw new WorldFileChanged(`is cut short (${size} bytes)`);
    const prefix = read(0, PREFIX_BYTES);
    const dv = new DataView(prefix.buffer, prefix.byteOffset);
    if (new TextDecoder().decode(prefix.subarray(0, PREFIX.tag.bytes)) !== TAG) {
      throw new Error("is not a world file of this version");
    }
    const headLen = dv.getUint32(PREFIX.headerBytes.at, true);
    const bodyLen = dv.getFloat64(PREFIX.bodyBytes.at, true);
    const maxHead = HEADER_BYTES_PER_SCALE * cap;
    if (headLen > maxHead) {
      throw new Error(`states a header of ${headLen} bytes, over the cap of ${maxHead}`);
    }
    const start = Math.ceil((PREFIX_BYTES + headLen) / 8) * 8;
    if (!Number.isSafeInteger(bodyLen) || size !== start + bodyLen) {
      throw new WorldFileChanged(`is ${size} bytes, not the ${start + bodyLen} it states`);
    }
    const head = read(PREFIX_BYTES, start - PREFIX_BYTES);
    const at = HEADER_DIGEST_AT;
    if (!digestOf(prefix.subarray(0, at), head).equals(prefix.subarray(at, PREFIX_BYTES))) {
      throw new WorldFileChanged("has changed bytes in its header (digest differs)");
    }
    const h = JSON.parse(new TextDecoder().decode(head.subarray(0, headLen)));
    if (h?.magic !== MAGIC || h.version !== version) throw new Error("is another version's");
    const plan = planOf(checkedMeta(h.meta));
    if (plan.bodyBytes !== bodyLen) bad(`its arrays take ${plan.bodyBytes} bytes, not ${bodyLen}`);
    const table = read(start + plan.tableAt, plan.digests * DIGEST_BYTES);
    if (digestOf(table).toString("hex") !== h.tableDigest) {
      throw new WorldFileChanged("has changed bytes in its digest table");
    }
    return new WorldFile(h.meta, plan, start, table);
  }

  /**
   * The place of an array the layout declares (the reader asks only for
   * those: the row columns and null masks the header lists).
   */
  place(section: Section, name: string): Place {
    return this.plan.places.get(keyOf(section, name))!;
  }

  /** A section's arrays by name, each read whole and checked (one block: its one digest). */
  section(section: Section, read: ReadBytes): Map<string, Typed> {
    const mine = [...this.plan.places.values()].filter((p) => p.section === section);
    return new Map(mine.map((p) => [p.name, this.block(p, 0, p.length, read)]));
  }

  /**
   * Values `from`…`from + count − 1` of an array (`from` at the start of one
   * of its digest's units: a block of rows, or the whole array), checked.
   */
  block(p: Place, from: number, count: number, read: ReadBytes): Typed {
    const T = ARRAY_TYPES[p.type];
    const at = p.offset + from * T.BYTES_PER_ELEMENT;
    // the last block's digest covers the array's padding too
    const end = from + count === p.length ? p.offset + p.bytes : at + count * T.BYTES_PER_ELEMENT;
    const bytes = read(this.#start + at, end - at);
    const rows = p.section === "rows" ? `, rows ${from} to ${from + count - 1}` : "";
    this.#verify(p, from / p.unit, bytes, this.#describe(p) + rows);
    return new T(bytes.buffer as ArrayBuffer, 0, count);
  }

  /** How a notice names an array: a row column by its field's name, else by {@link NAMES}. */
  #describe(p: Place): string {
    if (p.section !== "rows") return NAMES[p.name] ?? `the trades' ${p.name}`;
    const [k, nulls] = p.name.split(".");
    return `column ${this.meta.rows[Number(k)].name}${nulls ? "'s nulls" : ""}`;
  }

  #verify(p: Place, u: number, bytes: Uint8Array, what: string): void {
    const at = (p.digest + u) * DIGEST_BYTES;
    if (!digestOf(bytes).equals(this.#table.subarray(at, at + DIGEST_BYTES))) {
      throw new WorldFileChanged(`has changed bytes in ${what} (digest differs)`);
    }
  }
}

/** How notices name the arrays outside the rows and the index. */
const NAMES: Record<string, string> = {
  market: "the market's prices",
  paths: "the price paths",
  abnormal: "the abnormal returns",
  text: "the catalog",
};

/**
 * The header's meta, its shape checked where the layout reads it (lengths
 * whole numbers within a million days, lists that are lists), else a
 * refusal naming the first part that is not.
 */
// deno-lint-ignore no-explicit-any
function checkedMeta(m: any): WorldMeta {
  const w = m?.world;
  if (!Array.isArray(w?.companies) || !Array.isArray(w.withAbnormal)) bad("world");
  const days = w.asOf - w.start + 1;
  if (!Number.isSafeInteger(days) || days < 1 || days > 1e5) bad(`days: ${days}`);
  if (!Number.isSafeInteger(m.trades) || m.trades < 0) bad(`trades: ${m.trades}`);
  if (!Array.isArray(m.rows) || !m.rows.every((c: unknown) => typeof c === "object" && c)) {
    bad("rows");
  }
  if (m.catalogBytes !== null && !Number.isSafeInteger(m.catalogBytes)) bad("catalog length");
  return m;
}
