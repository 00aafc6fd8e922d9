/**
 * Calendar arithmetic shared by the date and timestamp grammars: digits
 * read by hand and calendar checks (proleptic Gregorian, years 100–9999).
 *
 * @module
 */

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar-checked year, month (1–12) and day, or NaN. */
export function dayNumber(y: number, m: number, d: number): number {
  // NaN (a non-digit) fails every comparison; Date.UTC maps years 0–99 to
  // 1900–1999; past 9999 a day has no `YYYY-MM-DD`
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= monthDays(y, m) && y >= 100 && y <= 9999)) return NaN;
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

/**
 * The day number of a canonical `YYYY-MM-DD` date, calendar-checked, or NaN:
 * the builders' fast path (no note, no other form).
 *
 * @example
 * ```ts
 * import { isoDay } from "./date.ts";
 * isoDay("1970-01-02"); // 1
 * isoDay("2025-02-30"); // NaN
 * ```
 */
export function isoDay(s: string): number {
  return s.length === 10 ? leadingDay(s) : NaN;
}

/** The day number of the `YYYY-MM-DD` that `s` starts with, calendar-checked, or NaN. */
export function leadingDay(s: string): number {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  return dayNumber(digits(s, 0, 4), digits(s, 5, 2), digits(s, 8, 2));
}

/** The number written by `n` ASCII digits of `s` from `at`, or NaN. */
export function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/** Days in month `m` (1–12) of year `y` (proleptic Gregorian). */
export function monthDays(y: number, m: number): number {
  return m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : m === 4 ||
      m === 6 || m === 9 || m === 11
    ? 30
    : 31;
}
