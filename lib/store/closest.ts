/**
 * Close matches for error messages ("did you mean ...?"), by fuzzy search.
 *
 * @module
 */
import Fuse from "npm:fuse.js@7.5.0";

/**
 * The candidates closest to `word`, best first (at most three).
 *
 * @example
 * ```ts
 * import { closest } from "./closest.ts";
 * console.log(closest("insider_trade", ["insider_trades", "pitches"])); // ["insider_trades"]
 * ```
 */
export function closest(word: string, candidates: readonly string[]): string[] {
  const fuse = new Fuse([...candidates], { threshold: 0.5, ignoreLocation: true });
  return fuse.search(word, { limit: 3 }).map((r) => r.item);
}

/** `; did you mean "x"?` or an empty string. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates);
  return near.length ? `; did you mean ${near.map((n) => JSON.stringify(n)).join(" or ")}?` : "";
}
