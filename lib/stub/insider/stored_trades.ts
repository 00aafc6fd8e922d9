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

/** The insider dataset as columns and plain arrays. */
export interface StoredInsider {
  /** Reporting owners. */
  insiders: Insider[];
  /** Per trade: transaction day. */
  day: Int32Array;
  /** Per trade: filing instant, epoch ms. */
  filedMs: Float64Array;
  /** Per trade: Eastern filing day. */
  etDay: Int32Array;
  /** Per trade: issuer index. */
  company: Int32Array;
  /** Per trade: insider index. */
  insider: Int32Array;
  /** Per trade: +1, −1 or 0. */
  dir: Int8Array;
  /** Per trade: the informed signal. */
  signal: Float64Array;
  /** Per trade: 1 when in a 90-day cluster. */
  cluster90: Uint8Array;
  /** The rows, one column per field. */
  rows: ColumnData[];
}

const VIEW = Symbol("fields view");

class StoredTrade implements Trade {
  day: number;
  filedMs: number;
  etDay: number;
  company: number;
  insider: number;
  dir: number;
  signal: number;
  cluster90: boolean;
  readonly #cols: RecordColumns<TransactionRow>;
  readonly #i: number;
  #row?: TransactionRow;

  constructor(s: StoredInsider, cols: RecordColumns<TransactionRow>, i: number) {
    this.day = s.day[i];
    this.filedMs = s.filedMs[i];
    this.etDay = s.etDay[i];
    this.company = s.company[i];
    this.insider = s.insider[i];
    this.dir = s.dir[i];
    this.signal = s.signal[i];
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
}

/**
 * A trade's fields for reading: its row when it has one, else a live view
 * of its columns (see the module doc).
 */
export function fieldsOf(t: Trade): TransactionRow {
  return t instanceof StoredTrade ? t[VIEW]() : t.row;
}

/** The dataset as columns (rows must share their keys and key order, as generated ones do). */
export function storeInsider(data: InsiderData): StoredInsider {
  const ts = data.trades;
  return {
    insiders: data.insiders,
    day: Int32Array.from(ts, (t) => t.day),
    filedMs: Float64Array.from(ts, (t) => t.filedMs),
    etDay: Int32Array.from(ts, (t) => t.etDay),
    company: Int32Array.from(ts, (t) => t.company),
    insider: Int32Array.from(ts, (t) => t.insider),
    dir: Int8Array.from(ts, (t) => t.dir),
    signal: Float64Array.from(ts, (t) => t.signal),
    cluster90: Uint8Array.from(ts, (t) => t.cluster90 ? 1 : 0),
    rows: encodeColumns(ts.map((t) => t.row as unknown as Record<string, unknown>)),
  };
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
