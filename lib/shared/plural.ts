/**
 * A count with its noun, singular for 1: `plural(1, "month")` is
 * "1 month", `plural(23, "month")` "23 months".
 *
 * @example
 * ```ts
 * import { plural } from "./plural.ts";
 * plural(1, "month"); // "1 month"
 * plural(3, "calendar month"); // "3 calendar months"
 * ```
 *
 * @module
 */

/** `n` and the noun, in the plural unless `n` is 1 (`many` defaults to `one` + "s"). */
export function plural(n: number, one: string, many: string = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}
