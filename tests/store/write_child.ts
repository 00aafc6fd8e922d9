/**
 * Child process for the writeDataset crash test: replaces every partition of
 * the dataset at Deno.args[0] with "new" rows, printing a line after each one.
 */
import { writeDataset } from "../../mod.ts";
import { modeFrame } from "./write_frames.ts";

const parts = Number(Deno.args[1]);
const rows = Number(Deno.args[2]);
await writeDataset(modeFrame("new", parts, rows + 7), Deno.args[0], {
  partitionBy: ["k"],
  mode: "replace-partitions",
});
console.log("done");
