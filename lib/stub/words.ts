/**
 * Word lists of the demo data (names, handles, company names) written as
 * text, a line of items at a time, instead of one quoted item a line.
 *
 * @module
 */

/**
 * The items of a list written as text: separated by commas (line ends
 * between them are only layout), each trimmed, in order.
 *
 * @example
 * ```ts
 * import { list } from "./words.ts";
 * console.log(list(`
 *   Blue Ridge, Cedar,
 *   Delta,
 * `)); // [ "Blue Ridge", "Cedar", "Delta" ]
 * ```
 */
export function list(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter((s) => s !== "");
}
