/**
 * "Did you mean …": close matches for a mistyped name (a column, a feed
 * topic, a grouping, a horizon, an enum value), ranked by fuse.js' fuzzy
 * score (Bitap) after exact-but-for-case and same-words-reordered matches,
 * at most 8 by default, so an error names the bad value and a
 * few useful alternatives instead of a list of 174 columns.
 *
 * @module
 */
import Fuse from "npm:fuse.js@7.5.0";

/**
 * Up to `max` candidates close to `value`, best first; none when nothing is close.
 *
 * @example
 * ```ts
 * import { closeMatches } from "./suggest.ts";
 * closeMatches("rol", ["role", "feed", "size", "none"]); // ["role"]
 * ```
 */
export function closeMatches(value: unknown, candidates: readonly string[], max = 8): string[] {
  if (typeof value !== "string" || value === "" || candidates.length === 0) return [];
  const lower = value.toLowerCase();
  const exactCase = candidates.filter((c) => c.toLowerCase() === lower && c !== value);
  // the same words in another order: returns_3m_excess → excess_returns_3m
  const words = (s: string) => s.toLowerCase().split(/[_\-\s.]+/).sort().join(" ");
  const reordered = candidates.filter((c) => words(c) === words(value));
  const fuse = new Fuse(candidates as string[], {
    threshold: 0.4,
    ignoreLocation: true,
    includeScore: true,
  });
  const fuzzy = fuse.search(value, { limit: max * 2 }).map((r) => r.item);
  return [...new Set([...exactCase, ...reordered, ...fuzzy])].filter((c) => c !== value).slice(
    0,
    max,
  );
}

/**
 * ` (did you mean "a", "b"?)`, or `""` when nothing is close.
 *
 * @example
 * ```ts
 * import { didYouMean } from "./suggest.ts";
 * `"ceo-trade" is not a feed topic${didYouMean("ceo-trade", ["ceo-trades", "cfo-trades"])}`;
 * // '"ceo-trade" is not a feed topic (did you mean "ceo-trades", "cfo-trades"?)'
 * ```
 */
export function didYouMean(value: unknown, candidates: readonly string[], max = 8): string {
  const m = closeMatches(value, candidates, max);
  return m.length ? ` (did you mean ${m.map((c) => JSON.stringify(c)).join(", ")}?)` : "";
}
