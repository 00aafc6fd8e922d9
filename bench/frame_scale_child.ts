/**
 * One measured run of the `.frame()` scale benchmark, in its own process so
 * its peak RSS is its own: `deno run -A bench/frame_scale_child.ts <baseUrl>
 * <pages|build|frame> <rows>`, printing one JSON line `{ s, rows, rssMb }`
 * (`build` adds `buildS`: the time spent building the frame from the same
 * pages, timed apart from fetching them).
 * Default V8 flags: this is what a user's script or notebook gets.
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";
import { DEMO_KEYS } from "../lib/stub/mod.ts";
import { transactionsSink } from "../lib/insider/transaction_frames.ts";
import { appendReleasing } from "../lib/frames/list.ts";
import { peakMb } from "./_peak.ts";

if (import.meta.main) {
  const [base, mode, nText] = Deno.args;
  const n = Number(nText);
  const insider = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: `${base}/insider` });
  const list = insider.search({ excludeAnomalousTransactions: false }, { pageSize: 100 });
  const t0 = performance.now();
  let rows = 0;
  let buildS: number | undefined;
  if (mode === "build") {
    const sink = transactionsSink();
    let ms = 0;
    for await (const page of list.pages()) {
      // as `.frame()` does: the page's own rows, cut only on the last page
      const take = page.rows.length > n - rows ? page.rows.slice(0, n - rows) : page.rows;
      const b0 = performance.now();
      // the build and its collection, and the two turns of the event loop around it
      await appendReleasing(sink, take);
      ms += performance.now() - b0;
      rows += take.length;
      if (rows >= n) break;
    }
    const b0 = performance.now();
    sink.finish();
    buildS = (ms + performance.now() - b0) / 1000;
  } else if (mode === "pages") {
    for await (const page of list.pages()) {
      rows += page.rows.length;
      if (rows >= n) break;
    }
  } else {
    rows = (await list.frame({ maxRows: n, progress: false })).height;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ s, rows, rssMb: peakMb(), buildS }));
}
