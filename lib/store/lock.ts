/**
 * One writer per dataset, enforced: `writeDataset` and `sync` hold a lock on
 * the folders they write, so a second writer waits its turn (bounded by
 * `lockTimeoutMs`) or fails with a {@link DatasetLockedError} naming the
 * dataset and the writer holding it.
 *
 * How (and why this way):
 * - The lock is a kernel advisory lock (`flock`, through the one lock helper
 *   `shared/file_lock.ts`, shared with the emulator) on `<dir>/.signalbook.lock`. The kernel releases it
 *   when its process dies, however it dies (SIGKILL included), so a killed
 *   writer's lock is recovered at once, with no guessing about staleness.
 *   It also separates two writers in one process (each opens its own file
 *   description). A pid file alone cannot tell a dead holder from a live one
 *   on another host, nor a reused pid from the original.
 * - The file holds its holder's pid, host, caller and start time (JSON),
 *   written once the lock is taken, so the error can say who holds it. The
 *   holder removes the file before unlocking it, and a writer counts its
 *   lock only if the file it locked is still the one at that path (same
 *   inode), so a waiter that opened the old file tries again. A leading dot
 *   keeps Spark, Hive and DuckDB's `*.parquet` globs away from it.
 * - Where the filesystem refuses kernel locks (`tryLock` throws, e.g. NFS
 *   without a lock daemon), the write goes ahead without a lock, as the
 *   emulator's world generation does (and Cargo's), and says so once: one
 *   writer at a time is then up to the user.
 * - Waiting polls (25 ms, doubling to 500 ms) until `lockTimeoutMs` (default
 *   60 s; 0 fails at once) has passed. A blocking `flock` cannot be
 *   cancelled, so it is not used.
 * - Temporary files: each atomic write names its temporary file
 *   `<target>.<pid>.<uuid>.tmp`. On taking a lock, the writer removes only
 *   stale ones under the folder: those whose pid is not alive on this host,
 *   those without a pid (older versions) untouched for 10 minutes, and any
 *   untouched for a day. Another live writer's temporary files are never
 *   removed.
 *
 * Readers (`scanDataset`, `query`) take no lock: every file is swapped in
 * by an atomic rename, so they see the old file or the new one.
 *
 * @module
 */
import { hostname } from "node:os";
import { join } from "node:path";
import { readSmallText } from "./_files.ts";
import { removeStaleTemps } from "../shared/atomic.ts";
import { type FileLock, lockFile } from "../shared/file_lock.ts";
import { optionProblem } from "../shared/options.ts";
import { notice } from "../shared/notice.ts";

/** Name of the lock file in a locked folder. */
export const LOCK_FILE = ".signalbook.lock";
/** How long a writer waits for a held lock by default, ms. */
export const DEFAULT_LOCK_TIMEOUT_MS = 60_000;

/** Who holds (or last held) a dataset lock. */
export interface LockHolder {
  /** Process id. */
  pid: number;
  /** Host name. */
  host: string;
  /** What took it (`writeDataset`, `sync`). */
  by: string;
  /** When it was taken, ISO 8601. */
  since: string;
}

/** A second writer gave up waiting: `dir` is the dataset, `holder` the writer holding it. */
export class DatasetLockedError extends Error {
  /** The locked folder. */
  readonly dir: string;
  /** The writer holding it (null when it had not yet written its details). */
  readonly holder: LockHolder | null;
  /** How long this writer waited, ms. */
  readonly waitedMs: number;
  /** Creates the error; `caller` starts the message. */
  constructor(caller: string, dir: string, holder: LockHolder | null, waitedMs: number) {
    super(
      `${caller}: ${dir} is locked by another writer (${describeHolder(holder)}); waited ${
        (waitedMs / 1000).toFixed(1)
      } s (lockTimeoutMs). One writer per dataset: wait for it to finish, or stop it, or pass ` +
        `a longer lockTimeoutMs (deno task sync: --lock-timeout-ms)`,
    );
    this.name = "DatasetLockedError";
    this.dir = dir;
    this.holder = holder;
    this.waitedMs = waitedMs;
  }
}

function describeHolder(h: LockHolder | null): string {
  if (!h) return "holder not known yet";
  const here = h.host === host();
  return `${h.by}, pid ${h.pid} on ${here ? "this host" : `host ${JSON.stringify(h.host)}`}, ` +
    `since ${h.since}`;
}

/** Options of {@link lockDataset}. */
export interface LockOptions {
  /** Who asks (starts error messages): `writeDataset`, `sync`. */
  caller: string;
  /** Longest wait for a held lock, ms (default {@link DEFAULT_LOCK_TIMEOUT_MS}; 0: fail at once). */
  timeoutMs?: number;
  /** Which stale temporary files to remove: the whole tree (default) or the folder's own files. */
  temps?: "tree" | "top";
}

let kernelLocks = true;
let unlockedSaid = false;

/** Test hook: pretend the filesystem has no kernel locks (writes go ahead unlocked). */
export function _useKernelLocks(on: boolean): void {
  kernelLocks = on;
}

/**
 * Takes the write lock of each folder in `dirs`, in order (creating them),
 * waiting at most `timeoutMs` in all; on failure, releases what it took.
 * Then removes stale temporary files under each folder. The locks are held
 * until what it returns is disposed (`await using`), which releases each one.
 *
 * @example
 * ```ts
 * import { lockDataset } from "./lock.ts";
 * const dir = await Deno.makeTempDir();
 * await using _lock = await lockDataset([dir], { caller: "example" });
 * // … write under dir; the lock is released when the scope ends
 * ```
 */
export async function lockDataset(dirs: string[], opts: LockOptions): Promise<AsyncDisposable> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  if (typeof timeoutMs !== "number" || !(timeoutMs >= 0)) {
    const problem = optionProblem("lockTimeoutMs", timeoutMs, "0 or more milliseconds");
    throw new RangeError(`${opts.caller}: ${problem}`);
  }
  const deadline = Date.now() + timeoutMs;
  // on a failure, what was taken is released (in reverse order) as the scope ends
  await using held = new AsyncDisposableStack();
  for (const dir of dirs) {
    await Deno.mkdir(dir, { recursive: true });
    held.use(await take(dir, opts.caller, deadline, timeoutMs));
    // the stale ones of the module doc: pid not alive, no pid and 10 minutes, or a day
    await removeStaleTemps(dir, { maxAgeMs: 86_400_000, byPid: true, top: opts.temps === "top" });
  }
  return held.move();
}

function holderBytes(caller: string): Uint8Array {
  const h: LockHolder = {
    pid: Deno.pid,
    host: host(),
    by: caller,
    since: new Date().toISOString(),
  };
  return new TextEncoder().encode(JSON.stringify(h) + "\n");
}

async function readHolder(path: string): Promise<LockHolder | null> {
  // missing, unsafe or not JSON: not known
  const h = await readSmallText(path, 64 * 1024).then(JSON.parse).catch(() => null);
  return typeof h?.pid === "number" ? h : null;
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
}

/**
 * Takes the lock of `dir` for `caller` (the shared kernel lock, `shared/file_lock.ts`), waiting
 * until `deadline` (`timeoutMs` in all, for the error); returns it (null: no kernel locks here).
 */
async function take(
  dir: string,
  caller: string,
  deadline: number,
  timeoutMs: number,
): Promise<FileLock | null> {
  const path = join(dir, LOCK_FILE);
  // never through a symlink, never a FIFO or device: a holder's JSON goes only into a regular file;
  // removed on release before it is unlocked, so a waiter that opened it tries again on a new one
  const got = kernelLocks
    ? await lockFile(path, {
      timeoutMs: Math.max(0, deadline - Date.now()),
      removeOnRelease: true,
    })
    : { unsupported: true as const };
  if ("held" in got) {
    const { file } = got.held;
    // the holder's details are for error messages only: failing to write them (a full disk)
    // must not leave the lock taken (the file was just opened: its offset is 0)
    await file.truncate(0)
      .then(() => writeAll(file, holderBytes(caller)))
      .catch(() => {});
    return got.held;
  }
  if ("unsupported" in got) {
    // no kernel locks on this filesystem: unlocked, said once per process
    if (!unlockedSaid) {
      notice(
        `${caller}: the filesystem of ${dir} has no file locks (NFS without a lock daemon?); ` +
          `writing without the lock: one writer at a time is up to you`,
      );
    }
    unlockedSaid = true;
    return null;
  }
  throw new DatasetLockedError(caller, dir, await readHolder(path), timeoutMs);
}

/** This host's name ("unknown host" without the permission to read it). */
function host(): string {
  try {
    return hostname();
  } catch {
    return "unknown host";
  }
}
