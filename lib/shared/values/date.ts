/**
 * The date grammar. Accepted forms (anything else is refused):
 *
 * - `"YYYY-MM-DD"`, calendar-checked (`2025-02-30` is refused): the canonical form.
 * - `"YYYYMMDD"` (ISO 8601 basic) and `"YYYY/MM/DD"`: year first, so the order is
 *   never in doubt; calendar-checked.
 * - A timestamp at midnight (`2025-01-02T00:00:00`, any zone or none, any
 *   fraction of zeros): the date as written. A date sent as the start of its
 *   day in some zone is still that day; any other time of day is refused,
 *   since which day it is depends on a zone the client cannot know.
 * - An epoch number (JSON number, or text of digits) at exactly UTC midnight,
 *   seconds or milliseconds by magnitude, with the cut-offs of the timestamp
 *   grammar (`timestamp.ts`): seconds from 10^8 up to 10^11, milliseconds
 *   from 10^11 up to 10^14. Not at UTC midnight: refused.
 * - `[year, month, day]`, a list of three integers (Jackson's default for
 *   `LocalDate`), calendar-checked.
 *
 * Refused: day-first or month-first text (`01/02/2025`: which is the month
 * is a guess), month names, two-digit years, numbers below 10^8 (`20250102`
 * as a number, `0`, `-1`: sentinels or a packed date, never an epoch of
 * market data), and a midnight instant in a zone other than the one written.
 *
 * A date reads as its day number: days since 1970-01-01 (what a Polars
 * `Date` holds); a typed row holds it as `YYYY-MM-DD`.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";
import { epochMs, timestampParts } from "./timestamp.ts";
import { DAY_MS, dayNumber, isoDay } from "./_calendar.ts";

export { isoDay };

const OTHER = /^(\d{4})(\/?)(\d{2})\2(\d{2})$/;

/** `YYYY-MM-DD` of a day number. */
export function dayText(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

function read(v: unknown, note: Note): number | typeof UNREADABLE {
  if (typeof v === "string") {
    const s = v.trim();
    let d = isoDay(s);
    if (d === d) {
      if (s !== v) note("text with blanks");
      return d;
    }
    const m = OTHER.exec(s);
    if (m) {
      d = dayNumber(+m[1], +m[3], +m[4]);
      if (d !== d) return UNREADABLE;
      note(m[2] ? "YYYY/MM/DD" : "YYYYMMDD");
      return d;
    }
    if (/^\d{9,}$/.test(s)) return fromEpoch(Number(s), note, " as text");
    const t = timestampParts(s);
    if (t && t.h === 0 && t.min === 0 && t.s === 0 && t.ms === 0) {
      d = dayNumber(t.y, t.m, t.d);
      if (d !== d) return UNREADABLE;
      note("midnight timestamp");
      return d;
    }
    return UNREADABLE;
  }
  if (typeof v === "number") return fromEpoch(v, note, "");
  if (
    Array.isArray(v) && v.length === 3 &&
    v.every((x) => typeof x === "number" && Number.isInteger(x))
  ) {
    const d = dayNumber(v[0], v[1], v[2]);
    if (d !== d) return UNREADABLE;
    note("[year, month, day]");
    return d;
  }
  return UNREADABLE;
}

function fromEpoch(n: number, note: Note, how: string): number | typeof UNREADABLE {
  let unit = "";
  const ms = epochMs(n, (u) => unit = u);
  if (ms === UNREADABLE || ms % DAY_MS !== 0) return UNREADABLE;
  note(unit + how);
  return ms / DAY_MS;
}

/** The date grammar (module doc). */
export const date: Grammar<number> = {
  type: "date",
  means: "a calendar day (a typed row holds `YYYY-MM-DD`)",
  forms: [
    "`YYYY-MM-DD` (canonical), calendar-checked",
    "`YYYYMMDD`, `YYYY/MM/DD`",
    "a timestamp at 00:00:00 (any zone or none): the date as written",
    "epoch seconds or milliseconds (number or digits) at exactly UTC midnight",
    "`[year, month, day]`",
  ],
  refused: [
    "non-calendar dates (`2025-02-30`)",
    "day- or month-first text (`01/02/2025`), month names",
    "a time of day other than midnight",
    "numbers below 10^8 (`20250102`, `0`, `-1`) or from 10^14",
  ],
  read,
  row: dayText,
};
