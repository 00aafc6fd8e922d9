/**
 * signalbook: typed clients, DataFrames, charts and backtests for the pitch
 * catalog and insider-trades services, with an offline emulator of both.
 *
 * @example
 * ```ts
 * import { connect } from "./mod.ts";
 * const { catalog, insider } = await connect(); // env keys, or the offline emulator
 * for await (const row of catalog.pitches({ sentiment: ["bullish"], authorBadge: ["elite"] })) {
 *   console.log(row.pitch.ticker_symbol, row.pitch.pitch_title);
 *   break;
 * }
 * const ceoBuys = await insider.feed("ceo-trades", "buy").take(10);
 * const { rows, failed } = await insider.hydrate(ceoBuys, { concurrency: 8 });
 * console.log(rows.length, failed.length);
 * ```
 *
 * @module
 */
export { connect, type Connection, type ConnectOptions } from "./lib/connect.ts";
export { ConfigurationError, type EnvSource } from "./lib/connect/env.ts";
export { DEMO_LABEL, isDemo } from "./lib/shared/demo.ts";
export {
  type FieldGrammar,
  type Grammar,
  GRAMMARS,
  listOf,
  type Note,
  readValue,
  UNREADABLE,
  VALUE_TYPES,
  type ValueOf,
  type ValueType,
} from "./lib/shared/values/mod.ts";
export { describeValue } from "./lib/shared/describe.ts";
export * from "./lib/doctor/mod.ts";
export * from "./lib/http/mod.ts";
export * from "./lib/catalog/mod.ts";
export * from "./lib/insider/mod.ts";
export {
  type Archive,
  type Author,
  type CatalogData,
  type Company,
  createStub,
  DEFAULT_DIALECT,
  DEMO_KEYS,
  describeDialect,
  type Dialect,
  DIALECT_POINTS,
  type DialectName,
  type DialectPoint,
  DIALECTS,
  type DialectSpec,
  type Faults,
  type FilterSet as StubFilterSet,
  type Industry,
  type Insider,
  INSIDER_SKILL,
  type InsiderData,
  type Pitch,
  PRICE_MODEL,
  type RateLimiter,
  resolveDialect,
  type Stub,
  type StubApp,
  type StubOptions,
  type Tag as StubTag,
  type Trade,
  type TradeKey,
  type Truth,
  TRUTH_HORIZONS,
  type TruthHorizon,
  type TruthRow,
  type World,
} from "./lib/stub/mod.ts";
export * from "./lib/frames/mod.ts";
export * from "./lib/families/mod.ts";
export * from "./lib/store/mod.ts";
export * from "./lib/charts/mod.ts";
export * from "./lib/notebook/mod.ts";
export * from "./lib/backtest/mod.ts";
