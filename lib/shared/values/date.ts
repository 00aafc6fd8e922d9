/**
 * The date grammar. Accepted forms (anything else is refused):
 *
 * - `"YYYY-MM-DD"`, calendar-checked (`2025-02-30` is refused): the canonical form.
 * - `"YYYYMMDD"` (ISO 8601 basic) and `"YYYY/MM/DD"`: year first, so the order is
 *   never in doubt; calendar-checked.
 * - A timestamp text at midnight as written (`2025-01-02T00:00:00`, any
 *   zone or none, any fraction of zeros): the date as written. A date sent
 *   as the start of its day in some zone is still that day.
 * - An instant (a timestamp text with a zone, or an epoch number) at
 *   midnight in New York (America/New_York, the market's zone:
 *   `2024-03-05T05:00:00.000Z`, `2024-07-05T04:00:00Z`, across every change
 *   of its offset): that New York day.
 * - An instant at UTC midnight: that UTC day. An epoch number (JSON number,
 *   or text of digits) is whole seconds or milliseconds by magnitude, with
 *   the cut-offs of the timestamp grammar (`timestamp.ts`): seconds from
 *   10^8 up to 10^11, milliseconds from 10^11 up to 10^14.
 * - `[year, month, day]`, a list of three integers (Jackson's default for
 *   `LocalDate`), calendar-checked.
 *
 * Every form is of years 100–9999 (`[12345, 6, 7]` and `[10000, 1, 1]` are
 * refused: no `YYYY-MM-DD` writes them).
 *
 * Refused: any other instant (which day it is depends on a zone the
 * client cannot know), a time of day other than midnight as written in a
 * text without a zone, a fraction of a second that is not zero
 * (`2024-01-01T00:00:00.0000001Z`, epoch `1704067200.0004`: not exactly
 * midnight), day-first or month-first text (`01/02/2025`: which is the
 * month is a guess), month names, two-digit years, numbers below 10^8
 * (`20250102` as a number, `0`, `-1`: sentinels or a packed date, never an
 * epoch of market data).
 *
 * A date reads as its day number: days since 1970-01-01 (what a Polars
 * `Date` holds); a typed row holds it as `YYYY-MM-DD`.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";
import { epochMs, msOf, timestampParts } from "./timestamp.ts";
import { DAY_MS, dayNumber, isoDay } from "./_calendar.ts";

export { isoDay };

const OTHER = /^(\d{4})(\/?)(\d{2})\2(\d{2})$/;
const HOUR_MS = 3_600_000;

/** `YYYY-MM-DD` of a day number. */
export function dayText(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

function read(v: unknown, note: Note): number | typeof UNREADABLE {
  if (typeof v === "string") {
    const s = v.trim();
    const d = isoDay(s);
    if (d === d) {
      if (s !== v) note("text with blanks");
      return d;
    }
    const m = OTHER.exec(s);
    if (m) return noted(dayNumber(+m[1], +m[3], +m[4]), note, m[2] ? "YYYY/MM/DD" : "YYYYMMDD");
    if (/^\d{9,}$/.test(s)) return fromEpoch(Number(s), note, " as text");
    const t = timestampParts(s);
    if (t === null || t.cut) return UNREADABLE;
    if (t.h === 0 && t.min === 0 && t.s === 0 && t.ms === 0) {
      return noted(dayNumber(t.y, t.m, t.d), note, "midnight timestamp");
    }
    return t.offset === null ? UNREADABLE : fromInstant(msOf(t), note, "timestamp");
  }
  if (typeof v === "number") return fromEpoch(v, note, "");
  if (
    Array.isArray(v) && v.length === 3 &&
    v.every((x) => typeof x === "number" && Number.isInteger(x))
  ) {
    return noted(dayNumber(v[0], v[1], v[2]), note, "[year, month, day]");
  }
  return UNREADABLE;
}

/** A day number (NaN: not a calendar day, unreadable), noted as read from `form`. */
function noted(d: number, note: Note, form: string): number | typeof UNREADABLE {
  if (d !== d) return UNREADABLE;
  note(form);
  return d;
}

/** The day of a whole epoch number at UTC or New York midnight (module doc). */
function fromEpoch(n: number, note: Note, how: string): number | typeof UNREADABLE {
  let unit = "";
  const ms = Number.isInteger(n) ? epochMs(n, (u) => unit = u) : UNREADABLE;
  return ms === UNREADABLE ? UNREADABLE : fromInstant(ms, note, unit + how);
}

/** The day of an instant at UTC midnight or at New York midnight, else {@link UNREADABLE}. */
function fromInstant(ms: number, note: Note, form: string): number | typeof UNREADABLE {
  const r = ((ms % DAY_MS) + DAY_MS) % DAY_MS;
  const day = (ms - r) / DAY_MS;
  const t = new Date(ms - r);
  // years 100–9999 only, as every other form
  if (dayNumber(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()) !== day) return UNREADABLE;
  // New York is 5 hours behind UTC in winter, 4 in summer (and in 1942–45)
  const where = r === 0
    ? "UTC"
    : (r === 5 * HOUR_MS || r === 4 * HOUR_MS) && newYorkOffsetHours(day) === -r / HOUR_MS
    ? "New York"
    : undefined;
  if (where === undefined) return UNREADABLE;
  note(`${form} at ${where} midnight`);
  return day;
}

/**
 * The instant (ms) of New York midnight starting day number `day` (what a
 * server in the market's zone sends for a date as an instant).
 *
 * @example
 * ```ts
 * import { newYorkMidnight } from "./date.ts";
 * new Date(newYorkMidnight(19787)).toISOString(); // "2024-03-05T05:00:00.000Z"
 * ```
 */
export function newYorkMidnight(day: number): number {
  return day * DAY_MS - newYorkOffsetHours(day) * HOUR_MS;
}

/** New York's offset from UTC at its midnight starting `day`, in hours (cached per day). */
const offsets = new Map<number, number>();
let newYork: Intl.DateTimeFormat | undefined;
function newYorkOffsetHours(day: number): number {
  let h = offsets.get(day);
  if (h === undefined) {
    newYork ??= new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      hourCycle: "h23",
      hour: "2-digit",
      minute: "2-digit",
    });
    // the local time at 04:00 and 05:00 UTC of that day: which of them is midnight
    h = newYork.format(day * DAY_MS + 5 * HOUR_MS) === "00:00"
      ? -5
      : newYork.format(day * DAY_MS + 4 * HOUR_MS) === "00:00"
      ? -4
      : NaN;
    if (offsets.size >= 100_000) offsets.clear();
    offsets.set(day, h);
  }
  return h;
}

/** The date grammar (module doc). */
export const date: Grammar<number> = {
  type: "date",
  forms: [
    "`YYYY-MM-DD` (canonical), calendar-checked",
    "`YYYYMMDD`, `YYYY/MM/DD`",
    "a timestamp at 00:00:00 as written (any zone or none): the date as written",
    "an instant (with a zone, or epoch seconds or milliseconds) at New York midnight: that day",
    "an instant at UTC midnight: that UTC day",
    "`[year, month, day]`",
  ],
  refused: [
    "non-calendar dates (`2025-02-30`), years outside 100–9999 (`[12345, 6, 7]`)",
    "day- or month-first text (`01/02/2025`), month names",
    "any other time of day, fractions of a second that are not zero",
    "numbers below 10^8 (`20250102`, `0`, `-1`) or from 10^14",
  ],
  read,
  row: dayText,
};
