/**
 * HTML escaping for the markup signalbook writes (tables, charts, MHTML).
 *
 * @module
 */

/**
 * Escapes `&`, `<`, `>` and `"` for HTML text and attribute values.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./html.ts";
 * escapeHtml('<a href="x">'); // "&lt;a href=&quot;x&quot;&gt;"
 * ```
 */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}
