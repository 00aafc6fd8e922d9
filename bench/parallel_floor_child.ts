/**
 * The pulls of the floor check, in one process as a user runs them:
 *
 * - `deno run -A bench/parallel_floor_child.ts <baseUrl> small` (against
 *   `deno task stub --scale 4 --latency-ms 100`): a short warm-up pull, then
 *   the 20,000-row search `.frame()` serially and at `parallel: 8`, then the
 *   2,500-row feed `take` serially and at `parallel: 8`;
 * - `… <baseUrl> big <rows>` (against a world with at least `rows` search
 *   rows): the warm-up, then the 20,000-row search `.frame()` serially, then
 *   `rows` search rows into `.frame()` at `parallel: 8`.
 *
 * Prints one JSON line: the {@link FloorRun}s.
 *
 * @module
 */
import { InsiderClient, type InsiderFilter, useProgressSink } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import {
  assertRanParallel,
  newWatch,
  type PullWatch,
  watchedFetch,
  watchPull,
} from "./_parallel_check.ts";

/** One measured pull. */
export interface FloorRun {
  /** What was pulled, e.g. `search .frame() 20k`. */
  pull: string;
  /** Windows paged at once (1: serial). */
  parallel: number;
  /** Rows received. */
  rows: number;
  /** Pages the serial pull of these rows makes (the floor's pages). */
  pages: number;
  /** Requests made. */
  requests: number;
  /** Seconds. */
  s: number;
  /** CPU seconds of the loop thread (the process's main thread) during the pull. */
  loopCpuS: number;
  /** The machine's 1-minute load average when the pull started (other work on its cores). */
  load: number;
  /** Requests in flight at once, at most (a parallel pull that ran serially is refused). */
  maxInFlight: number;
  /**
   * The longest pause of the loop thread during the pull, ms: the longest
   * gap between ticks of a 5 ms timer (a frame chunk's build, a collection,
   * a page's parse; on a loaded machine also time the thread was not run).
   */
  longestPauseMs: number;
}

/** Watches the loop thread's pauses: the longest gap between ticks of a 5 ms timer, until stopped. */
function pauseProbe(): () => number {
  let last = performance.now();
  let longest = 0;
  const t = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return () => {
    clearInterval(t);
    return Math.max(longest, performance.now() - last);
  };
}

/** CPU seconds a thread (or the process) has used, from `/proc` (0 where there is none). */
function cpuSeconds(path = `/proc/self/task/${Deno.pid}/stat`): number {
  try {
    const f = Deno.readTextFileSync(path).split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return 0;
  }
}

function loadAverage(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
  } catch {
    return NaN;
  }
}

/** Search rows of the 20k pull and feed rows of the feed pull. */
export const SEARCH_ROWS = 20_000;
/** Feed rows of the feed pull (limit 25: 100 serial pages). */
export const FEED_ROWS = 2_500;
/** The feeds of the feed pull. */
export const FEEDS = { feedIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as (1 | 2)[], limit: 25 };

/**
 * An insider client of the loopback emulator at `url` that counts its
 * requests and those in flight at once (`count`, a {@link PullWatch}).
 */
export function countingClient(url: string, opts: { requestsPerSecond?: number } = {}): {
  insider: InsiderClient;
  count: PullWatch;
} {
  const count = newWatch();
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: `${url}/insider`,
    fetch: watchedFetch(count),
    ...opts,
  });
  return { insider, count };
}

/** The search of the big pull: every trade, so a `--scale 11` world has 250k rows. */
const EVERY_TRADE = { excludeAnomalousTransactions: false };

/** One pull of `rows` search rows into `.frame()` at `parallel` (1: serial), checked to have run so. */
export async function searchRun(
  url: string,
  rows: number,
  parallel: number,
  filter: InsiderFilter = {},
): Promise<FloorRun> {
  const c = countingClient(url);
  const [load, cpu0, t0, pauses] = [loadAverage(), cpuSeconds(), performance.now(), pauseProbe()];
  const df = await watchPull(c.count, () =>
    c.insider.search(filter, {
      pageSize: 100,
      parallel: parallel === 1 ? undefined : parallel,
    }).frame({ maxRows: rows, progress: false }));
  const s = (performance.now() - t0) / 1000;
  const longestPauseMs = pauses();
  const label = rows % 1000 === 0 ? `${rows / 1000}k` : String(rows);
  assertRanParallel(`search .frame() ${label}`, parallel, c.count);
  return {
    pull: `search .frame() ${label}`,
    parallel,
    rows: df.height,
    pages: Math.ceil(rows / 100),
    requests: c.count.requests,
    s,
    loopCpuS: cpuSeconds() - cpu0,
    load,
    maxInFlight: c.count.maxInFlight,
    longestPauseMs,
  };
}

/** The 2,500-row feed `take` at `parallel` (1: serial), checked to have run so. */
export async function feedRun(url: string, parallel: number): Promise<FloorRun> {
  const c = countingClient(url);
  const [load, cpu0, t0, pauses] = [loadAverage(), cpuSeconds(), performance.now(), pauseProbe()];
  const got = await watchPull(
    c.count,
    () =>
      c.insider.feeds(FEEDS, { parallel: parallel === 1 ? undefined : parallel }).take(FEED_ROWS),
  );
  const s = (performance.now() - t0) / 1000;
  const longestPauseMs = pauses();
  assertRanParallel("feeds take(2,500)", parallel, c.count);
  return {
    pull: "feeds take(2,500)",
    parallel,
    rows: got.length,
    pages: Math.ceil(FEED_ROWS / FEEDS.limit),
    requests: c.count.requests,
    s,
    loopCpuS: cpuSeconds() - cpu0,
    load,
    maxInFlight: c.count.maxInFlight,
    longestPauseMs,
  };
}

/** The pulls of the floor check, in order (see the module doc). */
export async function floorRuns(url: string, bigRows?: number): Promise<FloorRun[]> {
  useProgressSink(null);
  // warm the emulator's query cache and the JIT with a short pull
  await countingClient(url).insider.search({}, { pageSize: 100 }).take(200);
  const out: FloorRun[] = [];
  out.push(await searchRun(url, SEARCH_ROWS, 1));
  if (bigRows) {
    out.push(await searchRun(url, bigRows, 8, EVERY_TRADE));
    return out;
  }
  out.push(await searchRun(url, SEARCH_ROWS, 8));
  out.push(await feedRun(url, 1));
  out.push(await feedRun(url, 8));
  return out;
}

if (import.meta.main) {
  const [url, mode, rows] = Deno.args;
  console.log(
    JSON.stringify(
      await floorRuns(url, mode === "big" ? Number(rows) : undefined),
    ),
  );
}
