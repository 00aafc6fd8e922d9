/**
 * Child process for the crash test: syncs an in-process emulator into
 * Deno.args[0]. With Deno.args[1] = N, it stops once N months of insider
 * trades have been renamed into place: it prints `stopped after N months`
 * and every later rename (month files, the manifest) waits, on stdin, which
 * the parent never writes, until the parent kills it. The test thus
 * synchronises on the sync's own progress, not on time.
 */
import { sync } from "../../mod.ts";
import { offline } from "../_util.ts";

const stopAfter = Deno.args[1] === undefined ? Infinity : Number(Deno.args[1]);
const rename = Deno.rename;
let months = 0;
let stopped: Promise<void> | undefined;
Object.assign(Deno, {
  rename: async (from: string | URL, to: string | URL): Promise<void> => {
    if (stopped) return await stopped;
    await rename(from, to);
    if (/\/insider_trades\/.*\/data\.parquet$/.test(String(to)) && ++months === stopAfter) {
      console.log(`stopped after ${months} months`);
      stopped = Deno.stdin.read(new Uint8Array(1)).then(() => {
        throw new Error("sync_child: stdin closed before the kill");
      });
    }
  },
});

const { insider, catalog } = await offline({ seed: 4, scale: 0.1 });
await sync({
  dir: Deno.args[0],
  from: "2024-01-01",
  to: "2026-11-20",
  insider,
  catalog,
  concurrency: 3,
  progress: false,
});
console.log("done");
