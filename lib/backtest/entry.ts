/**
 * Entry at filing, approximated from the points the service gives.
 *
 * The service reports each trade's cumulative return (and its market's) from
 * the trade date at 1 week, 1, 3, 6 and 12 months (`returns_1w` …
 * `returns_1y`, days 7, 30, 91, 182, 365). An investor can act only once the
 * Form 4 is filed, `filing_delay_days` later. The growth from the trade to
 * the filing day d is not reported, so it is interpolated log-linearly
 * between the known points (0 → 1w → 1m …): G(d) = G(a)·(G(b)/G(a))^((d−a)/(b−a)).
 * The filing-entry return at horizon h is G(h)/G(d) − 1 (held to the same
 * end, trade date + h, so d days shorter), likewise for the market (growth
 * `1 + (returns − excess_returns)/100`), and the excess is their difference.
 *
 * Entry is at the close of the filing day (a filing after the close can be
 * acted on only the next day: this is slightly optimistic for those). A
 * trade filed on or after the horizon's end, or without a filing delay, has
 * no filing-entry return at that horizon. The approximation's bias against
 * the emulator's true prices is measured by `bench/coverage_bench.ts` and
 * stated in docs/validation.md.
 *
 * @module
 */
import { FORWARD_WINDOWS, WINDOW_DAYS } from "../insider/fields.ts";

/** Knots of the forward-return fields: window label and day offset. */
export const KNOTS: readonly (readonly [string, number])[] = FORWARD_WINDOWS.map((w) =>
  [w, WINDOW_DAYS[w]] as const
);

/** Columns the filing-entry approximation reads (besides the returns). */
export const FILING_COLUMNS = ["filing_delay_days"] as const;

/** Entry points of {@link eventStudy} and {@link portfolioBacktest}. */
export const ENTRIES = ["trade", "filing"] as const;
/** Where a position opens: the trade date or the filing date. */
export type Entry = typeof ENTRIES[number];

/** A finite number, else null. */
export const num = (
  v: unknown,
): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Whether a trade is old enough for horizon `h`: it has a value (even NaN) at `h`, or at any
 * longer window (the service's windows are nested: a trade with a 1y value has its 6m value).
 * A realized trade missing a value the figures need is counted in `n_nonfinite`, whichever
 * value it lacks; only a trade with nothing at `h` or later is young.
 */
export function realizedAt(row: Record<string, unknown>, h: string): boolean {
  return KNOTS.some(([w, day]) =>
    day >= WINDOW_DAYS[h] && (row[`returns_${w}`] != null || row[`excess_returns_${w}`] != null)
  );
}

/** Growth at day `d` from known points `[day, growth]` (first [0, 1]), log-linear between. */
export function growthAt(points: readonly (readonly [number, number])[], d: number): number {
  for (let j = 1; j < points.length; j++) {
    const [b, gb] = points[j];
    if (d <= b) {
      const [a, ga] = points[j - 1];
      const f = (d - a) / (b - a);
      return ga > 0 && gb > 0 ? ga * (gb / ga) ** f : ga + (gb - ga) * f;
    }
  }
  return points[points.length - 1][1];
}

/**
 * The known growth points of a row from the trade date, stock and market,
 * up to `maxDay`: `[day, growth]` with `[0, 1]` first; points whose fields
 * are null are skipped.
 */
export function rowPoints(
  row: Record<string, unknown>,
  maxDay: number,
): { stock: [number, number][]; market: [number, number][] } {
  const stock: [number, number][] = [[0, 1]];
  const market: [number, number][] = [[0, 1]];
  for (const [w, day] of KNOTS) {
    if (day > maxDay) break;
    const r = num(row[`returns_${w}`]);
    const x = num(row[`excess_returns_${w}`]);
    if (r === null) continue;
    stock.push([day, 1 + r / 100]);
    if (x !== null) market.push([day, 1 + (r - x) / 100]);
  }
  return { stock, market };
}

/**
 * Whether a row has a return field up to `maxDay` that is a number but not
 * finite (NaN, ±Infinity): such a row's path is unknown, so it is counted
 * as non-finite rather than interpolated around the bad point in silence.
 */
export function hasNonFiniteKnot(
  row: Record<string, unknown>,
  maxDay: number,
  fields: readonly ("returns" | "excess_returns")[] = ["returns", "excess_returns"],
): boolean {
  // a number that is not finite (NaN or ±Infinity); null and missing are not
  const nonFinite = (v: unknown) => typeof v === "number" && !Number.isFinite(v);
  return KNOTS.some(([w, day]) => day <= maxDay && fields.some((f) => nonFinite(row[`${f}_${w}`])));
}

/**
 * The return and excess return (percent) from the filing day to the end of
 * horizon `h` (label of `WINDOW_DAYS`), or null when the row lacks the
 * points or was filed on or after the horizon's end. A NaN or infinite
 * stock return at any window up to the horizon makes both NaN, and a bad
 * excess return makes `excess` NaN, so callers count the trade as
 * non-finite instead of interpolating around the bad point (a bad point
 * anywhere up to the horizon counts, not only one the interpolation reads:
 * such a row's data cannot be trusted).
 *
 * @example
 * ```ts
 * import { fromFiling } from "./entry.ts";
 * const row = { filing_delay_days: 2, returns_1w: 7, excess_returns_1w: 0, returns_1m: 10, excess_returns_1m: 1 };
 * fromFiling(row, "1m"); // the return from day 2 to day 30: 1.10 / 1.07^(2/7) − 1
 * ```
 */
export function fromFiling(
  row: Record<string, unknown>,
  h: string,
): { ret: number; excess: number } | null {
  const days = WINDOW_DAYS[h];
  const d = num(row.filing_delay_days);
  if (d === null || d < 0 || d >= days) return null;
  if (row[`returns_${h}`] == null || row[`excess_returns_${h}`] == null) return null;
  // the raw return needs the stock's points only; the excess needs the market's too
  if (hasNonFiniteKnot(row, days, ["returns"])) return { ret: NaN, excess: NaN };
  const rh = num(row[`returns_${h}`]);
  if (rh === null) return null;
  const { stock, market } = rowPoints(row, days);
  const g = (1 + rh / 100) / growthAt(stock, d);
  const xh = num(row[`excess_returns_${h}`]);
  if (xh === null || hasNonFiniteKnot(row, days, ["excess_returns"])) {
    return { ret: (g - 1) * 100, excess: NaN };
  }
  const m = (1 + (rh - xh) / 100) / growthAt(market, d);
  return { ret: (g - 1) * 100, excess: (g - m) * 100 };
}
