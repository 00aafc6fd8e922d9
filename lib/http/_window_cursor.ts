/**
 * Window cursors (`sbw1.…`): where a parallel pull stands, handed out as
 * each page's `next` and as `error.partial.cursor`, and accepted back as the
 * same list's `cursor` option.
 *
 * - The text after `sbw1.` is base64url (no padding) of the UTF-8 bytes of
 *   a JSON object, followed by its seal: the order (`o`: `"d"` newest
 *   first, `"a"` oldest first), the window's first and last day (`f`, `t`:
 *   `YYYY-MM-DD`, absent for the list's own bound), the service's cursor
 *   inside it (`c`, null at the window's start) and the rows to skip there
 *   (`s`, an integer ≥ 0); then the seal, the first 12 bytes of the
 *   SHA-256 of `sbw1.`, the list's identity (`listId` in `windows.ts`: its
 *   endpoint and parameters but the page size) and those JSON bytes.
 * - The seal is the rule: a position is read only when its seal is the
 *   SHA-256 of its own bytes, so only a position this module wrote passes.
 *   A hand-made cursor (any skip, any days), one with a byte or a field
 *   changed, with another cursor's seal, or one another list (another
 *   endpoint or filter) handed out, is refused, whatever its fields say (a
 *   huge skip in a well-formed object used to skip rows in silence).
 *   The seal holds no secret (no API key, nothing per process, so a cursor
 *   resumes in another process): it catches damage and hand-editing, not a
 *   forger who computes it from this file.
 * - The service's cursor is opaque text: any string, Unicode beyond
 *   Latin-1 and lone surrogates included, is carried exactly (JSON writes a
 *   lone surrogate as a `\u` escape, so its bytes are always well-formed
 *   UTF-8). How it then travels to the service is the serial pull's own
 *   (a lone surrogate cannot go in a URL query as given: such a request is
 *   refused naming the cursor, `toSearchParams` in `transport.ts`).
 * - Anything else after `sbw1.` (not base64url, no seal or a wrong one,
 *   not UTF-8 JSON) is refused with a
 *   {@link RequestValidationError} naming the `cursor` parameter, before
 *   any request; the message quotes at most the cursor's first 40
 *   characters, keys redacted (`quoteCursor`).
 *
 * @module
 */
import { RequestValidationError } from "./errors.ts";
import { quoteCursor } from "./paginate.ts";
import { createHash } from "node:crypto";

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
export function encodeWindowCursor(p: Position, list = ""): string {
  const json = new TextEncoder().encode(JSON.stringify(p));
  const bytes = new Uint8Array([...json, ...seal(json, list)]);
  return WINDOW_CURSOR_PREFIX + bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** Bytes of seal after a position's JSON (see the module doc). */
const SEAL_BYTES = 12;

/** The seal of a position's JSON bytes in a list. */
const seal = (json: Uint8Array, list: string) =>
  createHash("sha256").update(WINDOW_CURSOR_PREFIX + list + "\u0000").update(json).digest()
    .subarray(0, SEAL_BYTES);

/** The position `payload` holds, or undefined when it is not one this module sealed. */
function readPosition(payload: string, list: string): Position | undefined {
  // (no padding, no blanks: the decoder alone would skip them)
  if (!/^[A-Za-z0-9_-]*$/.test(payload)) return undefined;
  const bytes = Uint8Array.fromBase64(payload, { alphabet: "base64url" });
  const json = bytes.subarray(0, -SEAL_BYTES);
  if (bytes.length <= SEAL_BYTES || !seal(json, list).equals(bytes.subarray(-SEAL_BYTES))) {
    return undefined;
  }
  const p = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  return { o: p.o, f: p.f, t: p.t, c: p.c, s: p.s };
}

/**
 * A window cursor decoded, or undefined when `cursor` is not one (a cursor
 * of the list itself). A cursor that starts with `sbw1.` but does not hold a
 * position is a {@link RequestValidationError} naming the `cursor` parameter.
 */
export function decodeWindowCursor(cursor: string, list = ""): Position | undefined {
  if (!cursor.startsWith(WINDOW_CURSOR_PREFIX)) return undefined;
  let p: Position | undefined;
  try {
    p = readPosition(cursor.slice(WINDOW_CURSOR_PREFIX.length), list);
  } catch {
    // not base64, not UTF-8 or not JSON: refused below
  }
  if (p) return p;
  const shown = quoteCursor(cursor);
  throw new RequestValidationError([{
    param: "cursor",
    value: shown,
    message: `${shown} is not allowed; allowed: a cursor this list handed out ` +
      "(a window cursor sbw1.… holds a day range, the service's cursor and rows to skip, " +
      "sealed by a digest of them)",
  }]);
}
