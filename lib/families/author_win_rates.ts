/**
 * `authorWinRates`: each author's share of winning pitches, with a Wilson
 * 95 % interval and an empirical-Bayes estimate that survives the winner's
 * curse, from the catalog's pitch-return floors.
 *
 * @module
 */
import { buildFrame } from "../frames/build.ts";
import type { ColumnSpec } from "../frames/dtypes.ts";
import type { CatalogClient } from "../catalog/client.ts";
import type { PitchListParams } from "../catalog/params.ts";
import {
  RETURN_KINDS,
  RETURN_PERIODS,
  type ReturnKind,
  type ReturnPeriod,
} from "../catalog/vocab.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import { isDemo } from "../shared/demo.ts";
import { isIsoDate } from "../shared/schema.ts";
import { dayText } from "../shared/values/date.ts";
import { refuse, wholeNumber } from "../shared/options.ts";
import { returnBuckets } from "./pitch_buckets.ts";
import { type BetaPrior, fitBetaPrior, shrunkRate } from "./_beta_binomial.ts";

/** Options of {@link authorWinRates}. */
export interface AuthorWinRateOptions {
  /** Return period of the floor: `"6m"`, `"1y"` or `"2y"`. */
  period: ReturnPeriod;
  /** `"abs"` (absolute return) or `"excess"` (versus the market). */
  kind: ReturnKind;
  /** Fewest counted pitches an author needs for a row (default 5). */
  minPitches?: number;
  /**
   * The day the period must have ended by, `YYYY-MM-DD` (default: the
   * latest `added_on` of the catalog, the newest day the pull shows it at:
   * the data's as-of; with a filter in `params`, read from one more page
   * of the newest pitches, unfiltered, so a filter never moves it). A day
   * after the data's as-of is an error naming both days: the periods ending
   * after it have not ended in the data, and counting them would call them
   * losses.
   */
  asOf?: string;
}

/** The columns of an {@link authorWinRates} frame, in order. */
export const AUTHOR_WIN_RATE_COLUMNS: readonly string[] =
  "author_username pitches wins win_rate win_rate_low win_rate_high win_rate_shrunk".split(" ");

/** Their types: the author's name, two counts, four fractions (Float64). */
const COLUMN_SPECS: ColumnSpec[] = AUTHOR_WIN_RATE_COLUMNS.map((name, i) => ({
  name,
  type: i === 0 ? "code" : i < 3 ? "integer" : "decimal",
}));

/** The result of {@link authorWinRates}. */
export interface AuthorWinRates {
  /**
   * One row per author with at least `minPitches` counted pitches, best
   * shrunk win rate first (ties: better raw rate, more pitches, then by
   * name): `author_username` (String), `pitches` and `wins` (Int64),
   * `win_rate`, `win_rate_low`, `win_rate_high`, `win_rate_shrunk`
   * (Float64 fractions in [0, 1]).
   */
  frame: Frame;
  /**
   * The beta prior fitted across the frame's authors (`mean`, and
   * `strength` = α + β in pitches, `Infinity` when they show no spread):
   * `win_rate_shrunk` is (wins + mean·strength) / (pitches + strength).
   */
  prior: BetaPrior;
  /** Page requests made. */
  requests: number;
  /** The day used as {@link AuthorWinRateOptions.asOf}. */
  asOf: string;
  /** Pitches read but not counted: written less than the period before `asOf`. */
  tooRecent: number;
  /** Authors with at least one counted pitch but fewer than `minPitches`, left out. */
  fewPitches: number;
  /** The period of the floor. */
  period: ReturnPeriod;
  /** The kind of the floor (absolute or excess). */
  kind: ReturnKind;
  /** The `minPitches` used. */
  minPitches: number;
}

/**
 * Days after the pitch by which a period has ended: the emulator's rule (a
 * pitch has a return for the period once `pitch_date + days ≤ asOf`); the
 * live service's rule is not shown.
 */
export const PERIOD_DAYS: Readonly<Record<ReturnPeriod, number>> = {
  "6m": 182,
  "1y": 365,
  "2y": 730,
};

/** The standard normal's 97.5 % quantile, 1.95996398454005423552…, as the nearest double. */
const Z95 = 1.9599639845400543;

/**
 * The Wilson score interval of a proportion (`wins` of `n`) at 95 %:
 * unlike the normal approximation it stays inside [0, 1] and is not of
 * zero width at 0 or n wins.
 *
 * @example
 * ```ts
 * import { wilsonInterval } from "./author_win_rates.ts";
 * wilsonInterval(8, 10).map((x) => x.toFixed(3)); // ["0.490", "0.943"]
 * ```
 */
export function wilsonInterval(wins: number, n: number, z = Z95): [number, number] {
  if (!(n > 0)) return [NaN, NaN];
  const p = wins / n;
  const z2n = (z * z) / n;
  const centre = p + z2n / 2;
  const half = z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return [(centre - half) / (1 + z2n), (centre + half) / (1 + z2n)];
}

function check(options: AuthorWinRateOptions): Required<Omit<AuthorWinRateOptions, "asOf">> {
  const fn = "authorWinRates";
  const { period, kind } = options ?? ({} as AuthorWinRateOptions);
  const choices = [["period", period, RETURN_PERIODS], ["kind", kind, RETURN_KINDS]] as const;
  for (const [name, value, allowed] of choices) {
    if (!(allowed as readonly unknown[]).includes(value)) refuse(fn, name, value, allowed);
  }
  if (options.asOf !== undefined && !isIsoDate(options.asOf)) {
    refuse(fn, "asOf", options.asOf, ["a calendar date YYYY-MM-DD, years 100–9999"]);
  }
  return { period, kind, minPitches: wholeNumber(fn, "minPitches", options.minPitches, 1, 5) };
}

const dayOf = (d: unknown): number =>
  d instanceof Date ? Math.floor(d.getTime() / 86_400_000) : NaN;

/**
 * Per-author win rates of pitches. A **win** is a pitch that meets the 0 %
 * floor of the catalog's pitch-return filter for `period` and `kind`
 * (`pitchReturn: "<period>_<kind>_gte_pct0"`, read from an unlocked pitch's
 * `col_pitch_return_…` slug and, for locked pitches, from one filtered
 * query): its return over the period was at least 0 %. `win_rate` is
 * `wins / pitches` as a Float64 fraction (computed in floating point:
 * nodejs-polars divides two `UInt32` columns to 0), with a Wilson 95 %
 * interval (`win_rate_low`, `win_rate_high`), which stays inside [0, 1] and
 * keeps a width at 0 or all wins, where a normal interval collapses.
 *
 * **Ranking: the winner's curse.** The authors with the best raw rates are
 * mostly the luckiest of those with few pitches: ranked by `win_rate`, the
 * top of the list overstates its own true rates (measured in
 * docs/validation.md). So the frame is ordered by `win_rate_shrunk`, an
 * empirical-Bayes estimate: a beta prior is fitted across the result's
 * authors by maximum likelihood of the beta-binomial marginal
 * (`prior`), and each author's rate is their posterior mean,
 * (wins + α) / (pitches + α + β): pulled toward the prior mean, the more so
 * the fewer pitches they have. When the authors vary no more than chance
 * would make them at one common rate, the prior has no spread and every
 * shrunk rate is the pooled rate (the raw rate then breaks the tie). The
 * prior is fitted to the authors in the frame (those with `minPitches`),
 * so it depends on `params` and `minPitches`.
 *
 * **Counted pitches.** The catalog gives floors, not returns, and a pitch
 * with a negative return carries no floor, just as one whose period has not
 * ended yet: counted as losses, recent pitches would pull every active
 * author's rate down. So only pitches written at least the period before
 * `asOf` are counted (182, 365 or 730 days, {@link PERIOD_DAYS}); the
 * others are counted in `tooRecent`. Authors with fewer than `minPitches`
 * counted pitches are left out and counted in `fewPitches`.
 *
 * **Limits.** A win says only "return ≥ 0": a +1 % and a +300 % pitch weigh
 * the same, and a pitch at exactly 0 % is a win (the catalog's own
 * `winRateGte` filter is a floor on the author's 1-year rate, needs 8
 * pitches, and its win rule is not shown). The period's end rule of the live
 * service is not shown either: the emulator's is used. The interval treats
 * an author's pitches as independent draws; pitches on the same market
 * swing are not, so it is a lower bound on the uncertainty.
 *
 * Requests: the pitches of `params` (50 a page), plus, when some are locked,
 * the pages of one `pitchReturn` query narrowed to paywalled pitches, and,
 * when `params` filters, one page of the newest pitches (the data's as-of).
 *
 * @example
 * ```ts
 * import { authorWinRates, connect } from "../../mod.ts";
 * const { catalog } = await connect();
 * const { frame, requests, tooRecent } = await authorWinRates(catalog, {}, {
 *   period: "1y",
 *   kind: "abs",
 *   minPitches: 5,
 * });
 * console.log(frame.head(10), requests, tooRecent);
 * ```
 */
export async function authorWinRates(
  catalog: CatalogClient,
  params: PitchListParams,
  options: AuthorWinRateOptions,
): Promise<AuthorWinRates> {
  const { period, kind, minPitches } = check(options);
  const { frame, requests } = await returnBuckets(catalog, params, { period, kind }, ["pct0"]);
  const rows = frame.select(
    "author_username",
    "pitch_date",
    "added_on",
    "pitch_return_bucket_order",
  )
    .toRecords() as {
      author_username: string | null;
      pitch_date: Date | null;
      added_on: Date | null;
      pitch_return_bucket_order: number;
    }[];
  const added = rows.map((r) => dayOf(r.added_on));
  // the data's as-of is the catalog's, not the filter's: with a filter, its newest pitches too
  const filtered = Object.entries(params).some(([k, v]) =>
    v !== undefined && k !== "sort" && k !== "limit"
  );
  const newest = filtered ? await catalog.pitches({ sort: "post_date" }).take(50) : [];
  for (const r of newest) added.push(dayOf(new Date(`${r.added_on}T00:00:00Z`)));
  const latest = Math.max(...added.filter(Number.isFinite));
  const asOfDay = options.asOf
    ? dayOf(new Date(`${options.asOf}T00:00:00Z`))
    : Number.isFinite(latest)
    ? latest
    : dayOf(new Date());
  const asOf = dayText(asOfDay);
  if (Number.isFinite(latest) && asOfDay > latest) {
    const last = dayText(latest);
    throw new RangeError(
      `authorWinRates: asOf ${asOf} is after the data's as-of ${last} (the catalog's latest added_on); periods ending after ${last} have not ended in the data: leave asOf out or set it on or before ${last}`,
    );
  }
  // pitches whose period has ended by asOf, by author (a pitch meeting the floor is a win)
  const ended = rows.filter((r) => dayOf(r.pitch_date) + PERIOD_DAYS[period] <= asOfDay);
  const tally = [...Map.groupBy(ended, (r) => r.author_username ?? "(no author)")].map((
    [author_username, own],
  ) => ({
    author_username,
    pitches: own.length,
    wins: own.filter((r) => r.pitch_return_bucket_order >= 0).length,
  }));
  const counted = tally.filter((t) => t.pitches >= minPitches);
  const prior = fitBetaPrior(counted.map((t) => t.wins), counted.map((t) => t.pitches));
  // one row per author, in the frame's columns
  const kept = counted.map((t) => {
    const [win_rate_low, win_rate_high] = wilsonInterval(t.wins, t.pitches);
    const win_rate_shrunk = shrunkRate(t.wins, t.pitches, prior);
    return { ...t, win_rate: t.wins / t.pitches, win_rate_low, win_rate_high, win_rate_shrunk };
  }).sort((a, b) =>
    b.win_rate_shrunk - a.win_rate_shrunk || b.win_rate - a.win_rate ||
    b.pitches - a.pitches || (a.author_username < b.author_username ? -1 : 1)
  );
  return {
    frame: asFrame(buildFrame(COLUMN_SPECS, kept), false, isDemo(frame)),
    prior,
    requests: requests + (filtered ? 1 : 0),
    asOf,
    tooRecent: rows.length - ended.length,
    fewPitches: tally.length - kept.length,
    period,
    kind,
    minPitches,
  };
}
