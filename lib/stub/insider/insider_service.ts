/**
 * The emulated insider-trades service (mounted at `/insider`): every endpoint
 * of `spec/insider-trades-api.md`, validated with the shared zod schemas that
 * also generate its OpenAPI 3.1 description at `/api/v1/openapi.json`.
 *
 * Shapes where the spec says "not shown" (the default dialect; `dialect.ts`
 * lists the alternatives `createStub({ dialect })` serves instead):
 * - `/insiders`: `{ data: [{ cik, name, issuers: [{ cik, name, ticker }],
 *   titles, trade_count, latest_filed_at }] }`, best match first; `q` is
 *   required, `limit` is 1 to 50 (default 10).
 * - `/feeds`: `{ data: [{ accession_number, transaction_id, filed_at }],
 *   next_cursor, has_more }`, newest filing first; `next_cursor` is null on
 *   the last page; `feed_id` may also be comma-separated. A trade in several
 *   requested feeds appears once.
 * - `/search`: `nextCursor` is null on the last page, `prevCursor` null on
 *   the first; rows carry every catalog field in camelCase
 *   (`win_rate_bullish_3m_wins` → `winRateBullish3mWins`).
 * - `/transactions/{a}/{t}`: a `transactionId` that is not a positive integer
 *   is simply not found (`404`); `fields=` keeps catalog order, and an empty
 *   `fields=` means the default set.
 *
 * @module
 */
import { OpenAPIHono, z } from "npm:@hono/zod-openapi@1.6.3";
import { LRUCache } from "npm:lru-cache@11.5.4";
import { isTransactionField, TRANSACTION_FIELDS } from "../../insider/fields.ts";
import type { ValueType } from "../../shared/values/mod.ts";
import { InsiderSearchBody } from "../../insider/filter.ts";
import { showValue } from "../../shared/schema.ts";
import { FeedsQuery, InsidersQuery } from "../../insider/params.ts";
import { Pages } from "../cursor.ts";
import { DEFAULT_DIALECT, type Dialect } from "../dialect.ts";
import { searchKey } from "../search_keys.ts";
import { registerDocs } from "../openapi.ts";
import { list } from "../words.ts";
import { fuzzy } from "../fuzzy.ts";
import { badRequest, fail, unknownValues } from "../problem.ts";
import { check, rawQuery } from "../query_check.ts";
import type { World } from "../world.ts";
import type { InsiderData, Trade } from "./insider_data.ts";
import { filedBetween, searchTrades, sectorTest, withDefaults } from "./search.ts";
import { fieldsOf, rowTextWriter } from "./stored_trades.ts";
import { dayOf } from "../calendar.ts";

/** What the insider service needs. */
export interface InsiderContext {
  /** The world. */
  world: World;
  /** The insider data. */
  data: InsiderData;
  /** Secret for cursors. */
  secret: string;
  /** The dialect to answer in (default: the default dialect). */
  dialect?: Dialect;
  /** Most serialized rows kept for pages asked for again (default {@link SERIALIZED_KEPT}). */
  keepServedRows?: number;
}

const DetailQuery = z.object({
  fields: z.string().optional().openapi({
    description: "Comma-separated snake_case field names; feed_ids is always included",
  }),
  "x-hosting-protection-bypass": z.string().optional(),
}).strict();

/**
 * A field's schema by its value type: a total map, so a value type added
 * without its schema here fails `deno task check`.
 */
const ZOD_OF: Record<ValueType, () => z.ZodType> = {
  date: () => z.string().nullable(),
  timestamp: () => z.string().nullable(),
  decimal: () => z.number().nullable(),
  integer: () => z.number().int().nullable(),
  boolean: () => z.boolean().nullable(),
  code: () => z.string().nullable(),
  list: () => z.array(z.number().int()),
  text_list: () => z.array(z.string()),
};

const Transaction = z.object(
  Object.fromEntries(TRANSACTION_FIELDS.map((f) => [f.name, ZOD_OF[f.type]()])),
).passthrough().openapi("Transaction");

function searchEnvelope(d: Dialect) {
  const row = z.object(
    Object.fromEntries(TRANSACTION_FIELDS.map((f) => [searchKey(f, d), ZOD_OF[f.type]()])),
  ).passthrough().openapi("SearchRow");
  return z.object({
    data: z.array(row),
    nextCursor: z.string().nullable(),
    prevCursor: z.string().nullable(),
    hasMore: z.boolean(),
  }).openapi("SearchEnvelope");
}

function feedList(d: Dialect) {
  const rows = z.array(z.object({
    accession_number: z.string(),
    transaction_id: z.number().int(),
    filed_at: z.string(),
  }));
  const cursor = z.string().openapi({ description: "Absent on the last page" });
  return z.object({
    [d.feedContainer]: rows,
    next_cursor: d.feedLastCursor === "null" ? z.string().nullable() : cursor.optional(),
    ...(d.feedHasMore === "has_more" ? { has_more: z.boolean() } : {}),
  }).openapi("FeedList");
}

/** The keys of a lookup hit's CIK, name, trade count and latest filing, per dialect. */
const LOOKUP_KEYS = {
  "cik-name": list("cik, name, trade_count, latest_filed_at"),
  "reporting-owner": list(
    "reporting_owner_cik, reporting_owner_name, trade_count, latest_filed_at",
  ),
  "camel": list("reportingOwnerCik, reportingOwnerName, tradeCount, latestFiledAt"),
};

function insiderList(d: Dialect) {
  const [cik, name, count, latest] = LOOKUP_KEYS[d.lookupFields];
  const hits = z.array(z.object({
    [cik]: z.string(),
    [name]: z.string(),
    issuers: z.array(z.object({ cik: z.string(), name: z.string(), ticker: z.string() })),
    titles: z.array(z.string()),
    [count]: z.number().int(),
    [latest]: z.string().nullable(),
  }));
  return (d.lookupEnvelope === "bare" ? hits : z.object({ [d.lookupEnvelope]: hits }))
    .openapi("InsiderList");
}
const TxParams = z.object({ accessionNumber: z.string().min(1), transactionId: z.string().min(1) });

/** Most serialized rows the insider service keeps for pages asked for again, by default. */
export const SERIALIZED_KEPT = 5_000;

/** Builds the insider service app. */
export function insiderService(ctx: InsiderContext): OpenAPIHono {
  const { world, data } = ctx;
  const d = ctx.dialect ?? DEFAULT_DIALECT;
  const app = new OpenAPIHono();
  const pages = new Pages<Trade>("insider:" + ctx.secret, 16);
  // Serialized camelCase rows of the pages served last, up to SERIALIZED_KEPT of them (about
  // 4 KB each): a page asked for again (a retry, a second pull of the same window) is joined
  // from strings, while a full pull of the world does not keep every row's text alive in the
  // process that pulls it (the in-process emulator would keep all 23,000, about 95 MB).
  // (the least recently served go first: `lru-cache`, whose own index finds them in constant
  // time, where a Map's first key is found by skipping the holes its deletions left)
  const kept = ctx.keepServedRows ?? SERIALIZED_KEPT;
  const serialized = kept === 0
    ? undefined
    : Number.isFinite(kept)
    ? new LRUCache<Trade, string>({ max: Math.ceil(kept) })
    : new Map<Trade, string>();
  // a stored trade's text is written from its columns (no row object, no value made), each
  // field under its search key, in catalog order
  const rowJson = rowTextWriter(TRANSACTION_FIELDS.map((f) => [f.name, searchKey(f, d)]));
  const camelJson = (t: Trade): string => {
    let s = serialized?.get(t);
    if (s === undefined) {
      s = rowJson(t);
      serialized?.set(t, s);
    }
    return s;
  };
  // the lookup's index and counts are built at the first lookup (a search needs neither)
  const lookup = () => {
    const stats = data.insiders.map(() => ({ count: 0, latest: 0 }));
    for (const t of data.trades) {
      const s = stats[t.insider];
      s.count++;
      s.latest = Math.max(s.latest, t.filedMs);
    }
    const people = data.insiders.map((ins, i) => ({
      i,
      name: ins.name,
      natural: ins.name.split(" ").slice(1).concat(ins.name.split(" ")[0]).join(" "),
      cik: ins.cik,
    }));
    return { stats, fuse: fuzzy(people, ["name", "natural", "cik"], 0.3) };
  };
  let looked: ReturnType<typeof lookup> | undefined;

  registerDocs(app, "Insider Trades API", [
    {
      path: "/insiders",
      summary: "Resolve a reporting owner by name",
      query: InsidersQuery,
      body: insiderList(d),
    },
    {
      path: "/search",
      method: "post",
      summary: "Search insider trades",
      requestBody: InsiderSearchBody,
      body: searchEnvelope(d),
    },
    { path: "/feeds", summary: "Curated feed rows", query: FeedsQuery, body: feedList(d) },
    {
      path: "/transactions/{accessionNumber}/{transactionId}",
      summary: "One enriched transaction",
      params: TxParams,
      query: DetailQuery,
      body: Transaction,
    },
  ], d);

  app.get("/api/v1/insiders", (c) => {
    const q = check(InsidersQuery, rawQuery(c));
    const { stats, fuse } = looked ??= lookup();
    const hits = fuse.search(q.q, { limit: q.limit ?? 10 });
    const [cik, name, count, latest] = LOOKUP_KEYS[d.lookupFields];
    const list = hits.map(({ item }) => {
      const ins = data.insiders[item.i];
      const co = world.companies[ins.company];
      const s = stats[item.i];
      return {
        [cik]: ins.cik,
        [name]: ins.name,
        issuers: [{ cik: co.cik, name: co.name, ticker: co.ticker }],
        titles: [ins.title],
        [count]: s.count,
        [latest]: s.count ? new Date(s.latest).toISOString() : null,
      };
    });
    return c.json(d.lookupEnvelope === "bare" ? list : { [d.lookupEnvelope]: list });
  });

  app.post("/api/v1/search", async (c) => {
    let body: unknown;
    const text = await c.req.text();
    try {
      body = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      badRequest(`body: not valid JSON; allowed: an object with "filter" and "pagination"`);
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      badRequest(`body: ${showValue(body)} is not an object; allowed: { filter, pagination }`);
    }
    const { filter: given, pagination } = check(InsiderSearchBody, body);
    const filter = withDefaults(given);
    const page = pages.page({
      cursor: pagination?.cursor,
      sort: `${filter.sortBy}:${filter.sortDirection}`,
      query: filter,
      limit: pagination?.pageSize ?? 100,
      make: () => searchTrades(data.trades, filter, world),
    });
    if ("error" in page) badRequest(`pagination.cursor: ${page.error}`);
    const { next, prev, hasMore } = page;
    return c.body(
      `{"data":[${page.rows.map(camelJson).join(",")}],"nextCursor":${
        JSON.stringify(next)
      },"prevCursor":${JSON.stringify(prev)},"hasMore":${hasMore}}`,
      200,
      { "content-type": "application/json" },
    );
  });

  app.get("/api/v1/feeds", (c) => {
    const q = check(FeedsQuery, rawQuery(c));
    const { cursor: _c, limit: _l, "x-hosting-protection-bypass": _x, ...filters } = q;
    const ids = new Set(q.feed_id);
    const page = pages.page({
      cursor: q.cursor,
      sort: "filedAt",
      query: { ...filters, feed_id: [...ids].sort((a, b) => a - b) },
      limit: q.limit ?? 10,
      make: () => {
        const ticker = q.ticker?.toUpperCase();
        const inSector = q.sector === undefined ? () => true : sectorTest(q.sector, world);
        const inRange = filedBetween(
          data.trades,
          q.from === undefined ? undefined : dayOf(q.from),
          q.to === undefined ? undefined : dayOf(q.to),
        );
        return inRange.filter((t) => {
          const r = fieldsOf(t);
          return r.feed_ids.some((f) => ids.has(f)) && (!ticker || r.ticker_symbol === ticker) &&
            inSector(t, r);
        });
      },
    });
    if ("error" in page) badRequest(`cursor: ${page.error}`);
    const body: Record<string, unknown> = {
      [d.feedContainer]: page.rows.map((t) => {
        const { accession_number, transaction_id, filed_at } = fieldsOf(t);
        return { accession_number, transaction_id, filed_at };
      }),
    };
    if (page.next !== null || d.feedLastCursor === "null") body.next_cursor = page.next;
    if (d.feedHasMore === "has_more") body.has_more = page.hasMore;
    return c.json(body);
  });

  app.get("/api/v1/transactions/:accessionNumber/:transactionId", (c) => {
    const { fields } = check(DetailQuery, rawQuery(c));
    const { accessionNumber, transactionId } = c.req.param();
    const t = /^\d{1,9}$/.test(transactionId)
      ? data.byKey.get(`${accessionNumber}/${Number(transactionId)}`)
      : undefined;
    const names = (fields ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
    const unknown = names.filter((n) => !isTransactionField(n));
    if (unknown.length) {
      unknownValues("fields", "field", unknown, "snake_case names of the transaction catalog");
    }
    if (!t) {
      fail(
        404,
        "not-found",
        `transaction ${showValue(accessionNumber)}/${showValue(transactionId)} does not exist`,
      );
    }
    // the live view: a stored trade's row is read from its columns for this answer, not kept
    const row = fieldsOf(t) as unknown as Record<string, unknown>;
    if (names.length === 0) return c.json(row);
    const want = new Set([...names, "feed_ids"]);
    return c.json(Object.fromEntries(
      TRANSACTION_FIELDS.filter((f) => want.has(f.name)).map((f) => [f.name, row[f.name]]),
    ));
  });

  return app;
}
