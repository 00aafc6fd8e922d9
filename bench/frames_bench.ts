/**
 * Frames benchmark (issue 4): for 10,000 and 100,000 transaction rows with
 * every catalog field (10 % nulls), in one run: `JSON.parse` of the response
 * text alone (the floor), `pl.DataFrame(records)` with inference (the naive
 * path), and ours (records → typed frame); rows/s, ms and peak RSS; plus
 * zstd parquet write + read of the result. Each path runs in its own process.
 *
 * @module
 */
import { table } from "./loopback.ts";
import { runChild } from "./_child.ts";

type Result = {
  ms: number;
  rows: number;
  rssMb: number;
  writeMs?: number;
  readMs?: number;
  fileMb?: number;
  jsonMb?: number;
  buildMs?: number;
};

async function run(path: string, rows: number, runs: number): Promise<Result> {
  return await runChild<Result>("./frames_path.ts", [path, rows, runs], `${path} ${rows} failed`, [
    "--v8-flags=--max-old-space-size=16000",
  ]);
}

/** Runs the frames benchmark and returns the printed table. */
export async function framesBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const n of [10_000, 100_000]) {
    const runs = n === 10_000 ? 5 : 1;
    const parse = await run("parse", n, runs);
    const naive = await run("naive", n, runs);
    const ours = await run("ours", n, runs);
    const pq = await run("parquet", n, runs);
    const line = (
      name: string,
      r: Result,
    ) => [n, name, r.ms, (n / r.ms) * 1000, r.rssMb, r.ms / parse.ms, naive.ms / r.ms];
    rows.push(
      line("JSON.parse (floor)", parse),
      line("pl.DataFrame(records)", naive),
      line("ours (typed frame)", ours),
    );
    rows.push([
      n,
      `parquet zstd write ${pq.writeMs!.toFixed(0)} + read ${pq.readMs!.toFixed(0)} ms (${
        pq.fileMb!.toFixed(1)
      } MiB vs ${pq.jsonMb!.toFixed(0)} MiB JSON)`,
      pq.ms,
      (n / pq.ms) * 1000,
      pq.rssMb,
      pq.ms / parse.ms,
      NaN,
    ]);
  }
  return table(
    "Transactions → DataFrame (174 columns, 10% nulls); ms are medians",
    ["rows", "path", "ms", "rows/s", "peak RSS MiB", "× JSON.parse", "naive ÷ this"],
    rows,
  ) + "\n" + await sideBySide();
}

/**
 * The build against `JSON.parse` in one process, on records generated
 * independently of the project (`bench/records.ts`): each run parses the
 * response text, then builds the typed frame from those records.
 */
export async function sideBySide(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const n of [10_000, 100_000]) {
    const r = await run("side", n, n === 10_000 ? 7 : 3);
    rows.push([n, r.ms, r.buildMs!, r.buildMs! / r.ms, r.rssMb]);
  }
  return table(
    "Build vs JSON.parse, side by side in one process (independent records, 174 columns, 10% nulls; medians)",
    ["rows", "JSON.parse ms", "build ms", "build × JSON.parse", "peak RSS MiB"],
    rows,
  );
}

if (import.meta.main) {
  console.log(Deno.args[0] === "side" ? await sideBySide() : await framesBench());
}
