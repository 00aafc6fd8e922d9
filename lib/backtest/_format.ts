/**
 * How backtest tables and reports write numbers: "–" for a missing value,
 * integers as they are, others to a fixed number of digits.
 *
 * @module
 */
import type { ColumnSpec } from "../frames/dtypes.ts";
import { GRAMMARS, type ValueType } from "../shared/values/mod.ts";

/** A number to `digits` decimals (integers as they are), "–" when missing or not finite. */
export function fmt(v: unknown, digits = 2): string {
  if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))) return "–";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return String(v);
}

/** A percentage to `digits` decimals with "%", "–" when missing or not finite. */
export function pct(v: unknown, digits = 2): string {
  return typeof v === "number" && Number.isFinite(v) ? `${v.toFixed(digits)}%` : "–";
}

/** A signed number: "+1.20", "-0.35". */
export function signed(v: number, digits = 2): string {
  return `${v >= 0 ? "+" : "-"}${Math.abs(v).toFixed(digits)}`;
}

/** A table's columns: each header and how an item's cell reads. */
export type Columns<T> = readonly (readonly [string, (item: T) => string])[];
/** A table's headers and its rows of cells (what a `ResultTable` shows). */
export type Cells = { head: string[]; rows: string[][] };

/**
 * A table of `items` under `columns`: the headers, and one row of cells per
 * item (the `head` and `rows` of a `ResultTable`).
 *
 * @example
 * ```ts
 * import { tabulate } from "./_format.ts";
 * tabulate([["n", (x: number) => String(x)]], [1, 2]); // { head: ["n"], rows: [["1"], ["2"]] }
 * ```
 */
export function tabulate<T>(columns: Columns<T>, items: readonly T[]): Cells {
  return { head: columns.map(([h]) => h), rows: items.map((x) => columns.map(([, c]) => c(x))) };
}

/**
 * The column specs of a result frame from one line per group of columns:
 * `"name:type"` words, a word without `:type` taking the type of the word
 * before it (the types of `shared/values/`). An unknown type is an error.
 *
 * @example
 * ```ts
 * import { columnSpecs } from "./_format.ts";
 * columnSpecs("group:code horizon n:integer mean:decimal");
 * // [{ name: "group", type: "code" }, { name: "horizon", type: "code" }, { name: "n", type: "integer" }, …]
 * ```
 */
export function columnSpecs(words: string): ColumnSpec[] {
  let type: ValueType | undefined;
  return words.trim().split(/\s+/).map((word) => {
    const [name, t] = word.split(":");
    if (t !== undefined && !(t in GRAMMARS)) {
      throw new TypeError(`columnSpecs: ${t} is not a value type`);
    }
    type = (t as ValueType | undefined) ?? type;
    if (!type) throw new TypeError(`columnSpecs: ${name} has no type`);
    return { name, type };
  });
}
