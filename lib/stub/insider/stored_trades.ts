/**
 * The insider dataset in columns: what the world cache writes, and the
 * dataset it reads back, whose rows are made only when asked for.
 *
 * A read-back trade has its index fields (`day`, `filedMs`, `company`…) as
 * plain properties; its `row` is a plain {@link TransactionRow}, built from
 * the columns on first access and kept. The emulator's own scans (search
 * filters, feeds, truth) read {@link fieldsOf}, a live view that builds
 * nothing, so serving a page does not turn the whole dataset back into
 * objects.
 *
 * @module
 */
import type { TransactionRow } from "../../insider/fields.ts";
import { type ColumnData, encodeColumns, RecordColumns } from "../columns.ts";
import type { Insider, InsiderData, Trade } from "./insider_data.ts";
import { ARRAY_TYPES, INDEX_FIELDS } from "../_world_format.ts";

/** One of a trade's index fields (`INDEX_FIELDS`: `day`, `filedMs`, …). */
type IndexField = typeof INDEX_FIELDS[number][0];

/**
 * The insider dataset as columns and plain arrays: the reporting owners,
 * per index field (`INDEX_FIELDS`) one typed array holding it for every
 * trade (`cluster90` as 1 or 0), and the rows, one column per field.
 */
export type StoredInsider =
  & { insiders: Insider[]; rows: ColumnData[] }
  & {
    [F in typeof INDEX_FIELDS[number] as F[0]]: InstanceType<typeof ARRAY_TYPES[F[1]]>;
  };

const VIEW = Symbol("fields view");
const TEXT = Symbol("row text");

// the index fields, set from the stored arrays by the constructor
interface StoredTrade extends Omit<Trade, "row"> {}

class StoredTrade implements Trade {
  readonly #cols: RecordColumns<TransactionRow>;
  readonly #i: number;
  #row?: TransactionRow;

  constructor(s: StoredInsider, cols: RecordColumns<TransactionRow>, i: number) {
    for (const [k] of INDEX_FIELDS) (this as Record<IndexField, unknown>)[k] = s[k][i];
    this.cluster90 = s.cluster90[i] === 1;
    this.#cols = cols;
    this.#i = i;
  }

  get row(): TransactionRow {
    return this.#row ??= this.#cols.row(this.#i);
  }

  [VIEW](): TransactionRow {
    return this.#row ?? this.#cols.view(this.#i);
  }

  [TEXT](w: RowTexts): string {
    return w.of(this.#cols)(this.#i);
  }
}

/**
 * A trade's fields for reading: its row when it has one, else a live view
 * of its columns (see the module doc).
 */
export function fieldsOf(t: Trade): TransactionRow {
  return t instanceof StoredTrade ? t[VIEW]() : t.row;
}

/** One writer's compiled form for the columns it last wrote from. */
class RowTexts {
  #cols?: RecordColumns<TransactionRow>;
  #write?: (i: number) => string;
  readonly #keys: readonly (readonly [string, string])[];

  constructor(keys: readonly (readonly [string, string])[]) {
    this.#keys = keys;
  }

  of(cols: RecordColumns<TransactionRow>): (i: number) => string {
    if (this.#cols === cols) return this.#write!;
    const texts = cols.texts;
    // keys the columns lack are left out, as JSON.stringify leaves out an undefined value
    const kept = this.#keys.filter(([name]) => texts.has(name));
    const heads = kept.map(([, key], k) => (k === 0 ? "{" : ",") + JSON.stringify(key) + ":");
    const reads = kept.map(([name]) => texts.get(name)!);
    const n = kept.length;
    this.#cols = cols;
    // one join of heads and values: a flat string, not a rope of a few hundred pieces (the
    // array is reused: writing is synchronous)
    const parts = new Array<string>(2 * n + 1).fill("");
    return this.#write = n === 0 ? () => "{}" : (i) => {
      for (let k = 0; k < n; k++) {
        parts[2 * k] = heads[k];
        parts[2 * k + 1] = reads[k](i);
      }
      parts[2 * n] = "}";
      return parts.join("");
    };
  }
}

/**
 * A writer of trades' rows as JSON objects with other keys: `keys` pairs a
 * field name with its key (`issuerCik`), in the order to write them. The
 * text is byte for byte `JSON.stringify` of the object holding those keys
 * with the row's values; a stored trade's is written straight from the
 * columns, without making the row or its values. Other trades (plain
 * objects, as tests build) get `JSON.stringify` of that object.
 *
 * @example
 * ```ts
 * import { rowTextWriter } from "./stored_trades.ts";
 * import { createStub } from "../app.ts";
 * const t = createStub({ scale: 0.01 }).insider.trades[0];
 * console.log(rowTextWriter([["ticker_symbol", "ticker"]])(t)); // e.g. {"ticker":"WPI"}
 * ```
 */
export function rowTextWriter(
  keys: readonly (readonly [name: string, key: string])[],
): (t: Trade) => string {
  const w = new RowTexts(keys);
  return (t) =>
    t instanceof StoredTrade ? t[TEXT](w) : JSON.stringify(Object.fromEntries(
      keys.map(([name, key]) => [key, (t.row as unknown as Record<string, unknown>)[name]]),
    ));
}

/** The dataset as columns (rows must share their keys and key order, as generated ones do). */
export function storeInsider(data: Omit<InsiderData, "byKey">): StoredInsider {
  const ts = data.trades;
  return {
    insiders: data.insiders,
    ...Object.fromEntries(
      INDEX_FIELDS.map(([k, type]) => [k, ARRAY_TYPES[type].from(ts.map((t) => Number(t[k])))]),
    ),
    rows: encodeColumns(ts.map((t) => t.row as unknown as Record<string, unknown>)),
  } as StoredInsider;
}

/** The dataset read back from its columns; rows are built when first asked for. */
export function loadInsider(s: StoredInsider): InsiderData {
  const n = s.day.length;
  const cols = new RecordColumns<TransactionRow>(s.rows, n);
  const trades: Trade[] = new Array(n);
  for (let i = 0; i < n; i++) trades[i] = new StoredTrade(s, cols, i);
  let byKey: Map<string, Trade> | undefined;
  return {
    insiders: s.insiders,
    trades,
    get byKey() {
      return byKey ??= new Map(trades.map((t) => {
        const r = fieldsOf(t);
        return [`${r.accession_number}/${r.transaction_id}`, t];
      }));
    },
  };
}
