import assert from "node:assert/strict";
import { rowSink } from "../../mod.ts";
import { appendReleasing } from "../../lib/frames/list.ts";
import { releaseNative } from "../../lib/frames/_release.ts";

/** 80 MB of V8's heap (past the 64 MiB of growth after which a completed chunk collects). */
const grownHeap = (): number[] | null => new Array(10_000_000).fill(0);

// Guards the second half of the cause of `.frame()`'s memory growth: each
// native chunk leaves intermediate Polars objects whose native buffers are
// freed only when V8 collects them, and V8 (blind to native memory) waited.
// A completed chunk must run a collection at once: an unreachable object
// registered before it is finalized right after.
Deno.test("a completed native chunk runs a collection at once (intermediates freed)", async () => {
  const collected: string[] = [];
  const registry = new FinalizationRegistry<string>((tag) => collected.push(tag));
  const sink = rowSink<{ v: number }>(() => ({
    specs: [{ name: "v", type: "decimal" }],
    opts: { chunkRows: 4 },
  }));
  // large enough for V8's large-object space: only a full collection frees it, never one of the
  // frequent young-generation scavenges that any allocation in the 20 ms below may start
  (() => registry.register({ big: new Array(200_000).fill(0) }, "before-partial"))();
  assert.equal(await appendReleasing(sink, [{ v: 1 }, { v: 2 }]), false); // no chunk yet: no collection
  assert.equal(sink.chunks, 0);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(collected, []);
  assert.equal(await appendReleasing(sink, [{ v: 3 }, { v: 4 }, { v: 5 }]), true); // completes chunk 1
  assert.equal(sink.chunks, 1);
  for (let i = 0; i < 20 && collected.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.deepEqual(collected, ["before-partial"]);
  assert.equal(sink.finish().height, 5);
});

Deno.test("releaseNative runs under Deno's default flags", () => {
  assert.equal(releaseNative(), true);
});

Deno.test("a chunk's build and its collection are two pauses: a timer due during the build runs between them", async () => {
  const collected: string[] = [];
  const registry = new FinalizationRegistry<string>((tag) => collected.push(tag));
  const sink = rowSink<{ v: number }>(() => ({
    specs: [{ name: "v", type: "decimal" }],
    opts: { chunkRows: 2 },
  }));
  (() => registry.register({ big: new Array(1000).fill(0) }, "garbage"))();
  // an answer that arrived while the chunk was built: its callback is due at once
  let seenByTimer: string[] | undefined;
  setTimeout(() => seenByTimer = [...collected], 0);
  // V8's heap grown past the slack since the last collection: an 80 MB array, dead once appended
  const held = { ballast: grownHeap() };
  const appended = appendReleasing(sink, [{ v: 1 }, { v: 2 }]);
  held.ballast = null;
  assert.equal(await appended, true);
  for (let i = 0; i < 20 && collected.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.deepEqual(seenByTimer, [], "the timer ran before the collection");
  assert.deepEqual(collected, ["garbage"]);
});

Deno.test("a chunk completed before V8's heap has grown 64 MiB since the last collection runs none", async () => {
  const collected: string[] = [];
  const registry = new FinalizationRegistry<string>((tag) => collected.push(tag));
  const sink = rowSink<{ v: number }>(() => ({
    specs: [{ name: "v", type: "decimal" }],
    opts: { chunkRows: 2 },
  }));
  // a collection now (the heap grown past the slack), then garbage only a full collection frees
  const held = { ballast: grownHeap() };
  const first = appendReleasing(sink, [{ v: 1 }, { v: 2 }]);
  held.ballast = null;
  assert.equal(await first, true);
  (() => registry.register({ big: new Array(200_000).fill(0) }, "after"))();
  assert.equal(await appendReleasing(sink, [{ v: 3 }, { v: 4 }]), true); // chunk 2: no collection
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(collected, []);
  assert.equal(sink.finish().height, 4);
});
