/**
 * signalbook: typed clients, DataFrames, charts and backtests for the pitch
 * catalog and insider-trades services, with an offline emulator of both.
 *
 * @example
 * ```ts
 * import { createStub, DEMO_KEYS } from "./mod.ts";
 * const stub = createStub();
 * const res = await stub.fetch("http://stub/catalog/api/v1/pitches?limit=1", {
 *   headers: { authorization: `Bearer ${DEMO_KEYS.catalog}` },
 * });
 * console.log(res.status); // 200
 * ```
 *
 * @module
 */
export {
  type Archive,
  type Author,
  type CatalogData,
  type Company,
  createStub,
  DEMO_KEYS,
  type Faults,
  type FilterSet,
  type Industry,
  type Insider,
  type InsiderData,
  type Pitch,
  type Stub,
  type StubApp,
  type StubOptions,
  type Tag,
  type Trade,
  type TransactionRow,
  type World,
} from "./lib/stub/mod.ts";
export * from "./lib/catalog/mod.ts";
export * from "./lib/insider/mod.ts";
export type { ValidationIssue } from "./lib/shared/schema.ts";
