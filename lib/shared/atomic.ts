/**
 * Atomic file writes: write to a temporary file beside the target, then
 * rename it into place, so a crash never leaves a half-written file. Used by
 * the store's exports and by chart saving alike (a bottom-layer helper, so
 * charts need not import the store). {@link removeStaleTemps} removes the
 * temporary files a killed writer left: the one sweeper of the store's
 * datasets (on taking a lock) and of the response cache.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import process from "node:process";
import { dirname, join } from "node:path";

/**
 * Runs `write(tmp)` on a temporary path beside `path`
 * (`<path>.<pid>.<uuid>.tmp`), then renames it into place; on failure the
 * temporary file is removed. Returns `path`.
 *
 * @example
 * ```ts
 * import { atomic } from "./atomic.ts";
 * const dir = await Deno.makeTempDir();
 * await atomic(`${dir}/note.txt`, (tmp) => Deno.writeTextFile(tmp, "hello"));
 * ```
 */
export async function atomic(
  path: string,
  write: (tmp: string) => void | Promise<void>,
): Promise<string> {
  await Deno.mkdir(dirname(path) || ".", { recursive: true });
  // the pid tells a live writer's temporary file from one left by a killed process
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
  try {
    await write(tmp);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  return path;
}

/** A temporary file as {@link atomic} names it: the pid is its writer's. */
const TEMP = /\.(\d+)\.[0-9a-f-]{36}\.tmp$/;

/** Which temporary files {@link removeStaleTemps} takes for stale. */
export interface StaleTemps {
  /** Any temporary file untouched for longer than this, ms. */
  maxAgeMs: number;
  /**
   * Also by its writer's pid (default false: by age alone): a file whose pid
   * is not alive on this host is stale at once, one without a pid (older
   * versions) once untouched for 10 minutes. Only where every writer runs on
   * this host (the store's, which hold the dataset's lock).
   */
  byPid?: boolean;
  /** Only the folder's own files, not the tree under it (default false). */
  top?: boolean;
}

/**
 * Removes the stale temporary files (`*.tmp`, regular files only) under
 * `dir` (see {@link StaleTemps}); a missing `dir` has none. A file that
 * cannot be looked at or removed (gone already: another process swept it or
 * renamed it into place) is left; a folder that cannot be read throws.
 *
 * @example
 * ```ts
 * import { removeStaleTemps } from "./atomic.ts";
 * await removeStaleTemps(await Deno.makeTempDir(), { maxAgeMs: 86_400_000, byPid: true });
 * ```
 */
export async function removeStaleTemps(dir: string, rule: StaleTemps): Promise<void> {
  const now = Date.now();
  const entries = await readdir(dir, { recursive: !rule.top, withFileTypes: true }).catch((e) => {
    if ((e as { code?: string })?.code === "ENOENT") return [];
    throw e;
  });
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith(".tmp")) continue;
    const path = join(e.parentPath, e.name);
    const st = await Deno.lstat(path).catch(() => null);
    if (!st?.isFile) continue;
    const age = now - (st.mtime?.getTime() ?? now);
    const pid = TEMP.exec(e.name)?.[1];
    const stale = age > rule.maxAgeMs ||
      (!!rule.byPid && (pid === undefined ? age > 10 * 60_000 : !alive(Number(pid))));
    if (stale) await Deno.remove(path).catch(() => {});
  }
}

/**
 * Whether a process with this pid may run on this host: false only when
 * the system says there is none (`ESRCH`); without the permission to ask,
 * it may.
 */
export function alive(pid: number): boolean {
  if (pid === Deno.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string })?.code !== "ESRCH";
  }
}
