/**
 * Releasing memory while a frame is built: native memory of dead Polars
 * objects, and the pages parsed while a chunk filled.
 *
 * Every nodejs-polars `Series` or `DataFrame` is a small JS object that owns
 * native buffers, freed only when V8 collects the object. V8 does not see
 * the native size, so it collects when its own heap asks for it, not when
 * native memory grows. A chunk of a frame is built in one call and leaves
 * no intermediate Polars object behind (`_arrow.ts`), but the pages read
 * while it filled (rows held in order behind a slower window, promoted to
 * V8's old generation) are garbage that V8 collects only after growing its
 * heap well past what the pull holds. A completed chunk runs one full
 * collection when V8's heap has grown by 64 MiB since the last one
 * ({@link releaseNativeIfGrown} of `heapTotal`): a collection costs time in
 * proportion to the live heap, during which no request goes out, and one
 * after every 8,192 rows took about a sixth of a 20k pull's CPU time.
 *
 * A collected object's native buffers are freed by its finalizer, and
 * Deno runs N-API finalizers only when the event loop turns, not inside
 * the collection (`bench/release_bench.ts`: six synchronous `filter`s of a
 * 20,000 × 174 frame with a collection after each grew RSS by about 58 MB,
 * and by under 10 MB with an event-loop turn after each collection). In async code use
 * {@link releaseNativeNow}, which waits for that turn.
 *
 * The collection function is obtained once through `node:v8` and `node:vm`
 * (the `--expose-gc` flag is set for one new context and cleared again, so
 * no `gc` global appears anywhere else). Where that is not possible,
 * {@link releaseNative} does nothing.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    v8.setFlagsFromString("--expose-gc");
    const fn = vm.runInNewContext("gc");
    collect = typeof fn === "function" ? fn as () => void : null;
  } catch {
    collect = null;
  } finally {
    try {
      v8.setFlagsFromString("--no-expose-gc");
    } catch {
      // nothing to undo
    }
  }
  return collect;
}

/**
 * Runs one full V8 collection, so that dead Polars objects free their
 * native buffers now; returns false when no collection could be run.
 *
 * @example
 * ```ts
 * import { releaseNative } from "./_release.ts";
 * console.log(typeof releaseNative()); // "boolean"
 * ```
 */
export function releaseNative(): boolean {
  const fn = collector();
  if (!fn) return false;
  fn();
  return true;
}

/**
 * {@link releaseNative}, then one turn of the event loop, so the finalizers
 * of what was collected run and the native buffers are freed before this
 * resolves (see the module doc).
 *
 * @example
 * ```ts
 * import { releaseNativeNow } from "./_release.ts";
 * console.log(typeof await releaseNativeNow()); // "boolean"
 * ```
 */
export async function releaseNativeNow(): Promise<boolean> {
  const done = releaseNative();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

/**
 * RSS growth, bytes, after which {@link releaseNativeIfGrown} collects
 * (32 MiB). A sync's peak is about the RSS after a collection plus this
 * slack: over the 10× world (bench/sync_bench.ts big) 32 MiB rather than
 * 64 took the peak from 321-329 to 280-282 MiB (a collection every month
 * or two instead of every two or three).
 */
export const NATIVE_SLACK = 32 * 2 ** 20;
/**
 * Growth after which {@link releaseNativeIfGrown} collects, by measure: the
 * RSS {@link NATIVE_SLACK}; V8's heap (`heapTotal`, what a frame's chunks
 * check) 64 MiB. An 80,000-row search `.frame()` at `parallel: 8` collected
 * after 6 of its 10 chunks, and peaked at 389 MiB against 339-357 with a
 * collection after each chunk and 470 with none (client CPU 5.9 s against
 * 6.9 and 5.2-5.6; loopback emulator, 100 ms, load 6-8).
 */
const SLACK = { rss: NATIVE_SLACK, heapTotal: 2 * NATIVE_SLACK };
/** The measures after the last collection (none yet: the first call collects). */
let after = { rss: -Infinity, heapTotal: -Infinity };

/**
 * {@link releaseNativeNow} when the process's RSS (or V8's heap, `of`) has
 * grown by more than its slack ({@link NATIVE_SLACK} for the RSS) since the
 * last time this collected, or when it never has: for loops that make a
 * frame per step (sync's months) and for a frame's chunks
 * (`appendReleasing`). A full collection with a large heap is too slow to
 * run after every month of a 60-month sync, while native garbage left to V8
 * grows that sync's peak by hundreds of MB.
 *
 * @example
 * ```ts
 * import { releaseNativeIfGrown } from "./_release.ts";
 * console.log(typeof await releaseNativeIfGrown()); // "boolean"
 * ```
 */
export async function releaseNativeIfGrown(of: "rss" | "heapTotal" = "rss"): Promise<boolean> {
  if (Deno.memoryUsage()[of] - after[of] <= SLACK[of]) return false;
  await releaseNativeNow();
  after = Deno.memoryUsage();
  return true;
}
