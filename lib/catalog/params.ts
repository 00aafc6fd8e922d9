/**
 * Request parameters of the pitch catalog: the TypeScript types a caller
 * writes and the zod schemas that check them. The emulator validates incoming
 * query strings with the same schemas, and the client validates before any
 * request, so both reject the same values with the same messages.
 *
 * @module
 */
import { z } from "npm:@hono/zod-openapi@1.6.3";
import {
  AUTHOR_BADGES,
  AUTHOR_RETURNS,
  type AuthorBadge,
  type AuthorReturn,
  type Disposition,
  DISPOSITIONS,
  DOCUMENT_FORMATS,
  type DocumentFormat,
  PITCH_RETURNS,
  PITCH_SORTS,
  type PitchReturn,
  type PitchSort,
  POSITION_DECISIONS,
  type PositionDecision,
  REDIRECT_VALUES,
  type Sentiment,
  SENTIMENTS,
  TAG_TYPE_KEYS,
  type TagTypeKey,
  WIN_RATE_FLOORS,
  type WinRateGte,
} from "./vocab.ts";
import {
  boolParam,
  intIn,
  isoDate,
  listParam,
  oneOf,
  ordered,
  type SameKeys,
  showValue,
  splitList,
} from "../shared/schema.ts";

/** Largest `companyId` the service accepts (2^53 − 1). */
export const MAX_COMPANY_ID = 9007199254740991;
/** Most `filterSetIds` one request may carry. */
export const MAX_FILTER_SET_IDS = 100;

/** Parameters of `GET /api/v1/pitches`. */
export interface PitchListParams {
  /** Page size, 1 to 50 (service default 20). */
  limit?: number;
  /** `next_cursor` of the previous page; only valid with the same `sort` and filters. */
  cursor?: string;
  /** Sort order (service default `post_date`). */
  sort?: PitchSort;
  /** Tag slugs; OR within a type, AND across types. */
  extraTags?: string[];
  /** Tag type keys whose `extraTags` slugs must NOT match. */
  extraTagsNoneOf?: TagTypeKey[];
  /** Author badges, ORed. */
  authorBadge?: AuthorBadge[];
  /** Author realized-return floors, ORed. */
  authorReturn?: AuthorReturn[];
  /** Author 1-year win-rate floors, ORed. */
  winRateGte?: WinRateGte[];
  /** Pitch return floors, ORed. */
  pitchReturn?: PitchReturn[];
  /** Sentiments, ORed. */
  sentiment?: Sentiment[];
  /** Position actions, ORed. */
  positionDecision?: PositionDecision[];
  /** Paywalled (`true`) or free (`false`) write-ups only. */
  isPremiumPitch?: boolean;
  /** Only authors the key owner follows. */
  followingOnly?: boolean;
  /** Author username without `@`. */
  authorUsername?: string;
  /** Company id from search, at most 2^53 − 1. */
  companyId?: number;
  /** Inclusive `YYYY-MM-DD` lower bound on `added_on`. */
  addedOnFrom?: string;
  /** Inclusive `YYYY-MM-DD` upper bound on `added_on`. */
  addedOnTo?: string;
  /** Saved filter set ids, ORed with each other; at most 100. */
  filterSetIds?: string[];
}

/**
 * What an `authorReturn` or `pitchReturn` value may be, for messages (the
 * schemas' and the families' parsers'), up to its list of floors.
 */
export const RETURN_SHAPE =
  "{period}_{kind}_gte_{floor} with period 6m|1y|2y, kind abs|excess, floor ";

/** Pitches a page when the request sets no `limit` (the spec's default). */
export const PITCH_PAGE_SIZE = 20;

/** zod schema of the pitch list query (strings as they arrive in a URL). */
export const PitchListQuery = z.object({
  limit: intIn(1, 50).optional().openapi({
    description: `Page size, 1 to 50, default ${PITCH_PAGE_SIZE}`,
  }),
  cursor: z.string().min(1, { error: "must not be empty" }).optional(),
  sort: oneOf(PITCH_SORTS).optional(),
  extraTags: listParam(z.string().min(1, { error: "a slug must not be empty" })),
  extraTagsNoneOf: listParam(oneOf(TAG_TYPE_KEYS)),
  authorBadge: listParam(oneOf(AUTHOR_BADGES)),
  authorReturn: listParam(
    oneOf(AUTHOR_RETURNS as [AuthorReturn, ...AuthorReturn[]], RETURN_SHAPE + "0|10|25|50"),
  ),
  winRateGte: listParam(oneOf(WIN_RATE_FLOORS)),
  pitchReturn: listParam(
    oneOf(
      PITCH_RETURNS as [PitchReturn, ...PitchReturn[]],
      RETURN_SHAPE + "pct0|pct25|pct50|pct100|x2|x3|x4|x10",
    ),
  ),
  sentiment: listParam(oneOf(SENTIMENTS)),
  positionDecision: listParam(oneOf(POSITION_DECISIONS)),
  isPremiumPitch: boolParam().optional(),
  followingOnly: boolParam().optional(),
  authorUsername: z.string().regex(/^[^@\s][^\s]*$/, {
    error: (i) => `${showValue(i.input)} is not allowed; allowed: a username without "@" or spaces`,
  }).optional(),
  companyId: intIn(1, MAX_COMPANY_ID).optional(),
  addedOnFrom: isoDate().optional(),
  addedOnTo: isoDate().optional(),
  filterSetIds: (z.preprocess(
    splitList,
    z.array(z.string().min(1, { error: "an id must not be empty" })).max(MAX_FILTER_SET_IDS, {
      error: (i) =>
        `${(i.input as unknown[]).length} ids is too many; allowed: at most ${MAX_FILTER_SET_IDS}`,
    }),
  ) as unknown as z.ZodType<string[]>).optional(),
  "x-hosting-protection-bypass": z.string().optional(),
}).strict().superRefine(ordered("addedOnFrom", "addedOnTo"));

// One shape, two forms: the typed parameters and the query schema name the
// same fields (the schema also admits the transport's bypass header copy).
const _pitchListShape: SameKeys<
  PitchListParams & { "x-hosting-protection-bypass"?: string },
  z.input<typeof PitchListQuery>
> = true;

/** Parameters of `GET /api/v1/pitches/{id}/document`. */
export interface DocumentParams {
  /** Write-up format; default is the best available (pdf, mhtml, md). Not with `artifact`. */
  format?: DocumentFormat;
  /** `attachment` to sign the linked attachment. Not with `format`. */
  artifact?: "attachment";
  /** Snapshot id; default the latest. */
  snapshot?: string;
  /** `inline` to open in the browser where the format allows; default `attachment`. */
  disposition?: Disposition;
}

/** zod schema of the document query. */
export const DocumentQuery = z.object({
  format: oneOf(DOCUMENT_FORMATS).optional(),
  artifact: oneOf(["attachment"]).optional(),
  snapshot: z.string().min(1, { error: "must not be empty" }).optional(),
  redirect: oneOf(REDIRECT_VALUES).optional(),
  disposition: oneOf(DISPOSITIONS).optional(),
  "x-hosting-protection-bypass": z.string().optional(),
}).strict().superRefine((q, ctx) => {
  if (q.format !== undefined && q.artifact !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["artifact"],
      message: `${showValue(q.artifact)} cannot be sent with format ${
        showValue(q.format)
      }; allowed: format or artifact, not both`,
    });
  }
});
