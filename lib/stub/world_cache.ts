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
 *   it (version 7 adds the catalog after the prices; version 11 writes it
 *   as V8's structured serialization, not JSON text: `catalog/stored_catalog.ts`).
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
 * - One declared layout (version 10): `_world_format.ts` says where each
 *   byte is, with the one writer and the one reader; this file says what
 *   goes in (the world's parts, the stored trades, the catalog) and when
 *   each part is read.
 *
 * @module
 */
import {
  assembleWorld,
  DEFAULT_AS_OF,
  generateWorld,
  type World,
  type WorldOptions,
  type WorldParts,
} from "./world.ts";
import { dirname, join } from "node:path";
import { dayOf, isoOf } from "./calendar.ts";
import { type InsiderData, makeInsiderData } from "./insider/insider_data.ts";
import { loadInsider, type StoredInsider, storeInsider } from "./insider/stored_trades.ts";
import { BlockValues, type ColumnArray, type ColumnData } from "./columns.ts";
import {
  type ArrayType,
  encodeWorldFile,
  INDEX_FIELDS,
  maxFileBytes,
  type ReadBytes,
  type Section,
  type Typed,
  WorldFile,
  WorldFileChanged,
  type WorldMeta,
} from "./_world_format.ts";
import { type CatalogData, makeCatalogData } from "./catalog/catalog_data.ts";
import { loadCatalog, storeCatalog } from "./catalog/stored_catalog.ts";
import { closeSync, readSync } from "node:fs";
import { notice } from "../shared/notice.ts";
import once from "npm:lodash-es@4.17.21/once.js";
import pick from "npm:lodash-es@4.17.21/pick.js";
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
export const WORLD_CACHE_VERSION = 11;

/** Longest wait for another process's generation lock, per unit of scale: a scale-1 world takes about 2 s. */
const LOCK_WAIT_MS_PER_SCALE = 15_000;

/** Options of {@link openWorld}: the world's, and where it is kept. */
export interface OpenWorldOptions extends WorldOptions {
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
  const tell: (why: string) => void = once((why: string) =>
    notice(`signalbook: world cache: ${why}`)
  );
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
  const generate = () => generated(seed, scale, asOf);
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

/** The world generated, and its insider dataset stored in columns. */
function generated(seed: number, scale: number, asOf: string) {
  const parts = generateWorld({ seed, scale, asOf });
  return { parts, stored: storeInsider(makeInsiderData(assembleWorld(parts))) };
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
    const byBlocks = stored.rows.flatMap((c) => [c.values, c.nulls])
      .filter((v) => v instanceof BlockValues);
    const sum = (f: (v: BlockValues) => number) => byBlocks.reduce((n, v) => n + f(v), 0);
    return { read: sum((v) => v.blocksRead), total: sum((v) => v.blockCount) };
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
  // the platform's cache folder (XDG's where set), signalbook's worlds in it
  const home = env("HOME");
  const base = env("XDG_CACHE_HOME") ||
    (Deno.build.os === "windows"
      ? env("LOCALAPPDATA")
      : home && join(home, ...(Deno.build.os === "darwin" ? ["Library", "Caches"] : [".cache"])));
  return base ? join(base, "signalbook", "worlds") : null;
}

function usable(dir: string): boolean {
  const granted = (name: "read" | "write") =>
    Deno.permissions.querySync({ name, path: dir }).state === "granted";
  return granted("read") && granted("write");
}

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

/** What the header says of a row column besides its values' type and whether it has nulls. */
const COLUMN_META = ["name", "kind", "dict"];

/** A generated column's values (a world read back by blocks is never written again). */
function inMemory(v: ColumnArray | BlockValues): ColumnArray {
  if (v instanceof BlockValues) throw new Error("a column read by blocks is not written");
  return v;
}

/**
 * The world as a file of the declared layout (`_world_format.ts`): the
 * trades' index fields and row columns, the prices, the catalog's bytes.
 */
function encodeWorld(
  parts: WorldParts,
  stored: StoredInsider,
  catalog: Uint8Array | null,
): Uint8Array {
  const nDays = parts.market.length;
  const withAbnormal = [...parts.abnormal.keys()].sort((a, b) => a - b);
  // the world's scalars and lists, in the order the parts hold them (the prices go in the body)
  const { market: _m, paths: _p, abnormal: _a, ...world } = parts;
  const meta: WorldMeta = {
    world: { ...world, withAbnormal },
    insiders: stored.insiders,
    trades: stored.day.length,
    rows: stored.rows.map((c) => ({
      ...pick(c, COLUMN_META),
      type: inMemory(c.values).constructor.name as ArrayType,
      nulls: c.nulls !== undefined,
    })),
    catalogBytes: catalog?.length ?? null,
  };
  /** Rows of `nDays` values, one after another. */
  const joined = (rows: Float64Array[]) => {
    const out = new Float64Array(rows.length * nDays);
    rows.forEach((r, k) => out.set(r, k * nDays));
    return out;
  };
  const arrays: Record<Section, (name: string) => Typed> = {
    index: (name) => (stored as unknown as Record<string, Typed>)[name],
    rows: (name) => {
      const [k, nulls] = name.split(".");
      const c = stored.rows[Number(k)];
      return inMemory(nulls ? c.nulls! : c.values);
    },
    prices: (name) =>
      name === "market"
        ? parts.market
        : joined(name === "paths" ? parts.paths : withAbnormal.map((c) => parts.abnormal.get(c)!)),
    catalog: () => catalog!,
  };
  return encodeWorldFile(meta, WORLD_CACHE_VERSION, (section, name) => arrays[section](name));
}

/**
 * Reads a world file: the header and the trades' index fields now; each
 * row column a block of rows at a time, when first read
 * ({@link BlockValues}); the prices (market, paths, abnormal returns) at the
 * first price asked for; each part checked against its digest as it is
 * read (`_world_format.ts`). Later reads open the file again; should it have
 * gone since (a user clearing the cache), or a part not match its digest
 * (changed bytes, another file put in its place), the same world is
 * generated instead (deterministic) and read from memory, with one notice
 * (`tell`).
 */
function readWorld(
  file: string,
  seed: number,
  scale: number,
  asOf: number,
  tell: (why: string) => void,
): { parts: WorldParts; stored: StoredInsider; catalog: () => CatalogData | null } {
  const reader = (fd: number) => (pos: number, len: number) => readRange(fd, pos, len);
  // one open file for the prefix, the header, the digests and the index fields
  const { fd, size } = openRegularSync(file, maxFileBytes(scale));
  using _close = { [Symbol.dispose]: () => closeSync(fd) };
  const f = WorldFile.open({ size, read: reader(fd) }, WORLD_CACHE_VERSION, scale);
  const { meta: m, meta: { world: w } } = f;
  if (w.seed !== seed || w.scale !== scale || w.asOf !== asOf) {
    throw new Error("holds another world");
  }
  const index = f.section("index", reader(fd));
  // the same world, generated: only once the file has gone (or changed) by the time a later
  // part is read; from then on every later part comes from it, without trying the file again
  let regenerated: { parts: WorldParts; stored: StoredInsider } | undefined;
  const regenerate = () => {
    // the same columns and dictionaries as the file's: the generator is deterministic, and a
    // change to it raises WORLD_CACHE_VERSION (a test holds the sources' hash)
    return regenerated ??= generated(seed, scale, isoOf(asOf));
  };
  // the later reads of one synchronous stretch (a row's 174 columns) share one open file,
  // closed when the stretch ends (a microtask): nothing stays open between answers
  let burst: number | null = null;
  const later = (): number => {
    if (burst !== null) return burst;
    const g = openRegularSync(file, maxFileBytes(scale)).fd;
    burst = g;
    queueMicrotask(() => {
      burst = null;
      closeSync(g);
    });
    return g;
  };
  /** `read` of the file opened again, or `instead()` once the file has gone or changed. */
  const fromFile = <T>(read: (r: ReadBytes) => T, instead: () => T): T => {
    if (regenerated) return instead();
    try {
      return read(reader(later()));
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
  const byBlocks = <T extends ColumnArray>(name: string, instead: (s: StoredInsider) => T) => {
    const p = f.place("rows", name);
    return new BlockValues<T>(p.length, (from, count) =>
      fromFile(
        (read) => f.block(p, from, count, read) as T,
        () => instead(regenerate().stored).slice(from, from + count) as T,
      ));
  };
  const nDays = w.asOf - w.start + 1;
  let prices: Pick<WorldParts, "market" | "paths" | "abnormal"> | undefined;
  const loadPrices = () => {
    if (prices) return prices;
    const read = fromFile((r) => f.section("prices", r) as Map<string, Float64Array>, () => null);
    if (!read) return prices = regenerate().parts;
    const rows = (a: Float64Array, k: number) => a.subarray(k * nDays, (k + 1) * nDays);
    return prices = {
      market: read.get("market")!,
      paths: w.companies.map((_, c) => rows(read.get("paths")!, c)),
      abnormal: new Map(w.withAbnormal.map((c, k) => [c, rows(read.get("abnormal")!, k)])),
    };
  };
  // the header's world (its `withAbnormal` list too), the prices read when first asked for
  const parts = { ...w } as unknown as WorldParts;
  for (const k of ["market", "paths", "abnormal"] as const) {
    Object.defineProperty(parts, k, { get: () => loadPrices()[k], enumerable: true });
  }
  const stored = {
    insiders: m.insiders as StoredInsider["insiders"],
    ...Object.fromEntries(INDEX_FIELDS.map(([k]) => [k, index.get(k)])),
    rows: m.rows.map((c, j): ColumnData => ({
      ...pick(c, COLUMN_META),
      values: byBlocks(`${j}`, (again) => inMemory(again.rows[j].values)),
      nulls: c.nulls
        ? byBlocks(`${j}.nulls`, (again) => inMemory(again.rows[j].nulls!) as Uint8Array)
        : undefined,
    })),
  } as StoredInsider;
  // the catalog's bytes, read at the first catalog request (null: build it from the world)
  const catalog = (): CatalogData | null =>
    m.catalogBytes === null ? null : fromFile(
      (r) => loadCatalog(f.section("catalog", r).get("text") as Uint8Array),
      () => null,
    );
  return { parts, stored, catalog };
}
