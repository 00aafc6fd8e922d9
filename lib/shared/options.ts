/**
 * Option checks shared by the library's functions, so that every bad option
 * is refused the same way: a `RangeError` that names the function, the
 * option, the value given, what is allowed, and the close matches
 * (`eventStudy: cluster "two_way" is not allowed; allowed: two-way, month,
 * issuer, none (did you mean "two-way"?)`).
 *
 * - {@link choice}: one of a list, or the default when not given
 *   (`undefined` or `null`);
 * - {@link wholeNumber}: an integer at least a minimum, or the default;
 * - {@link refuse}: the error itself, for checks of other shapes;
 * - {@link intOption}: an integer from a minimum to a maximum, with the
 *   error its caller makes (a client's `retryBudgetMs`, `query()`'s
 *   `timeoutMs`, `sync`'s `concurrency`).
 *
 * The value is shown as it was given (`Infinity`, `NaN`, `"5"`; never
 * JSON's `null` for a number JSON cannot write).
 *
 * @module
 */
import { didYouMean } from "./suggest.ts";
import { showValue } from "./schema.ts";

/**
 * Throws the one error of a refused option: `fn: name value is not allowed;
 * allowed: …` with close matches of a text value.
 *
 * @example
 * ```ts
 * import { refuse } from "./options.ts";
 * try {
 *   refuse("portfolioBacktest", "costBps", -1, ["a number from 0 to 10000"]);
 * } catch (e) {
 *   console.log((e as Error).message); // portfolioBacktest: costBps -1 is not allowed; allowed: …
 * }
 * ```
 */
export function refuse(
  fn: string,
  name: string,
  value: unknown,
  allowed: readonly string[],
): never {
  throw new RangeError(
    `${fn}: ${optionProblem(name, value, allowed.join(", "))}${didYouMean(value, allowed)}`,
  );
}

/**
 * `name value is not allowed; allowed: …`, the value shown as given.
 *
 * @example
 * ```ts
 * import { optionProblem } from "./options.ts";
 * optionProblem("retryBudgetMs", Infinity, "an integer from 0 to 3600000");
 * // "retryBudgetMs Infinity is not allowed; allowed: an integer from 0 to 3600000"
 * ```
 */
export function optionProblem(name: string, value: unknown, allowed: string): string {
  return `${name} ${showValue(value)} is not allowed; allowed: ${allowed}`;
}

/**
 * `value` when it is one of `allowed`, `fallback` when it is not given
 * (`undefined` or `null`); anything else is refused ({@link refuse}).
 *
 * @example
 * ```ts
 * import { choice } from "./options.ts";
 * choice("eventStudy", "entry", undefined, ["trade", "filing"], "trade"); // "trade"
 * choice("eventStudy", "entry", "filing", ["trade", "filing"], "trade"); // "filing"
 * ```
 */
export function choice<T extends string>(
  fn: string,
  name: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined || value === null) return fallback;
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  return refuse(fn, name, value, allowed);
}

/**
 * `value` when it is an integer of at least `min`, `fallback` when it is not
 * given; anything else is refused ({@link refuse}).
 *
 * @example
 * ```ts
 * import { wholeNumber } from "./options.ts";
 * wholeNumber("eventStudy", "minN", undefined, 2, 20); // 20
 * ```
 */
export function wholeNumber(
  fn: string,
  name: string,
  value: unknown,
  min: number,
  fallback: number,
): number {
  if (value === undefined || value === null) return fallback;
  if (Number.isInteger(value) && (value as number) >= min) return value as number;
  return refuse(fn, name, value, [`an integer >= ${min}`]);
}

/**
 * `value` when it is an integer from `lo` to `hi`; otherwise the error
 * `fail` makes of {@link optionProblem}'s message (a `TypeError` by default).
 *
 * @example
 * ```ts
 * import { intOption } from "./options.ts";
 * intOption("maxRetries", 4, 0, 20); // 4
 * try {
 *   intOption("retryBudgetMs", Infinity, 0, 3_600_000);
 * } catch (e) {
 *   console.log((e as Error).message); // retryBudgetMs Infinity is not allowed; …
 * }
 * ```
 */
export function intOption(
  name: string,
  value: unknown,
  lo: number,
  hi: number,
  fail: (message: string) => Error = (m) => new TypeError(m),
): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= lo && value <= hi) {
    return value;
  }
  const allowed = hi === Number.MAX_SAFE_INTEGER
    ? `an integer >= ${lo}`
    : `an integer from ${lo} to ${hi}`;
  throw fail(optionProblem(name, value, allowed));
}
