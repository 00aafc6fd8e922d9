/**
 * Whether this code runs inside a Deno Jupyter kernel.
 *
 * @module
 */

/**
 * True inside a Deno Jupyter kernel (`Deno.jupyter.broadcast` exists); false
 * under `deno run`, `deno test` and anywhere else.
 *
 * @example
 * ```ts
 * import { inJupyter } from "./jupyter.ts";
 * console.log(inJupyter()); // false in a script
 * ```
 */
export function inJupyter(): boolean {
  try {
    // outside the kernel, Deno.jupyter is absent or throws on access
    const j = (Deno as unknown as { jupyter?: { broadcast?: unknown } }).jupyter;
    return typeof j?.broadcast === "function";
  } catch {
    return false;
  }
}
