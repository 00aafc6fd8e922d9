/**
 * "Did you mean …": close matches for a mistyped name (a column, a feed
 * topic, a grouping, a horizon, an enum value): exact-but-for-case and
 * same-words-reordered matches first, then typos within a small edit
 * distance (letters swapped, dropped, added or changed: `--prot` → `--port`,
 * which fuse.js' Bitap score misses on short names), the names a value cut
 * short begins (`transaction_d` → `transaction_date`); then fuse.js' fuzzy
 * matches, unless a one-letter typo, a completion, a case or word-order
 * match exists (a name that merely shares a few letters is no suggestion
 * beside those); at most 8 by default, so an error names the bad value and a
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
  });
  const fuzzy = fuse.search(value, { limit: max * 2 }).map((r) => r.item);
  const limit = value.length <= 4 ? 1 : 2;
  const typos = candidates.map((c) => ({ c, d: editDistance(lower, c.toLowerCase(), limit) }))
    .filter((x) => x.d <= limit).sort((a, b) => a.d - b.d);
  // a name cut short (filingDateF, transaction_d): the names it begins
  const completions = lower.length >= 3
    ? candidates.filter((c) => c.toLowerCase().startsWith(lower) && c.length > value.length)
    : [];
  // fuse.js' fuzzy matches only when nothing is clearly closer: beside a one-letter typo or a
  // completion they add noise (`--feeed` → `--feed`, not also `--risk-free`, which merely
  // contains "fee")
  const strong = exactCase.length + reordered.length + completions.length > 0 ||
    typos.some((x) => x.d <= 1);
  // a one-letter typo first (--prot → --port), then completions, shortest first, then the rest
  const byLength = [...completions].sort((a, b) => a.length - b.length);
  const close = [
    ...exactCase,
    ...reordered,
    ...typos.filter((x) => x.d <= 1).map((x) => x.c),
    ...byLength,
    ...typos.map((x) => x.c),
  ];
  return [...new Set(strong ? close : [...close, ...fuzzy])].filter((c) => c !== value)
    .slice(0, max);
}

/**
 * Optimal-string-alignment distance (Levenshtein plus swaps of neighbours:
 * a letter dropped, added, changed, or two neighbours swapped each count
 * one), or `limit + 1` as soon as it must exceed `limit`. The one edit
 * distance of signalbook (suggestions here, near-miss variable names in
 * `connect/env.ts`).
 *
 * @example
 * ```ts
 * import { editDistance } from "./suggest.ts";
 * editDistance("INSDIER", "INSIDER"); // 1 (a swap)
 * editDistance("abcdef", "uvwxyz", 2); // 3 (stopped past the limit)
 * ```
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length];
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
