/**
 * Sync benchmark (issue 6), over loopback:
 * - at `--latency-ms 20`: one serial cursor walk over the whole history
 *   (pageSize 100, prefetch on, rows built into frames) vs `sync` with month
 *   windows pulled 1-, 4- and 8-way;
 * - at `--scale 10` (a world 10× the default, about 230,000 trades in the
 *   synced five years): a full sync's time and the peak RSS of the syncing
 *   process (the emulator runs in its own process), run as `deno task sync`
 *   runs (its V8 cap and `MALLOC_ARENA_MAX=2`); then `query()` of a monthly
 *   aggregate over the synced dataset, in its own process: the first run
 *   (opening the files), the median of three, and its peak RSS.
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { startStub, table } from "./loopback.ts";

async function child(
  url: string,
  concurrency: number,
  keep?: (dir: string) => Promise<void>,
): Promise<{ seconds: number; rows: number; requests: number; rssMb: number }> {
  const dir = await Deno.makeTempDir();
  const out = await new Deno.Command(Deno.execPath(), {
    // the allocator setting of `deno task sync` (deno.json)
    env: { MALLOC_ARENA_MAX: "2" },
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
  try {
    if (out.success) await keep?.(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  if (!out.success) throw new Error("sync child failed");
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/** `query()` of the monthly aggregate (`MONTHLY_SQL` in `query_child.ts`) over the dataset synced into `dir`, in its own process. */
async function monthlyQuery(
  dir: string,
): Promise<{ seconds: number[]; rssMb: number; groups: number; rows: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./query_child.ts", import.meta.url).pathname,
      "duckdb",
      dir,
      "monthly",
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("monthly query child failed");
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/** The latency-20 part: sync with month windows 1-, 4- and 8-way against one serial walk. */
async function latencyTable(): Promise<string> {
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
  return table(
    "Sync at --latency-ms 20 (24,976 trades): windows pulled concurrently vs one serial cursor walk",
    ["method", "rows", "seconds", "rows/s", "speed-up ×"],
    rows,
  );
}

/** The scale-10 part: a full sync, then `query()` of a monthly aggregate over it. */
async function bigTables(): Promise<string> {
  const big = await startStub(["--scale", "10"]);
  let bigRow: (string | number)[];
  let monthly: { seconds: number[]; rssMb: number; groups: number; rows: number } | undefined;
  try {
    const r = await child(big.url, 4, async (dir) => {
      monthly = await monthlyQuery(dir);
    });
    bigRow = [r.rows, r.requests, r.seconds, r.rows / r.seconds, r.rssMb, big.rssMb()];
    if (monthly!.rows !== r.rows) {
      throw new Error(`query() counted ${monthly!.rows} trades of the ${r.rows} synced`);
    }
  } finally {
    await big.stop();
  }
  const m = monthly!;
  const median = [...m.seconds].sort((a, b) => a - b)[1];
  return [
    table("Full sync at --scale 10 over loopback, 4-way", [
      "rows",
      "requests",
      "seconds",
      "rows/s",
      "sync peak RSS MiB",
      "emulator peak RSS MiB",
    ], [bigRow]),
    table(
      "query() of a monthly aggregate (trades and value per month) over that synced dataset, own process",
      ["months", "trades", "first run s", "median of 3 s", "peak RSS MiB"],
      [[m.groups, m.rows, m.seconds[0], median, m.rssMb]],
    ),
  ].join("\n");
}

/** Runs the sync benchmark (`parts`: "latency", "big") and returns the printed tables. */
export async function syncBench(parts = ["latency", "big"]): Promise<string> {
  const out: string[] = [];
  if (parts.includes("latency")) out.push(await latencyTable());
  if (parts.includes("big")) out.push(await bigTables());
  return out.join("\n");
}

if (import.meta.main) console.log(await syncBench(Deno.args.length ? Deno.args : undefined));
