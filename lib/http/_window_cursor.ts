/**
 * Window cursors (`sbw1.…`): where a parallel pull stands, handed out as
 * each page's `next` and as `error.partial.cursor`, and accepted back as the
 * same list's `cursor` option.
 *
 * - The text after `sbw1.` is base64url (no padding) of the UTF-8 bytes of
 *   a JSON object: the order (`o`: `"d"` newest first, `"a"` oldest first),
 *   the window's first and last day (`f`, `t`: calendar-checked
 *   `YYYY-MM-DD`, absent for the list's own bound, `f` ≤ `t`), the service's
 *   cursor inside it (`c`, null at the window's start) and the rows to skip
 *   there (`s`, an integer ≥ 0).
 * - The service's cursor is opaque text: any string, Unicode beyond
 *   Latin-1 and lone surrogates included, is carried exactly (JSON writes a
 *   lone surrogate as a `\u` escape, so its bytes are always well-formed
 *   UTF-8). How it then travels to the service is the serial pull's own
 *   (a lone surrogate cannot go in a URL query as given: such a request is
 *   refused naming the cursor, `toSearchParams` in `transport.ts`).
 * - Anything else after `sbw1.` (not base64url, not UTF-8, not that
 *   object, a day that is not a calendar day) is refused with a
 *   {@link RequestValidationError} naming the `cursor` parameter, before
 *   any request; the message quotes at most the cursor's first 40
 *   characters, keys redacted (`quoteCursor`).
 *
 * @module
 */
import { RequestValidationError } from "./errors.ts";
import { MAX_CURSOR_CHARS, quoteCursor } from "./paginate.ts";
import { isoDay } from "../shared/values/mod.ts";

/** The prefix of a window cursor. */
export const WINDOW_CURSOR_PREFIX = "sbw1.";

/** A window cursor decoded: where a pull stands (a range, a cursor inside it, rows to skip). */
export interface Position {
  /** Order: "d" newest first, "a" oldest first. */
  o: "d" | "a";
  /** First day of the window's range (absent: the list's own bound). */
  f?: string;
  /** Last day of the window's range (absent: the list's own bound). */
  t?: string;
  /** Cursor inside the window (null: its start). */
  c: string | null;
  /** Rows to skip at the start (a resume inside a page). */
  s: number;
}

/**
 * The window cursor of a position.
 *
 * @example
 * ```ts
 * import { decodeWindowCursor, encodeWindowCursor } from "./_window_cursor.ts";
 * const cursor = encodeWindowCursor({ o: "d", f: "2024-01-01", c: "курсор:7", s: 0 });
 * console.log(decodeWindowCursor(cursor)?.c); // курсор:7
 * ```
 */
export function encodeWindowCursor(p: Position): string {
  const bytes = new TextEncoder().encode(JSON.stringify(p));
  return WINDOW_CURSOR_PREFIX + bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

const isDay = (d: unknown) => d === undefined || (typeof d === "string" && isoDay(d) === isoDay(d));

/** The position `payload` holds, or undefined when it is not one. */
function readPosition(payload: string): Position | undefined {
  // (no padding, no blanks: the decoder alone would skip them)
  if (!/^[A-Za-z0-9_-]*$/.test(payload)) return undefined;
  const bytes = Uint8Array.fromBase64(payload, { alphabet: "base64url" });
  const p = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  if (typeof p !== "object" || p === null || (p.o !== "d" && p.o !== "a")) return undefined;
  const c = p.c === null || (typeof p.c === "string" && p.c.length <= MAX_CURSOR_CHARS);
  if (!c || !Number.isSafeInteger(p.s) || p.s < 0 || !isDay(p.f) || !isDay(p.t)) return undefined;
  if (p.f !== undefined && p.t !== undefined && p.f > p.t) return undefined;
  return { o: p.o, f: p.f, t: p.t, c: p.c, s: p.s };
}

/**
 * A window cursor decoded, or undefined when `cursor` is not one (a cursor
 * of the list itself). A cursor that starts with `sbw1.` but does not hold a
 * position is a {@link RequestValidationError} naming the `cursor` parameter.
 */
export function decodeWindowCursor(cursor: string): Position | undefined {
  if (!cursor.startsWith(WINDOW_CURSOR_PREFIX)) return undefined;
  let p: Position | undefined;
  try {
    p = readPosition(cursor.slice(WINDOW_CURSOR_PREFIX.length));
  } catch {
    // not base64, not UTF-8 or not JSON: refused below
  }
  if (p) return p;
  const shown = quoteCursor(cursor);
  throw new RequestValidationError([{
    param: "cursor",
    value: shown,
    message: `${shown} is not allowed; allowed: a cursor this list handed out ` +
      "(a window cursor sbw1.… holds a calendar-checked day range, the service's cursor " +
      "and rows to skip)",
  }]);
}
