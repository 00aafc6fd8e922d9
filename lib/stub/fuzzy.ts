/**
 * The fuzzy name search both services use (`/search` of the catalog,
 * `/insiders` of the insider service): Fuse.js over the given keys, the
 * match anywhere in the text.
 *
 * @module
 */
import Fuse from "npm:fuse.js@7.5.0";

/**
 * A Fuse index of `items` on `keys`, matching anywhere in the text (scores
 * kept with the hits); `threshold` as Fuse's (0 exact, 1 anything).
 *
 * @example
 * ```ts
 * import { fuzzy } from "./fuzzy.ts";
 * const hits = fuzzy([{ name: "Acme Corp." }], ["name"], 0.34).search("acme");
 * console.log(hits[0].item.name); // Acme Corp.
 * ```
 */
export function fuzzy<T>(items: readonly T[], keys: string[], threshold: number): Fuse<T> {
  return new Fuse(items, { keys, threshold, ignoreLocation: true, includeScore: true });
}
