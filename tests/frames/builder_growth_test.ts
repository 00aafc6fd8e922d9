import assert from "node:assert/strict";
import { FrameBuilder } from "../../mod.ts";
import { transactionsSink } from "../../lib/insider/transaction_frames.ts";

const SPECS = [
  { name: "i", type: "integer" },
  { name: "x", type: "decimal" },
  { name: "d", type: "date" },
  { name: "b", type: "boolean" },
  { name: "s", type: "code" },
  { name: "l", type: "list" },
  { name: "t", type: "text_list" },
] as const;

/** Row `k`: every kind of column, some nulls, text long enough to outgrow a first buffer. */
const row = (k: number) => ({
  i: k,
  x: k % 7 === 0 ? null : k / 4,
  d: `2025-01-${String(1 + (k % 28)).padStart(2, "0")}`,
  b: k % 3 === 0,
  s: k % 5 === 0 ? null : `row ${k} ${"é".repeat(k % 40)}`,
  l: k % 4 === 0 ? null : [k, k + 1],
  t: [`a${k}`, "b"],
});

Deno.test("FrameBuilder: column buffers that grow page by page keep every value", () => {
  const rows = Array.from({ length: 2_500 }, (_, k) => row(k));
  const whole = new FrameBuilder(SPECS, { chunkRows: 1_000, onReport: () => {} });
  whole.append(rows);
  const paged = new FrameBuilder(SPECS, { chunkRows: 1_000, onReport: () => {} });
  for (let at = 0; at < rows.length; at += 100) paged.append(rows.slice(at, at + 100));
  const [a, b] = [whole.finish(), paged.finish()];
  assert.equal(b.nChunks(), 3);
  assert.ok(a.frameEqual(b, true));
  assert.deepEqual(b.getColumn("i").toArray().map(Number), rows.map((r) => r.i));
  assert.deepEqual(b.getColumn("s").toArray(), rows.map((r) => r.s));
});

Deno.test("FrameBuilder: a few rows hold column buffers of their own size, not a whole chunk's", () => {
  // 174 columns: a chunk's buffers of 8,192 rows were about 11 MiB of ArrayBuffers per builder,
  // held by a sync's every month until V8 collected them
  const held = [];
  const before = Deno.memoryUsage().external;
  for (let k = 0; k < 10; k++) {
    const sink = transactionsSink({ onReport: () => {} });
    sink.append([{ accessionNumber: `0000000000-25-00000${k}` }]);
    held.push(sink);
  }
  const mib = (Deno.memoryUsage().external - before) / 2 ** 20;
  assert.ok(mib < 20, `10 builders of one row hold ${mib.toFixed(1)} MiB of buffers`);
  assert.equal(held.length, 10);
});
