/**
 * Child of `release_bench.ts`: six synchronous `filter`s of a 20,000-row
 * transactions frame, a collection after each, with (`turn`) or without one
 * event-loop turn after the collection; prints `{ rows, cols, before, after }`
 * (RSS, MiB).
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { connect } from "../mod.ts";
import { releaseNative } from "../lib/frames/_release.ts";
const turn = Deno.args[0] === "turn";
const { insider } = await connect({ quiet: true });
const df = await insider.search({}).frame({ maxRows: 20000 });
releaseNative();
await new Promise((r) => setTimeout(r, 0));
const mb = () => Deno.memoryUsage().rss / 2 ** 20;
const before = mb();
for (let i = 0; i < 6; i++) {
  df.filter(pl.col("code").eq(pl.lit("P"))).height;
  releaseNative();
  if (turn) await new Promise((r) => setTimeout(r, 0));
}
console.log(JSON.stringify({ rows: df.height, cols: df.width, before, after: mb() }));
