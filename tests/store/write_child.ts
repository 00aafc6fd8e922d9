/**
 * Child process for the writeDataset crash test: replaces every partition of
 * the dataset at Deno.args[0] with "new" rows, and stops where the parent
 * asks (Deno.args[3]), so that the test synchronises on the writer's
 * progress rather than on time:
 *
 * - `after-swap`: once the first partition's `data.parquet` has been renamed
 *   into place, prints `swapped 1` and waits (on stdin, which the parent
 *   never writes) to be killed;
 * - `before-swap`: with the second partition's new file fully written under
 *   its temporary name, prints `written 2` before renaming it and waits.
 *
 * The pause wraps `Deno.rename`, which `writeAtomic` uses for every swap.
 */
import { writeDataset } from "../../mod.ts";
import { modeFrame } from "./write_frames.ts";

const [dir, partsArg, rowsArg, stopAt] = Deno.args;
const rename = Deno.rename;
let swaps = 0;
const wait = async (line: string): Promise<never> => {
  console.log(line);
  await Deno.stdin.read(new Uint8Array(1)); // blocks until killed
  throw new Error("write_child: stdin closed before the kill");
};
Object.assign(Deno, {
  rename: async (from: string | URL, to: string | URL): Promise<void> => {
    const partition = String(to).endsWith("/data.parquet");
    if (partition && stopAt === "before-swap" && swaps === 1) await wait("written 2");
    await rename(from, to);
    if (partition && ++swaps === 1 && stopAt === "after-swap") await wait("swapped 1");
  },
});
await writeDataset(modeFrame("new", Number(partsArg), Number(rowsArg) + 7), dir, {
  partitionBy: ["k"],
  mode: "replace-partitions",
});
console.log("done");
