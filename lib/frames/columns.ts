/**
 * The column check every frame-consuming function makes before it starts.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { checkColumns } from "../shared/wrong_input.ts";

/**
 * Throws an error naming `fn` and every column of `cols` the frame lacks,
 * with up to 3 close matches for each when at most 3 are lacking (never
 * the frame's whole column list). Helpers that can say what to pass use
 * `checkColumns` of lib/shared/wrong_input.ts with it.
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
  checkColumns(fn, df, cols);
}
