/**
 * One measured run of the `.frame()` scale benchmark, in its own process so
 * its peak RSS is its own: `deno run -A bench/frame_scale_child.ts <baseUrl>
 * <pages|frame> <rows>`, printing one JSON line `{ s, rows, rssMb }`.
 * Default V8 flags: this is what a user's script or notebook gets.
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";

function rssMb(): number {
  const s = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmHWM:\s+(\d+)/.exec(s)![1]) / 1024;
}

if (import.meta.main) {
  const [base, mode, nText] = Deno.args;
  const n = Number(nText);
  const insider = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: `${base}/insider` });
  const list = insider.search({ excludeAnomalousTransactions: false }, { pageSize: 100 });
  const t0 = performance.now();
  let rows = 0;
  if (mode === "pages") {
    for await (const page of list.pages()) {
      rows += page.rows.length;
      if (rows >= n) break;
    }
  } else {
    rows = (await list.frame({ maxRows: n, progress: false })).height;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ s, rows, rssMb: rssMb() }));
}
