/**
 * The emulator's world, kept on disk between processes.
 *
 * Generating the demo world (400 issuers' price paths, 23,000 trades with
 * their point-in-time fields) takes seconds and holds a few hundred MiB while
 * it runs. A notebook's first cell should not pay that each time, so the
 * first process that builds a world writes it, in columns, to the user's
 * cache folder, and later processes read it back in milliseconds, building
 * rows only as they are asked for (see `insider/stored_trades.ts`) and
 * reading each column's values from the file a block of 1,024 rows at a
 * time, when first touched: 10 rows read one block of each column (and
 * of each null mask), not the whole column section.
 *
 * Choices (the issue left them open):
 * - Where: `$XDG_CACHE_HOME/signalbook/worlds`, else `~/.cache/signalbook/worlds`
 *   (`~/Library/Caches/signalbook/worlds` on macOS,
 *   `%LOCALAPPDATA%\signalbook\worlds` on Windows); `createStub({ worldCache })`
 *   names another folder, or `false` for none.
 * - Never asked: without read and write permission on that folder (a
 *   `deno run` without `--allow-read`/`--allow-write`/`--allow-env`), the
 *   world is generated in memory as before; no prompt, no error.
 * - Never stale: a file is named by seed, scale, as-of date and
 *   {@link WORLD_CACHE_VERSION} (a process that writes a world deletes older
 *   versions' files), which changes whenever the generator does
 *   (a test hashes the generator's sources and fails until the version is
 *   raised). A file that does not decode (truncated, another format) is
 *   generated again and replaced; writes go to a temporary file renamed into
 *   place, so concurrent processes never read half a file, and a lock file
 *   beside it lets one process generate a world while the others wait for
 *   it (version 7 adds the catalog's JSON text after the prices).
 * - Same answers: a world read back is the world generated, value for value
 *   (a test compares every row's JSON, the price paths and the truth).
 * - Never a hang, never a lie (version 9): the file is opened only as a
 *   regular file, without following a link and without blocking (a FIFO at
 *   its path is refused, not waited on); every length the file states is
 *   checked against caps and against the file's size before anything is
 *   read (the file at most 64 MiB and its header 4 MiB per unit of scale; a
 *   scale-1 world is 39 MiB with a 1.1 MiB header); every part read (the
 *   header, each section, each block of 1,024 rows of a column) is checked
 *   against its SHA-256 digest (the first 16 bytes) as it is read, so a byte
 *   changed anywhere is caught before it is served. A file refused at open
 *   is generated again and replaced; a part refused later is generated
 *   again in memory (the same world) and the file removed, so the next
 *   process writes a sound one. The generation lock is waited for at most
 *   15 s per unit of scale, and not at all when its holder is stopped (seen
 *   in `/proc` on Linux) or its path is a FIFO or a link: then the world
 *   is generated in memory, not written.
 *   Each of these says so in one notice (`shared/notice.ts`).
 *
 * @module
 */
import {
  assembleWorld,
  DEFAULT_AS_OF,
  generateWorld,
  type World,
  type WorldParts,
} from "./world.ts";
import { dirname, join } from "node:path";
import { dayOf, isoOf } from "./calendar.ts";
import { type InsiderData, makeInsiderData } from "./insider/insider_data.ts";
import { loadInsider, type StoredInsider, storeInsider } from "./insider/stored_trades.ts";
import { BLOCK_ROWS, BlockValues, type ColumnArray, type ColumnData } from "./columns.ts";
import { type CatalogData, makeCatalogData } from "./catalog/catalog_data.ts";
import { loadCatalog, storeCatalog } from "./catalog/stored_catalog.ts";
import { closeSync, readSync } from "node:fs";
import { createHash } from "node:crypto";
import { notice } from "../shared/notice.ts";
import { openRegularSync, UnsafeFileError } from "../shared/regular_file.ts";
import { lockFileSync, stoppedLockHolder } from "../shared/file_lock.ts";

/**
 * Version of the stored world. Raise it with any change to what the
 * generator produces (world.ts, insider/insider_data.ts, calendar.ts,
 * shared/random.ts, insider/fields.ts, catalog/catalog_data.ts) or to this
 * file format;
 * `tests/stub/world_cache_test.ts` holds the sources' hash and fails until
 * it is raised.
 */
export const WORLD_CACHE_VERSION = 9;

const MAGIC = "signalbook-world";
/** The file's first bytes: this tag, the header's length (u32), the body's (f64), the header's digest. */
const TAG = "SBW2";
/** Bytes of a digest: the first 16 of a SHA-256. */
const DIGEST_BYTES = 16;
const PREFIX_BYTES = 16 + DIGEST_BYTES;
/** Largest world file read, per unit of scale (never under 1): a scale-1 world is 39 MiB. */
const FILE_BYTES_PER_SCALE = 64 << 20;
/** Largest header read, per unit of scale (never under 1): a scale-1 header is 1.1 MiB. */
const HEADER_BYTES_PER_SCALE = 4 << 20;
/** Longest wait for another process's generation lock, per unit of scale: a scale-1 world takes about 2 s. */
const LOCK_WAIT_MS_PER_SCALE = 15_000;

/** Options of {@link openWorld}. */
export interface OpenWorldOptions {
  /** Seed (default 1). */
  seed?: number;
  /** Count multiplier (default 1). */
  scale?: number;
  /** As-of date `YYYY-MM-DD`. */
  asOf?: string;
  /** Cache folder, or `false` for none (default: the user's cache folder, see the module doc). */
  cache?: string | false;
}

/** A world and its insider dataset, and where they came from. */
export interface OpenedWorld {
  /** The world. */
  world: World;
  /** The insider dataset (rows built on first access). */
  insider: InsiderData;
  /** `"cache"` when read from disk, `"generated"` when built by this call. */
  source: "cache" | "generated";
  /** The cache file read or written, or null when there is none. */
  file: string | null;
  /**
   * Blocks of the trades' columns read so far (from the file, or from the
   * same world generated again once the file went away), and in all (both
   * 0 for a world generated by this call, which is all in memory).
   */
  blocks(): { read: number; total: number };
  /**
   * The catalog dataset: read from the file when it holds one (parsed at
   * the first call), else built from the world at the first call; the same
   * value every call.
   */
  catalog(): CatalogData;
}

/**
 * The world for a seed, scale and as-of date: read from the cache folder
 * when there, else generated (and written there).
 *
 * @example
 * ```ts
 * import { openWorld } from "./world_cache.ts";
 * const { world, insider } = openWorld({ seed: 1, scale: 0.1, cache: false });
 * console.log(world.companies.length, insider.trades.length > 0); // 40 true
 * ```
 */
export function openWorld(opts: OpenWorldOptions = {}): OpenedWorld {
  const seed = opts.seed ?? 1;
  const scale = opts.scale ?? 1;
  const asOf = opts.asOf ?? DEFAULT_AS_OF;
  const dir = opts.cache === false ? null : opts.cache ?? defaultCacheDir();
  const file = dir && usable(dir)
    ? join(dir, `world-v${WORLD_CACHE_VERSION}-seed${seed}-scale${scale}-${asOf}.bin`)
    : null;
  // what went wrong with the cache, said once for this world however often it is met
  let told = false;
  const tell = (why: string) => {
    if (told) return;
    told = true;
    notice(`signalbook: world cache: ${why}`);
  };
  const cached = (): OpenedWorld | null => {
    if (!file) return null;
    try {
      const { parts, stored, catalog } = readWorld(file, seed, scale, dayOf(asOf), tell);
      return opened(parts, stored, "cache", file, catalog);
    } catch (e) {
      // absent (silently), or refused: generate it and replace it
      if (!(e instanceof Deno.errors.NotFound)) tell(`${refusal(file, e)}; generating the world`);
      return null;
    }
  };
  const ready = cached();
  if (ready) return ready;
  const generate = () => {
    const parts = generateWorld({ seed, scale, asOf });
    return { parts, stored: storeInsider(makeInsiderData(assembleWorld(parts))) };
  };
  // one process generates a given world at a time; the others wait for it and read its file
  const lock = file ? generationLock(file, LOCK_WAIT_MS_PER_SCALE * Math.max(1, scale)) : null;
  if (lock && "refused" in lock) {
    // written by the holder just as the wait ran out: read it
    const late = cached();
    if (late) return late;
    tell(`${lock.refused}; generating the world in memory (not written)`);
    const { parts, stored } = generate();
    return opened(parts, stored, "generated", null, () => null);
  }
  using _held = lock?.held;
  const written = lock ? cached() : null;
  if (written) return written;
  const { parts, stored } = generate();
  if (!file) return opened(parts, stored, "generated", file, () => null);
  // the catalog is written with the world, so later processes parse it instead of building it
  const catalog = makeCatalogData(assembleWorld(parts));
  writeAtomically(file, encodeWorld(parts, stored, storeCatalog(catalog)));
  removeOtherVersions(dirname(file));
  return opened(parts, stored, "generated", file, () => catalog);
}

/**
 * Deletes the worlds of older {@link WORLD_CACHE_VERSION}s in the folder
 * (and their lock files), once this version has written one: no version
 * reads another's files, and each is tens of MiB. Newer versions' files are
 * left (another project may use a newer signalbook). Best effort: a file
 * that cannot be deleted is left.
 */
function removeOtherVersions(dir: string): void {
  try {
    for (const e of Deno.readDirSync(dir)) {
      const m = /^world-v(\d+)-.*\.bin(\.lock)?$/.exec(e.name);
      if (!e.isFile || !m || Number(m[1]) >= WORLD_CACHE_VERSION) continue;
      try {
        Deno.removeSync(join(dir, e.name));
      } catch {
        // in use or not ours to delete: left as it is
      }
    }
  } catch {
    // the folder cannot be listed: nothing to tidy
  }
}

/** `storedCatalog`: the catalog a world file holds (null: none, build it from the world). */
function opened(
  parts: WorldParts,
  stored: StoredInsider,
  source: OpenedWorld["source"],
  file: string | null,
  storedCatalog: () => CatalogData | null,
): OpenedWorld {
  const blocks = () => {
    let read = 0;
    let total = 0;
    for (const c of stored.rows) {
      for (const v of [c.values, c.nulls]) {
        if (v instanceof BlockValues) {
          read += v.blocksRead;
          total += v.blockCount;
        }
      }
    }
    return { read, total };
  };
  const world = assembleWorld(parts);
  let catalog: CatalogData | undefined;
  return {
    world,
    insider: loadInsider(stored),
    source,
    file,
    blocks,
    catalog: () => catalog ??= storedCatalog() ?? makeCatalogData(world),
  };
}

/**
 * An exclusive lock on `<file>.lock` (the shared lock of
 * `shared/file_lock.ts`), held while this process generates the world:
 * notebooks or test files started together on a machine that has not
 * generated it yet would otherwise each spend the seconds and the memory of
 * generating the same world. Released when disposed, or by the OS when the
 * process ends. Waited for at most `waitMs`; `refused` says why it was not
 * taken (held that long, by a stopped or slow process; something other
 * than a regular file at its path). Null where no lock can be taken (a file
 * system without locks): then each process generates, as before.
 */
function generationLock(
  file: string,
  waitMs: number,
): { held: Disposable } | { refused: string } | null {
  const path = `${file}.lock`;
  let got;
  try {
    Deno.mkdirSync(dirname(file), { recursive: true });
    got = lockFileSync(path, {
      timeoutMs: waitMs,
      pauseMs: [10, 200],
      giveUp: (ino) => {
        const stopped = ino === null ? null : stoppedLockHolder(ino);
        return stopped === null ? null : `${path} is held by process ${stopped}, which is stopped`;
      },
    });
  } catch (e) {
    return e instanceof UnsafeFileError ? { refused: `${e.path} ${e.why}` } : null;
  }
  if ("held" in got) return got;
  if ("gaveUp" in got) return { refused: got.gaveUp };
  if ("unsupported" in got) return null;
  const held = (waitMs / 1000).toFixed(1);
  return { refused: `another process has held ${path} for ${held} s (stopped, or slow)` };
}

/** The user's cache folder for worlds, or null when it cannot be known without a prompt. */
export function defaultCacheDir(): string | null {
  const env = (name: string) =>
    Deno.permissions.querySync({ name: "env", variable: name }).state === "granted"
      ? Deno.env.get(name)
      : undefined;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return join(xdg, "signalbook", "worlds");
  if (Deno.build.os === "windows") {
    const local = env("LOCALAPPDATA");
    return local ? join(local, "signalbook", "worlds") : null;
  }
  const home = env("HOME");
  if (!home) return null;
  return Deno.build.os === "darwin"
    ? join(home, "Library", "Caches", "signalbook", "worlds")
    : join(home, ".cache", "signalbook", "worlds");
}

function usable(dir: string): boolean {
  const granted = (name: "read" | "write") =>
    Deno.permissions.querySync({ name, path: dir }).state === "granted";
  return granted("read") && granted("write");
}

/** The world file at the path is not (or no longer) the one written: cut short, changed, replaced. */
class WorldFileChanged extends Error {}

/** Why a world file was refused, naming it. */
function refusal(file: string, e: unknown): string {
  return e instanceof UnsafeFileError ? e.message : `${file} ${(e as Error)?.message ?? e}`;
}

/**
 * Whether a later read's failure means the file went away or is not the
 * one written any more (deleted, cut, changed, replaced by something else,
 * its permission revoked): then the same world is generated instead.
 * Anything else (no file descriptors left, a bug) is thrown.
 */
function fileGone(e: unknown): boolean {
  const code = (e as { code?: string })?.code;
  return e instanceof WorldFileChanged || e instanceof UnsafeFileError ||
    e instanceof Deno.errors.NotFound || e instanceof Deno.errors.PermissionDenied ||
    e instanceof Deno.errors.NotCapable || code === "EACCES" || code === "EPERM";
}

/** `len` bytes of an open file from `pos`, in a fresh (so 8-byte aligned) buffer. */
function readRange(fd: number, pos: number, len: number): Uint8Array {
  const out = new Uint8Array(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, out, got, len - got, pos + got);
    if (!n) throw new WorldFileChanged("is cut short");
    got += n;
  }
  return out;
}

/** The first {@link DIGEST_BYTES} bytes of the SHA-256 of `bytes`. */
function digestOf(bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(bytes).digest().subarray(0, DIGEST_BYTES);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function writeAtomically(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    Deno.mkdirSync(dirname(file), { recursive: true });
    Deno.writeFileSync(tmp, bytes, { createNew: true });
    Deno.renameSync(tmp, file);
  } catch {
    // a read-only or full disk: the world is still generated, just not kept
    try {
      Deno.removeSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

type Typed = Float64Array | Int32Array | Uint8Array | Uint32Array | Int8Array;
const TYPES = { Float64Array, Int32Array, Uint8Array, Uint32Array, Int8Array } as const;
type TypeName = keyof typeof TYPES;
interface BlobRef {
  type: TypeName;
  offset: number;
  length: number;
  /** Values per digest: 1,024 (a block) for a row column, else all of them (at least 1). */
  unit: number;
  /** Index of its first digest in the digest table. */
  digest: number;
}

/** Digests of a blob of `length` values, `unit` to a digest: at least one (an empty blob has one). */
function unitsOf(r: { length: number; unit: number }): number {
  return Math.max(1, Math.ceil(r.length / r.unit));
}

/** A blob's bytes in the file: its values', then zeros up to the next multiple of 8. */
function paddedBytes(r: { type: TypeName; length: number }): number {
  return Math.ceil(r.length * TYPES[r.type].BYTES_PER_ELEMENT / 8) * 8;
}

/** A generated column's values (a world read back by blocks is never written again). */
function inMemory(v: ColumnArray | BlockValues): ColumnArray {
  if (v instanceof BlockValues) throw new Error("a column read by blocks is not written");
  return v;
}

/**
 * The file: a prefix ({@link TAG}, the header's length, the body's length,
 * the header's digest), the JSON header, then 8-byte-aligned typed arrays:
 * the trades' index fields and row columns, the prices, the catalog's JSON
 * text, and last the digest table (its own digest in the header): one
 * digest per block of 1,024 values of a row column, one per other array.
 */
function encodeWorld(
  parts: WorldParts,
  stored: StoredInsider,
  catalogText: string | null,
): Uint8Array {
  const blobs: Typed[] = [];
  const refs: BlobRef[] = [];
  const digests: Uint8Array[] = [];
  let offset = 0;
  const add = (a: Typed, unit = Math.max(1, a.length)): number => {
    const r = { type: a.constructor.name as TypeName, offset, length: a.length, unit };
    refs.push({ ...r, digest: digests.length });
    // each digest covers its values' bytes; the last one the padding after them too
    const bytes = new Uint8Array(paddedBytes(r));
    bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    const per = unit * a.BYTES_PER_ELEMENT;
    const units = unitsOf(r);
    for (let u = 0; u < units; u++) {
      const end = u === units - 1 ? bytes.length : (u + 1) * per;
      digests.push(digestOf(bytes.subarray(u * per, end)));
    }
    blobs.push(a);
    offset += bytes.length;
    return refs.length - 1;
  };
  const nDays = parts.market.length;
  const paths = new Float64Array(parts.paths.length * nDays);
  parts.paths.forEach((p, c) => paths.set(p, c * nDays));
  const withAbnormal = [...parts.abnormal.keys()].sort((a, b) => a - b);
  const abnormal = new Float64Array(withAbnormal.length * nDays);
  withAbnormal.forEach((c, k) => abnormal.set(parts.abnormal.get(c)!, k * nDays));
  const { rows, insiders, ...scalars } = stored;
  // the insider section first, the prices last: a reader loads the prices only when asked
  const scalarRefs = Object.fromEntries(
    Object.entries(scalars).map(([k, a]) => [k, add(a as Typed)]),
  );
  const rowRefs = rows.map((c) => ({
    name: c.name,
    kind: c.kind,
    dict: c.dict,
    values: add(inMemory(c.values), BLOCK_ROWS),
    nulls: c.nulls ? add(inMemory(c.nulls), BLOCK_ROWS) : undefined,
  }));
  const priceStart = offset;
  const prices = { market: add(parts.market), paths: add(paths), abnormal: add(abnormal) };
  // read at the first catalog request: the catalog as JSON text (none when it would not
  // come back exactly, see catalog/stored_catalog.ts)
  const priceEnd = offset;
  const catalog = catalogText === null ? null : add(new TextEncoder().encode(catalogText));
  const table = new Uint8Array(digests.length * DIGEST_BYTES);
  digests.forEach((d, k) => table.set(d, k * DIGEST_BYTES));
  const tableAt = offset;
  const header = {
    magic: MAGIC,
    version: WORLD_CACHE_VERSION,
    world: {
      seed: parts.seed,
      scale: parts.scale,
      asOf: parts.asOf,
      start: parts.start,
      firstDay: parts.firstDay,
      companies: parts.companies,
      betas: parts.betas,
      vols: parts.vols,
      landmark: parts.landmark,
      withAbnormal,
      ...prices,
    },
    insiders,
    scalars: scalarRefs,
    rows: rowRefs,
    priceStart,
    priceEnd,
    catalog,
    blobs: refs,
    digests: { offset: tableAt, count: digests.length, digest: hex(digestOf(table)) },
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((PREFIX_BYTES + head.length) / 8) * 8;
  const bodyLen = tableAt + table.length;
  const out = new Uint8Array(start + bodyLen);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode(TAG), 0);
  dv.setUint32(4, head.length, true);
  dv.setFloat64(8, bodyLen, true);
  out.set(head, PREFIX_BYTES);
  // the header's digest covers the padding after it too
  out.set(digestOf(out.subarray(PREFIX_BYTES, start)), 16);
  refs.forEach((r, k) => {
    const b = blobs[k];
    out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), start + r.offset);
  });
  out.set(table, start + tableAt);
  return out;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The stored trades' fields that are one typed array each, in {@link StoredInsider}. */
const SCALARS = [
  "day",
  "filedMs",
  "etDay",
  "company",
  "insider",
  "dir",
  "signal",
  "cluster90",
] as const satisfies readonly (keyof StoredInsider)[];

/**
 * Every length and place the header states, checked before anything is
 * read by it: each array of a known type, 8-byte aligned, inside the body,
 * its digests inside the table; the trades' arrays one value per trade,
 * the prices one per day (per issuer). Throws naming the first that is not.
 */
// deno-lint-ignore no-explicit-any
function checkHeader(h: any, bodyLen: number): void {
  const fail = (what: string): never => {
    throw new Error(`has a header that does not hold together (${what})`);
  };
  const int = (v: unknown, what: string, max = bodyLen): number =>
    Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max ? v as number : fail(
      `${what}: ${JSON.stringify(v)?.slice(0, 40)}`,
    );
  const t = h.digests;
  int(t?.offset, "digest table offset");
  const count = int(t?.count, "digest count", bodyLen / DIGEST_BYTES);
  if (t.offset % 8 || t.offset + count * DIGEST_BYTES !== bodyLen) fail("digest table place");
  if (!Array.isArray(h.blobs)) fail("blobs");
  for (const [k, r] of (h.blobs as BlobRef[]).entries()) {
    if (typeof r?.type !== "string" || !Object.hasOwn(TYPES, r.type)) fail(`blob ${k} type`);
    int(r.length, `blob ${k} length`);
    if (int(r.offset, `blob ${k} offset`) % 8 || r.offset + paddedBytes(r) > t.offset) {
      fail(`blob ${k} place`);
    }
    int(r.unit, `blob ${k} unit`);
    if (r.unit < 1 || int(r.digest, `blob ${k} digest`) + unitsOf(r) > count) {
      fail(`blob ${k} digests`);
    }
  }
  const ref = (k: unknown, what: string, length: number | null, unit?: number): BlobRef => {
    const r = h.blobs[int(k, what, h.blobs.length - 1)] as BlobRef;
    if (length !== null && r.length !== length) fail(`${what} length ${r.length}, not ${length}`);
    if (r.unit !== (unit ?? Math.max(1, r.length))) fail(`${what} unit`);
    return r;
  };
  const n = ref(h.scalars?.day, "day", null).length;
  for (const key of SCALARS) ref(h.scalars?.[key], key, n);
  if (!Array.isArray(h.rows)) fail("rows");
  for (const c of h.rows) {
    ref(c?.values, `column ${c?.name}`, n, BLOCK_ROWS);
    if (c.nulls !== undefined) ref(c.nulls, `column ${c.name} nulls`, n, BLOCK_ROWS);
  }
  const w = h.world;
  if (!Array.isArray(w?.companies) || !Array.isArray(w.withAbnormal)) fail("world");
  const nDays = int(w.asOf - w.start + 1, "days", 1e6);
  ref(w.market, "market", nDays);
  ref(w.paths, "paths", w.companies.length * nDays);
  ref(w.abnormal, "abnormal", w.withAbnormal.length * nDays);
  if (int(h.priceStart, "price start") > int(h.priceEnd, "price end", t.offset)) fail("prices");
  for (const k of [w.market, w.paths, w.abnormal]) {
    const r = h.blobs[k] as BlobRef;
    if (r.offset < h.priceStart || r.offset + paddedBytes(r) > h.priceEnd) fail("prices' place");
  }
  if (h.catalog !== null) ref(h.catalog, "catalog", null);
}

/**
 * Reads a world file: the header and the trades' index fields now; each
 * row column a block of rows at a time, when first read
 * ({@link BlockValues}); the prices (market, paths, abnormal returns) at the
 * first price asked for; each part checked against its digest as it is
 * read. Later reads open the file again; should it have gone since (a user
 * clearing the cache), or a part not match its digest (changed bytes,
 * another file put in its place), the same world is generated instead
 * (deterministic) and read from memory, with one notice (`tell`).
 */
function readWorld(
  file: string,
  seed: number,
  scale: number,
  asOf: number,
  tell: (why: string) => void,
): { parts: WorldParts; stored: StoredInsider; catalog: () => CatalogData | null } {
  const cap = Math.max(1, scale);
  const maxFile = FILE_BYTES_PER_SCALE * cap;
  const maxHead = HEADER_BYTES_PER_SCALE * cap;
  // one open file for the prefix, the header, the digests and the index fields
  const { fd, size } = openRegularSync(file, maxFile);
  using _close = { [Symbol.dispose]: () => closeSync(fd) };
  if (size < PREFIX_BYTES) throw new WorldFileChanged(`is cut short (${size} bytes)`);
  const prefix = readRange(fd, 0, PREFIX_BYTES);
  const dv = new DataView(prefix.buffer);
  if (new TextDecoder().decode(prefix.subarray(0, 4)) !== TAG) {
    throw new Error("is not a world file of this version");
  }
  const headLen = dv.getUint32(4, true);
  const bodyLen = dv.getFloat64(8, true);
  if (headLen > maxHead) {
    throw new Error(`states a header of ${headLen} bytes, over the cap of ${maxHead}`);
  }
  const start = Math.ceil((PREFIX_BYTES + headLen) / 8) * 8;
  if (!Number.isSafeInteger(bodyLen) || size !== start + bodyLen) {
    throw new WorldFileChanged(`is ${size} bytes, not the ${start + bodyLen} it states`);
  }
  const head = readRange(fd, PREFIX_BYTES, start - PREFIX_BYTES);
  if (!sameBytes(digestOf(head), prefix.subarray(16))) {
    throw new WorldFileChanged("has changed bytes in its header (digest differs)");
  }
  const h = JSON.parse(new TextDecoder().decode(head.subarray(0, headLen)));
  if (h?.magic !== MAGIC || h.version !== WORLD_CACHE_VERSION) {
    throw new Error("is another version's");
  }
  const w = h.world;
  if (w?.seed !== seed || w.scale !== scale || w.asOf !== asOf) {
    throw new Error("holds another world");
  }
  checkHeader(h, bodyLen);
  const table = readRange(fd, start + h.digests.offset, h.digests.count * DIGEST_BYTES);
  if (hex(digestOf(table)) !== h.digests.digest) {
    throw new WorldFileChanged("has changed bytes in its digest table");
  }
  const refOf = (k: number) => h.blobs[k] as BlobRef;
  /** Throws unless `bytes` are digest `u` of blob `k` (`what` names it). */
  const verify = (k: number, u: number, bytes: Uint8Array, what: string) => {
    const at = (refOf(k).digest + u) * DIGEST_BYTES;
    if (!sameBytes(digestOf(bytes), table.subarray(at, at + DIGEST_BYTES))) {
      throw new WorldFileChanged(`has changed bytes in ${what} (digest differs)`);
    }
  };
  /** The blobs from body offset `from` to `to`, read at once, each checked as it is taken. */
  const section = (fd: number, from: number, to: number) => {
    const bytes = readRange(fd, start + from, to - from);
    return (k: number, what: string): Typed => {
      const r = refOf(k);
      if (r.offset < from || r.offset + paddedBytes(r) > to) {
        throw new WorldFileChanged("has a blob outside its section");
      }
      verify(k, 0, bytes.subarray(r.offset - from, r.offset - from + paddedBytes(r)), what);
      return new TYPES[r.type](bytes.buffer as ArrayBuffer, r.offset - from, r.length);
    };
  };
  const s = h.scalars as Record<keyof StoredInsider, number>;
  const scalarEnd = Math.max(...SCALARS.map((k) => refOf(s[k]).offset + paddedBytes(refOf(s[k]))));
  const blob = section(fd, 0, scalarEnd);
  const scalar = <K extends typeof SCALARS[number]>(k: K) =>
    blob(s[k], `the trades' ${k}`) as StoredInsider[K];
  // the same world, generated: only once the file has gone (or changed) by the time a later
  // part is read; from then on every later part comes from it, without trying the file again
  let regenerated: { parts: WorldParts; stored: StoredInsider } | undefined;
  const regenerate = () => {
    if (regenerated) return regenerated;
    const parts = generateWorld({ seed, scale, asOf: isoOf(asOf) });
    const stored = storeInsider(makeInsiderData(assembleWorld(parts)));
    // its codes are read against the file's dictionaries: they must be the same columns
    const shape = (rows: readonly { name: string; kind: string; dict?: string[] }[]) =>
      JSON.stringify(rows.map((c) => [c.name, c.kind, c.dict ?? null]));
    if (shape(stored.rows) !== shape(h.rows)) {
      throw new Error(`world ${file}: generated again, its columns differ from the file's`);
    }
    return regenerated = { parts, stored };
  };
  // the later reads of one synchronous stretch (a row's 174 columns) share one open file,
  // closed when the stretch ends (a microtask): nothing stays open between answers
  let burst: number | null = null;
  const later = (): number => {
    if (burst !== null) return burst;
    const g = openRegularSync(file, maxFile).fd;
    burst = g;
    queueMicrotask(() => {
      burst = null;
      closeSync(g);
    });
    return g;
  };
  /** `read` of the file opened again, or `instead()` once the file has gone or changed. */
  const fromFile = <T>(read: (fd: number) => T, instead: () => T): T => {
    if (regenerated) return instead();
    try {
      return read(later());
    } catch (e) {
      if (!fileGone(e)) throw e;
      if (!(e instanceof Deno.errors.NotFound)) {
        tell(`${refusal(file, e)}; the rest of this world is generated again (the same values)`);
      }
      if (e instanceof WorldFileChanged) {
        // not the file written: the next process writes a sound one
        try {
          Deno.removeSync(file);
        } catch {
          // gone already, or not ours to remove
        }
      }
      return instead();
    }
  };
  const byBlocks = <T extends ColumnArray>(
    k: number,
    what: string,
    instead: (s: StoredInsider) => T,
  ) => {
    const r = refOf(k);
    const T = TYPES[r.type];
    return new BlockValues<T>(r.length, (from, count) =>
      fromFile(
        (fd) => {
          const at = r.offset + from * T.BYTES_PER_ELEMENT;
          // the last block's digest covers the blob's padding too
          const end = from + count === r.length
            ? r.offset + paddedBytes(r)
            : at + count * T.BYTES_PER_ELEMENT;
          const bytes = readRange(fd, start + at, end - at);
          verify(k, from / BLOCK_ROWS, bytes, `${what}, rows ${from} to ${from + count - 1}`);
          return new T(bytes.buffer as ArrayBuffer, 0, count) as T;
        },
        () => instead(regenerate().stored).slice(from, from + count) as T,
      ));
  };
  const nDays = w.asOf - w.start + 1;
  let prices: Pick<WorldParts, "market" | "paths" | "abnormal"> | undefined;
  const loadPrices = () => {
    if (prices) return prices;
    const read = fromFile((fd) => {
      const priceBlob = section(fd, h.priceStart, h.priceEnd);
      return {
        market: priceBlob(w.market, "the market's prices") as Float64Array,
        paths: priceBlob(w.paths, "the price paths") as Float64Array,
        abnormal: priceBlob(w.abnormal, "the abnormal returns") as Float64Array,
      };
    }, () => null);
    if (!read) return prices = regenerate().parts;
    return prices = {
      market: read.market,
      paths: w.companies.map((_: unknown, c: number) =>
        read.paths.subarray(c * nDays, (c + 1) * nDays)
      ),
      abnormal: new Map(
        (w.withAbnormal as number[]).map((c, k) => [
          c,
          read.abnormal.subarray(k * nDays, (k + 1) * nDays),
        ]),
      ),
    };
  };
  const parts: WorldParts = {
    seed: w.seed,
    scale: w.scale,
    asOf: w.asOf,
    start: w.start,
    firstDay: w.firstDay,
    companies: w.companies,
    get market() {
      return loadPrices().market;
    },
    get paths() {
      return loadPrices().paths;
    },
    get abnormal() {
      return loadPrices().abnormal;
    },
    betas: w.betas,
    vols: w.vols,
    landmark: w.landmark,
  };
  const stored: StoredInsider = {
    insiders: h.insiders,
    day: scalar("day"),
    filedMs: scalar("filedMs"),
    etDay: scalar("etDay"),
    company: scalar("company"),
    insider: scalar("insider"),
    dir: scalar("dir"),
    signal: scalar("signal"),
    cluster90: scalar("cluster90"),
    rows: (h.rows as {
      name: string;
      kind: ColumnData["kind"];
      dict?: string[];
      values: number;
      nulls?: number;
    }[])
      .map((c, j) => ({
        name: c.name,
        kind: c.kind,
        dict: c.dict,
        values: byBlocks(
          c.values,
          `column ${c.name}`,
          (again) => inMemory(again.rows[j].values),
        ),
        nulls: c.nulls === undefined ? undefined : byBlocks(
          c.nulls,
          `column ${c.name}'s nulls`,
          (again) => inMemory(again.rows[j].nulls!) as Uint8Array,
        ),
      })),
  };
  // the catalog's text, read at the first catalog request (null: build it from the world)
  const catalog = (): CatalogData | null => {
    if (h.catalog === null) return null;
    const r = refOf(h.catalog);
    return fromFile((fd) => {
      const bytes = readRange(fd, start + r.offset, paddedBytes(r));
      verify(h.catalog, 0, bytes, "the catalog");
      return loadCatalog(new TextDecoder().decode(bytes.subarray(0, r.length)));
    }, () => null);
  };
  return { parts, stored, catalog };
}
