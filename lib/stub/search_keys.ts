/**
 * The keys of the insider service's camelCase search rows, per dialect:
 * `camel` upper-cases only the letter after an underscore (`returns_1w` →
 * `returns1w`, `is_10b51` → `is10b51`, as humps, Kysely, postgres.js and
 * pydantic v1 do); `camel-upper-digits` is lodash's `camelCase`, which also
 * starts a new word after digits (`returns1W`, `is10B51`,
 * `has20DSmaCrossover`, `winRateBullish3MWins`, as pydantic v2's `to_camel`
 * and the `camelcase` package do).
 *
 * @module
 */
import camelCase from "npm:lodash-es@4.17.21/camelCase.js";
import type { FieldSpec } from "../insider/fields.ts";
import type { Dialect } from "./dialect.ts";

/** A field's key in search rows under a dialect. */
export function searchKey(
  f: Pick<FieldSpec, "name" | "camel">,
  d: Pick<Dialect, "searchKeys">,
): string {
  return d.searchKeys === "camel" ? f.camel : camelCase(f.name);
}
