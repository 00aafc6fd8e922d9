/**
 * The timestamp grammar. Accepted forms (anything else is refused):
 *
 * - ISO 8601 / RFC 3339 with a zone: `YYYY-MM-DDTHH:MM:SS.sssZ` (canonical,
 *   what `Date.prototype.toISOString` writes), `T` or a space between date
 *   and time, seconds and fraction optional, zone `Z`, `±HH:MM`, `±HHMM`,
 *   `±HH` or a trailing ` UTC`. Calendar- and clock-checked (hours 00–23,
 *   minutes and seconds 00–59: a leap second `:60` is refused), offsets
 *   within ±18:00. Digits past milliseconds are cut (a frame holds
 *   milliseconds).
 * - The same without a zone (Python's naive `isoformat()`, Django with
 *   `USE_TZ=False`): read as **UTC**, never in the machine's zone, and
 *   noted (`timestamp without a zone (read as UTC)`), so each pull says once
 *   which columns were read so.
 * - A date alone (`YYYY-MM-DD`): midnight UTC, noted.
 * - Epoch numbers (JSON numbers, or text of digits), read by magnitude:
 *   from 10^8 up to 10^11 are **seconds** (1973-03-03 to 5138-11-16; a
 *   fraction is kept to the millisecond, and digits past it are cut and
 *   noted, as in text), from 10^11 up to 10^14 are
 *   **milliseconds** (1973-03-03 to 5138-11-16, whole numbers only). The
 *   ranges do not overlap for any instant after 1973, and no market data
 *   of these services is older.
 *
 * Refused: text a browser's `Date.parse` would guess at (`Jan 2 2025`,
 * `01/02/2025 10:00`), numbers below 10^8 (`0` and `-1` are sentinels, not
 * 1970) and from 10^14 (micro- or nanoseconds: refused rather than guessed),
 * fractional milliseconds, and booleans, lists and objects.
 *
 * A timestamp reads as milliseconds since 1970-01-01T00:00:00Z (what a
 * Polars `Datetime("ms", "UTC")` holds); a typed row holds it as the
 * canonical ISO text.
 *
 * @module
 */
import { type Grammar, type Note, UNREADABLE } from "./_grammar.ts";
import { dayNumber, digits, leadingDay } from "./_calendar.ts";

/** Epoch seconds from here (1973-03-03T09:46:40Z) up to {@link EPOCH_MS_FROM}. */
export const EPOCH_S_FROM = 1e8;
/** Epoch milliseconds from here (1973-03-03T09:46:40Z) up to {@link EPOCH_MS_TO}. */
export const EPOCH_MS_FROM = 1e11;
/** Epoch milliseconds below this (5138-11-16); past it a number is refused. */
export const EPOCH_MS_TO = 1e14;

const TS =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?))?$/;

/** The parts of an ISO-like timestamp text as written, clock- and calendar-checked; null outside. */
export interface TimestampParts {
  /** Year, month (1–12), day, hour, minute, second, millisecond as written. */
  y: number;
  /** Month 1–12. */
  m: number;
  /** Day of month. */
  d: number;
  /** Hour 0–23. */
  h: number;
  /** Minute. */
  min: number;
  /** Second. */
  s: number;
  /** Millisecond. */
  ms: number;
  /** Whether a time was written. */
  time: boolean;
  /** Whether digits past the millisecond were cut. */
  cut: boolean;
  /** Offset from UTC in minutes, or null when no zone was written. */
  offset: number | null;
}

/** The parts of `s` (see {@link TimestampParts}), or null when `s` is not of the grammar's text forms. */
export function timestampParts(s: string): TimestampParts | null {
  const m = TS.exec(s);
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", se = "0", frac = "", zone] = m;
  const p: TimestampParts = {
    y: +y,
    m: +mo,
    d: +d,
    h: +h,
    min: +mi,
    s: +se,
    ms: frac ? Math.floor(+frac.padEnd(3, "0").slice(0, 3)) : 0,
    time: m[4] !== undefined,
    cut: frac.length > 3 && /[1-9]/.test(frac.slice(3)),
    offset: null,
  };
  if (p.h > 23 || p.min > 59 || p.s > 59) return null;
  if (zone !== undefined) {
    if (zone === "Z" || zone === "z" || zone === "UTC") p.offset = 0;
    else {
      const digits = zone.replace(":", "");
      const oh = +digits.slice(1, 3);
      const om = digits.length > 3 ? +digits.slice(3, 5) : 0;
      if (om > 59 || oh * 60 + om > 18 * 60) return null;
      p.offset = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
    }
  }
  if (Number.isNaN(dayNumber(p.y, p.m, p.d))) return null; // calendar-checked, years 100–9999
  return p;
}

/**
 * Milliseconds of a timestamp text with a zone, or NaN: the builders' fast
 * path (no note; a text without a zone, or with digits past the millisecond,
 * is NaN here and goes to the full grammar, which notes it).
 *
 * @example
 * ```ts
 * import { isoMs } from "./timestamp.ts";
 * isoMs("1970-01-01T00:00:01.000Z"); // 1000
 * isoMs("1970-01-01T00:00:01"); // NaN (no zone: the full grammar notes it)
 * ```
 */
export function isoMs(s: string): number {
  // the canonical form, `YYYY-MM-DDTHH:MM:SS.sssZ`, read by hand (the bulk of every answer)
  if (
    s.length === 24 && s.charCodeAt(23) === 90 && s.charCodeAt(10) === 84 &&
    s.charCodeAt(19) === 46 && s.charCodeAt(13) === 58 && s.charCodeAt(16) === 58
  ) {
    const day = leadingDay(s);
    const h = digits(s, 11, 2);
    const mi = digits(s, 14, 2);
    const se = digits(s, 17, 2);
    const ms = digits(s, 20, 3);
    if (day === day && h <= 23 && mi <= 59 && se <= 59 && ms === ms) {
      return day * 86_400_000 + ((h * 60 + mi) * 60 + se) * 1000 + ms;
    }
    return NaN;
  }
  const p = timestampParts(s);
  // digits past the millisecond: the full grammar cuts them and notes it
  if (p === null || p.offset === null || !p.time || p.cut) return NaN;
  return msOf(p);
}

/** Milliseconds since the epoch of timestamp parts (no zone: UTC). */
export function msOf(p: TimestampParts): number {
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s, p.ms) - (p.offset ?? 0) * 60_000;
}

/**
 * Milliseconds of an epoch number by magnitude (module doc), or
 * {@link UNREADABLE}; `unit` hears `"epoch seconds"` or `"epoch milliseconds"`.
 *
 * @example
 * ```ts
 * import { epochMs } from "./timestamp.ts";
 * epochMs(1735776000, () => {}); // 1735776000000
 * epochMs(1735776000000, () => {}); // 1735776000000
 * ```
 */
export function epochMs(n: number, unit: Note): number | typeof UNREADABLE {
  if (!Number.isFinite(n)) return UNREADABLE;
  if (n >= EPOCH_S_FROM && n < EPOCH_MS_FROM) {
    const ms = n * 1000;
    const whole = Math.round(ms);
    // a double's error here is far below a microsecond: a larger rest was sent
    if (Math.abs(ms - whole) < 1e-3) {
      unit("epoch seconds");
      return whole;
    }
    unit("epoch seconds, digits past the millisecond cut");
    return Math.floor(ms);
  }
  if (n >= EPOCH_MS_FROM && n < EPOCH_MS_TO && Number.isInteger(n)) {
    unit("epoch milliseconds");
    return n;
  }
  return UNREADABLE;
}

function read(v: unknown, note: Note): number | typeof UNREADABLE {
  if (typeof v === "number") return epochMs(v, note);
  if (typeof v !== "string") return UNREADABLE;
  const s = v.trim();
  if (/^\d{9,}(\.\d+)?$/.test(s)) {
    // read from its digits: Number() would round `1704067200.9999999` up a second
    const [int, frac = ""] = s.split(".");
    const seconds = Number(int) < EPOCH_MS_FROM;
    if (!seconds && /[1-9]/.test(frac)) return UNREADABLE; // fractional milliseconds
    const cut = seconds && /[1-9]/.test(frac.slice(3)) ? ", digits past the millisecond cut" : "";
    // epochMs names the unit only for a number it reads
    const n = Number(`${int}.${seconds ? frac.slice(0, 3) : frac}0`);
    return epochMs(n, (u) => note(`${u} as text${cut}`));
  }
  const p = timestampParts(s);
  if (p === null) return UNREADABLE;
  if (!p.time) note("date without a time (read as UTC midnight)");
  else if (p.offset === null) note("timestamp without a zone (read as UTC)");
  if (p.cut) note("digits past the millisecond (cut)");
  return msOf(p);
}

/** The timestamp grammar (module doc). */
export const timestamp: Grammar<number> = {
  type: "timestamp",
  forms: [
    "ISO 8601 with a zone: `YYYY-MM-DDTHH:MM:SS.sssZ` (canonical)",
    "`T` or a space; seconds and fraction optional; zone `Z`, `±HH:MM`, `±HHMM`, `±HH`, trailing `UTC`",
    "ISO 8601 without a zone: read as UTC, noted per column",
    "`YYYY-MM-DD` alone: midnight UTC, noted",
    "epoch seconds (10^8 to 10^11) or milliseconds (10^11 to 10^14), number or digits",
  ],
  refused: [
    "non-calendar dates, hours past 23, leap seconds (`:60`), offsets past ±18:00",
    "free text (`Jan 2 2025`), slashed dates",
    "numbers below 10^8 (`0`, `-1`) or from 10^14 (micro/nanoseconds)",
  ],
  read,
  row: (ms) => new Date(ms).toISOString(),
};
