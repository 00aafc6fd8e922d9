/**
 * Atomic file writes: write to a temporary file beside the target, then
 * rename it into place, so a crash never leaves a half-written file. Used by
 * the store's exports and by chart saving alike (a bottom-layer helper, so
 * charts need not import the store).
 *
 * @module
 */
import { dirname } from "node:path";

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
