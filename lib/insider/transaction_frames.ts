/**
 * Transactions as a typed DataFrame, with the schema derived from the field
 * catalog: `Date` for dates, `Datetime("ms", "UTC")` for timestamps, `Utf8`
 * for text, CIKs and accession numbers (leading zeros kept), `Boolean`,
 * `Float64` for measures and returns, `Int64` for counts and for the ids the
 * service sends as numbers (`transaction_id`, `trading_item_id`,
 * `simple_industry_id`), `List(Int64)` for `feed_ids`.
 *
 * The same schema comes out whatever the rows' spelling: keys are matched
 * to the catalog by meaning (lower case, underscores removed; see
 * `shared/field_keys.ts`), so camelCase search rows of either family
 * (`returns1w` or `returns1W`) and snake_case detail rows land on the same
 * column. Missing fields (a `fields=` selection) are null columns, so the
 * schema is always complete; without a selection, catalog fields absent
 * from the rows are reported once per pull (see `frames/build.ts`).
 *
 * @module
 */
import { type FrameReport, type RowSink, rowSink } from "../frames/build.ts";
import { CAMEL, SEARCH_ROWS_DECLARED, SNAKE } from "./_envelopes.ts";
import type { ColumnSpec } from "../frames/dtypes.ts";
import { type Frame, sinkFrame } from "../frames/list.ts";
import { type RowTyping, rowTyping } from "../frames/typed_rows.ts";
import { TRANSACTION_FIELDS, type TransactionRow } from "./fields.ts";
import type { FeedRow } from "./feeds.ts";

/** Column specs of a transactions frame (snake_case names, catalog order): the catalog's entries. */
export const TRANSACTION_COLUMNS: readonly ColumnSpec[] = TRANSACTION_FIELDS;

/** How search rows (camelCase keys) are typed: every catalog field by its grammar. */
export const SEARCH_ROW_TYPING: RowTyping = rowTyping(
  "POST /search",
  TRANSACTION_FIELDS.map((f) => [f.camel, f.type]),
);
/** How transaction details (snake_case keys) are typed. */
export const DETAIL_ROW_TYPING: RowTyping = rowTyping(
  "GET /transactions/{accessionNumber}/{transactionId}",
  TRANSACTION_FIELDS.map((f) => [f.name, f.type]),
);

/** Options of {@link transactionsSink} and {@link transactionsFrame}. */
export interface TransactionsFrameOptions {
  /** The rows carry a `fields=` selection: do not report the catalog fields they lack. */
  selected?: boolean;
  /** Take the pull's report (missing fields, coercions, extras) instead of printing it. */
  onReport?: (report: FrameReport) => void;
}

/**
 * A typed frame of transactions, from search rows (camelCase) or detail rows
 * (snake_case). Empty input gives an empty frame with the full schema.
 *
 * @example
 * ```ts
 * import { connect, transactionsFrame } from "../../mod.ts";
 * const { insider } = await connect();
 * const rows = await insider.search({ tradeType: "purchase" }).take(100);
 * const df = transactionsFrame(rows);
 * console.log(df.shape); // { height: 100, width: 174 }
 * ```
 */
export function transactionsFrame(
  rows: readonly (TransactionRow | Record<string, unknown>)[],
  opts: TransactionsFrameOptions = {},
): Frame {
  return sinkFrame(transactionsSink(opts), rows);
}

/**
 * The page-by-page form of {@link transactionsFrame} (what `.frame()` on a
 * search uses). The first row picks which spelling the columns read (fast
 * path); each row is renamed to it by meaning on its own terms, so rows may
 * differ in which keys they carry and how they spell them.
 *
 * @example
 * ```ts
 * import { transactionsSink } from "../../mod.ts";
 * const sink = transactionsSink({ selected: true });
 * sink.append([{ accession_number: "0001", transaction_id: 1 }]);
 * console.log(sink.finish().width); // 174
 * ```
 */
export function transactionsSink(
  opts: TransactionsFrameOptions = {},
): RowSink<TransactionRow | Record<string, unknown>> {
  // the first row picks the spelling family the columns read (the search's
  // camelCase or the detail's snake_case); every row is then renamed to it on
  // its own terms, so a key the first row left out (an omitted null) or
  // spelt otherwise lands on its column, never in an extra one. Rows the
  // search's envelope reader already keyed by camelCase names (marked) skip
  // the per-row check.
  return rowSink((first) => {
    const row = first as Record<string, unknown> | undefined;
    const camel = row !== undefined && familyOf(row) === "camel";
    const map = row && (camel ? CAMEL : SNAKE).mapFor(row, { compact: false });
    return {
      specs: camel ? CAMEL_COLUMNS : TRANSACTION_COLUMNS,
      opts: { reportMissing: !opts.selected, onReport: opts.onReport },
      map: map && ((r) => map.apply(r as Record<string, unknown>)),
      declared: camel ? SEARCH_ROWS_DECLARED : undefined,
    };
  });
}

/** Snake_case column names, read from the camelCase keys of search rows. */
const CAMEL_COLUMNS: readonly ColumnSpec[] = TRANSACTION_FIELDS.map((f) => ({
  name: f.name,
  type: f.type,
  key: f.camel,
}));
const CAMEL_ONLY = new Set(
  TRANSACTION_FIELDS.filter((f) => f.camel !== f.name).map((f) => f.camel),
);

/** "camel" when a row's keys are more often the catalog's camelCase names than snake_case. */
function familyOf(row: Record<string, unknown>): "camel" | "snake" {
  let camel = 0;
  let other = 0;
  for (const key of Object.keys(row)) {
    if (CAMEL_ONLY.has(key)) camel++;
    else if (SNAKE.nameOf(key) !== undefined) other++;
  }
  return camel > other ? "camel" : "snake";
}

const FEED_COLUMNS: readonly ColumnSpec[] = [
  { name: "accession_number", type: "code" },
  { name: "transaction_id", type: "integer" },
  { name: "filed_at", type: "timestamp" },
];
/** How feed rows are typed. */
export const FEED_ROW_TYPING: RowTyping = rowTyping(
  "GET /feeds",
  FEED_COLUMNS.map((c) => [c.name, c.type]),
);

/** The frame of feed rows, page by page: `accession_number` Utf8, `transaction_id` Int64, `filed_at` Datetime. */
export const feedSink = (): RowSink<FeedRow> => rowSink<FeedRow>(() => ({ specs: FEED_COLUMNS }));
