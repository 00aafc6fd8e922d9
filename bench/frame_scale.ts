/**
 * `.frame()` scale benchmark (the path notebooks take): a `--scale 10`
 * emulator over loopback (about 248k trades), then
 * `insider.search({ excludeAnomalousTransactions: false }, { pageSize: 100 })`
 * for 10k, 40k, 100k and 250k rows, each size in its own process with
 * default V8 flags: paging alone (`.pages()`), the build alone (the same
 * pages into the frame builder, only the build timed), then
 * `.frame({ maxRows })`. Prints seconds, rows/s, peak RSS, and the frame's
 * time over paging alone and over paging plus the build.
 *
 * @module
 */
import { startStub, table } from "./loopback.ts";
import { runChild } from "./_child.ts";

type Run = { s: number; rows: number; rssMb: number; buildS?: number };

async function child(base: string, mode: "pages" | "build" | "frame", n: number): Promise<Run> {
  return await runChild<Run>(
    "./frame_scale_child.ts",
    [base, mode, n],
    `frame scale: ${mode} ${n} failed`,
  );
}

/** Sizes of the scale table. */
export const SCALE_ROWS = [10_000, 40_000, 100_000, 250_000];

/** Runs the `.frame()` scale table and returns it as text. */
export async function frameScaleBench(sizes: number[] = SCALE_ROWS): Promise<string> {
  const stub = await startStub(["--scale", "10"]);
  try {
    const rows: (string | number)[][] = [];
    for (const n of sizes) {
      const pages = await child(stub.url, "pages", n);
      const build = await child(stub.url, "build", n);
      const frame = await child(stub.url, "frame", n);
      const b = build.buildS!;
      const both = pages.s + b;
      rows.push(
        [n, "pages() alone", pages.rows, pages.s, pages.rows / pages.s, pages.rssMb, 1, "—"],
        [n, "build alone (same pages)", build.rows, b, build.rows / b, "—", b / pages.s, "—"],
        [
          n,
          ".frame()",
          frame.rows,
          frame.s,
          frame.rows / frame.s,
          frame.rssMb,
          frame.s / pages.s,
          frame.s / both,
        ],
      );
    }
    return table(
      ".frame() at scale: --scale 10 emulator over loopback, pageSize 100, default V8 flags, one process per run",
      ["maxRows", "path", "rows", "s", "rows/s", "peak RSS MiB", "× paging", "× (paging + build)"],
      rows,
    );
  } finally {
    await stub.stop();
  }
}

if (import.meta.main) {
  const sizes = Deno.args.length ? Deno.args.map(Number) : SCALE_ROWS;
  console.log(await frameScaleBench(sizes));
}
