/**
 * Sync benchmark (issue 6), over loopback:
 * - at `--latency-ms 20`: one serial cursor walk over the whole history
 *   (pageSize 100, prefetch on, rows built into frames) vs `sync` with month
 *   windows pulled 1-, 4- and 8-way;
 * - at `--scale 10` (about 250,000 trades): a full sync's time and the peak
 *   RSS of the syncing process (the emulator runs in its own process).
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { startStub, table } from "./loopback.ts";

async function child(
  url: string,
  concurrency: number,
): Promise<{ seconds: number; rows: number; requests: number; rssMb: number }> {
  const dir = await Deno.makeTempDir();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      // the same V8 old-space cap as `deno task sync`
      "--v8-flags=--max-old-space-size=512",
      new URL("./sync_child.ts", import.meta.url).pathname,
      url,
      dir,
      String(concurrency),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  await Deno.remove(dir, { recursive: true });
  if (!out.success) throw new Error("sync child failed");
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/** Runs the sync benchmark and returns the printed tables. */
export async function syncBench(): Promise<string> {
  const slow = await startStub(["--latency-ms", "20"]);
  const rows: (string | number)[][] = [];
  try {
    const insider = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: `${slow.url}/insider`,
    });
    const filter = {
      excludeAnomalousTransactions: false,
      filingDatePreset: "custom" as const,
      filingDateFrom: "2021-11-01",
      filingDateTo: "2026-11-20",
      sortBy: "filedAt" as const,
      sortDirection: "asc" as const,
    };
    // warm-up walk, untimed: the emulator's caches are then warm for every method alike
    await insider.search(filter, { pageSize: 100 }).frame({ progress: false });
    const t0 = performance.now();
    const df = await insider.search(filter, { pageSize: 100 }).frame({ progress: false });
    const serial = (performance.now() - t0) / 1000;
    rows.push(["one serial cursor walk", df.height, serial, df.height / serial, 1]);
    for (const c of [1, 4, 8]) {
      const r = await child(slow.url, c);
      rows.push([
        `sync, ${c}-way month windows`,
        r.rows,
        r.seconds,
        r.rows / r.seconds,
        serial / r.seconds,
      ]);
    }
  } finally {
    await slow.stop();
  }
  const big = await startStub(["--scale", "10"]);
  let bigRow: (string | number)[];
  try {
    const r = await child(big.url, 4);
    bigRow = [r.rows, r.requests, r.seconds, r.rows / r.seconds, r.rssMb, big.rssMb()];
  } finally {
    await big.stop();
  }
  return [
    table(
      "Sync at --latency-ms 20 (24,976 trades): windows pulled concurrently vs one serial cursor walk",
      ["method", "rows", "seconds", "rows/s", "speed-up ×"],
      rows,
    ),
    table("Full sync at --scale 10 over loopback, 4-way", [
      "rows",
      "requests",
      "seconds",
      "rows/s",
      "sync peak RSS MiB",
      "emulator peak RSS MiB",
    ], [bigRow]),
  ].join("\n");
}

if (import.meta.main) console.log(await syncBench());
