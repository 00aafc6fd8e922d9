/**
 * Releasing the native memory of dead Polars objects while a frame is built.
 *
 * Every nodejs-polars `Series` or `DataFrame` is a small JS object that owns
 * native buffers, freed only when V8 collects the object. V8 does not see
 * the native size, so it collects when its own heap asks for it, not when
 * native memory grows. Building one chunk of a frame leaves the intermediate
 * series behind (the uncast `Float64` columns: about 9 MB per 8,192
 * transaction rows), and at 100k rows those waited-for collections were
 * about 60 MB of peak RSS. {@link releaseNative} runs one full collection
 * right after a chunk is built, so its intermediates are freed at once; it
 * costs about 20 ms per 8,192 rows.
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
