/**
 * A frame column's declaration, and the Polars type of each value type
 * (`shared/values/`). Polars never infers a column: every column is built
 * from a declared value type.
 *
 * @module
 */
import pl from "./_polars.ts";
import type { ValueType } from "../shared/values/mod.ts";

/** One column: its name in the frame, its value type, and the key it is read from in a row. */
export interface ColumnSpec {
  /** Column name in the frame. */
  name: string;
  /** Declared value type (`shared/values/`): its grammar reads the values, its dtype holds them. */
  type: ValueType;
  /** Property read from each row (default `name`). */
  key?: string;
}

/**
 * The Polars type a column of a value type is built as.
 *
 * @example
 * ```ts
 * import { polarsType } from "./dtypes.ts";
 * polarsType("timestamp").toString(); // "Datetime(ms,UTC)"
 * ```
 */
export function polarsType(t: ValueType): pl.DataType {
  return (polarsTypes ??= polarsTypesOf())[t];
}

let polarsTypes: Record<ValueType, pl.DataType> | undefined;
/**
 * The Polars type of each value type (a total map: a type added without one
 * fails the check); made at the first call, so that importing signalbook
 * does not evaluate nodejs-polars (`./_polars.ts`).
 */
const polarsTypesOf = (): Record<ValueType, pl.DataType> => ({
  code: pl.String,
  date: pl.Date,
  timestamp: pl.Datetime("ms", "UTC"),
  boolean: pl.Bool,
  decimal: pl.Float64,
  integer: pl.Int64,
  text_list: pl.List(pl.String),
  list: pl.List(pl.Int64),
});

/**
 * The short name of a Polars dtype: `List(Int64)` for
 * `DataType(List(DataType(Int64)))`.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { dtypeName } from "./dtypes.ts";
 * dtypeName(pl.List(pl.Int64)); // "List(Int64)"
 * ```
 */
export function dtypeName(d: unknown): string {
  const s = String(d);
  const n = s.split("DataType(").length - 1;
  return s.replaceAll("DataType(", "").slice(0, s.replaceAll("DataType(", "").length - n);
}
