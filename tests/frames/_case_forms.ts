/**
 * The grammar case tables (`tests/shared/values_test.ts`) as frame columns:
 * a frame cell in the form the
 * case tables write values (dates and timestamps as ISO text, bigints as
 * numbers). Shared by the frame tests that check each case through a
 * built frame.
 */
import type { CaseType } from "../shared/values_test.ts";

/** A frame cell as the case tables write values (dates and timestamps as ISO text, bigints as numbers). */
export function rowForm(type: CaseType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return type === "date" ? v.toISOString().slice(0, 10) : v.toISOString();
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "object" && Symbol.iterator in (v as object)) {
    return [...(v as Iterable<unknown>)].map((x) => typeof x === "bigint" ? Number(x) : x);
  }
  return v;
}
