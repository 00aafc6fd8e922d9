/**
 * Child of the sync benchmark: syncs insider trades from a loopback stub
 * (`deno run -A bench/sync_child.ts URL DIR CONCURRENCY`) and prints one JSON
 * line with seconds, rows and its own peak RSS.
 *
 * @module
 */
import { InsiderClient, sync } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { peakMb } from "./_peak.ts";

if (import.meta.main) {
  const [url, dir, conc] = Deno.args;
  const insider = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: `${url}/insider` });
  const r = await sync({
    dir,
    insider,
    from: "2021-11-01",
    to: "2026-11-20",
    concurrency: Number(conc ?? 4),
    progress: false,
  });
  const hwm = peakMb();
  console.log(
    JSON.stringify({
      seconds: r.seconds,
      rows: r.datasets.insider_trades.rows,
      requests: r.datasets.insider_trades.requests,
      rssMb: hwm,
    }),
  );
}
