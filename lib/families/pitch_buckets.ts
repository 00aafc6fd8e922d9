/**
 * Pitch-side families: parsing and formatting of `authorReturn` /
 * `pitchReturn` values, and bucket loaders that annotate each pitch with the
 * highest floor it meets, using only documented filters.
 *
 * How the loaders keep requests down: they read the base query once (50 per
 * page). The `col_pitch_return_` and `col_author_return_` slug prefixes are
 * documented, so for every unlocked pitch the bucket is read from its
 * `slugs`; only locked pitches (whose slugs are cut to the sector) need the
 * floor filters, and those queries are narrowed with `isPremiumPitch: true`
 * (a locked pitch is always paywalled). Win-rate slugs are not documented,
 * so `winRateBuckets` asks one filtered query per floor. Every loader
 * reports the number of page requests it made.
 *
 * `below 0` (return buckets) or `below 50` (win-rate buckets: the lowest
 * win-rate floor is 50) means the pitch meets no floor: for returns, a
 * negative return or none realized yet (the service does not say which).
 *
 * @module
 */
import { isDemo, markDemo } from "../shared/demo.ts";
import pl from "../frames/_polars.ts";
import type { CatalogClient } from "../catalog/client.ts";
import { type PitchListParams, RETURN_SHAPE } from "../catalog/params.ts";
import type { PitchListRow } from "../catalog/types.ts";
import { pitchesFrame } from "../catalog/pitch_frames.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import {
  AUTHOR_RETURN_FLOORS,
  AUTHOR_RETURN_PREFIX,
  type AuthorReturnFloor,
  PITCH_RETURN_FLOORS,
  PITCH_RETURN_PREFIX,
  type PitchReturnFloor,
  type ReturnFloor,
  type ReturnKind,
  type ReturnPeriod,
  WIN_RATE_FLOORS,
} from "../catalog/vocab.ts";
import { RequestValidationError } from "../http/errors.ts";
import { notAllowed } from "../http/_validate.ts";

const SHAPE = /^(6m|1y|2y)_(abs|excess)_gte_(.+)$/;

function parseWith<F extends string>(
  param: string,
  value: string,
  floors: readonly F[],
): ReturnFloor<F> {
  const m = SHAPE.exec(value);
  if (!m || !(floors as readonly string[]).includes(m[3])) {
    throw new RequestValidationError([notAllowed(param, value, RETURN_SHAPE + floors.join("|"))]);
  }
  return { period: m[1] as ReturnPeriod, kind: m[2] as ReturnKind, floor: m[3] as F };
}

/**
 * Parses an `authorReturn` value.
 *
 * @example
 * ```ts
 * import { parseAuthorReturn } from "./pitch_buckets.ts";
 * parseAuthorReturn("1y_excess_gte_25"); // { period: "1y", kind: "excess", floor: "25" }
 * ```
 */
export function parseAuthorReturn(value: string): ReturnFloor<AuthorReturnFloor> {
  return parseWith("authorReturn", value, AUTHOR_RETURN_FLOORS);
}

/**
 * Parses a `pitchReturn` value.
 *
 * @example
 * ```ts
 * import { parsePitchReturn } from "./pitch_buckets.ts";
 * parsePitchReturn("2y_abs_gte_x2"); // { period: "2y", kind: "abs", floor: "x2" }
 * ```
 */
export function parsePitchReturn(value: string): ReturnFloor<PitchReturnFloor> {
  return parseWith("pitchReturn", value, PITCH_RETURN_FLOORS);
}

/**
 * Formats a return floor as the parameter value.
 *
 * @example
 * ```ts
 * import { formatReturnFloor } from "./pitch_buckets.ts";
 * formatReturnFloor({ period: "6m", kind: "abs", floor: "pct50" }); // "6m_abs_gte_pct50"
 * ```
 */
export function formatReturnFloor<F extends AuthorReturnFloor | PitchReturnFloor>(
  f: ReturnFloor<F>,
): `${ReturnPeriod}_${ReturnKind}_gte_${F}` {
  return `${f.period}_${f.kind}_gte_${f.floor}`;
}

/** The result of a bucket loader. */
export interface Buckets {
  /** The pitches frame plus `<name>_bucket` (floor label, or `below 0` / `below 50` for no floor met) and `<name>_bucket_order` (−1 for no floor, then ascending floors). */
  frame: Frame;
  /** Page requests made. */
  requests: number;
}

/** Which period and kind to bucket by: those of a return floor ({@link ReturnFloor}). */
export type BucketBy = Pick<ReturnFloor<string>, "period" | "kind">;

async function collect(
  catalog: CatalogClient,
  params: PitchListParams,
): Promise<{ rows: PitchListRow[]; requests: number }> {
  const pages = await Array.fromAsync(
    catalog.pitches({ ...params, limit: 50, cursor: undefined }).pages(),
    (page) => page.rows,
  );
  const rows = pages.flat();
  // the offline emulator's pages: the frame built from these rows is demo data
  if (pages.some(isDemo)) markDemo(rows);
  return { rows, requests: pages.length };
}

function annotate(
  rows: PitchListRow[],
  level: Map<string, number>,
  labels: readonly string[],
  name: string,
  bottom = "below 0",
): Frame {
  const base = pitchesFrame(rows);
  const order = rows.map((r) => level.get(r.pitch_id) ?? -1);
  const bucket = order.map((i) => i < 0 ? bottom : labels[i]);
  return asFrame(
    base.withColumns(
      pl.Series(`${name}_bucket`, bucket, pl.String),
      pl.Series(`${name}_bucket_order`, order, pl.Int64),
    ),
    false,
  );
}

/** The slug prefix, filter parameter and column name of the two return floors. */
const RETURN_BUCKETS = {
  pitch: { prefix: PITCH_RETURN_PREFIX, param: "pitchReturn", name: "pitch_return" },
  author: { prefix: AUTHOR_RETURN_PREFIX, param: "authorReturn", name: "author_return" },
} as const;

/**
 * Annotates each pitch with the highest of `floors` (ascending) it meets,
 * pitch return (default) or author return (`which`): a locked pitch costs
 * one filtered query per floor asked, so a caller that needs one floor
 * (`authorWinRates`: the 0 % pitch-return floor) asks for that one.
 */
export async function returnBuckets(
  catalog: CatalogClient,
  params: PitchListParams,
  by: BucketBy,
  floors: readonly string[],
  which: keyof typeof RETURN_BUCKETS = "pitch",
): Promise<Buckets> {
  const { prefix, param, name } = RETURN_BUCKETS[which];
  const base = await collect(catalog, params);
  let requests = base.requests;
  const level = new Map<string, number>();
  const slugs = floors.map((f) => `${prefix}${by.period}_${by.kind}_gte_${f}`);
  for (const r of base.rows) {
    if (r.pitch.is_locked) continue;
    const have = new Set(r.pitch.slugs);
    level.set(r.pitch_id, slugs.findLastIndex((s) => have.has(s)));
  }
  const locked = base.rows.some((r) => r.pitch.is_locked);
  if (locked && params.isPremiumPitch !== false) {
    for (let i = 0; i < floors.length; i++) {
      const value = `${by.period}_${by.kind}_gte_${floors[i]}`;
      const got = await collect(catalog, {
        ...params,
        isPremiumPitch: true,
        [param]: [value],
      } as PitchListParams);
      requests += got.requests;
      if (got.rows.length === 0) break; // higher floors are subsets: nothing more to find
      for (const r of got.rows) if (r.pitch.is_locked) level.set(r.pitch_id, i);
    }
  }
  return { frame: annotate(base.rows, level, floors, name), requests };
}

/**
 * Annotates each pitch matching `params` with the highest pitch-return
 * floor it meets for a period and kind.
 *
 * @example
 * ```ts
 * import { connect, pitchReturnBuckets } from "../../mod.ts";
 * const { catalog } = await connect();
 * const { frame, requests } = await pitchReturnBuckets(catalog, { sentiment: ["bullish"] }, { period: "1y", kind: "abs" });
 * console.log(frame.columns.includes("pitch_return_bucket"), requests);
 * ```
 */
export function pitchReturnBuckets(
  catalog: CatalogClient,
  params: PitchListParams,
  by: BucketBy,
): Promise<Buckets> {
  return returnBuckets(catalog, params, by, PITCH_RETURN_FLOORS);
}

/**
 * Annotates each pitch with the highest author-return floor its author meets.
 *
 * @example
 * ```ts
 * import { authorReturnBuckets, connect } from "../../mod.ts";
 * const { catalog } = await connect();
 * const { frame } = await authorReturnBuckets(catalog, {}, { period: "1y", kind: "excess" });
 * ```
 */
export function authorReturnBuckets(
  catalog: CatalogClient,
  params: PitchListParams,
  by: BucketBy,
): Promise<Buckets> {
  return returnBuckets(catalog, params, by, AUTHOR_RETURN_FLOORS, "author");
}

/**
 * Annotates each pitch with the highest author win-rate floor (50, 60, 75)
 * its author meets, with one filtered query per floor (win-rate slugs are
 * not documented), stopping early when a floor matches nothing.
 *
 * @example
 * ```ts
 * import { connect, winRateBuckets } from "../../mod.ts";
 * const { catalog } = await connect();
 * const { frame, requests } = await winRateBuckets(catalog, { sentiment: ["bullish"] });
 * ```
 */
export async function winRateBuckets(
  catalog: CatalogClient,
  params: PitchListParams,
): Promise<Buckets> {
  const base = await collect(catalog, params);
  let requests = base.requests;
  const level = new Map<string, number>();
  for (let i = 0; i < WIN_RATE_FLOORS.length; i++) {
    const got = await collect(catalog, { ...params, winRateGte: [WIN_RATE_FLOORS[i]] });
    requests += got.requests;
    if (got.rows.length === 0) break;
    for (const r of got.rows) level.set(r.pitch_id, i);
  }
  return {
    frame: annotate(base.rows, level, WIN_RATE_FLOORS, "win_rate", `below ${WIN_RATE_FLOORS[0]}`),
    requests,
  };
}
