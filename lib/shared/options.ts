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
 * - {@link refuse}: the error itself, for checks of other shapes.
 *
 * @module
 */
import { didYouMean } from "./suggest.ts";

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
    `${fn}: ${name} ${JSON.stringify(value)} is not allowed; allowed: ${allowed.join(", ")}${
      didYouMean(value, allowed)
    }`,
  );
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
