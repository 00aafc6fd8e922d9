/**
 * Child process for the full-disk tests, run under a small file-size limit
 * (`ulimit -f`, SIGXFSZ ignored) so that big writes fail for real:
 * `disk_child.ts <write|parquet|sync> <path> [free bytes]` writes a
 * dataset (or one parquet file, or syncs) at `<path>` and prints the error
 * it got as JSON. With a free-bytes argument, the free-space probe reports
 * that many bytes.
 */
import { sync, writeDataset, writeParquet } from "../../mod.ts";
import { offline } from "../_util.ts";
import { _setFreeSpaceProbe } from "../../lib/store/disk.ts";
import { bigFrame } from "./write_frames.ts";

const [what, dir, free] = Deno.args;
if (free !== undefined) _setFreeSpaceProbe(() => Promise.resolve(Number(free)));

try {
  if (what === "write") {
    await writeDataset(bigFrame("new"), dir, { partitionBy: ["k"] });
  } else if (what === "parquet") {
    await writeParquet(bigFrame("new"), dir);
  } else {
    const { insider } = await offline({ seed: 2, scale: 0.2 });
    await sync({ dir, from: "2026-06-01", to: "2026-10-31", insider, progress: false });
  }
  console.log(JSON.stringify({ ok: true }));
} catch (e) {
  const err = e as Error & { path?: string; freeBytes?: number | null };
  console.log(JSON.stringify({
    name: err.name,
    message: err.message,
    path: err.path,
    freeBytes: err.freeBytes,
    cause: String((err.cause as Error)?.message ?? ""),
  }));
}
