/**
 * Query schemas of the insider service's GET endpoints (feeds and insider
 * lookup), shared by the client's pre-network checks and the emulator.
 *
 * @module
 */
import { z } from "npm:@hono/zod-openapi@1.6.3";
import { FEED_IDS, INSIDER_SECTORS } from "./feeds.ts";
import { intIn, isoDate, ordered, showValue, splitList } from "../shared/schema.ts";

const FEED_LIST = FEED_IDS.join(", ");
/** Whether `s` is a sector slug or an industry id (the feeds' `sector`, and the search filter's). */
export const SECTOR_CHECK = (s: string): boolean =>
  /^\d{1,12}$/.test(s) || (INSIDER_SECTORS as readonly string[]).includes(s);

/** Feed rows a page when the request sets no `limit` (the spec's default). */
export const FEED_PAGE_SIZE = 10;

/** zod schema of `GET /feeds`. */
export const FeedsQuery = z.object({
  feed_id: z.preprocess(
    splitList,
    z.array(
      intIn(1, 18).refine((n) => (FEED_IDS as readonly number[]).includes(n), {
        error: (i) => `${showValue(i.input)} is not a feed id; allowed: ${FEED_LIST}`,
      }),
      { error: () => `is required; allowed: one or more of ${FEED_LIST}` },
    ).min(1, { error: () => `is required; allowed: one or more of ${FEED_LIST}` }),
  ).openapi({ type: "array", items: { type: "integer" } }),
  limit: intIn(1, 25).optional().openapi({ description: `1 to 25, default ${FEED_PAGE_SIZE}` }),
  cursor: z.string().min(1, { error: "must not be empty" }).optional(),
  ticker: z.string().regex(/^[A-Za-z0-9.\-]{1,10}$/, {
    error: (i) => `${showValue(i.input)} is not allowed; allowed: a ticker symbol`,
  }).optional(),
  from: isoDate().optional(),
  to: isoDate().optional(),
  sector: z.string().refine(SECTOR_CHECK, {
    error: (i) =>
      `${showValue(i.input)} is not allowed; allowed: ${
        INSIDER_SECTORS.join(", ")
      } or an industry id`,
  }).optional(),
  "x-hosting-protection-bypass": z.string().optional(),
}).strict().superRefine(ordered("from", "to"));

/** zod schema of `GET /insiders`. */
export const InsidersQuery = z.object({
  q: z.string({ error: () => "is required; allowed: a reporting owner's name" }).trim()
    .min(1, { error: () => "must not be empty; allowed: a reporting owner's name" })
    .max(200, {
      error: (i) => `${showValue(i.input)} is too long; allowed: at most 200 characters`,
    }),
  limit: intIn(1, 50).optional().openapi({ description: "1 to 50, default 10" }),
}).passthrough();
