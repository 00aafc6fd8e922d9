/**
 * The field catalog of an insider transaction: one declarative table of every
 * field the spec lists (174 of them, `TRANSACTION_FIELDS.length`), with its value type and family. It drives the
 * row type, `fields` validation, the camelCase mapping of search rows, the
 * emulator's generator and (in the frames layer) the Polars schema.
 *
 * Units (the spec is silent; signalbook and its emulator agree):
 * `returns_*`, `excess_returns_*`, `insider_returns_*`,
 * `insider_excess_returns_*`, `transaction_value_market_cap_pct` and
 * `win_rate_*_pct` are in percent (5.0 = 5 %); `percent_change` is a fraction
 * (0.05 = 5 %), as the spec says; `market_cap_at_filing` is in millions of USD.
 *
 * @module
 */
import type { ValueType } from "../shared/values/mod.ts";

/** Windows of the win-rate family. */
export const WIN_RATE_WINDOWS = ["1w", "1m", "3m", "6m", "1y", "2y"] as const;
/** A win-rate window. */
export type WinRateWindow = typeof WIN_RATE_WINDOWS[number];
/** Scopes of the win-rate family: all trades, buys only, sells only. */
export const WIN_RATE_SCOPES = ["", "bullish_", "bearish_"] as const;
/** A win-rate scope prefix. */
export type WinRateScope = typeof WIN_RATE_SCOPES[number];
/** Kinds of the win-rate family. */
export const WIN_RATE_KINDS = ["pct", "wins", "total"] as const;
/** A win-rate kind. */
export type WinRateKind = typeof WIN_RATE_KINDS[number];
/** A win-rate field, e.g. `win_rate_bullish_3m_wins` (54 names). */
export type WinRateField = `win_rate_${WinRateScope}${WinRateWindow}_${WinRateKind}`;

/** Forward-return horizons. */
export const FORWARD_WINDOWS = ["1w", "1m", "3m", "6m", "1y"] as const;
/**
 * The horizons studied when none are given (event study, backtest CLI,
 * headline study) and the portfolio holding periods: one place for
 * `1m, 3m, 6m, 1y`.
 */
export const DEFAULT_HORIZONS = ["1m", "3m", "6m", "1y"] as const;
/** Length in days of every window label used by the field families (`1d` … `2y`). */
export const WINDOW_DAYS: Readonly<Record<string, number>> = {
  "1d": 1,
  "1w": 7,
  "1m": 30,
  "3m": 91,
  "6m": 182,
  "1y": 365,
  "2y": 730,
};
/** A forward-return horizon. */
export type ForwardWindow = typeof FORWARD_WINDOWS[number];
/** A forward-return field. */
export type ForwardReturnField = `returns_${ForwardWindow}` | "returns_latest";
/** An excess forward-return field. */
export type ExcessReturnField = `excess_returns_${ForwardWindow}`;
/** Windows of prior returns. */
export const PRIOR_WINDOWS = ["1d", "1w", "1m", "3m", "6m"] as const;
/** A prior-return window. */
export type PriorWindow = typeof PRIOR_WINDOWS[number];
/** A prior-return field. */
export type PriorReturnField = `returns_${PriorWindow}_ago`;
/** Windows of the insider-return family. */
export const INSIDER_RETURN_WINDOWS = ["1m", "3m", "6m", "1y", "2y"] as const;
/** An insider-return window. */
export type InsiderReturnWindow = typeof INSIDER_RETURN_WINDOWS[number];
/** Directions of the insider-return family ("" = all trades). */
export const INSIDER_RETURN_DIRECTIONS = ["", "_bullish", "_bearish"] as const;
/** An insider-return direction suffix. */
export type InsiderReturnDirection = typeof INSIDER_RETURN_DIRECTIONS[number];
/** An insider-return field (15 names). */
export type InsiderReturnField = `insider_returns_${InsiderReturnWindow}${InsiderReturnDirection}`;
/** The four insider excess-return fields. */
export const INSIDER_EXCESS_RETURN_FIELDS = [
  "insider_excess_returns_3m",
  "insider_excess_returns_1y",
  "insider_excess_returns_3m_bullish",
  "insider_excess_returns_3m_bearish",
] as const;
/** An insider excess-return field. */
export type InsiderExcessReturnField = typeof INSIDER_EXCESS_RETURN_FIELDS[number];
/** Windows of the transaction-value z-score and median families. */
export const VALUE_WINDOWS = ["3m", "6m", "1y"] as const;
/** A value-statistics window. */
export type ValueWindow = typeof VALUE_WINDOWS[number];
/** A z-score field. */
export type ZscoreField = `transaction_value_zscore_${ValueWindow}`;
/** A median-value field. */
export type MedianField = `transaction_value_median_${ValueWindow}`;

/** String-or-null fields that hold text or ids. */
export const STRING_FIELDS = [
  "accession_number",
  "code",
  "issuer_cik",
  "issuer_name",
  "filing_ticker_symbol",
  "reporting_owner_cik",
  "reporting_owner_name",
  "officer_title",
  "security_title",
  "underlying_security_title",
  "nature_of_ownership",
  "acquired_disposed_code",
  "ticker_symbol",
  "company_name",
  "previous_streak_direction",
  "notes",
] as const;
/** String-or-null fields holding `YYYY-MM-DD` dates. */
export const DATE_FIELDS = [
  "period_of_report",
  "transaction_date",
  "expiration_date",
  "exercise_date",
] as const;
/** String-or-null fields holding ISO timestamps. */
export const DATETIME_FIELDS = ["filed_at", "created_at", "updated_at"] as const;
/** Boolean-or-null fields. */
export const BOOLEAN_FIELDS = [
  "is_aggregated",
  "is_synthetic",
  "is_director",
  "is_officer",
  "is_other",
  "is_ceo",
  "is_cfo",
  "is_cto",
  "is_coo",
  "is_10_percent_owner",
  "is_direct_ownership",
  "equity_swap_involved",
  "is_derivative",
  "is_espp",
  "is_purchase_agreement",
  "is_public_offering",
  "is_private_placement",
  "is_dividend_reinvestment",
  "is_10b51",
  "is_for_taxes",
  "has_irregular_transaction_date",
  "has_mismatched_codes",
  "has_irregular_share_price",
  "is_anomalous_transaction",
  "is_weekend_filing",
  "is_buying_dip",
  "is_selling_rip",
  "is_high_signal",
  "is_cluster_trade_30d",
  "has_20d_sma_crossover",
  "has_50d_sma_crossover",
  "has_100d_sma_crossover",
  "has_200d_sma_crossover",
  "is_reversal",
] as const;
/** Plain numeric measures (Float64). */
export const MEASURE_FIELDS = [
  "conversion_or_exercise_price",
  "shares_owned_following_transaction",
  "underlying_security_shares",
  "percent_change",
  "transaction_value",
  "number_of_shares",
  "price_per_share",
  "market_cap_at_filing",
  "price_at_transaction",
  "price_1d_ago",
  "transaction_value_market_cap_pct",
] as const;
/** Integer ids and counts outside the families. */
export const COUNT_FIELDS = [
  "transaction_id",
  "trading_item_id",
  "simple_industry_id",
  "filing_delay_days",
  "cluster_num_trades_30d",
  "cluster_insider_count_30d",
  "streak_length",
  "previous_streak_length",
  "rank",
  "total",
] as const;

function cross<A extends string, B extends string, C extends string>(
  a: readonly A[],
  b: readonly B[],
  c: readonly C[],
  f: (a: A, b: B, c: C) => string,
): string[] {
  return a.flatMap((x) => b.flatMap((y) => c.map((z) => f(x, y, z))));
}

/** The 54 win-rate fields, scope-major then window then kind. */
export const WIN_RATE_FIELDS = cross(
  WIN_RATE_SCOPES,
  WIN_RATE_WINDOWS,
  WIN_RATE_KINDS,
  (s, w, k) => `win_rate_${s}${w}_${k}`,
) as WinRateField[];
/** Forward-return fields in horizon order, `returns_latest` last. */
export const FORWARD_RETURN_FIELDS: ForwardReturnField[] = [
  ...FORWARD_WINDOWS.map((w) => `returns_${w}` as const),
  "returns_latest",
];
/** Excess forward-return fields in horizon order. */
export const EXCESS_RETURN_FIELDS: ExcessReturnField[] = FORWARD_WINDOWS.map((w) =>
  `excess_returns_${w}` as const
);
/** Prior-return fields in window order. */
export const PRIOR_RETURN_FIELDS: PriorReturnField[] = PRIOR_WINDOWS.map((w) =>
  `returns_${w}_ago` as const
);
/** The 15 insider-return fields, window-major. */
export const INSIDER_RETURN_FIELDS = cross(
  INSIDER_RETURN_WINDOWS,
  INSIDER_RETURN_DIRECTIONS,
  [""],
  (w, d) => `insider_returns_${w}${d}`,
) as InsiderReturnField[];
/** Z-score fields in window order. */
export const ZSCORE_FIELDS: ZscoreField[] = VALUE_WINDOWS.map((w) =>
  `transaction_value_zscore_${w}` as const
);
/** Median-value fields in window order. */
export const MEDIAN_FIELDS: MedianField[] = VALUE_WINDOWS.map((w) =>
  `transaction_value_median_${w}` as const
);

/** A string field. */
export type StringField = typeof STRING_FIELDS[number];
/** A date field. */
export type DateField = typeof DATE_FIELDS[number];
/** A timestamp field. */
export type DatetimeField = typeof DATETIME_FIELDS[number];
/** A boolean field. */
export type BooleanField = typeof BOOLEAN_FIELDS[number];
/** An integer field (counts, ids and the `wins`/`total` of the win-rate family). */
export type IntField =
  | typeof COUNT_FIELDS[number]
  | `win_rate_${WinRateScope}${WinRateWindow}_${"wins" | "total"}`;
/** A floating-point field. */
export type FloatField =
  | typeof MEASURE_FIELDS[number]
  | ForwardReturnField
  | ExcessReturnField
  | PriorReturnField
  | `win_rate_${WinRateScope}${WinRateWindow}_pct`
  | InsiderReturnField
  | InsiderExcessReturnField
  | ZscoreField
  | MedianField;
/** Any field name of the catalog. */
export type TransactionField =
  | StringField
  | DateField
  | DatetimeField
  | BooleanField
  | IntField
  | FloatField
  | "feed_ids";

/** A transaction as the service sends it (snake_case); every field but `feed_ids` is nullable. */
export type TransactionRow =
  & { [K in StringField | DateField | DatetimeField]: string | null }
  & { [K in BooleanField]: boolean | null }
  & { [K in IntField | FloatField]: number | null }
  & { feed_ids: number[] };

/** One entry of the field catalog. */
export interface FieldSpec {
  /** snake_case name as the service sends it. */
  readonly name: TransactionField;
  /** camelCase name used in search rows. */
  readonly camel: string;
  /** Value type (`shared/values/`): its grammar, frame dtype and row type. */
  readonly type: ValueType;
  /** Family the field belongs to, if any. */
  readonly family:
    | "win_rate"
    | "forward_return"
    | "excess_return"
    | "prior_return"
    | "insider_return"
    | "insider_excess_return"
    | "value_zscore"
    | "value_median"
    | null;
  /** Whether the value may be null (all but `feed_ids`). */
  readonly nullable: boolean;
}

/**
 * The camelCase name of a snake_case field, as search rows carry it
 * (`win_rate_bullish_3m_wins` → `winRateBullish3mWins`).
 *
 * @example
 * ```ts
 * import { toCamel } from "./fields.ts";
 * toCamel("is_10_percent_owner"); // "is10PercentOwner"
 * ```
 */
export function toCamel(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function specs(
  names: readonly string[],
  type: ValueType | ((name: string) => ValueType),
  family: FieldSpec["family"] = null,
): FieldSpec[] {
  return names.map((name) => ({
    name: name as TransactionField,
    camel: toCamel(name),
    type: typeof type === "function" ? type(name) : type,
    family,
    nullable: true,
  }));
}

/** The whole catalog, in the column order frames use. */
export const TRANSACTION_FIELDS: readonly FieldSpec[] = [
  ...specs(["accession_number"], "code"),
  ...specs(["transaction_id"], "integer"),
  ...specs(["filed_at"], "timestamp"),
  ...specs(STRING_FIELDS.slice(1), "code"),
  ...specs(DATE_FIELDS, "date"),
  ...specs(DATETIME_FIELDS.slice(1), "timestamp"),
  ...specs(BOOLEAN_FIELDS, "boolean"),
  ...specs(MEASURE_FIELDS, "decimal"),
  ...specs(COUNT_FIELDS.slice(1), "integer"),
  ...specs(FORWARD_RETURN_FIELDS, "decimal", "forward_return"),
  ...specs(EXCESS_RETURN_FIELDS, "decimal", "excess_return"),
  ...specs(PRIOR_RETURN_FIELDS, "decimal", "prior_return"),
  ...specs(WIN_RATE_FIELDS, (name) => name.endsWith("_pct") ? "decimal" : "integer", "win_rate"),
  ...specs(INSIDER_RETURN_FIELDS, "decimal", "insider_return"),
  ...specs(INSIDER_EXCESS_RETURN_FIELDS, "decimal", "insider_excess_return"),
  ...specs(ZSCORE_FIELDS, "decimal", "value_zscore"),
  ...specs(MEDIAN_FIELDS, "decimal", "value_median"),
  { name: "feed_ids", camel: "feedIds", type: "list", family: null, nullable: false },
];

/** Every field name, in catalog order. */
export const TRANSACTION_FIELD_NAMES: readonly TransactionField[] = TRANSACTION_FIELDS.map((f) =>
  f.name
);

const BY_NAME = new Map(TRANSACTION_FIELDS.map((f) => [f.name as string, f]));

/**
 * Whether `name` is a field of the catalog.
 *
 * @example
 * ```ts
 * import { isTransactionField } from "./fields.ts";
 * isTransactionField("win_rate_1y_pct"); // true
 * ```
 */
export function isTransactionField(name: string): name is TransactionField {
  return BY_NAME.has(name);
}
