/**
 * What "buy" and "sell" mean, in one place for the event study, the
 * portfolio backtest and the charts.
 *
 * - `"tradeClass"` (the default everywhere): a buy is an open-market
 *   purchase (Form 4 code `P`), a sell a sale (code `S`, open-market or under
 *   a 10b5-1 plan); every other code (awards `A`, option exercises `M`/`X`,
 *   tax withholdings `F`, gifts `G`, …) is neither, and is left out and
 *   counted wherever a side is needed.
 * - `"acquiredDisposed"`: the acquired (`A`) / disposed (`D`) code, which
 *   counts option exercises and awards as acquisitions. Charts label these
 *   "Acquired" and "Disposed", never "Buy" and "Sell".
 *
 * @module
 */
import { refuse } from "../shared/options.ts";
import { describeValue } from "../shared/describe.ts";
import { code, IGNORE, readValue, UNREADABLE } from "../shared/values/mod.ts";

/**
 * The meanings of buy and sell: `"tradeClass"` (default: code `P` buys,
 * code `S` sells, every other code neither) or `"acquiredDisposed"` (the
 * acquired `A` / disposed `D` code, which counts option exercises and awards
 * as acquisitions).
 */
export const SIDES = ["tradeClass", "acquiredDisposed"] as const;
/** A meaning of buy and sell (see {@link SIDES}). */
export type Sides = typeof SIDES[number];

/**
 * The side of one row: 1 (buy), −1 (sell) or 0 (neither), under `sides`.
 *
 * @example
 * ```ts
 * import { sideOf } from "./side.ts";
 * sideOf({ code: "M", acquired_disposed_code: "A" }); // 0: an option exercise is not a buy
 * sideOf({ code: "M", acquired_disposed_code: "A" }, "acquiredDisposed"); // 1
 * ```
 */
export function sideOf(row: Record<string, unknown>, sides: Sides = "tradeClass"): 1 | -1 | 0 {
  const column = sideColumn(sides);
  const v = readValue(code, row[column], IGNORE);
  if (v === UNREADABLE) {
    throw new RangeError(`sideOf: ${column} is ${describeValue(row[column])}, not a code`);
  }
  const [buy, sell] = SIDE_CODES[sides];
  return v === buy ? 1 : v === sell ? -1 : 0;
}

/** The codes of a buy and of a sell under each meaning of the sides. */
const SIDE_CODES: Record<Sides, readonly [string, string]> = {
  tradeClass: ["P", "S"],
  acquiredDisposed: ["A", "D"],
};

/**
 * The column {@link sideOf} reads under `sides`.
 *
 * @example
 * ```ts
 * import { sideColumn } from "./side.ts";
 * sideColumn("tradeClass"); // "code"
 * ```
 */
export function sideColumn(sides: Sides): string {
  return sides === "acquiredDisposed" ? "acquired_disposed_code" : "code";
}

/**
 * Display labels of the two sides under `sides`: `["Buy", "Sell"]` for
 * trade classes, `["Acquired", "Disposed"]` for the acquired/disposed code.
 *
 * @example
 * ```ts
 * import { sideLabels } from "./side.ts";
 * sideLabels("acquiredDisposed"); // ["Acquired", "Disposed"]
 * ```
 */
export function sideLabels(sides: Sides = "tradeClass"): readonly [string, string] {
  return sides === "acquiredDisposed" ? ["Acquired", "Disposed"] : ["Buy", "Sell"];
}

/**
 * What the sides are and how many trades had neither, for a chart's
 * subtitle or a notice.
 *
 * @example
 * ```ts
 * import { sideNote } from "./side.ts";
 * sideNote("tradeClass", 3); // "Buy: open-market purchase (code P); sell: sale (code S); 3 trades of other codes (awards, exercises, gifts, …) left out"
 * ```
 */
export function sideNote(sides: Sides, leftOut: number): string {
  const s = leftOut === 1 ? "" : "s";
  return sides === "acquiredDisposed"
    ? `By the acquired (A) / disposed (D) code, option exercises and awards included${
      leftOut ? `; ${leftOut} trade${s} without an A/D code left out` : ""
    }`
    : `Buy: open-market purchase (code P); sell: sale (code S)${
      leftOut ? `; ${leftOut} trade${s} of other codes (awards, exercises, gifts, …) left out` : ""
    }`;
}

/**
 * Checks a `sides` option: throws naming the function, the value and the
 * allowed values (with a close match on a typo).
 *
 * @example
 * ```ts
 * import { checkSides } from "./side.ts";
 * checkSides("tradeTimeline", "tradeClass"); // "tradeClass"
 * ```
 */
export function checkSides(fn: string, value: unknown): Sides {
  return (SIDES as readonly unknown[]).includes(value)
    ? value as Sides
    : refuse(fn, "sides", value, SIDES);
}
