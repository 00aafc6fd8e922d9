/**
 * The column check every frame-consuming function makes before it starts.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { didYouMean } from "../shared/suggest.ts";

/**
 * Throws an error naming `fn`, every column of `cols` the frame lacks, and
 * up to 8 close matches for each (never the frame's whole column list).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { requireColumns } from "./columns.ts";
 * try {
 *   requireColumns("myChart", pl.DataFrame({ a: [1], ab: [2] }), ["a", "b"]);
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // myChart: the frame lacks column "b" (did you mean "ab"?); it has 2 columns
 * }
 * ```
 */
export function requireColumns(fn: string, df: pl.DataFrame, cols: readonly string[]): void {
  const have = new Set(df.columns);
  const missing = cols.filter((c) => !have.has(c));
  if (missing.length) {
    throw new Error(
      `${fn}: the frame lacks column ${
        missing.map((c) => JSON.stringify(c) + didYouMean(c, df.columns)).join(", ")
      }; it has ${df.width} columns`,
    );
  }
}
