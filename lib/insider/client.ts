/**
 * The insider-trades client: owner lookup, trade search, curated feeds (by id
 * or by named topic and side), transaction detail and bounded-concurrency
 * hydration of feed rows. Every parameter is typed and checked before a
 * request is sent.
 *
 * Client-side checks beyond the service's own rules (the service would
 * silently ignore these, which is never what a caller meant): a trade-return
 * bound without `tradeReturnPeriod`, and a min above its max.
 *
 * @module
 */
import { warnedPages } from "../http/_envelope.ts";
import { type CallOptions, ServiceClient } from "../http/service_client.ts";
import { appendReleasing, asFrame, type Frame, type FramedList } from "../frames/list.ts";
import { checkCount, listOf, type ParallelListOptions } from "../frames/windowed_list.ts";
import {
  feedKey,
  type FeedSender,
  feedWindows,
  searchKey,
  type SearchSender,
  searchWindows,
} from "./_windows.ts";
import { Progress } from "../http/progress_hook.ts";
import {
  DETAIL_ROW_TYPING,
  FEED_ROW_TYPING,
  feedSink,
  SEARCH_ROW_TYPING,
  transactionsSink,
} from "./transaction_frames.ts";
import { typeRows } from "../frames/typed_rows.ts";
import { traceDemoIfLoaded } from "../frames/_demo_trace.ts";
import { listId } from "../http/windows.ts";
import { dtypeName } from "../frames/dtypes.ts";
import { mapPool, type PoolFailure } from "../http/pool.ts";
import { callGroup } from "../http/retry.ts";
import { RequestValidationError } from "../http/errors.ts";
import { pageSizeFor } from "../http/paginate.ts";
import { asQuery, notAllowed, validate } from "../http/_validate.ts";
import { showValue, type ValidationIssue } from "../shared/schema.ts";
import { checkColumns, describeInput, isFrame, wrongInput } from "../shared/wrong_input.ts";
import { didYouMean } from "../shared/suggest.ts";
import { markDemo } from "../shared/demo.ts";
import {
  FEED_IDS,
  FEED_SIDES,
  FEED_TOPIC_NAMES,
  FEED_TOPICS,
  type FeedId,
  type FeedRow,
  type FeedSide,
  type FeedTopic,
  type InsiderSector,
} from "./feeds.ts";
import { isTransactionField, type TransactionField, type TransactionRow } from "./fields.ts";
import {
  type InsiderFilter,
  InsiderSearchBody,
  parseAmount,
  parsePercent,
  SEARCH_PAGE_SIZE,
} from "./filter.ts";
import { FEED_PAGE_SIZE, FeedsQuery, InsidersQuery } from "./params.ts";
import type { ClientOptions } from "../http/transport.ts";
import {
  feedPage,
  type InsiderHit,
  insiderHits,
  insiderProblem,
  searchPage,
  transactionDetail,
} from "./_envelopes.ts";

/** camelCase form of a snake_case name, as a type. */
export type Camel<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<Camel<T>>}`
  : S;

/** A search row: every transaction field in camelCase (`winRateBullish3mWins`). */
export type SearchRow = { [K in keyof TransactionRow as Camel<K & string>]: TransactionRow[K] };

export type { InsiderHit };

/** Parameters of {@link InsiderClient.feeds}. */
export interface FeedsParams {
  /** Feed ids (1–18). */
  feedIds?: FeedId[];
  /** Named feeds, e.g. `[["ceo-trades", "buy"]]`. */
  feeds?: [FeedTopic, FeedSide][];
  /** Page size, 1 to 25 (service default 10). */
  limit?: number;
  /** Ticker filter. */
  ticker?: string;
  /** Inclusive filing date lower bound `YYYY-MM-DD`. */
  from?: string;
  /** Inclusive filing date upper bound `YYYY-MM-DD`. */
  to?: string;
  /** Sector slug or industry id. */
  sector?: InsiderSector | `${number}`;
}

/** Options of {@link InsiderClient.hydrate}. */
export interface HydrateOptions {
  /** Requests in flight at once (default 8, at most 64). */
  concurrency?: number;
  /** Fields to fetch (default the full product set). */
  fields?: TransactionField[];
  /** Called after each row settles. */
  onProgress?: (done: number, total: number) => void;
  /** Show live progress (default true: in a notebook or on a terminal; silent otherwise). */
  progress?: boolean;
  /** Abort signal. */
  signal?: AbortSignal;
  /** Rows with the server's values as sent (`hydrate` only; default false: typed). */
  raw?: boolean;
}

/** Result of {@link InsiderClient.hydrate}: rows in input order, and what failed. */
export interface Hydrated {
  /** Hydrated transactions, in the order of the input (failed ones left out). */
  rows: TransactionRow[];
  /**
   * Rows that could not be hydrated after retries, with the error: `index`
   * in the input, `item` the row given (a search row or frame row as its
   * trade keys, `accession_number`, `transaction_id`, `filed_at`).
   */
  failed: PoolFailure<FeedRow>[];
}

/** Result of {@link InsiderClient.hydrateFrame}: the typed frame, and what failed. */
export interface HydratedFrame {
  /** Hydrated transactions as a typed frame, in input order (failed ones left out). */
  frame: Frame;
  /** Rows that could not be hydrated after retries, with the error (as in {@link Hydrated}). */
  failed: PoolFailure<FeedRow>[];
}

/** Details fetched per window of {@link InsiderClient.hydrateFrame} before they go into the frame. */
const HYDRATE_WINDOW = 512;

/**
 * The id of a named feed, or undefined with an issue in `issues` for its
 * topic and its side, each under the parameter the caller wrote (`params`).
 */
function namedFeed(
  topic: FeedTopic,
  side: FeedSide,
  params: [string, string],
  issues: ValidationIssue[],
): FeedId | undefined {
  const issue = (param: string, value: unknown, what: string, allowed: readonly string[]) =>
    issues.push({
      param,
      value,
      message: `${showValue(value)} is ${what}${didYouMean(value, allowed)}; allowed: ${
        allowed.join(", ")
      }`,
    });
  if (!FEED_TOPIC_NAMES.includes(topic)) {
    issue(params[0], topic, "not a feed topic", FEED_TOPIC_NAMES);
  }
  if (!FEED_SIDES.includes(side)) issue(params[1], side, "not allowed", FEED_SIDES);
  return FEED_TOPICS[topic]?.[side];
}

function filterIssues(f: InsiderFilter): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const period = f.tradeReturnPeriod ?? "";
  for (const k of ["tradeReturnMin", "tradeReturnMax"] as const) {
    if ((f[k] ?? "") !== "" && period === "") {
      out.push(
        notAllowed(
          `filter.${k}`,
          f[k],
          "a bound only together with filter.tradeReturnPeriod (1W…2Y, latest)",
        ),
      );
    }
  }
  const pairs: [keyof InsiderFilter, keyof InsiderFilter, (s: string) => number | undefined][] = [
    ["marketCapMin", "marketCapMax", parseAmount],
    ["purchaseMin", "purchaseMax", parseAmount],
    ["insiderReturnMin", "insiderReturnMax", parsePercent],
    ["tradeReturnMin", "tradeReturnMax", parsePercent],
    ["percentChangeMin", "percentChangeMax", parsePercent],
  ];
  for (const [lo, hi, parse] of pairs) {
    const a = typeof f[lo] === "string" ? parse(f[lo] as string) : undefined;
    const b = typeof f[hi] === "string" ? parse(f[hi] as string) : undefined;
    if (a !== undefined && b !== undefined && a > b) {
      out.push(notAllowed(`filter.${lo}`, f[lo], `at most filter.${hi} (${showValue(f[hi])})`));
    }
  }
  return out;
}

/**
 * Client of the insider-trades service.
 *
 * @example
 * ```ts
 * import { connect } from "../../mod.ts";
 * const { insider } = await connect();
 * const feed = insider.feed("ceo-trades", "buy", { from: "2025-01-01" });
 * const { rows, failed } = await insider.hydrate(await feed.take(20), { concurrency: 8 });
 * console.log(rows.length, failed.length);
 * ```
 */
export class InsiderClient extends ServiceClient {
  /** Creates a client (see `ClientOptions`); error answers are read by this service's status table. */
  constructor(opts: ClientOptions) {
    super(opts, insiderProblem);
    traceDemoIfLoaded(); // your own nodejs-polars, if already evaluated, marks frames of demo rows
  }

  /** Reporting owners matching a name, with their CIKs. */
  async insiders(q: string, opts: { limit?: number } & CallOptions = {}): Promise<InsiderHit[]> {
    const query = { q, limit: opts.limit };
    validate(InsidersQuery, asQuery(query));
    return await this.get({ path: "/insiders", query, signal: opts.signal }, insiderHits);
  }

  /**
   * Trades matching a filter (defaults as the spec says), as a lazy list of
   * camelCase rows. Checked now; fetched when iterated.
   */
  search(
    filter: InsiderFilter = {},
    opts: { pageSize?: number } & ParallelListOptions = {},
  ): FramedList<SearchRow> {
    const body = { filter, pagination: { pageSize: opts.pageSize } };
    validate(InsiderSearchBody, body, filterIssues(filter));
    const read = warnedPages("POST /search", searchPage<SearchRow>);
    const send: SearchSender<SearchRow> = (f, cursor, signal, size = opts.pageSize) =>
      this.transport.read({
        method: "POST",
        path: "/search",
        body: { filter: f, pagination: { cursor, ...(size ? { pageSize: size } : {}) } },
        signal,
      }, read(size ?? SEARCH_PAGE_SIZE));
    return listOf<SearchRow>(
      (cursor, signal, want) =>
        send(filter, cursor, signal, pageSizeFor(opts.pageSize, want, SEARCH_PAGE_SIZE)),
      { sink: transactionsSink, demo: () => this.demo, key: searchKey, rows: SEARCH_ROW_TYPING },
      opts,
      searchWindows(filter, opts.pageSize, send),
    );
  }

  /** Rows of curated feeds, by id or by named topic and side. */
  feeds(params: FeedsParams, opts: ParallelListOptions = {}): FramedList<FeedRow> {
    const issues: ValidationIssue[] = [];
    const named = (params.feeds ?? []).map(([topic, side], i) =>
      namedFeed(topic, side, [`feeds.${i}`, `feeds.${i}`], issues)
    ).filter((x): x is FeedId => x !== undefined);
    // the wire's `cursor` is the list's to send: one given here would be dropped in silence
    const { feedIds = [], feeds: _named, cursor, ...rest } = params as FeedsParams & {
      cursor?: unknown;
    };
    if (cursor !== undefined) {
      issues.push(notAllowed("cursor", cursor, "the list option { cursor }"));
    }
    const query = { feed_id: [...feedIds, ...named], ...rest };
    // a mistyped topic is the whole story: no extra "feed_id is required"
    // for the list it left empty (one valid id stands in for it in the check)
    const checked = issues.length > 0 && query.feed_id.length === 0
      ? { ...query, feed_id: [FEED_IDS[0]] }
      : query;
    validate(FeedsQuery, asQuery(checked), issues);
    const read = warnedPages("GET /feeds", feedPage);
    const send: FeedSender = (range, cursor, signal, size) =>
      this.get({
        path: "/feeds",
        query: { ...query, ...range, limit: size ?? query.limit, cursor: cursor ?? undefined },
        signal,
      }, read(size ?? query.limit ?? FEED_PAGE_SIZE));
    const own = { from: query.from, to: query.to };
    return listOf<FeedRow>(
      (cursor, signal, want) =>
        send(own, cursor, signal, pageSizeFor(query.limit, want, FEED_PAGE_SIZE)),
      { sink: feedSink, demo: () => this.demo, key: feedKey, rows: FEED_ROW_TYPING },
      opts,
      feedWindows(own, query.limit, send, listId("GET /feeds", query)),
    );
  }

  /** One named feed: `feed("ceo-trades", "buy")` is feed id 17. */
  feed(
    topic: FeedTopic,
    side: FeedSide,
    params: Omit<FeedsParams, "feedIds" | "feeds"> = {},
    opts: ParallelListOptions = {},
  ): FramedList<FeedRow> {
    // name the argument the caller wrote (`side`, `topic`), not the feeds list it becomes
    const issues: ValidationIssue[] = [];
    namedFeed(topic, side, ["topic", "side"], issues);
    if (issues.length) throw new RequestValidationError(issues);
    return this.feeds({ ...params, feeds: [[topic, side]] }, opts);
  }

  /**
   * One enriched transaction; `fields` selects columns (`feed_ids` always
   * comes). Its values are read by the value grammars (`raw: true`: as the
   * server sent them).
   */
  async transaction(
    accessionNumber: string,
    transactionId: string | number,
    opts: { fields?: TransactionField[]; raw?: boolean } & CallOptions = {},
  ): Promise<TransactionRow> {
    const issues: ValidationIssue[] = [];
    if (typeof accessionNumber !== "string" || accessionNumber === "") {
      issues.push(notAllowed("accessionNumber", accessionNumber, "a filing accession number"));
    }
    if (String(transactionId ?? "") === "") {
      issues.push(notAllowed("transactionId", transactionId, "a transaction id"));
    }
    for (const f of opts.fields ?? []) {
      if (!isTransactionField(f)) {
        issues.push(notAllowed("fields", f, "names of the transaction field catalog"));
      }
    }
    if (issues.length) throw new RequestValidationError(issues);
    return await this.get({
      path: `/transactions/${encodeURIComponent(accessionNumber)}/${
        encodeURIComponent(String(transactionId))
      }`,
      query: { fields: opts.fields?.length ? opts.fields.join(",") : undefined },
      signal: opts.signal,
    }, (body) => {
      const row = transactionDetail(body);
      return opts.raw ? row : typeRows(DETAIL_ROW_TYPING, [row])[0];
    });
  }

  /**
   * Fetches the detail of every trade of `input` with at most `concurrency`
   * requests in flight. `input` is what the library gives: feed rows
   * (`feed(...).take(n)`), search rows (`search(...).take(n)`, camelCase),
   * detail rows, or a frame with `accession_number` and `transaction_id`
   * (`search(...).frame()`); each gives the same result as the rows it was
   * built from. Anything else is a `TypeError` naming what was given. Each
   * request is retried by the transport; rows that still fail are returned
   * in `failed` (with their input index and trade keys) instead of
   * aborting the rest.
   */
  async hydrate(input: HydrateInput, opts: HydrateOptions = {}): Promise<Hydrated> {
    const rows: TransactionRow[] = [];
    const failed = await this.#details("hydrate", input, opts, Infinity, (details) => {
      for (const d of details) rows.push(d);
    });
    // the emulator's details are demo data, and so is the list of them (as hydrateFrame's frame)
    return { rows: this.demo ? markDemo(rows) : rows, failed };
  }

  /**
   * {@link InsiderClient.hydrate} straight into a typed transactions frame,
   * in bounded memory: details are fetched in windows of 512 rows (at most
   * `concurrency` in flight), copied into the frame's column buffers in input
   * order, and dropped, so 10k hydrated details never sit in memory as
   * records. Failed rows are left out of the frame and returned in `failed`.
   * Takes the same inputs as `hydrate`.
   *
   * @example
   * ```ts
   * import { connect } from "../../mod.ts";
   * const { insider } = await connect();
   * const feed = await insider.feed("ceo-trades", "buy").take(30);
   * const { frame, failed } = await insider.hydrateFrame(feed, { progress: false });
   * console.log(frame.height + failed.length); // 30
   * ```
   */
  async hydrateFrame(input: HydrateInput, opts: HydrateOptions = {}): Promise<HydratedFrame> {
    const sink = transactionsSink({ selected: (opts.fields?.length ?? 0) > 0 });
    // the frame reads every value by the same grammars itself: raw details
    const failed = await this.#details(
      "hydrateFrame",
      input,
      { ...opts, raw: true },
      HYDRATE_WINDOW,
      (details) => appendReleasing(sink, details),
    );
    return { frame: asFrame(sink.finish(), false, this.demo), failed };
  }

  /**
   * The details of `input`'s trades, `window` at a time, each window's
   * (in input order, failed ones left out) handed to `take`; the failures.
   */
  async #details(
    fn: string,
    input: HydrateInput,
    opts: HydrateOptions,
    window: number,
    take: (details: TransactionRow[]) => unknown,
  ): Promise<PoolFailure<FeedRow>[]> {
    const concurrency = checkCount("concurrency", opts.concurrency, 64, 8);
    const keys = hydrateKeys(fn, input);
    const failed: PoolFailure<FeedRow>[] = [];
    const progress = opts.progress === false
      ? null
      : new Progress("hydrating rows", { total: keys.length });
    // the details are one call group: one retry budget; a storm ends it (see `http/retry.ts`)
    const { signal, group } = callGroup(opts.signal);
    try {
      for (let start = 0; start < keys.length; start += window) {
        const { results, failed: f } = await mapPool(
          keys.slice(start, start + window),
          concurrency,
          (r) =>
            this.transaction(r.accession_number, r.transaction_id, {
              fields: opts.fields,
              signal,
              raw: opts.raw,
            }),
          (done) => {
            progress?.update({ rows: start + done, pages: start + done });
            opts.onProgress?.(start + done, keys.length);
          },
          () => group.stopped,
        );
        if (opts.signal?.aborted) throw opts.signal.reason;
        await take(results.filter((r): r is TransactionRow => r !== undefined));
        for (const x of f) failed.push({ ...x, index: x.index + start });
      }
    } finally {
      progress?.done();
    }
    return failed;
  }
}

/** What `hydrate` and `hydrateFrame` take: feed, search or detail rows, or a trades frame. */
export type HydrateInput =
  | readonly FeedRow[]
  | readonly SearchRow[]
  | readonly TransactionRow[]
  | Frame;

const HYDRATE_WANTED = {
  pass:
    "feed rows, search rows (take(n)) or a trades frame with accession_number and transaction_id",
  columns: ["accession_number", "transaction_id"],
};

/**
 * The trade keys of a hydrate input, as feed rows in input order; a
 * `TypeError` naming what was given for anything else (a list not yet
 * fetched, a promise, a row of another kind, a frame without the keys).
 */
export function hydrateKeys(fn: string, input: unknown): FeedRow[] {
  const when = (d: unknown) => d instanceof Date ? d.toISOString() : String(d ?? "");
  if (isFrame(input)) {
    checkColumns(fn, input, HYDRATE_WANTED.columns, HYDRATE_WANTED);
    const col = (c: string) =>
      input.columns.includes(c) ? input.getColumn(c).toArray() as unknown[] : [];
    const [acc, id, filed] = ["accession_number", "transaction_id", "filed_at"].map(col);
    return acc.map((a, i) => ({
      accession_number: keyOf<string>(fn, "accession_number", a, i, input),
      transaction_id: keyOf<number>(fn, "transaction_id", id[i], i, input),
      filed_at: when(filed[i]),
    }));
  }
  const o = input as Record<string | symbol, unknown> | null;
  const hint = typeof o?.then === "function"
    ? "; await it first"
    : typeof o?.take === "function" && Symbol.asyncIterator in (o ?? {})
    ? "; pass its rows: await list.take(n), or its frame: await list.frame()"
    : "";
  const wrong = (got: unknown, tail: string) =>
    new TypeError(wrongInput(fn, HYDRATE_WANTED, got).message + tail);
  if (!Array.isArray(input)) throw wrong(input, hint);
  return input.map((r: Record<string, unknown> | null, i) => {
    if (r && typeof r === "object" && "accession_number" in r) {
      keyOf(fn, "accession_number", r.accession_number, i, input);
      keyOf(fn, "transaction_id", r.transaction_id, i, input);
      return r as unknown as FeedRow;
    }
    if (r && typeof r === "object" && "accessionNumber" in r) {
      return {
        accession_number: keyOf<string>(fn, "accession_number", r.accessionNumber, i, input),
        transaction_id: keyOf<number>(fn, "transaction_id", r.transactionId, i, input),
        filed_at: when(r.filedAt),
      };
    }
    throw wrong(r, ` at row ${i} of ${input.length}`);
  });
}

/**
 * The trade keys of a hydrate input as the service reads them: an
 * accession number is text (a number has lost the leading zeros and
 * dashes of `0000320193-24-000012`, so no detail could be found for it),
 * a transaction id an integer or its digits (not `1.5`).
 */
const KEYS = {
  accession_number: [
    (v: unknown) => typeof v === "string",
    'accession numbers as text, such as "0000320193-24-000012" ' +
    "(a number has lost an accession number's leading zeros and dashes)",
  ],
  transaction_id: [
    (v: unknown) => Number.isSafeInteger(v) || typeof v === "bigint" || /^\d+$/.test(v as string),
    "integers, or their digits as text",
  ],
} as const;

/**
 * A trade key of a hydrate input ({@link KEYS}; null fails its row alone).
 * Anything else is refused before any request with one `TypeError` naming
 * the frame's column, its dtype and the row, or the row and the value, and
 * what is allowed: each row would fail alone.
 */
function keyOf<T>(fn: string, column: keyof typeof KEYS, v: unknown, i: number, input: unknown): T {
  const [ok, allowed] = KEYS[column];
  if (v === null || v === undefined || ok(v)) return v as T;
  const where = isFrame(input)
    ? `the column "${column}" is ${dtypeName(input.getColumn(column).dtype)} (row ${i}: ${
      describeInput(v)
    })`
    : `${column} of row ${i} of ${(input as unknown[]).length} is ${describeInput(v)}`;
  throw new TypeError(`${fn}: ${where}; allowed: ${allowed}`);
}
