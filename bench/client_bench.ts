/**
 * Client benchmark (issue 3), against `deno task stub --latency-ms 20` over
 * loopback:
 * - a full pull of every default-scale insider trade through `search`
 *   (pageSize 100), sequential paging vs prefetch, with no per-page work and
 *   with a consumer that spends ~20 ms per page (a downstream write);
 * - `hydrate` of 1,000 feed rows at concurrency 1, 8, 16, 32 against the
 *   ideal N × latency / concurrency.
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { startStub, table } from "./loopback.ts";

const LATENCY = 20;

/** Runs the client benchmark and returns the printed tables. */
export async function clientBench(): Promise<string> {
  const stub = await startStub(["--latency-ms", String(LATENCY)]);
  try {
    const client = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: `${stub.url}/insider` });
    const filter = { excludeAnomalousTransactions: false };
    await client.search(filter).take(100); // warm the server's query cache
    const pull = async (prefetch: boolean, workMs: number) => {
      const t0 = performance.now();
      let rows = 0;
      for await (const page of client.search(filter, { pageSize: 100, prefetch }).pages()) {
        rows += page.rows.length;
        if (workMs) await new Promise((r) => setTimeout(r, workMs));
      }
      return { rows, s: (performance.now() - t0) / 1000 };
    };
    const pullRows: (string | number)[][] = [];
    for (const work of [0, 20]) {
      const seq = await pull(false, work);
      const pre = await pull(true, work);
      pullRows.push([`${work} ms`, seq.rows, seq.rows / seq.s, pre.rows / pre.s, seq.s / pre.s]);
    }
    const feed = await client.feeds({
      feedIds: Array.from({ length: 18 }, (_, i) => (i + 1) as 1),
      limit: 25,
    }).take(1000);
    const hydrateRows: (string | number)[][] = [];
    for (const c of [1, 8, 16, 32]) {
      const t0 = performance.now();
      const { rows, failed } = await client.hydrate(feed, { concurrency: c });
      const s = (performance.now() - t0) / 1000;
      const ideal = (feed.length * LATENCY) / c / 1000;
      hydrateRows.push([c, rows.length, failed.length, s, ideal, s / ideal]);
    }
    return [
      table(
        `Full search pull at --latency-ms ${LATENCY} (pageSize 100): sequential vs prefetch`,
        ["per-page work", "rows", "sequential rows/s", "prefetch rows/s", "speed-up ×"],
        pullRows,
      ),
      table(
        `hydrate of ${feed.length} feed rows at --latency-ms ${LATENCY}`,
        ["concurrency", "rows", "failed", "seconds", "ideal s", "ratio to ideal"],
        hydrateRows,
      ),
    ].join("\n");
  } finally {
    await stub.stop();
  }
}

if (import.meta.main) console.log(await clientBench());
