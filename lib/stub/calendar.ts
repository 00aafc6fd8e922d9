/**
 * Day arithmetic for the emulator: days are integers counted from 1970-01-01
 * (UTC), and US Eastern Time conversions for filing dates.
 *
 * @module
 */

const DAY_MS = 86_400_000;

/** Day number of a `YYYY-MM-DD` string. */
export function dayOf(iso: string): number {
  return Math.round(Date.parse(iso.slice(0, 10) + "T00:00:00Z") / DAY_MS);
}

/** `YYYY-MM-DD` of a day number. */
export function isoOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Weekday of a day number, 0 = Sunday. */
export function weekday(day: number): number {
  return (day + 4) % 7;
}

/** Whether a US Eastern date-time of that day is in daylight saving time (2007+ rules). */
function easternDst(day: number): boolean {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const secondSundayMarch = nthSunday(y, 2, 2);
  const firstSundayNov = nthSunday(y, 10, 1);
  return day >= secondSundayMarch && day < firstSundayNov;
}

function nthSunday(year: number, month: number, n: number): number {
  const first = Math.round(Date.UTC(year, month, 1) / DAY_MS);
  return first + ((7 - weekday(first)) % 7) + 7 * (n - 1);
}

/** The UTC epoch milliseconds of an Eastern wall-clock time on a day. */
export function easternToUtcMs(day: number, minutesOfDay: number): number {
  const offsetHours = easternDst(day) ? 4 : 5;
  return day * DAY_MS + (minutesOfDay + offsetHours * 60) * 60_000;
}

/** The Eastern calendar day of a UTC instant. */
export function easternDayOf(utcMs: number): number {
  const guess = Math.floor((utcMs - 5 * 3_600_000) / DAY_MS);
  const offset = easternDst(guess) ? 4 : 5;
  return Math.floor((utcMs - offset * 3_600_000) / DAY_MS);
}
