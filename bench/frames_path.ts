/**
 * One measured path of the frames benchmark, run in its own process so its
 * peak RSS is its own: `deno run -A bench/frames_path.ts <path> <rows>`,
 * printing one JSON line `{ ms, rows, rssMb }` (median of the runs).
 *
 * Rows: every catalog field of real emulator trades, with 10 % of the
 * nullable values set to null, replicated to the requested count.
 *
 * @module
 */
import pl from "nodejs-polars";
import { createStub } from "../lib/stub/mod.ts";
import { transactionsFrame } from "../lib/insider/transaction_frames.ts";
import { Rng } from "../lib/shared/random.ts";
import { independentResponseText } from "./records.ts";
import { releaseNative } from "../lib/frames/_release.ts";
import { peakMb } from "./_peak.ts";

/** Synthetic response text of `n` transaction rows (snake_case, 10 % nulls). */
export function responseText(n: number): string {
  const base = createStub({ seed: 1, scale: 0.4 }).insider.trades.slice(0, 10_000).map((t) =>
    t.row
  );
  const rng = new Rng(99);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const row: Record<string, unknown> = { ...base[i % base.length] };
    for (const k of Object.keys(row)) if (k !== "feed_ids" && rng.chance(0.1)) row[k] = null;
    row.transaction_id = i;
    parts.push(JSON.stringify(row));
  }
  return `{"data":[${parts.join(",")}]}`;
}

if (import.meta.main) {
  const [path, nText, runsText] = Deno.args;
  const n = Number(nText);
  const runs = Number(runsText ?? 3);
  const text = path === "side" ? independentResponseText(n) : responseText(n);
  const times: number[] = [];
  const builds: number[] = [];
  let extra: Record<string, number> = {};
  for (let k = 0; k < runs; k++) {
    await new Promise((r) => setTimeout(r, 50));
    if (path === "parse") {
      const t0 = performance.now();
      JSON.parse(text);
      times.push(performance.now() - t0);
    } else if (path === "naive") {
      const rows = JSON.parse(text).data;
      const t0 = performance.now();
      pl.DataFrame(rows);
      times.push(performance.now() - t0);
    } else if (path === "ours") {
      const rows = JSON.parse(text).data;
      const t0 = performance.now();
      transactionsFrame(rows);
      times.push(performance.now() - t0);
    } else if (path === "side") {
      // JSON.parse and the build of its records, side by side in one process;
      // each timed step starts from a collected heap, so neither pays for
      // the other's garbage
      releaseNative();
      const t0 = performance.now();
      const rows = JSON.parse(text).data;
      const t1 = performance.now();
      releaseNative();
      const t2 = performance.now();
      transactionsFrame(rows);
      const t3 = performance.now();
      times.push(t1 - t0);
      builds.push(t3 - t2);
    } else if (path === "parquet") {
      const df = transactionsFrame(JSON.parse(text).data);
      const file = await Deno.makeTempFile({ suffix: ".parquet" });
      const t0 = performance.now();
      df.writeParquet(file, { compression: "zstd" });
      const t1 = performance.now();
      const back = pl.readParquet(file);
      const t2 = performance.now();
      if (back.height !== df.height) throw new Error("parquet round trip lost rows");
      times.push(t2 - t0);
      extra = {
        writeMs: t1 - t0,
        readMs: t2 - t1,
        fileMb: Deno.statSync(file).size / 2 ** 20,
        jsonMb: text.length / 2 ** 20,
      };
      await Deno.remove(file);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  if (builds.length) extra = { buildMs: median(builds) };
  console.log(JSON.stringify({ ms: median(times), rows: n, rssMb: peakMb(), ...extra }));
}
