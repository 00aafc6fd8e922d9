/**
 * The emulator's world, kept on disk between processes.
 *
 * Generating the demo world (400 issuers' price paths, 23,000 trades with
 * their point-in-time fields) takes seconds and holds a few hundred MB while
 * it runs. A notebook's first cell should not pay that each time, so the
 * first process that builds a world writes it, in columns, to the user's
 * cache folder, and later processes read it back in milliseconds, building
 * rows only as they are asked for (see `insider/stored_trades.ts`).
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
 *   {@link WORLD_CACHE_VERSION}, which changes whenever the generator does
 *   (a test hashes the generator's sources and fails until the version is
 *   raised). A file that does not decode (truncated, another format) is
 *   generated again and replaced; writes go to a temporary file renamed into
 *   place, so concurrent processes never read half a file, and a lock file
 *   beside it lets one process generate a world while the others wait for
 *   it (version 5: the format is that of version 4).
 * - Same answers: a world read back is the world generated, value for value
 *   (a test compares every row's JSON, the price paths and the truth).
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
import type { ColumnData } from "./columns.ts";

/**
 * Version of the stored world. Raise it with any change to what the
 * generator produces (world.ts, insider/insider_data.ts, calendar.ts,
 * shared/random.ts, insider/fields.ts) or to this file format;
 * `tests/stub/world_cache_test.ts` holds the sources' hash and fails until
 * it is raised.
 */
export const WORLD_CACHE_VERSION = 5;

const MAGIC = "signalbook-world";

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
  const cached = (): OpenedWorld | null => {
    if (!file) return null;
    try {
      const { parts, stored } = readWorld(file, seed, scale, dayOf(asOf));
      return { world: assembleWorld(parts), insider: loadInsider(stored), source: "cache", file };
    } catch {
      // absent, or not this format (an older or cut-short file): generate and replace it
      return null;
    }
  };
  const ready = cached();
  if (ready) return ready;
  // one process generates a given world at a time; the others wait for it and read its file
  using lock = file ? generationLock(file) : null;
  const written = lock ? cached() : null;
  if (written) return written;
  const parts = generateWorld({ seed, scale, asOf });
  const stored = storeInsider(makeInsiderData(assembleWorld(parts)));
  if (file) writeAtomically(file, encodeWorld(parts, stored));
  return { world: assembleWorld(parts), insider: loadInsider(stored), source: "generated", file };
}

/**
 * An exclusive lock on `<file>.lock`, held while this process generates the
 * world: notebooks or test files started together on a machine that has not
 * generated it yet would otherwise each spend the seconds and the memory of
 * generating the same world. Released when disposed, or by the OS when the
 * process ends. Null where no lock can be taken (a file system without
 * locks): then each process generates, as before.
 */
function generationLock(file: string): Disposable | null {
  try {
    Deno.mkdirSync(dirname(file), { recursive: true });
    const f = Deno.openSync(`${file}.lock`, { create: true, write: true });
    try {
      f.lockSync(true);
    } catch {
      f.close();
      return null;
    }
    return {
      [Symbol.dispose]() {
        try {
          f.unlockSync();
        } finally {
          f.close();
        }
      },
    };
  } catch {
    return null;
  }
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

/** `len` bytes of an open file from `pos`, in a fresh (so 8-byte aligned) buffer. */
function readRange(f: Deno.FsFile, pos: number, len: number): Uint8Array {
  f.seekSync(pos, Deno.SeekMode.Start);
  const out = new Uint8Array(len);
  let got = 0;
  while (got < len) {
    const n = f.readSync(out.subarray(got));
    if (n === null || n === 0) throw new Error("world file cut short");
    got += n;
  }
  return out;
}

function writeAtomically(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    Deno.mkdirSync(dirname(file), { recursive: true });
    Deno.writeFileSync(tmp, bytes);
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
}

/** The file: magic, header length, JSON header, then 8-byte-aligned typed arrays. */
function encodeWorld(parts: WorldParts, stored: StoredInsider): Uint8Array {
  const blobs: Typed[] = [];
  const refs: BlobRef[] = [];
  let offset = 0;
  const add = (a: Typed): number => {
    refs.push({ type: a.constructor.name as TypeName, offset, length: a.length });
    blobs.push(a);
    offset += Math.ceil(a.byteLength / 8) * 8;
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
    values: add(c.values),
    nulls: c.nulls ? add(c.nulls) : undefined,
  }));
  const priceStart = offset;
  const prices = { market: add(parts.market), paths: add(paths), abnormal: add(abnormal) };
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
    blobs: refs,
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((12 + head.length) / 8) * 8;
  const out = new Uint8Array(start + offset);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode("SBW1"), 0);
  dv.setUint32(4, head.length, true);
  dv.setUint32(8, offset, true);
  out.set(head, 12);
  refs.forEach((r, k) => {
    const b = blobs[k];
    out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), start + r.offset);
  });
  return out;
}

/**
 * Reads a world file: the header and the insider section now, the prices
 * (market, paths, abnormal returns) at the first price asked for.
 */
function readWorld(
  file: string,
  seed: number,
  scale: number,
  asOf: number,
): { parts: WorldParts; stored: StoredInsider } {
  // one open file for the prefix, the header and the insider section
  using f = Deno.openSync(file);
  const size = f.statSync().size;
  const prefix = readRange(f, 0, 12);
  const dv = new DataView(prefix.buffer);
  if (new TextDecoder().decode(prefix.subarray(0, 4)) !== "SBW1") throw new Error("not a world");
  const headLen = dv.getUint32(4, true);
  const bodyLen = dv.getUint32(8, true);
  const start = Math.ceil((12 + headLen) / 8) * 8;
  if (size !== start + bodyLen) throw new Error("world file cut short");
  const h = JSON.parse(new TextDecoder().decode(readRange(f, 12, headLen)));
  if (h.magic !== MAGIC || h.version !== WORLD_CACHE_VERSION) throw new Error("another version");
  const w = h.world;
  if (w.seed !== seed || w.scale !== scale || w.asOf !== asOf) throw new Error("another world");
  const section = (file: Deno.FsFile, from: number, to: number) => {
    const bytes = readRange(file, start + from, to - from);
    return (k: number): Typed => {
      const r = h.blobs[k] as BlobRef;
      if (r.offset < from || r.offset > to) throw new Error("blob outside its section");
      return new TYPES[r.type](bytes.buffer as ArrayBuffer, r.offset - from, r.length);
    };
  };
  const blob = section(f, 0, h.priceStart);
  const nDays = w.asOf - w.start + 1;
  let prices: Pick<WorldParts, "market" | "paths" | "abnormal"> | undefined;
  const loadPrices = () => {
    if (prices) return prices;
    let priceBlob: (k: number) => Typed;
    try {
      // later, so the file is opened again (it may have been replaced by then: same bytes)
      using again = Deno.openSync(file);
      priceBlob = section(again, h.priceStart, bodyLen);
    } catch {
      // the file went away since it was opened: the same prices, generated (deterministic)
      const again = generateWorld({ seed, scale, asOf: isoOf(asOf) });
      makeInsiderData(assembleWorld(again));
      return prices = again;
    }
    const paths = priceBlob(w.paths) as Float64Array;
    const abnormal = priceBlob(w.abnormal) as Float64Array;
    return prices = {
      market: priceBlob(w.market) as Float64Array,
      paths: w.companies.map((_: unknown, c: number) => paths.subarray(c * nDays, (c + 1) * nDays)),
      abnormal: new Map(
        (w.withAbnormal as number[]).map((c, k) => [
          c,
          abnormal.subarray(k * nDays, (k + 1) * nDays),
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
  const s = h.scalars;
  const stored: StoredInsider = {
    insiders: h.insiders,
    day: blob(s.day) as Int32Array,
    filedMs: blob(s.filedMs) as Float64Array,
    etDay: blob(s.etDay) as Int32Array,
    company: blob(s.company) as Int32Array,
    insider: blob(s.insider) as Int32Array,
    dir: blob(s.dir) as Int8Array,
    signal: blob(s.signal) as Float64Array,
    cluster90: blob(s.cluster90) as Uint8Array,
    rows: (h.rows as {
      name: string;
      kind: ColumnData["kind"];
      dict?: string[];
      values: number;
      nulls?: number;
    }[])
      .map((c) => ({
        name: c.name,
        kind: c.kind,
        dict: c.dict,
        values: blob(c.values) as ColumnData["values"],
        nulls: c.nulls === undefined ? undefined : blob(c.nulls) as Uint8Array,
      })),
  };
  return { parts, stored };
}
