/**
 * Walking a dataset folder (shared by datasets, sync and locks).
 *
 * @module
 */
import { join } from "node:path";

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
