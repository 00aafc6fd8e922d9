/**
 * Refusal storms on the wall clock: `hydrate` at concurrency 8 against a
 * service that refuses every call with `Retry-After: 2` (24 rows under
 * `429`, 48 under `503`, the storms of issue 42), and the same with a
 * `Retry-After: 60` (where the group's retry budget, not the circuit, ends
 * it). Prints calls and seconds; no thresholds (the tests count calls).
 *
 * Run: `deno run -A bench/storm_bench.ts`.
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";

/** One storm: calls made and seconds taken by a `hydrate` of `rows` rows. */
async function storm(status: number, retryAfter: string, rows: number) {
  let calls = 0;
  const insider = new InsiderClient({
    apiKey: "sk-bench-storm",
    baseUrl: "http://storm.test/insider",
    fetch: () => {
      calls++;
      return Promise.resolve(
        Response.json({ type: "busy", title: "Refused", detail: "later" }, {
          status,
          headers: { "retry-after": retryAfter },
        }),
      );
    },
  });
  const feed = Array.from({ length: rows }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: "2024-05-01T15:00:00Z",
  }));
  const t0 = performance.now();
  const { failed } = await insider.hydrate(feed, { concurrency: 8, progress: false });
  return { calls, seconds: (performance.now() - t0) / 1000, failed: failed.length };
}

if (import.meta.main) {
  for (const [status, ra, rows] of [[429, "2", 24], [503, "2", 48], [429, "60", 24]] as const) {
    const r = await storm(status, ra, rows);
    console.log(
      `${status} Retry-After: ${ra}, hydrate of ${rows} rows at concurrency 8: ` +
        `${r.calls} calls, ${r.seconds.toFixed(1)} s, ${r.failed} failed`,
    );
  }
}
