/**
 * Child of `first_cell.ts`: a notebook's first cell in a fresh process.
 * Imports signalbook, connects (the embedded emulator: no keys in the
 * environment the parent gives it), takes the first 10 rows of an insider
 * search, then the first catalog page, and prints one JSON line:
 * `{ importS, firstAnswerS, rssAfterMb, catalogS, peakMb }`.
 *
 * @module
 */
import { peakMb } from "./_peak.ts";

const rssMb = () => Deno.memoryUsage().rss / 2 ** 20;

const t0 = performance.now();
const { connect } = await import("../mod.ts");
const t1 = performance.now();
const sb = await connect({ quiet: true });
const rows = await sb.insider.search({}).take(10);
const t2 = performance.now();
const rssAfterMb = rssMb();
if (rows.length !== 10) throw new Error(`first answer: ${rows.length} rows`);
await sb.catalog.pitches().take(10);
const t3 = performance.now();
console.log(JSON.stringify({
  importS: (t1 - t0) / 1000,
  firstAnswerS: (t2 - t1) / 1000,
  rssAfterMb,
  catalogS: (t3 - t2) / 1000,
  peakMb: peakMb(),
}));
