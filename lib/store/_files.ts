/**
 * Walking a dataset folder (shared by datasets, sync and locks), and
 * opening its small files only as regular files (see
 * `shared/regular_file.ts`).
 *
 * @module
 */
import { join } from "node:path";
import {
  check,
  MAX_META_BYTES,
  nodeKind,
  O_CREAT,
  O_RDONLY,
  O_RDWR,
  openSafe,
  readRegular,
  UnsafeFileError,
} from "../shared/regular_file.ts";

export { MAX_META_BYTES, UnsafeFileError };

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
  let first;
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
  return new TextDecoder().decode(await readRegular(path, maxBytes));
}
