/**
 * One capture of `console.warn` for the tests that check what the library
 * warns (instead of each test file saving, replacing and restoring
 * `console.warn` by hand).
 *
 * @example
 * ```ts
 * import { captureWarnings } from "./_warnings.ts";
 * using warned = captureWarnings();
 * console.warn("signalbook:", "one");
 * warned.lines; // ["signalbook: one"]
 * ```
 */

/** The warnings seen while capturing. */
export interface CapturedWarnings {
  /** Each warning, its arguments joined by a space (as `Array.prototype.join` writes them). */
  readonly lines: string[];
  /** Puts back the `console.warn` that was there (again: nothing more). */
  restore(): void;
  /** {@link restore}, for `using`. */
  [Symbol.dispose](): void;
}

/**
 * Replaces `console.warn` with a recorder until `restore()` (or the end of
 * the `using` block); nothing is printed meanwhile.
 */
export function captureWarnings(): CapturedWarnings {
  const original = console.warn;
  const lines: string[] = [];
  console.warn = (...args: unknown[]) => {
    lines.push(args.join(" "));
  };
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    console.warn = original;
  };
  return { lines, restore, [Symbol.dispose]: restore };
}
