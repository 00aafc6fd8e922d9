/**
 * Days and months in a backtest's frames, read by the value grammar
 * (`shared/values/`): the trades' `transaction_date` (portfolio positions,
 * event-study month clusters) and the `month` column of a risk-free or a
 * factor frame all go through {@link readDay} / {@link readMonth}.
 *
 * Accepted (anything else is refused, with an error naming the column, the
 * row and the value):
 *
 * - a JS `Date` (what a Polars `Date` or `Datetime` column hands back): its
 *   UTC day;
 * - every form of the date grammar (`shared/values/date.ts`): `YYYY-MM-DD`
 *   calendar-checked, `YYYYMMDD`, `YYYY/MM/DD`, a timestamp at midnight,
 *   epoch seconds or milliseconds at UTC midnight, `[year, month, day]`;
 * - for a month only, `YYYY-MM` (month 01–12), as Fama-French files write
 *   it.
 *
 * Null, a missing value and blank text are no value (null).
 *
 * @module
 */
import { date, readValue, UNREADABLE } from "../shared/values/mod.ts";
import { describeValue } from "../shared/describe.ts";

/** A month as a number: `year · 12 + (month − 1)`. */
export type MonthIndex = number;

const DAY = 86_400_000;
const MONTH_TEXT = /^(\d{4})-(\d{2})$/;

/** What a day reader accepts, in words (for errors). */
export const DAY_FORMS = "a date (YYYY-MM-DD, a Date, or another form of the date grammar)";
/** What a month reader accepts, in words (for errors). */
export const MONTH_FORMS = "a date or a month (YYYY-MM, YYYY-MM-DD, a Date, …)";

/**
 * The day number (days since 1970-01-01) of `v`, null for no value, or
 * {@link UNREADABLE} (see the module doc).
 *
 * @example
 * ```ts
 * import { readDay } from "./_month.ts";
 * readDay("1970-01-02"); // 1
 * readDay(new Date(Date.UTC(1970, 0, 2))); // 1
 * ```
 */
export function readDay(v: unknown): number | null | typeof UNREADABLE {
  if (v instanceof Date) {
    const t = v.getTime();
    return t === t ? Math.floor(t / DAY) : UNREADABLE;
  }
  return readValue(date, v, () => {});
}

/**
 * The month of `v` as a {@link MonthIndex}, null for no value, or
 * {@link UNREADABLE}: a day (as {@link readDay}) or `YYYY-MM`.
 *
 * @example
 * ```ts
 * import { monthText, readMonth } from "./_month.ts";
 * monthText(readMonth("2024-02") as number); // "2024-02"
 * monthText(readMonth("2024-02-29") as number); // "2024-02"
 * ```
 */
export function readMonth(v: unknown): MonthIndex | null | typeof UNREADABLE {
  if (typeof v === "string") {
    const m = MONTH_TEXT.exec(v.trim());
    if (m) return +m[2] >= 1 && +m[2] <= 12 ? +m[1] * 12 + +m[2] - 1 : UNREADABLE;
  }
  const d = readDay(v);
  return d === null || d === UNREADABLE ? d : monthOfDay(d);
}

/** The {@link MonthIndex} of a day number. */
export function monthOfDay(day: number): MonthIndex {
  const t = new Date(day * DAY);
  return t.getUTCFullYear() * 12 + t.getUTCMonth();
}

/** `YYYY-MM` of a {@link MonthIndex}. */
export function monthText(m: MonthIndex): string {
  return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`;
}

/**
 * A value for an error: text shaped like a date (digits and date
 * separators, at most 40 characters) as written, so the error names it;
 * anything else described, never printed (`shared/describe.ts`).
 */
function shownValue(v: unknown): string {
  return typeof v === "string" && /^[0-9 :/.TZ+-]{1,40}$/.test(v)
    ? JSON.stringify(v)
    : describeValue(v);
}

/**
 * The error for a value of `column` (row `row`, 0-based) that does not
 * read: `fn: column <value> (row n) is not <forms>`.
 */
export function unreadable(
  fn: string,
  column: string,
  v: unknown,
  row: number,
  forms: string,
): RangeError {
  return new RangeError(`${fn}: ${column} ${shownValue(v)} (row ${row + 1}) is not ${forms}`);
}

/**
 * The day number of a trade's `transaction_date` (row `row`, 0-based), null
 * for no value; one that does not read is `fn`'s error naming it
 * ({@link unreadable}): what the portfolio's positions and the event study's
 * month clusters are read from.
 *
 * @example
 * ```ts
 * import { tradeDay } from "./_month.ts";
 * tradeDay("eventStudy", "1970-01-02", 0); // 1
 * ```
 */
export function tradeDay(fn: string, v: unknown, row: number): number | null {
  const d = readDay(v);
  if (d === UNREADABLE) throw unreadable(fn, "transaction_date", v, row, DAY_FORMS);
  return d;
}

/**
 * The row of each month of a frame's `month` column (a risk-free or a factor
 * frame), as `YYYY-MM` → row index; a row without a month is no month's.
 * A month that does not read is an error (`portfolioBacktest: <what> month
 * <value> (row n) is not …`), and so is one month twice (which row is meant
 * cannot be told).
 */
export function rowsByMonth(what: string, months: readonly unknown[]): Map<string, number> {
  const rowOf = new Map<string, number>();
  months.forEach((v, i) => {
    const m = readMonth(v);
    if (m === null) return;
    if (m === UNREADABLE) throw unreadable("portfolioBacktest", `${what} month`, v, i, MONTH_FORMS);
    const k = monthText(m);
    if (rowOf.has(k)) {
      throw new RangeError(
        `portfolioBacktest: ${what} has month ${k} twice (rows ${rowOf.get(k)! + 1} and ${i + 1})`,
      );
    }
    rowOf.set(k, i);
  });
  return rowOf;
}
