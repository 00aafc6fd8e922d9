/**
 * Parallel date windows (issue 22), over loopback against `deno task stub
 * --scale 4 --latency-ms L` (one emulator process per latency):
 *
 * 1. A table over latency 0, 50, 100 and 200 ms × serial and `parallel` 2,
 *    4 and 8: a 20,000-row search `.frame({ maxRows })` (pageSize 100, 200
 *    serial pages) and a 2,500-row feed pull (`take`, limit 25, 100 serial
 *    pages). Each row prints seconds, requests, and the time over its floor
 *    (serial pages × latency ÷ parallel; 0 ms has no floor).
 * 2. Under `--rate-limit 20 --latency-ms 100`: a parallel 8 pull of 300
 *    pages with the default budget (AIMD on `429`) and with
 *    `requestsPerSecond: 20`: requests per second over the limit, `429`s,
 *    failures.
 * 3. A scaling curve at `--scale 10 --latency-ms 100`, parallel 8: 10k, 40k,
 *    100k and 250k rows into `.frame()`, each in its own process (default V8
 *    flags) with its peak RSS.
 *
 * `deno run -A bench/parallel_bench.ts [table|rate|scale]…` runs a part.
 *
 * @module
 */
import { InsiderClient, useProgressSink } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { startStub, table } from "./loopback.ts";

const LATENCIES = [0, 50, 100, 200];
const PARALLEL = [1, 2, 4, 8];
const SEARCH_ROWS = 20_000;
const FEED_ROWS = 2_500;

function client(url: string, opts: { requestsPerSecond?: number } = {}) {
  const count = { requests: 0 };
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: `${url}/insider`,
    fetch: (input, init) => {
      count.requests++;
      return fetch(input, init);
    },
    ...opts,
  });
  return { insider, count };
}

/** Runs `fn` against a fresh emulator process started with `flags`. */
async function onStub<T>(flags: string[], fn: (url: string) => Promise<T>): Promise<T> {
  const stub = await startStub(flags);
  try {
    return await fn(stub.url);
  } finally {
    await stub.stop();
  }
}

const FEEDS = { feedIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as (1 | 2)[], limit: 25 };

/** Part 1: the latency × parallel table. */
export async function latencyTable(latencies = LATENCIES): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const latency of latencies) {
    await onStub(["--scale", "4", "--latency-ms", String(latency)], async (url) => {
      // warm the emulator's query cache and JIT with a short pull
      await client(url).insider.search({}, { pageSize: 100 }).take(200);
      for (const parallel of PARALLEL) {
        const p = parallel === 1 ? undefined : parallel;
        const label = parallel === 1 ? "serial" : `parallel ${parallel}`;
        const s = client(url);
        let t0 = performance.now();
        const df = await s.insider.search({}, { pageSize: 100, parallel: p })
          .frame({ maxRows: SEARCH_ROWS, progress: false });
        let sec = (performance.now() - t0) / 1000;
        let floor = (Math.ceil(SEARCH_ROWS / 100) * latency) / 1000 / parallel;
        rows.push([
          `${latency} ms`,
          "search .frame() 20k",
          label,
          df.height,
          s.count.requests,
          sec,
          latency ? floor : "—",
          latency ? sec / floor : "—",
        ]);
        const f = client(url);
        t0 = performance.now();
        const got = await f.insider.feeds(FEEDS, { parallel: p }).take(FEED_ROWS);
        sec = (performance.now() - t0) / 1000;
        floor = (Math.ceil(FEED_ROWS / 25) * latency) / 1000 / parallel;
        rows.push([
          `${latency} ms`,
          "feeds take(2,500)",
          label,
          got.length,
          f.count.requests,
          sec,
          latency ? floor : "—",
          latency ? sec / floor : "—",
        ]);
      }
    });
  }
  return table(
    "Parallel date windows: --scale 4 emulator over loopback; floor = serial pages × latency ÷ parallel",
    ["latency", "pull", "mode", "rows", "requests", "s", "floor s", "× floor"],
    rows,
  );
}

/** Part 2: under the emulator's rate limit. */
export async function rateLimitTable(): Promise<string> {
  const LIMIT = 20;
  const rows: (string | number)[][] = [];
  await onStub(["--scale", "4", "--latency-ms", "100", "--rate-limit", `${LIMIT}`], async (url) => {
    for (const rps of [undefined, LIMIT]) {
      // a fresh second of the emulator's window
      await new Promise((r) => setTimeout(r, 1100));
      const c = client(url, rps ? { requestsPerSecond: rps } : {});
      const t0 = performance.now();
      let failed = 0;
      let got = 0;
      try {
        got = (await c.insider.search({}, { pageSize: 100, parallel: 8 }).frame({
          maxRows: 30_000,
          progress: false,
        })).height;
      } catch {
        failed++;
      }
      const sec = (performance.now() - t0) / 1000;
      const limiter =
        (c.insider as unknown as { transport: { limiter: { state: { throttled: number } } } })
          .transport.limiter;
      const throttled = limiter.state.throttled;
      const accepted = c.count.requests - throttled;
      rows.push([
        rps ? `requestsPerSecond: ${rps}` : "default (AIMD on 429)",
        got,
        c.count.requests,
        throttled,
        failed,
        sec,
        accepted / sec,
        LIMIT / (accepted / sec),
      ]);
    }
  });
  return table(
    `Under --rate-limit ${LIMIT} --latency-ms 100: search .frame() of 30k rows at parallel 8`,
    ["budget", "rows", "requests", "429s", "failed", "s", "accepted req/s", "limit ÷ req/s"],
    rows,
  );
}

type ScaleRun = { s: number; rows: number; rssMb: number; requests: number };

async function scaleChild(url: string, rows: number, parallel: number): Promise<ScaleRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./parallel_child.ts", import.meta.url).pathname,
      url,
      `${rows}`,
      `${parallel}`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`parallel child ${rows} failed`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/** Part 3: the scaling curve, each size in its own process. */
export async function scaleTable(sizes = [10_000, 40_000, 100_000, 250_000]): Promise<string> {
  const rows: (string | number)[][] = [];
  await onStub(["--scale", "10", "--latency-ms", "100"], async (url) => {
    for (const n of sizes) {
      const r = await scaleChild(url, n, 8);
      const floor = (Math.ceil(n / 100) * 0.1) / 8;
      rows.push([n, r.rows, r.requests, r.s, r.rows / r.s, floor, r.s / floor, r.rssMb]);
    }
  });
  return table(
    "Scaling: search .frame({ maxRows }) at parallel 8, --scale 10 --latency-ms 100, one process per size",
    ["maxRows", "rows", "requests", "s", "rows/s", "floor s", "× floor", "peak RSS MiB"],
    rows,
  );
}

/** Runs the parallel benchmark and returns the printed tables. */
export async function parallelBench(parts = ["table", "rate", "scale"]): Promise<string> {
  useProgressSink(null);
  const out: string[] = [];
  if (parts.includes("table")) out.push(await latencyTable());
  if (parts.includes("rate")) out.push(await rateLimitTable());
  if (parts.includes("scale")) out.push(await scaleTable());
  return out.join("\n");
}

if (import.meta.main) {
  console.log(await parallelBench(Deno.args.length ? Deno.args : undefined));
}
