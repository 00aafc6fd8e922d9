/**
 * Walking a dataset folder (shared by datasets, sync and locks).
 *
 * @module
 */
import { join } from "node:path";
import { constants as fsConstants, type Stats } from "node:fs";
import { type FileHandle, open as fsOpen } from "node:fs/promises";

/** Every file under `dir` (recursively) whose name passes `keep`, sorted; none when `dir` is missing. */
export async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else if (keep(e.name)) out.push(p);
    }
  };
  try {
    await walk(dir);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort();
}

const { O_RDONLY, O_RDWR, O_CREAT } = fsConstants;
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
  /** Creates the error. */
  constructor(path: string, why: string) {
    super(
      `${path} ${why}; signalbook opens only regular files there (nothing was read or written)`,
    );
    this.name = "UnsafeFileError";
    this.path = path;
  }
}

function kind(s: Deno.FileInfo): string {
  if (s.isSymlink) return "is a symlink";
  if (s.isDirectory) return "is a folder";
  if (s.isFifo) return "is a FIFO";
  if (s.isCharDevice || s.isBlockDevice) return "is a device";
  if (s.isSocket) return "is a socket";
  return "is not a regular file";
}

/** A stat's verdict: throws {@link UnsafeFileError} unless it is a regular file within the cap. */
function check(path: string, s: { isFile: boolean; size: number; what: string }, max: number) {
  if (!s.isFile) throw new UnsafeFileError(path, s.what);
  if (s.size > max) throw new UnsafeFileError(path, `is ${s.size} bytes, over the cap of ${max}`);
}

function nodeKind(st: Stats): { isFile: boolean; size: number; what: string } {
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
  return { isFile: st.isFile(), size: st.size, what };
}

/** Opens with `O_NOFOLLOW | O_NONBLOCK`: a symlink is an {@link UnsafeFileError}, a FIFO does not block. */
async function openSafe(path: string, flags: number): Promise<FileHandle> {
  try {
    return await fsOpen(path, flags | SAFE);
  } catch (e) {
    if ((e as { code?: string })?.code === "ELOOP") throw new UnsafeFileError(path, "is a symlink");
    if ((e as { code?: string })?.code === "ENOENT") {
      throw new Deno.errors.NotFound(`no such file: ${path}`);
    }
    throw e;
  }
}

/**
 * Opens `path` only as a regular file, never through a symlink and never
 * blocking on a FIFO: it is first opened with `O_NOFOLLOW | O_NONBLOCK`
 * (made, when `create`, as a regular file) and checked on the open file;
 * then opened for Deno (whose `open` cannot take those flags, so without
 * `create`) and kept only when it is the same file and still a regular one
 * (a swap in between is caught before anything is written). Throws
 * {@link UnsafeFileError} naming the path otherwise, or when it is larger
 * than `maxBytes`.
 */
export async function openRegular(
  path: string,
  opts: { write?: boolean; create?: boolean; maxBytes?: number },
): Promise<Deno.FsFile> {
  const max = opts.maxBytes ?? MAX_META_BYTES;
  const probe = await openSafe(path, opts.create ? O_RDWR | O_CREAT : O_RDONLY);
  let first: Stats;
  try {
    first = await probe.stat();
    check(path, nodeKind(first), max);
  } finally {
    await probe.close();
  }
  const file = await Deno.open(path, { read: true, write: opts.write ?? false });
  try {
    const now = await file.stat();
    const link = await Deno.lstat(path);
    if (link.isSymlink) throw new UnsafeFileError(path, "is a symlink");
    if (now.ino !== first.ino || now.dev !== first.dev) {
      // removed and made again in between (a lock released): the caller may try again
      throw new Deno.errors.NotFound(`${path} was replaced while it was opened`);
    }
    check(path, { isFile: now.isFile, size: now.size, what: "is not a regular file" }, max);
  } catch (e) {
    file.close();
    throw e;
  }
  return file;
}

/** The text of a small regular file (see {@link openRegular}); at most `maxBytes` are read. */
export async function readSmallText(path: string, maxBytes = MAX_META_BYTES): Promise<string> {
  const fh = await openSafe(path, O_RDONLY);
  try {
    check(path, nodeKind(await fh.stat()), maxBytes);
    const buf = new Uint8Array(maxBytes + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, total, buf.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) {
        throw new UnsafeFileError(path, `grew over the cap of ${maxBytes} bytes`);
      }
    }
    return new TextDecoder().decode(buf.subarray(0, total));
  } finally {
    await fh.close();
  }
}
