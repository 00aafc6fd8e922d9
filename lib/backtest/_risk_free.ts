/**
 * The risk-free rate of a portfolio backtest, as users pass it:
 *
 * - a number: percent a year (`4` is 4 %), turned into the monthly rate
 *   `(1 + 4/100)^(1/12) − 1`. A number above 0 and under 1 looks like a
 *   fraction (`0.04` for 4 %) and is refused with a did-you-mean; a rate
 *   truly under 1 % a year is passed as a string with a percent sign
 *   (`"0.04%"`), taken as written;
 * - a frame of monthly rates: a `month` column (Date or Datetime, `YYYY-MM`,
 *   or any form of the date grammar: `_month.ts`) and an `rf` column in percent a
 *   month (e.g. Fama-French's RF); every month of the backtest needs a rate;
 * - a Series of monthly rates in percent a month, one per month of the
 *   backtest in order (a Series has no months: its length must match).
 *
 * A frame with one month twice is refused (which rate is meant cannot be
 * told), and so are monthly rates averaging above 2 % a month in absolute
 * value (27 % a year: almost surely rates in percent a year).
 *
 * `stats.riskFree` is what was used, percent a year: the number given, or
 * for monthly rates their mean over the backtest's months compounded to a
 * year, `((1 + mean/100)^12 − 1) · 100`.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { mean } from "./_stats.ts";
import { rowsByMonth } from "./_month.ts";
import { showValue as describe } from "../shared/schema.ts";

/** What `riskFree` accepts (see the module doc). */
export type RiskFree = number | `${number}%` | pl.DataFrame | pl.Series;

/** The monthly rates of a backtest's months and the annual figure reported. */
export interface RiskFreeRates {
  /** Percent a month, one per month key (`YYYY-MM`). */
  monthly: number[];
  /** Percent a year (see the module doc). */
  annual: number;
}

function fail(message: string): never {
  throw new RangeError(`portfolioBacktest: riskFree ${message}`);
}

/**
 * Monthly rates (percent a month, one per month of the backtest: a rate that
 * is not a finite number is refused naming its month) and the annual figure
 * reported: their mean compounded to a year. A mean above 2 (27 % a year,
 * beyond any Treasury bill rate on record) is almost surely percent a year,
 * and is refused with the figure it would be; a mean below −2 likewise.
 */
function fromMonthly(rates: unknown[], months: readonly string[], what: string): RiskFreeRates {
  const bad = rates.findIndex((v) => typeof v !== "number" || !Number.isFinite(v));
  if (bad >= 0) {
    fail(`rf for ${months[bad]} is ${describe(rates[bad])}; give a number, percent a month`);
  }
  const monthly = rates as number[];
  const m = mean(monthly);
  const annual = ((1 + m / 100) ** 12 - 1) * 100;
  if (Math.abs(m) > MAX_MONTHLY) {
    fail(
      `${what} rates average ${+m.toPrecision(4)} % a month (${
        Math.round(annual)
      } % a year); monthly rates are percent a month: divide rates in percent a year by 12`,
    );
  }
  return { monthly, annual };
}

/** The largest mean monthly rate, in percent a month, taken as a monthly rate (see `fromMonthly`). */
const MAX_MONTHLY = 2;

/**
 * A rate written as percent with its sign, `"4%"` or `"0.5%"`: the number is
 * group 1. The CLI's `--risk-free` reads the same form.
 */
export const PERCENT_TEXT = /^\s*(-?\d+(?:\.\d+)?)\s*%\s*$/;

/**
 * The risk-free rate of each month of a backtest (`months` as `YYYY-MM`).
 *
 * @example
 * ```ts
 * import { riskFreeRates } from "./_risk_free.ts";
 * riskFreeRates(4, ["2024-01", "2024-02"]).monthly[0].toFixed(4); // "0.3274"
 * riskFreeRates("0.04%", ["2024-01"]).annual; // 0.04
 * ```
 */
export function riskFreeRates(rf: unknown, months: readonly string[]): RiskFreeRates {
  if (rf === undefined) return { monthly: months.map(() => 0), annual: 0 };
  let annual: number | null = null;
  if (typeof rf === "number") {
    if (!Number.isFinite(rf) || rf <= -100 || rf > 100) {
      fail(`${describe(rf)} is not allowed; it is percent a year, from above −100 to 100`);
    }
    if (rf > 0 && rf < 1) {
      fail(
        `${rf} looks like a fraction; riskFree is percent a year (did you mean ${+(rf * 100)
          .toPrecision(6)}?). For a rate under 1 % a year, pass "${rf}%"`,
      );
    }
    annual = rf;
  } else if (typeof rf === "string") {
    const m = PERCENT_TEXT.exec(rf);
    if (!m || +m[1] <= -100 || +m[1] > 100) {
      fail(
        `${describe(rf)} is not allowed; as a string it is percent a year with a % sign, e.g. "4%"`,
      );
    }
    annual = +m[1];
  }
  if (annual !== null) {
    const monthly = ((1 + annual / 100) ** (1 / 12) - 1) * 100;
    return { monthly: months.map(() => monthly), annual };
  }
  const obj = rf as { columns?: unknown; toArray?: unknown; name?: unknown };
  if (rf !== null && typeof rf === "object" && Array.isArray(obj.columns)) {
    const frame = rf as pl.DataFrame;
    const lacking = ["month", "rf"].filter((c) => !frame.columns.includes(c));
    if (lacking.length) {
      fail(
        `frame lacks ${
          lacking.map((c) => `"${c}"`).join(" and ")
        }; give "month" (a date or YYYY-MM) and "rf" (percent a month)`,
      );
    }
    const rowOf = rowsByMonth("riskFree", frame.getColumn("month").toArray());
    const vs = frame.getColumn("rf").toArray();
    const missing = months.filter((k) => !rowOf.has(k));
    if (missing.length) {
      const keys = [...rowOf.keys()].sort();
      fail(
        `has no rate for ${missing[0]}${
          missing.length > 1 ? ` and ${missing.length - 1} more of the backtest's months` : ""
        } (${months[0]} to ${months.at(-1)}); it covers ${
          keys.length ? `${keys[0]} to ${keys.at(-1)}` : "no month"
        }`,
      );
    }
    return fromMonthly(months.map((k) => vs[rowOf.get(k)!]), months, "frame");
  }
  if (rf !== null && typeof rf === "object" && typeof obj.toArray === "function") {
    const vs = (rf as pl.Series).toArray() as unknown[];
    if (vs.length !== months.length) {
      fail(
        `Series has ${vs.length} rates and no months; give one rate per month of the backtest (${months.length}, ${
          months[0]
        } to ${months.at(-1)}), or a frame with "month" and "rf"`,
      );
    }
    return fromMonthly(vs, months, "Series");
  }
  return fail(
    `${
      describe(rf)
    } is not allowed; give percent a year (4), a string ("0.04%"), a frame (month, rf) or a Series of monthly rates`,
  );
}
