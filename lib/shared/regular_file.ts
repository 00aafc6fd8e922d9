/**
 * Opening local files only as regular files with a single link, never
 * through a symlink and never blocking on a FIFO (the store's manifest,
 * metadata, lock and parquet parts; the response cache's entries):
 * `O_NOFOLLOW | O_NONBLOCK` through `node:fs`, whose `open` takes them
 * (Deno's own `open` does not). One guard ({@link check}) decides for every
 * caller: a symlink, folder, FIFO, device or socket, a file with more than
 * one hard link (its bytes are also a file elsewhere, which a write through
 * it would change and a read would take for the dataset's own), or one over
 * its size cap is an {@link UnsafeFileError} naming the path.
 *
 * @module
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, type Stats } from "node:fs";
import { type FileHandle, lstat, open as fsOpen } from "node:fs/promises";

export const { O_RDONLY, O_RDWR, O_CREAT } = fsConstants;
/** `O_NOFOLLOW | O_NONBLOCK` where the system has them (Deno's own `open` cannot take them). */
const SAFE = (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);

/** Largest metadata file read (a manifest, a dataset's `_signalbook.json`, a lock holder): 4 MiB. */
export const MAX_META_BYTES = 4 << 20;

/**
 * A file the store refuses to open: a symlink, a FIFO, a device or a
 * folder where a regular file belongs, or one over its size cap. Its
 * message names the path; nothing was read from it or written to it.
 */
export class UnsafeFileError extends Error {
  /** The refused path. */
  readonly path: string;
  /** What is wrong with it ("is a FIFO", …). */
  readonly why: string;
  /** Creates the error. */
  constructor(path: string, why: string) {
    super(
      `${path} ${why}; signalbook opens only regular files there (nothing was read or written)`,
    );
    this.name = "UnsafeFileError";
    this.path = path;
    this.why = why;
  }
}

/** What {@link check} judges: a file's kind, size and link count. */
export interface FileKind {
  /** A regular file. */
  isFile: boolean;
  /** Bytes. */
  size: number;
  /** What it is when not a regular file ("is a symlink", …). */
  what: string;
  /** Hard links to it (null: unknown). */
  nlink: number | null;
}

/**
 * The guard's verdict: throws {@link UnsafeFileError} unless it is a regular
 * file with one link, within the cap.
 */
export function check(path: string, s: FileKind, max: number): void {
  if (!s.isFile) throw new UnsafeFileError(path, s.what);
  if (s.nlink !== null && s.nlink > 1) {
    throw new UnsafeFileError(
      path,
      `has ${s.nlink} hard links (its bytes are also a file elsewhere)`,
    );
  }
  if (s.size > max) throw new UnsafeFileError(path, `is ${s.size} bytes, over the cap of ${max}`);
}

/**
 * Checks `path` itself (never what a symlink points to) with {@link check}:
 * a regular file with a single link, or an {@link UnsafeFileError} naming
 * it; a missing one is `Deno.errors.NotFound`.
 */
export async function checkPath(path: string, max = Number.MAX_SAFE_INTEGER): Promise<void> {
  let st: Stats;
  try {
    st = await lstat(path);
  } catch (e) {
    throw openError(path, e);
  }
  check(path, nodeKind(st), max);
}

/** The {@link FileKind} of a `node:fs` stat. */
export function nodeKind(st: Stats): FileKind {
  const what = st.isSymbolicLink()
    ? "is a symlink"
    : st.isDirectory()
    ? "is a folder"
    : st.isFIFO()
    ? "is a FIFO"
    : st.isCharacterDevice() || st.isBlockDevice()
    ? "is a device"
    : st.isSocket()
    ? "is a socket"
    : "is not a regular file";
  return { isFile: st.isFile(), size: st.size, what, nlink: st.nlink };
}

/** The error of a failed open: a symlink (`ELOOP`) is an {@link UnsafeFileError}, a missing file `NotFound`. */
function openError(path: string, e: unknown): unknown {
  const code = (e as { code?: string })?.code;
  if (code === "ELOOP") return new UnsafeFileError(path, "is a symlink");
  return code === "ENOENT" ? new Deno.errors.NotFound(`no such file: ${path}`) : e;
}

/** Opens with `O_NOFOLLOW | O_NONBLOCK`: a symlink is an {@link UnsafeFileError}, a FIFO does not block. */
export async function openSafe(path: string, flags: number): Promise<FileHandle> {
  try {
    return await fsOpen(path, flags | SAFE);
  } catch (e) {
    throw openError(path, e);
  }
}

/**
 * The bytes of a regular file of at most `maxBytes` (opened with
 * `O_NOFOLLOW | O_NONBLOCK`): a symlink, FIFO, device or folder, a file
 * with more than one hard link, or a larger file, is an
 * {@link UnsafeFileError} naming the path; a missing one
 * `Deno.errors.NotFound`.
 */
export async function readRegular(
  path: string,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const fh = await openSafe(path, O_RDONLY);
  try {
    const st = await fh.stat();
    check(path, nodeKind(st), maxBytes);
    // sized by the file (one byte more shows it grew), never by the cap
    let buf = new Uint8Array(Math.min(st.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        if (total > maxBytes) {
          throw new UnsafeFileError(path, `grew over the cap of ${maxBytes} bytes`);
        }
        const more = new Uint8Array(Math.min(buf.length * 2, maxBytes + 1));
        more.set(buf);
        buf = more;
      }
      const { bytesRead } = await fh.read(buf, total, buf.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > maxBytes) throw new UnsafeFileError(path, `grew over the cap of ${maxBytes} bytes`);
    return total === buf.length ? buf : buf.slice(0, total);
  } finally {
    await fh.close();
  }
}

/**
 * Synchronous, for reading (or, with `flags`, creating it for reading and
 * writing: `O_RDWR | O_CREAT`): a node file descriptor of a regular file of at
 * most `maxBytes`, and its size. Opened with `O_NOFOLLOW | O_NONBLOCK`, then
 * checked on the descriptor itself, so a FIFO swapped in at the path in
 * between can neither block the open nor be read. A symlink, FIFO, device
 * or folder, or a larger file, is an {@link UnsafeFileError} naming the
 * path (the descriptor closed); a missing one `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import { closeSync } from "node:fs";
 * import { openRegularSync } from "./regular_file.ts";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * const { fd, size } = openRegularSync(path, 1024);
 * closeSync(fd);
 * console.log(size); // 5
 * ```
 */
export function openRegularSync(
  path: string,
  maxBytes: number,
  flags: number = O_RDONLY,
): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, flags | SAFE);
  } catch (e) {
    throw openError(path, e);
  }
  try {
    const st = fstatSync(fd);
    check(path, nodeKind(st), maxBytes);
    return { fd, size: st.size };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}
