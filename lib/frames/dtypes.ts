/**
 * The dtypes signalbook frames use, and their Polars types. Polars never
 * infers a column: every column is built from a declared dtype.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { type Grammar, GRAMMARS, TEXT_LIST } from "../shared/values/mod.ts";

/** A column dtype. */
export type Dtype =
  | "utf8"
  | "date"
  | "datetime"
  | "bool"
  | "f64"
  | "i64"
  | "list_utf8"
  | "list_i64";

/** One column: its name in the frame, its dtype, and the key it is read from in a row. */
export interface ColumnSpec {
  /** Column name in the frame. */
  name: string;
  /** Declared dtype. */
  dtype: Dtype;
  /** Property read from each row (default `name`). */
  key?: string;
}

/**
 * The Polars type of a dtype.
 *
 * @example
 * ```ts
 * import { polarsType } from "./dtypes.ts";
 * polarsType("datetime").toString(); // "Datetime(ms,UTC)"
 * ```
 */
export function polarsType(d: Dtype): pl.DataType {
  switch (d) {
    case "utf8":
      return pl.Utf8;
    case "date":
      return pl.Date;
    case "datetime":
      return pl.Datetime("ms", "UTC");
    case "bool":
      return pl.Bool;
    case "f64":
      return pl.Float64;
    case "i64":
      return pl.Int64;
    case "list_utf8":
      return pl.List(pl.Utf8);
    case "list_i64":
      return pl.List(pl.Int64);
  }
}

/**
 * The grammar a column of a dtype reads its values by (`shared/values/`).
 *
 * @example
 * ```ts
 * import { grammarOf } from "./dtypes.ts";
 * grammarOf("datetime").type; // "timestamp"
 * ```
 */
export function grammarOf(d: Dtype): Grammar<unknown> {
  switch (d) {
    case "utf8":
      return GRAMMARS.code;
    case "date":
      return GRAMMARS.date;
    case "datetime":
      return GRAMMARS.timestamp;
    case "bool":
      return GRAMMARS.boolean;
    case "f64":
      return GRAMMARS.decimal;
    case "i64":
      return GRAMMARS.integer;
    case "list_utf8":
      return TEXT_LIST as Grammar<unknown>;
    case "list_i64":
      return GRAMMARS.list as Grammar<unknown>;
  }
}

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
