/**
 * Peak RSS of hydrating feed rows, in its own process:
 * `deno run -A bench/hydrate_child.ts <baseUrl> <records|frame> <rows>`.
 * `records` is `hydrate()` then `transactionsFrame(rows)` (every detail
 * held as a record first); `frame` is `hydrateFrame()`. Prints one JSON
 * line `{ s, rows, rssMb }`; the feed rows are read before the clock starts.
 *
 * @module
 */
import { InsiderClient, transactionsFrame } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { peakMb } from "./_peak.ts";

if (import.meta.main) {
  const [base, mode, nText] = Deno.args;
  const n = Number(nText);
  const insider = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: `${base}/insider` });
  const ids = Array.from({ length: 18 }, (_, i) => i + 1) as Parameters<
    typeof insider.feeds
  >[0]["feedIds"];
  const feed = await insider.feeds({ feedIds: ids, limit: 25 }).take(n);
  const t0 = performance.now();
  let rows: number;
  if (mode === "records") {
    const h = await insider.hydrate(feed, { concurrency: 16, progress: false });
    rows = transactionsFrame(h.rows).height;
  } else {
    rows = (await insider.hydrateFrame(feed, { concurrency: 16, progress: false })).frame.height;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ s, rows, rssMb: peakMb() }));
}
