/**
 * One way to describe a value in a message without printing it: a row can
 * hold anything, a key included, so text is described by its length and
 * its shape (digits as `9`, letters as `a`/`A`, the rest as sent, at most
 * 24 characters), never its characters. Numbers, booleans and null are
 * shown as they are (no key is a number).
 *
 * @module
 */
import { plural } from "./plural.ts";

const SHAPE_CHARS = 24;

/**
 * A value described for an error message or warning, never printed.
 *
 * @example
 * ```ts
 * import { describeValue } from "./describe.ts";
 * describeValue("2025-13-01"); // 'text of 10 characters shaped "9999-99-99"'
 * describeValue(1.5e15); // "the number 1500000000000000"
 * describeValue({ a: 1 }); // "an object of 1 key"
 * ```
 */
export function describeValue(v: unknown): string {
  if (typeof v === "string") {
    if (v.length === 0) return "empty text";
    const shape = v.slice(0, SHAPE_CHARS).replace(/[0-9]/g, "9").replace(/[a-z]/g, "a")
      .replace(/[A-Z]/g, "A").replace(/[^\x20-\x7e]/g, "?");
    const more = v.length > SHAPE_CHARS ? "…" : "";
    return `text of ${plural(v.length, "character")} shaped ${JSON.stringify(shape + more)}`;
  }
  if (typeof v === "number") {
    return Number.isFinite(v)
      ? `the number ${Number.isInteger(v) && Math.abs(v) < 1e21 ? BigInt(v) : v}`
      : String(v);
  }
  if (typeof v === "boolean") return `the boolean ${v}`;
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "object") {
    return `an object of ${plural(Object.keys(v).length, "key")}`;
  }
  return `a ${typeof v}`;
}
