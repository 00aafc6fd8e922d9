/**
 * How backtest tables and reports write numbers: "–" for a missing value,
 * integers as they are, others to a fixed number of digits.
 *
 * @module
 */

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
