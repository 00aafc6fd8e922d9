/**
 * A full disk, said plainly: `writeDataset` and `sync` fail with a
 * {@link DiskFullError} naming the file they were writing and the free
 * space left, instead of what the parquet writer reports when its file is
 * cut short (`Invalid thrift: transport error`, `No space left on device`).
 *
 * How it is recognised: a write fails with `ENOSPC`/`EDQUOT` (any message
 * or code saying so), or the parquet writer fails while the filesystem has
 * less than {@link LOW_SPACE_BYTES} free, measured the moment it failed
 * (before its partial temporary file is removed). Free space comes from
 * `statfs` (`node:fs`; Deno itself has no `statfs`): the blocks available
 * to this user. A write error on a disk with room to spare keeps its own
 * message. The error reports the free space measured again after the
 * partial file is gone: what the user has to work with.
 *
 * Nothing is checked ahead of a write: the size of a parquet file is not
 * known before it is written, and a guess would refuse writes that fit.
 *
 * @module
 */
import { statfs } from "node:fs/promises";
import { dirname } from "node:path";
import type pl from "npm:nodejs-polars@0.25.2";
import { atomic } from "../shared/atomic.ts";
import { DatasetFileError } from "./errors.ts";

/** Below this many free bytes, a failed parquet write is taken for a full disk (16 MiB). */
export const LOW_SPACE_BYTES = 16 * 1024 * 1024;

/** A write ran out of disk space: `path` is the file, `freeBytes` the space left (null: unknown). */
export class DiskFullError extends Error {
  /** The file being written. */
  readonly path: string;
  /** Bytes available on its filesystem after the failed write was cleaned up (null: unknown). */
  readonly freeBytes: number | null;
  /** Creates the error; `caller` starts the message. */
  constructor(caller: string, path: string, freeBytes: number | null, options?: ErrorOptions) {
    super(
      `${caller}: no space left on the disk writing ${path} (free: ${
        freeBytes === null ? "unknown" : formatBytes(freeBytes)
      }); free some space or write elsewhere, then rerun`,
      options,
    );
    this.name = "DiskFullError";
    this.path = path;
    this.freeBytes = freeBytes;
  }
}

/** `1.2 MB`-style sizes (decimal units, as `df -H` prints them). */
export function formatBytes(n: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) [v, i] = [v / 1000, i + 1];
  return i === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

type Probe = (path: string) => Promise<number | null>;

/** Bytes available to this user on the filesystem holding `path` (or its nearest existing parent). */
async function statfsFree(path: string): Promise<number | null> {
  for (let p = path;; p = dirname(p)) {
    try {
      const s = await statfs(p);
      return Number(s.bavail) * Number(s.bsize);
    } catch (e) {
      if ((e as { code?: string })?.code !== "ENOENT" || dirname(p) === p) return null;
    }
  }
}

let probe: Probe = statfsFree;

/** Test hook: replaces the free-space probe (`null` restores `statfs`). */
export function _setFreeSpaceProbe(p: Probe | null): void {
  probe = p ?? statfsFree;
}

/** Free bytes where `path` would be written (null when unknown). */
export function freeBytes(path: string): Promise<number | null> {
  return probe(path).catch(() => null);
}

/** Whether an error says the disk or quota is full. */
export function isNoSpace(e: unknown): boolean {
  const code = String((e as { code?: string })?.code ?? "");
  return /ENOSPC|EDQUOT/.test(code) ||
    /no space left|os error 28\b|quota exceeded|os error 122\b/i.test(
      String((e as Error)?.message ?? e),
    );
}

/**
 * Writes `path` atomically (see `shared/atomic.ts`), turning a full disk
 * into a {@link DiskFullError}; `caller` starts its message.
 *
 * @example
 * ```ts
 * import { writeAtomic } from "./disk.ts";
 * const dir = await Deno.makeTempDir();
 * await writeAtomic(`${dir}/a.txt`, "example", (tmp) => Deno.writeTextFile(tmp, "hi"));
 * ```
 */
export async function writeAtomic(
  path: string,
  caller: string,
  write: (tmp: string) => void | Promise<void>,
): Promise<string> {
  let full = false;
  try {
    return await atomic(path, async (tmp) => {
      try {
        await write(tmp);
      } catch (e) {
        // measured while the partial file still fills the disk
        const free = await freeBytes(dirname(path));
        full = isNoSpace(e) || (free !== null && free < LOW_SPACE_BYTES);
        throw e;
      }
    });
  } catch (e) {
    if (e instanceof DiskFullError) throw e;
    if (full || isNoSpace(e)) {
      throw new DiskFullError(caller, path, await freeBytes(dirname(path)), { cause: e });
    }
    throw e;
  }
}

/** Writes `df` to `path` as zstd parquet, atomically (see {@link writeAtomic}). */
export function writeParquetAtomic(
  path: string,
  caller: string,
  df: pl.DataFrame,
): Promise<string> {
  return writeAtomic(path, caller, (tmp) => df.writeParquet(tmp, { compression: "zstd" }));
}

/** Writes `value` to `path` as indented JSON, atomically (see {@link writeAtomic}). */
export function writeJsonAtomic(path: string, caller: string, value: unknown): Promise<string> {
  const text = JSON.stringify(value, null, 2) + "\n";
  return writeAtomic(path, caller, (tmp) => Deno.writeTextFile(tmp, text));
}

/**
 * `e` as a typed error about the folder `path`: a {@link DiskFullError}
 * when it says the disk is full, a `DatasetFileError` naming the folder
 * when it cannot be written (a read-only file system, permission denied);
 * else `e`.
 */
export async function asWriteError(e: unknown, caller: string, path: string): Promise<unknown> {
  if (e instanceof DiskFullError || e instanceof DatasetFileError) return e;
  if (isNoSpace(e)) return new DiskFullError(caller, path, await freeBytes(path), { cause: e });
  const why = /EROFS|os error 30\b/i.test(`${(e as { code?: string })?.code} ${e}`)
    ? "is on a read-only file system"
    : e instanceof Deno.errors.PermissionDenied
    ? "is not writable (permission denied)"
    : null;
  if (!why) return e;
  return new DatasetFileError(
    path,
    `${why}: ${caller} cannot write there; choose a writable folder`,
    {
      cause: e,
    },
  );
}
