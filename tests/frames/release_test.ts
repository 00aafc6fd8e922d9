import assert from "node:assert/strict";
import { rowSink } from "../../mod.ts";
import { appendReleasing, RELEASE_BYTES } from "../../lib/frames/list.ts";
import type { RowSink } from "../../lib/frames/build.ts";
import { FrameBuilder } from "../../lib/frames/build.ts";
import { releaseNative } from "../../lib/frames/_release.ts";

// Guards the second half of the cause of `.frame()`'s memory growth: each
// native chunk leaves intermediate Polars objects whose native buffers are
// freed only when V8 collects them, and V8 (blind to native memory) waited.
// Once the chunks have left RELEASE_BYTES of intermediates (every chunk, for
// a sink that does not count them), a collection must run at once: an
// unreachable object registered before it is finalized right after.
Deno.test("a sink that does not count its intermediates is collected at each completed chunk", async () => {
  const collected: string[] = [];
  const registry = new FinalizationRegistry<string>((tag) => collected.push(tag));
  const inner = rowSink<{ v: number }>(() => ({
    specs: [{ name: "v", dtype: "f64" }],
    opts: { chunkRows: 4 },
  }));
  // only `chunks`, as a sink of its own making would have
  const sink: RowSink<{ v: number }> = {
    append: (rows) => inner.append(rows),
    finish: () => inner.finish(),
    get chunks() {
      return inner.chunks;
    },
  };
  (() => registry.register({ big: new Array(1000).fill(0) }, "before-partial"))();
  appendReleasing(sink, [{ v: 1 }, { v: 2 }]); // no chunk yet: no collection
  assert.equal(sink.chunks, 0);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(collected, []);
  assert.equal(appendReleasing(sink, [{ v: 3 }, { v: 4 }, { v: 5 }]), true); // completes chunk 1
  assert.equal(sink.chunks, 1);
  await settle(collected);
  assert.deepEqual(collected, ["before-partial"]);
  assert.equal(sink.finish().height, 5);
});

Deno.test("releaseNative runs under Deno's default flags", () => {
  assert.equal(releaseNative(), true);
});

/** Waits until `collected` has an entry (finalizers run on a later turn), at most 200 ms. */
async function settle(collected: string[]): Promise<void> {
  for (let i = 0; i < 20 && collected.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("a sink that counts its intermediates is collected once they reach RELEASE_BYTES, not every chunk", async () => {
  // a sink whose every append completes one chunk leaving `perChunk` bytes of intermediates
  const perChunk = Math.ceil(RELEASE_BYTES / 3) + 1;
  const state = { chunks: 0, bytes: 0 };
  const sink: RowSink<number> = {
    append: () => void (state.chunks++, state.bytes += perChunk),
    finish: () => {
      throw new Error("not used");
    },
    get chunks() {
      return state.chunks;
    },
    get intermediateBytes() {
      return state.bytes;
    },
  };
  const collected: string[] = [];
  const registry = new FinalizationRegistry<string>((tag) => collected.push(tag));
  const released: boolean[] = [];
  for (let round = 0; round < 2; round++) {
    (() => registry.register({ big: new Array(1000).fill(0) }, `round ${round}`))();
    released.push(appendReleasing(sink, [1]), appendReleasing(sink, [1]));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(collected, [], "below RELEASE_BYTES: no collection");
    released.push(appendReleasing(sink, [1])); // 3 chunks: past RELEASE_BYTES
    await settle(collected);
    assert.deepEqual(collected, [`round ${round}`]);
    collected.length = 0;
  }
  assert.deepEqual(released, [false, false, true, false, false, true]);
});

Deno.test("FrameBuilder counts 8 bytes per numeric value of each chunk as its intermediates", () => {
  const b = new FrameBuilder([
    { name: "x", dtype: "f64" },
    { name: "d", dtype: "date" },
    { name: "s", dtype: "utf8" },
  ], { chunkRows: 3 });
  b.append([{ x: 1, d: "2025-01-01", s: "a" }, { x: null, d: null, s: null }]);
  assert.equal(b.intermediateBytes, 0);
  b.append([{ x: 2, d: "2025-01-02", s: "b" }, { x: 3, d: "2025-01-03", s: "c" }]);
  assert.equal(b.chunks, 1);
  assert.equal(b.intermediateBytes, 2 * 3 * 8);
  assert.equal(b.finish().height, 4);
  assert.equal(b.intermediateBytes, 2 * 4 * 8);
});
