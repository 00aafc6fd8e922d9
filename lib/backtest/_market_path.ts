/**
 * The market's own daily path, rebuilt from the trades' windows.
 *
 * Every trade reports its market's return over the windows that start on
 * its trade date d and end on d + 7, 30, 91, 182 and 365 days
 * (`returns_w − excess_returns_w`). All trades share one market index, so
 * each window is an exact difference of the index's log level between two
 * days: L(d + w) − L(d). Days linked by windows form a graph; walking it
 * from one day gives the log level of every day connected to it (the
 * largest connected set is used). Levels of the days in between are
 * interpolated linearly in log. With a few trades a week, nearly every
 * window day is connected, and month-end levels are at most a few days'
 * interpolation away from a known one.
 *
 * The portfolio backtest books each position's market part on this path
 * (month by month, as it happened) and only the stock's return relative to
 * the market by step (see `spread: "market"` in `portfolio.ts`).
 *
 * @module
 */
import sortedLastIndex from "npm:lodash-es@4.17.21/sortedLastIndex.js";
import { KNOTS, num } from "./entry.ts";

/**
 * The market's log level by day (relative to an arbitrary day), from rows
 * with a trade day and forward returns; null when no two rows' windows
 * connect (fewer than 2 known days).
 *
 * @example
 * ```ts
 * import { marketPath } from "./_market_path.ts";
 * const path = marketPath([
 *   { day: 0, returns_1w: 3, excess_returns_1w: 1, returns_1m: 5, excess_returns_1m: 2 },
 *   { day: 7, returns_1m: 1, excess_returns_1m: 0 },
 * ]);
 * // day 7: +2 %, day 30: +3 %, day 37: 1.02 · 1.01
 * Math.exp(path!(37) - path!(0)); // 1.0302
 * ```
 */
export function marketPath(
  rows: readonly (Record<string, unknown> & { day: number })[],
): ((day: number) => number) | null {
  // each window links its two days both ways: [from, to, the log level's change from → to]
  const links: [number, number, number][] = [];
  for (const r of rows) {
    for (const [w, days] of KNOTS) {
      const ret = num(r[`returns_${w}`]);
      const ex = num(r[`excess_returns_${w}`]);
      if (ret === null || ex === null || 1 + (ret - ex) / 100 <= 0) continue;
      const v = Math.log(1 + (ret - ex) / 100);
      links.push([r.day, r.day + days, v], [r.day + days, r.day, -v]);
    }
  }
  const adj = Map.groupBy(links, ([a]) => a);
  // the largest connected set of days, levels by breadth-first walk
  let best = new Map<number, number>();
  const seen = new Set<number>();
  for (const root of adj.keys()) {
    if (seen.has(root)) continue;
    const level = new Map<number, number>([[root, 0]]);
    seen.add(root);
    const queue = [root];
    for (let q = 0; q < queue.length; q++) {
      const a = queue[q];
      for (const [, b, v] of adj.get(a)!) {
        if (seen.has(b)) continue;
        seen.add(b);
        level.set(b, level.get(a)! + v);
        queue.push(b);
      }
    }
    if (level.size > best.size) best = level;
  }
  if (best.size < 2) return null;
  const days = Float64Array.from(best.keys()).sort();
  const lv = Float64Array.from(days, (d) => best.get(d)!);
  return (day: number) => {
    if (day <= days[0]) return lv[0];
    if (day >= days[days.length - 1]) return lv[days.length - 1];
    // days[lo] ≤ day < days[hi]
    const hi = sortedLastIndex(days, day);
    const lo = hi - 1;
    const f = (day - days[lo]) / (days[hi] - days[lo]);
    return lv[lo] + f * (lv[hi] - lv[lo]);
  };
}
