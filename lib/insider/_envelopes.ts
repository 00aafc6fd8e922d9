/**
 * Every answer form of the insider-trades service that its spec leaves open
 * ("not shown"), named once, in the manner of openai-node's `pagination.ts`.
 * The client methods call these readers and know no envelope themselves.
 *
 * | Endpoint | Open point | Accepted |
 * | - | - | - |
 * | `POST /search` | row field spelling | any camelCase family or snake_case, mapped by meaning to {@link SearchRow} names |
 * | `GET /feeds` | list container | `data`, `feed`, `feeds`, `rows`, `items`, `results`, `transactions`, `trades`, `entries`, `records`, or the only list; also one object down |
 * | `GET /feeds` | has-more flag | `has_more`, `more`, `has_next`, `has_next_page` (any casing), or none: pages while `next_cursor` is present |
 * | `GET /insiders` | result | a bare list, or a list under `data`, `insiders`, `owners`, `reporting_owners`, `results`, `items`, `matches`, `hits`, or the only list |
 * | `GET /insiders` | hit fields | CIK and name found by field-name patterns (below); the whole hit kept as `raw` |
 * | `GET /transactions/…` | envelope, spelling | the object itself or wrapped in one object (`data`, `transaction`, …); keys mapped by meaning to snake_case |
 *
 * Error answers are read by the spec's status table ({@link insiderProblem}):
 *
 * | Status | Error | Meaning (whatever the problem `type`, `about:blank` or unknown included) |
 * | - | - | - |
 * | `401` | `AuthenticationError` | missing or invalid API key (`INSIDER_API_KEY`) |
 * | `403` | `PremiumRequiredError` | Premium required: the spec lists no other cause |
 * | `404` | `NotFoundError` | transaction not found (on `GET /transactions/…`); elsewhere no such route: check `INSIDER_BASE_URL` |
 * | `503` | `ServerError` | API keys not configured or key service unavailable |
 *
 * A form not listed is an `InvalidResponseError` naming the endpoint, what
 * was expected and the top-level keys received. Each reader announces the
 * form it recognised (`shape` events on `httpEvents`), which
 * `deno task doctor` prints.
 *
 * CIK and name of a lookup hit, by field-name pattern (spelling-free): the
 * CIK is `cik`, else a key ending in `cik` that names the owner (`owner`,
 * `insider`, `person`, `reporter`, `filer`), else the only key ending in
 * `cik` that is not the issuer's or company's. It, and the `cik` of each
 * of the hit's `issuers`, is read by the CIK grammar (`shared/values/code.ts`:
 * 10 digits, zero-padded, from text or a number), as the CIKs of rows are.
 * The name is `name`, else the same patterns ending in `name`
 * (`display_name`, `full_name` too).
 *
 * @module
 */
import {
  errorFor,
  InvalidResponseError,
  PremiumRequiredError,
  type ProblemError,
  type ProblemInit,
} from "../http/errors.ts";
import { announceShape } from "../http/events.ts";
import type { Page } from "../http/paginate.ts";
import {
  badValue,
  describe,
  isObject,
  type JsonObject,
  type ListRead,
  type ListSpec,
  readList,
  readOne,
} from "../http/_envelope.ts";
import { KeyIndex, markDeclared, normKey } from "../shared/field_keys.ts";
import { uniformRowKeys } from "../shared/wide_rows.ts";
import { type Grammar, GRAMMARS, IGNORE, readValue, UNREADABLE } from "../shared/values/mod.ts";
import { cik } from "../shared/values/code.ts";
import { TRANSACTION_FIELDS, type TransactionRow } from "./fields.ts";
import type { FeedRow } from "./feeds.ts";

/** A reporting owner found by lookup. */
export interface InsiderHit {
  /** CIK (feeds `filter.reportingOwnerCik`), as text. */
  cik: string;
  /** Name as filed. */
  name: string;
  /** Issuers the owner files for (empty when the service does not say). */
  issuers: { cik: string; name: string; ticker: string }[];
  /** Titles held (empty when the service does not say). */
  titles: string[];
  /** Trades on file (null when the service does not say). */
  trade_count: number | null;
  /** Latest filing time (null when the service does not say). */
  latest_filed_at: string | null;
  /** The hit exactly as the service sent it. */
  raw: Record<string, unknown>;
}

/**
 * The page a list reader gives the paginator: its {@link Page} (rows keyed by
 * the declared names, the envelope as sent) and the cursor's key in the
 * answer, or null when it has none (see `warnedPages`).
 */
export type ReadPage<Row> = Page<Row> & Pick<ListRead, "cursorKey">;

const NEXT_CURSOR = ["next_cursor", "next_page_cursor", "next_page_token", "next"];
const HAS_MORE = ["has_more", "more", "has_next", "has_next_page", "has_more_pages"];

/** `POST /search` (spec: `data`, `nextCursor`, `hasMore`; read with the same tolerance). */
const SEARCH_LIST: ListSpec = {
  endpoint: "POST /search",
  what: "trade rows",
  containers: ["data", "rows", "items", "results", "trades", "transactions"],
  cursors: NEXT_CURSOR,
  flags: HAS_MORE,
};
/** `GET /feeds`: container and has-more flag not shown. */
const FEED_LIST: ListSpec = {
  endpoint: "GET /feeds",
  what: "feed rows",
  containers: [
    "data",
    "feed",
    "feeds",
    "rows",
    "items",
    "results",
    "transactions",
    "trades",
    "entries",
    "records",
  ],
  cursors: NEXT_CURSOR,
  flags: HAS_MORE,
};
/** `GET /insiders`: result not shown (a list, bare or enveloped, no paging). */
const HIT_LIST: ListSpec = {
  endpoint: "GET /insiders",
  what: "reporting-owner matches",
  containers: [
    "data",
    "insiders",
    "owners",
    "reporting_owners",
    "results",
    "items",
    "matches",
    "hits",
  ],
  bare: true,
};

/** The transaction fields by meaning: snake_case names (details, feeds, frames). */
export const SNAKE: KeyIndex = new KeyIndex(TRANSACTION_FIELDS.map((f) => f.name));
/** The transaction fields by meaning: camelCase names (search rows). */
export const CAMEL: KeyIndex = new KeyIndex(TRANSACTION_FIELDS.map((f) => f.camel));
const FEED = new KeyIndex(["accession_number", "transaction_id", "filed_at"]);

/**
 * Rows renamed by meaning to `index`'s names, each row on its own terms (the
 * first row only picks the fast path); rows that already match stay the same
 * objects, wide ones made compact in place (see `lib/shared/wide_rows.ts`).
 */
function byMeaning(endpoint: string, rows: JsonObject[], index: KeyIndex): JsonObject[] {
  if (rows.length === 0) return rows;
  const map = index.mapFor(rows[0]);
  const [name, key] = [...map.found].find(([n, k]) => n !== k) ?? [];
  const shape = map.identity
    ? "as declared"
    : `renamed by meaning, e.g. ${JSON.stringify(key)} → ${JSON.stringify(name)}`;
  announceShape({ endpoint, point: "row field names", shape });
  if (!map.identity) return rows.map(map.apply);
  // rows the transport's decoder joined (shared/wide_rows.ts, WideJson) are compact
  // already and all have the first row's keys: the first row's check is every row's
  if (
    uniformRowKeys(rows) && index.mapFor(rows[0], { compact: false }).apply(rows[0]) === rows[0]
  ) {
    return rows;
  }
  // every row on its own terms (a later row may spell a key the first one left
  // out); rows already declared stay the same objects, compact ones are put back
  // into the envelope, so `raw` holds no second copy
  for (let i = 0; i < rows.length; i++) rows[i] = map.apply(rows[i]);
  return rows;
}

/** A page of a list, its rows renamed by meaning to `index`'s names. */
function pageOf<Row>(body: unknown, spec: ListSpec, index: KeyIndex): ReadPage<Row> {
  const page = readList(body, spec);
  return {
    rows: byMeaning(spec.endpoint, page.rows, index) as Row[],
    next: page.next,
    raw: body,
    cursorKey: page.cursorKey,
  };
}

/** Tag of search rows keyed by the catalog's camelCase names (see `markDeclared`). */
export const SEARCH_ROWS_DECLARED = "insider-camel";

/** A page of `POST /search`, rows with {@link SearchRow} names. */
export function searchPage<Row>(body: unknown): ReadPage<Row> {
  const page = pageOf<Row>(body, SEARCH_LIST, CAMEL);
  // every row renamed on its own terms: the frame build need not check them again
  markDeclared(page.rows as object[], SEARCH_ROWS_DECLARED);
  return page;
}

/** A page of `GET /feeds`, rows with {@link FeedRow} names. */
export function feedPage(body: unknown): ReadPage<FeedRow> {
  return pageOf<FeedRow>(body, FEED_LIST, FEED);
}

/** The transaction of `GET /transactions/{accessionNumber}/{transactionId}`, snake_case. */
export function transactionDetail(body: unknown): TransactionRow {
  const endpoint = "GET /transactions/{accessionNumber}/{transactionId}";
  // a row has at least one catalog field (`feed_ids` always comes, even with `fields=`)
  const row = readOne(
    body,
    endpoint,
    "a transaction object (with fields of the catalog, such as feed_ids)",
    (v) => Object.keys(v).some((k) => SNAKE.nameOf(k) !== undefined),
  );
  return byMeaning(endpoint, [row], SNAKE)[0] as unknown as TransactionRow;
}

const OWNER = ["owner", "insider", "person", "reporter", "filer", "display", "full"];
const NOT_OWNER = ["issuer", "company"];

/** The key of a hit ending in `suffix`, by the patterns in the module doc. */
function patternKey(hit: JsonObject, suffix: "cik" | "name"): string | undefined {
  const keys = Object.keys(hit).filter((k) => {
    const v = hit[k];
    return typeof v === "string" || (typeof v === "number" && suffix === "cik");
  });
  const norm = (k: string) => normKey(k).replaceAll("-", "");
  const exact = keys.find((k) => norm(k) === suffix);
  if (exact) return exact;
  const ending = keys.filter((k) => norm(k).endsWith(suffix));
  const owner = ending.find((k) => OWNER.some((w) => norm(k).includes(w)));
  if (owner) return owner;
  const others = ending.filter((k) => !NOT_OWNER.some((w) => norm(k).includes(w)));
  return others.length === 1 ? others[0] : undefined;
}

const HIT = new KeyIndex(["issuers", "titles", "trade_count", "latest_filed_at"]);

/** The hits of `GET /insiders` (see the module doc for the accepted forms). */
export function insiderHits(body: unknown): InsiderHit[] {
  const endpoint = HIT_LIST.endpoint;
  const list = readList(body, HIT_LIST);
  let fields = "";
  const hits = list.rows.map((raw, i) => {
    const cikKey = patternKey(raw, "cik");
    const nameKey = patternKey(raw, "name");
    if (cikKey === undefined || nameKey === undefined) {
      throw new InvalidResponseError(
        `${endpoint}: match ${i} has no ${
          cikKey === undefined ? "CIK" : "name"
        } field (a key such as "cik", "reporting_owner_cik", "name" or "owner_name"); got ${
          describe(raw)
        }`,
      );
    }
    fields ||= `CIK ${JSON.stringify(cikKey)}, name ${JSON.stringify(nameKey)}`;
    // the optional fields by meaning (the hit itself stays as sent, in `raw`)
    const o = HIT.mapFor(raw).apply(raw);
    // by the code, integer and timestamp grammars; a value they cannot read is loud
    // (a CIK sent as a number past 2^53 has lost its digits)
    const read = <T>(name: string, g: Grammar<T>, v = o[name]) => {
      const r = readValue(g, v, IGNORE);
      if (r !== UNREADABLE) return r;
      throw badValue(endpoint, `match ${i} ${name}`, g.type, v, { field: name, row: i });
    };
    const count = read("trade_count", GRAMMARS.integer);
    const latest = read("latest_filed_at", GRAMMARS.timestamp);
    return {
      cik: read(cikKey, cik, raw[cikKey]) as string,
      name: String(raw[nameKey]),
      issuers: (Array.isArray(o.issuers) ? o.issuers : []).map((x: JsonObject) =>
        isObject(x) && "cik" in x ? { ...x, cik: read("issuers.cik", cik, x.cik) } : x
      ) as InsiderHit["issuers"],
      titles: Array.isArray(o.titles) ? o.titles as string[] : [],
      trade_count: count,
      latest_filed_at: latest === null ? null : GRAMMARS.timestamp.row(latest) as string,
      raw,
    };
  });
  if (fields) announceShape({ endpoint, point: "hit fields", shape: fields });
  return hits;
}

/**
 * The insider spec's status table applied to an error answer (module doc):
 * the status decides, per this service, whatever the problem `type` says
 * (`about:blank`, RFC 9457's default, or one the client does not know), so
 * code catching `PremiumRequiredError` sees a lapsed subscription however
 * the server spells its type. Other statuses: {@link errorFor}.
 *
 * @example
 * ```ts
 * import { insiderProblem } from "./_envelopes.ts";
 * const e = insiderProblem({ status: 403, type: "about:blank", title: "Forbidden", detail: "no", method: "POST", url: "/search" });
 * console.log(e.name); // "PremiumRequiredError"
 * ```
 */
export function insiderProblem(init: ProblemInit): ProblemError {
  const meaning = ({
    401: "missing or invalid API key (check INSIDER_API_KEY)",
    403: "Premium required: the membership of this key has lapsed",
    404: /\/transactions\//.test(init.url)
      ? "transaction not found"
      : "no such route: check INSIDER_BASE_URL (it should end in /insider)",
    503: "API keys not configured or key service unavailable",
  } as Record<number, string>)[init.status];
  if (meaning === undefined) return errorFor(init);
  // a 403 is Premium whatever its type; errorFor picks the other classes
  return init.status === 403
    ? new PremiumRequiredError({ ...init, meaning })
    : errorFor({ ...init, meaning });
}
