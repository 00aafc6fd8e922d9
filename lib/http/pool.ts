/**
 * A bounded-concurrency map that keeps input order and collects failures
 * instead of stopping at the first one.
 *
 * @module
 */

/** A failed item of {@link mapPool}. */
export interface PoolFailure<T> {
  /** Index in the input. */
  index: number;
  /** The input item. */
  item: T;
  /** What went wrong. */
  error: unknown;
}

/** Result of {@link mapPool}: results in input order (undefined where failed) and the failures. */
export interface PoolResult<T, R> {
  /** One slot per input item, in order; `undefined` where it failed. */
  results: (R | undefined)[];
  /** The failures, in input order. */
  failed: PoolFailure<T>[];
}

/**
 * Runs `fn` over `items` with at most `concurrency` calls in flight. Once
 * `stop` returns an error (a call group ended by a storm, see `retry.ts`),
 * the items not yet started fail with it without a call.
 *
 * @example
 * ```ts
 * import { mapPool } from "./pool.ts";
 * const { results } = await mapPool([1, 2, 3], 2, async (n) => n * 2);
 * console.log(results); // [2, 4, 6]
 * ```
 */
export async function mapPool<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
  onSettled?: (done: number, total: number) => void,
  stop?: () => unknown,
): Promise<PoolResult<T, R>> {
  const results: (R | undefined)[] = new Array(items.length);
  const failed: PoolFailure<T>[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        const stopped = stop?.();
        if (stopped !== undefined) throw stopped;
        results[i] = await fn(items[i], i);
      } catch (error) {
        failed.push({ index: i, item: items[i], error });
      }
      onSettled?.(++done, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  failed.sort((a, b) => a.index - b.index);
  return { results, failed };
}
