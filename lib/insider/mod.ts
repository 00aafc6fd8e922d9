/**
 * The insider-trades area: the field catalog, the curated feeds and the
 * search filter.
 *
 * @module
 */
export * from "./fields.ts";
export * from "./feeds.ts";
export {
  type Amount,
  EXCLUDE_FLAGS,
  FILING_DATE_PRESETS,
  type FilingDatePreset,
  FILTER_DEFAULTS,
  INSIDER_RETURN_PERIODS,
  INSIDER_RETURN_TYPES,
  type InsiderFilter,
  type InsiderReturnPeriod,
  type InsiderReturnType,
  ONLY_FLAGS,
  parseAmount,
  parsePercent,
  type Percent,
  POSITION_FLAGS,
  type PositionFlag,
  SORT_BYS,
  SORT_DIRECTIONS,
  type SortBy,
  type SortDirection,
  TRADE_RETURN_PERIODS,
  TRADE_TYPES,
  type TradeReturnPeriod,
  type TradeType,
} from "./filter.ts";
export {
  type Camel,
  type FeedsParams,
  type Hydrated,
  type HydratedFrame,
  type HydrateInput,
  type HydrateOptions,
  InsiderClient,
  type InsiderHit,
  type SearchRow,
} from "./client.ts";
export {
  transactionsFrame,
  type TransactionsFrameOptions,
  transactionsSink,
} from "./transaction_frames.ts";
