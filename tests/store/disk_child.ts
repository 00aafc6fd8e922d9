/**
 * Child process for the full-disk tests, run under a small file-size limit
 * (`setrlimit(RLIMIT_FSIZE)` once its modules are loaded, SIGXFSZ ignored by
 * the parent shell) so that big writes fail for real:
 * `disk_child.ts <KiB> <write|parquet|sync> <path> [free bytes]` writes a
 * dataset (or one parquet file, or syncs) at `<path>` and prints the error
 * it got as JSON. With a free-bytes argument, the free-space probe reports
 * that many bytes.
 */
import { sync, writeDataset, writeParquet } from "../../mod.ts";
import { offline } from "../_util.ts";
import { _setFreeSpaceProbe } from "../../lib/store/disk.ts";
import { bigFrame } from "./write_frames.ts";

const [kb, what, dir, free] = Deno.args;
// the file-size limit, set now that every module is loaded (see `limited` in disk_test.ts)
const libc = Deno.dlopen("libc.so.6", {
  setrlimit: { parameters: ["i32", "buffer"], result: "i32" },
});
const RLIMIT_FSIZE = 1;
const bytes = BigInt(Number(kb) * 1024);
const limit = new BigUint64Array([bytes, bytes]); // struct rlimit { rlim_cur, rlim_max }
if (libc.symbols.setrlimit(RLIMIT_FSIZE, new Uint8Array(limit.buffer)) !== 0) {
  throw new Error(`setrlimit(RLIMIT_FSIZE, ${kb} KiB) failed`);
}
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
