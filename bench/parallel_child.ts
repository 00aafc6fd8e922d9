/**
 * One measured run of the parallel scaling curve, in its own process so its
 * peak RSS is its own: `deno run -A bench/parallel_child.ts <baseUrl>
 * <rows> <parallel>`, printing one JSON line `{ s, rows, rssMb, requests }`.
 * Default V8 flags: what a user's script or notebook gets.
 *
 * @module
 */
import { InsiderClient, useProgressSink } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { peakMb } from "./_peak.ts";
import { assertRanParallel, newWatch, watchedFetch, watchPull } from "./_parallel_check.ts";

if (import.meta.main) {
  useProgressSink(null);
  const [base, rowsText, parallelText] = Deno.args;
  const watch = newWatch();
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: `${base}/insider`,
    fetch: watchedFetch(watch),
  });
  const t0 = performance.now();
  const df = await watchPull(watch, () =>
    insider.search({ excludeAnomalousTransactions: false }, {
      pageSize: 100,
      parallel: Number(parallelText),
    }).frame({ maxRows: Number(rowsText), progress: false }));
  const s = (performance.now() - t0) / 1000;
  assertRanParallel(`search .frame() ${rowsText}`, Number(parallelText), watch);
  console.log(JSON.stringify({ s, rows: df.height, rssMb: peakMb(), requests: watch.requests }));
}
