/**
 * Day arithmetic for the emulator: days are integers counted from 1970-01-01
 * (UTC), and US Eastern Time conversions for filing dates.
 *
 * @module
 */
import { newYorkMidnight } from "../shared/values/mod.ts";

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

/**
 * The UTC epoch milliseconds of an Eastern wall-clock time on a day, from
 * 02:00 on (the hour clocks change at): New York's offset then is the one
 * at the midnight that ends the day (`newYorkMidnight`, the tz database).
 */
export function easternToUtcMs(day: number, minutesOfDay: number): number {
  return newYorkMidnight(day + 1) - DAY_MS + minutesOfDay * 60_000;
}

/** The Eastern calendar day of a UTC instant: its UTC day, or the one before until New York's midnight. */
export function easternDayOf(utcMs: number): number {
  const day = Math.floor(utcMs / DAY_MS);
  return utcMs < newYorkMidnight(day) ? day - 1 : day;
}
