/**
 * The pitch catalog's closed vocabularies: every enumerated parameter as a
 * TypeScript union or template-literal type, and the runtime list generated
 * from the same parts, so the type and the list cannot drift apart.
 *
 * Quality slug formats are "not shown" by the spec; signalbook (client and
 * emulator alike) uses:
 *
 * | type key            | slug                                        |
 * | ------------------- | ------------------------------------------- |
 * | `badge`             | `badge_elite`, `badge_rising`               |
 * | `author_return`     | `col_author_return_<AuthorReturn>`          |
 * | `win_rate`          | `win_rate_gte_<50/60/75>`                   |
 * | `pitch_return`      | `col_pitch_return_<PitchReturn>`            |
 * | `sentiment`         | `sentiment_<Sentiment>`                     |
 * | `position_decision` | `position_decision_<PositionDecision>`      |
 * | `premium`           | `premium_true`, `premium_false`             |
 *
 * @module
 */

/** Return periods of the author- and pitch-return filters. */
export const RETURN_PERIODS = ["6m", "1y", "2y"] as const;
/** A return period: `6m`, `1y` or `2y`. */
export type ReturnPeriod = typeof RETURN_PERIODS[number];
/** Return kinds: `abs` (absolute) or `excess` (versus the market). */
export const RETURN_KINDS = ["abs", "excess"] as const;
/** A return kind. */
export type ReturnKind = typeof RETURN_KINDS[number];
/** Author-return floors in percent, ascending. */
export const AUTHOR_RETURN_FLOORS = ["0", "10", "25", "50"] as const;
/** An author-return floor. */
export type AuthorReturnFloor = typeof AUTHOR_RETURN_FLOORS[number];
/**
 * Pitch-return floors, ascending. `pctN` means a return of at least N %;
 * `xN` means the price multiplied by N, i.e. a return of at least (N−1)·100 %
 * (so `x2` and `pct100` are the same threshold).
 */
export const PITCH_RETURN_FLOORS = [
  "pct0",
  "pct25",
  "pct50",
  "pct100",
  "x2",
  "x3",
  "x4",
  "x10",
] as const;
/** A pitch-return floor. */
export type PitchReturnFloor = typeof PITCH_RETURN_FLOORS[number];

/** An `authorReturn` value such as `1y_excess_gte_25` (24 values). */
export type AuthorReturn = `${ReturnPeriod}_${ReturnKind}_gte_${AuthorReturnFloor}`;
/** A `pitchReturn` value such as `2y_abs_gte_x2` (48 values). */
export type PitchReturn = `${ReturnPeriod}_${ReturnKind}_gte_${PitchReturnFloor}`;

function product<F extends string>(
  floors: readonly F[],
): `${ReturnPeriod}_${ReturnKind}_gte_${F}`[] {
  return RETURN_PERIODS.flatMap((p) =>
    RETURN_KINDS.flatMap((k) => floors.map((f) => `${p}_${k}_gte_${f}` as const))
  );
}

/** Every allowed `authorReturn` value, in period, kind, floor order. */
export const AUTHOR_RETURNS: readonly AuthorReturn[] = product(AUTHOR_RETURN_FLOORS);
/** Every allowed `pitchReturn` value, in period, kind, floor order. */
export const PITCH_RETURNS: readonly PitchReturn[] = product(PITCH_RETURN_FLOORS);

/** Author badges. */
export const AUTHOR_BADGES = ["elite", "rising"] as const;
/** An author badge. */
export type AuthorBadge = typeof AUTHOR_BADGES[number];
/** Win-rate floors in percent (authors with at least 8 pitches). */
export const WIN_RATE_FLOORS = ["50", "60", "75"] as const;
/** A win-rate floor. */
export type WinRateGte = typeof WIN_RATE_FLOORS[number];
/** Pitch sentiments. */
export const SENTIMENTS = ["bullish", "bearish", "neutral"] as const;
/** A pitch sentiment. */
export type Sentiment = typeof SENTIMENTS[number];
/** Extracted position actions. */
export const POSITION_DECISIONS = [
  "initiate_long",
  "initiate_short",
  "increase_long",
  "increase_short",
  "reduce_long",
  "reduce_short",
  "close_long",
  "close_short",
  "hold",
  "monitor",
  "pass_idea",
  "not_specified",
] as const;
/** A position action. */
export type PositionDecision = typeof POSITION_DECISIONS[number];
/** Pitch list sort orders. */
export const PITCH_SORTS = ["post_date", "pitch_returns", "investor_returns"] as const;
/** A pitch list sort order. */
export type PitchSort = typeof PITCH_SORTS[number];
/** Archived write-up formats, in default preference order. */
export const DOCUMENT_FORMATS = ["pdf", "mhtml", "md"] as const;
/** An archived write-up format. */
export type DocumentFormat = typeof DOCUMENT_FORMATS[number];
/** Values of the document `redirect` parameter. */
export const REDIRECT_VALUES = ["0", "1", "true", "false", "yes", "no"] as const;
/** Values of the document `disposition` parameter. */
export const DISPOSITIONS = ["attachment", "inline"] as const;
/** A content disposition. */
export type Disposition = typeof DISPOSITIONS[number];

/** Catalog tag type keys (open vocabularies served by `/tags`). */
export const CATALOG_TYPE_KEYS = [
  "market_cap",
  "sector_industry",
  "country_region",
  "pitch_category",
  "strategy",
  "content_format",
  "source",
] as const;
/** Quality and attribute tag type keys (closed vocabularies). */
export const QUALITY_TYPE_KEYS = [
  "badge",
  "author_return",
  "win_rate",
  "pitch_return",
  "sentiment",
  "position_decision",
  "premium",
] as const;
/** Every tag type key. */
export const TAG_TYPE_KEYS = [...CATALOG_TYPE_KEYS, ...QUALITY_TYPE_KEYS] as const;
/** A tag type key. */
export type TagTypeKey = typeof TAG_TYPE_KEYS[number];

/** Slug prefix of `author_return` tags. */
export const AUTHOR_RETURN_PREFIX = "col_author_return_";
/** Slug prefix of `pitch_return` tags. */
export const PITCH_RETURN_PREFIX = "col_pitch_return_";

/** The slug a typed quality value compiles to, per type key. */
export const qualitySlug = {
  badge: (v: AuthorBadge): string => `badge_${v}`,
  author_return: (v: AuthorReturn): string => AUTHOR_RETURN_PREFIX + v,
  win_rate: (v: WinRateGte): string => `win_rate_gte_${v}`,
  pitch_return: (v: PitchReturn): string => PITCH_RETURN_PREFIX + v,
  sentiment: (v: Sentiment): string => `sentiment_${v}`,
  position_decision: (v: PositionDecision): string => `position_decision_${v}`,
  premium: (v: boolean): string => `premium_${v}`,
} as const;

/** The closed slug list of every quality type key. */
export const QUALITY_SLUGS: Readonly<Record<typeof QUALITY_TYPE_KEYS[number], readonly string[]>> =
  {
    badge: AUTHOR_BADGES.map(qualitySlug.badge),
    author_return: AUTHOR_RETURNS.map(qualitySlug.author_return),
    win_rate: WIN_RATE_FLOORS.map(qualitySlug.win_rate),
    pitch_return: PITCH_RETURNS.map(qualitySlug.pitch_return),
    sentiment: SENTIMENTS.map(qualitySlug.sentiment),
    position_decision: POSITION_DECISIONS.map(qualitySlug.position_decision),
    premium: [true, false].map(qualitySlug.premium),
  };

/** Parsed form of an `authorReturn` or `pitchReturn` value. */
export interface ReturnFloor<F extends string> {
  /** Return period. */
  period: ReturnPeriod;
  /** Absolute or excess return. */
  kind: ReturnKind;
  /** The floor. */
  floor: F;
}

/**
 * The minimum return (in percent) a floor stands for.
 *
 * @example
 * ```ts
 * import { floorPercent } from "./vocab.ts";
 * floorPercent("x2"); // 100
 * floorPercent("25"); // 25
 * ```
 */
export function floorPercent(floor: AuthorReturnFloor | PitchReturnFloor): number {
  if (floor.startsWith("pct")) return Number(floor.slice(3));
  if (floor.startsWith("x")) return (Number(floor.slice(1)) - 1) * 100;
  return Number(floor);
}
