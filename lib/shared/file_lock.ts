/**
 * One exclusive file lock for every writer that must be alone: the store's
 * dataset lock (`store/lock.ts`) and the emulator's world-generation lock
 * (`stub/world_cache.ts`). It replaced the two implementations those files
 * kept side by side.
 *
 * How:
 * - A kernel advisory lock (`flock`, through Deno's `FsFile.tryLockSync`) on
 *   a lock file. The kernel releases it when its process ends, however it
 *   ends, so a killed holder's lock is free at once. Two openings in one
 *   process are two holders (each its own file description).
 * - The lock file is opened only as a regular file with one link (the
 *   guard of `regular_file.ts`): a symlink, FIFO, device or folder at its
 *   path, or a file with more hard links, is an {@link UnsafeFileError}
 *   naming the path, and nothing is written to it. It is opened for reading
 *   and writing, so a FIFO swapped in between the check and the open does
 *   not block; after the open the file must still be the one at the path
 *   (same inode), else the try counts as busy and is made again.
 * - A lock counts only on the file still at its path: a holder that removes
 *   the file on release ({@link FileLockOptions.removeOnRelease}) removes it
 *   before unlocking, and a waiter that opened the old file tries again.
 * - Waiting polls, the pause doubling from the first to the longest of
 *   {@link FileLockOptions.pauseMs}, until {@link FileLockOptions.timeoutMs}
 *   (0: one try). A blocking `flock` cannot be cancelled, so it is never
 *   used. The tries are one generator ({@link lockTries}) driven two ways:
 *   {@link lockFile} pauses with a timer (the store's writers, which must not
 *   block the event loop), {@link lockFileSync} blocks the thread (the
 *   emulator's world, opened synchronously).
 * - A filesystem without kernel locks (NFS without a lock daemon) is the
 *   `unsupported` outcome; the caller chooses what to do (the store writes
 *   and the emulator generates without a lock, each saying so or not).
 *
 * @module
 */
import { closeSync, lstatSync } from "node:fs";
import { check, O_CREAT, O_RDWR, openRegularSync, UnsafeFileError } from "./regular_file.ts";

/** Largest lock file opened (it holds at most its holder's details). */
const LOCK_FILE_BYTES = 64 * 1024;

/** A held lock: release it once (or let `using` do it). */
export interface FileLock extends Disposable {
  /** The open lock file (a holder may write its details into it). */
  readonly file: Deno.FsFile;
  /** Releases the lock (idempotent): removes the file first when asked to, then unlocks and closes it. */
  release(): void;
}

/** Options of {@link lockFile} and {@link lockFileSync}. */
export interface FileLockOptions {
  /** Longest wait for a held lock, ms (0: one try). */
  timeoutMs: number;
  /** The first pause between tries and the longest, ms; each pause doubles the last (default 25 to 500). */
  pauseMs?: readonly [first: number, longest: number];
  /** Remove the lock file on release, before unlocking it (default false: the file stays). */
  removeOnRelease?: boolean;
  /**
   * Asked after each try that found the lock held, with the lock file's
   * inode (null where the system gives none): a reason to stop waiting now
   * (its holder is stopped, see {@link stoppedLockHolder}), or null to wait on.
   */
  giveUp?: (ino: number | null) => string | null;
}

/**
 * How taking a lock ended: `held`; `timedOut` (held by another for all of
 * `timeoutMs`); `gaveUp` (the reason `giveUp` gave); `unsupported` (the
 * filesystem has no kernel locks). A lock file that is not a regular file
 * throws an {@link UnsafeFileError} instead.
 */
export type LockOutcome =
  | { held: FileLock }
  | { timedOut: true }
  | { gaveUp: string }
  | { unsupported: true };

/**
 * The tries for the lock on `path`, as a generator: it yields the pause
 * (ms) before each next try and returns the outcome. {@link lockFile} and
 * {@link lockFileSync} drive it.
 */
export function* lockTries(path: string, opts: FileLockOptions): Generator<number, LockOutcome> {
  const [first, longest] = opts.pauseMs ?? [25, 500];
  const until = performance.now() + opts.timeoutMs;
  for (let pause = first;; pause = Math.min(2 * pause, longest)) {
    const tried = tryOnce(path, opts);
    if (typeof tried !== "number" && tried !== null) return tried;
    const why = tried === null ? null : opts.giveUp?.(tried < 0 ? null : tried) ?? null;
    if (why !== null) return { gaveUp: why };
    const left = until - performance.now();
    if (left <= 0) return { timedOut: true };
    yield Math.min(pause, left);
  }
}

/**
 * Takes the lock on `path` (creating the file), pausing with a timer
 * between tries.
 *
 * @example
 * ```ts
 * import { lockFile } from "./file_lock.ts";
 * const path = (await Deno.makeTempDir()) + "/.lock";
 * const got = await lockFile(path, { timeoutMs: 0 });
 * if ("held" in got) {
 *   using _lock = got.held;
 *   const again = await lockFile(path, { timeoutMs: 50 });
 *   console.log("timedOut" in again); // true
 * }
 * ```
 */
export async function lockFile(path: string, opts: FileLockOptions): Promise<LockOutcome> {
  const tries = lockTries(path, opts);
  for (let t = tries.next();; t = tries.next()) {
    if (t.done) return t.value;
    const ms = t.value;
    await new Promise((r) => setTimeout(r, ms));
  }
}

/**
 * Takes the lock on `path` (creating the file), blocking the thread
 * between tries (for callers that cannot wait asynchronously).
 *
 * @example
 * ```ts
 * import { lockFileSync } from "./file_lock.ts";
 * const path = Deno.makeTempDirSync() + "/.lock";
 * const got = lockFileSync(path, { timeoutMs: 0, removeOnRelease: true });
 * if ("held" in got) got.held.release();
 * console.log("held" in got); // true
 * ```
 */
export function lockFileSync(path: string, opts: FileLockOptions): LockOutcome {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const tries = lockTries(path, opts);
  for (let t = tries.next();; t = tries.next()) {
    if (t.done) return t.value;
    Atomics.wait(nap, 0, 0, t.value);
  }
}

/**
 * One try: the outcome when it ends the wait; else the lock file's inode
 * when another holds it (-1: the system gives none), or null when the file
 * was replaced while it was opened (try again).
 */
function tryOnce(path: string, opts: FileLockOptions): LockOutcome | number | null {
  const file = openLockFile(path);
  if (!file) return null;
  let locked: boolean;
  try {
    locked = file.tryLockSync(true);
  } catch (e) {
    file.close();
    if (lockUnsupported(e)) return { unsupported: true };
    throw e;
  }
  const st = file.statSync();
  const at = lstatSync(path, { throwIfNoEntry: false });
  // the lock counts only on the file still at `path` (where the system gives inode numbers)
  const same = !!at && (st.ino === null || (at.ino === st.ino && at.dev === st.dev));
  if (locked && same) return { held: held(path, file, opts.removeOnRelease) };
  file.close();
  return locked ? null : st.ino ?? -1;
}

/**
 * The lock file opened for reading and writing (created when missing), or
 * null when another file took its place while it was opened. Checked by the
 * guard before the open (`O_NOFOLLOW | O_NONBLOCK`, on the descriptor) and
 * after it (the same inode still at the path, not a symlink).
 */
function openLockFile(path: string): Deno.FsFile | null {
  const probe = openRegularSync(path, LOCK_FILE_BYTES, O_RDWR | O_CREAT);
  closeSync(probe.fd);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true, write: true });
  } catch (e) {
    // removed by a holder releasing it since the probe opened it: try again
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  try {
    const now = file.statSync();
    const at = lstatSync(path, { throwIfNoEntry: false });
    if (at?.isSymbolicLink()) throw new UnsafeFileError(path, "is a symlink");
    if (!at || (now.ino !== null && (at.ino !== now.ino || at.dev !== now.dev))) {
      file.close();
      return null;
    }
    check(path, {
      isFile: now.isFile,
      size: now.size,
      what: "is not a regular file",
      nlink: now.nlink,
    }, LOCK_FILE_BYTES);
    return file;
  } catch (e) {
    file.close();
    throw e;
  }
}

function held(path: string, file: Deno.FsFile, remove = false): FileLock {
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    try {
      if (remove) Deno.removeSync(path);
    } catch {
      // gone already: nothing to remove
    }
    try {
      file.unlockSync();
    } catch {
      // closing releases it too
    } finally {
      file.close();
    }
  };
  return { file, release, [Symbol.dispose]: release };
}

/** Whether `tryLock` failed because the filesystem has no (working) kernel locks. */
function lockUnsupported(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? "";
  const msg = String((e as Error)?.message ?? e);
  return /ENOLCK|ENOSYS|EOPNOTSUPP|ENOTSUP/.test(code) ||
    /no locks available|not supported|not implemented|os error (37|38|95)\b/i.test(msg);
}

/**
 * Linux only: the process holding a lock on the file of inode `ino`, when
 * it is stopped (SIGSTOP, a debugger), read from `/proc/locks`; else null
 * (not stopped, not found, another system, or `/proc` not readable
 * without a prompt): then only the time bound ends a wait.
 *
 * @example
 * ```ts
 * import { stoppedLockHolder } from "./file_lock.ts";
 * console.log(stoppedLockHolder(1)); // null
 * ```
 */
export function stoppedLockHolder(ino: number): number | null {
  const readable = (path: string) =>
    Deno.permissions.querySync({ name: "read", path }).state === "granted";
  if (Deno.build.os !== "linux" || !readable("/proc/locks")) return null;
  try {
    // "83: FLOCK  ADVISORY  WRITE 22481 fe:00:2146500 0 EOF"; "83: -> FLOCK …" is a waiter
    for (const line of Deno.readTextFileSync("/proc/locks").split("\n")) {
      const [, kind, , , pid, id] = line.trim().split(/\s+/);
      if (kind !== "FLOCK" || Number(id?.split(":")[2]) !== ino) continue;
      const stat = `/proc/${pid}/stat`;
      if (!/^\d+$/.test(pid) || !readable(stat)) continue;
      // "22481 (deno) T …": the state follows the command, which may hold ") "
      const text = Deno.readTextFileSync(stat);
      if (/^[tT]/.test(text.slice(text.lastIndexOf(")") + 2))) return Number(pid);
    }
  } catch {
    // the holder ended meanwhile, or /proc is not what it seems: the time bound applies
  }
  return null;
}
