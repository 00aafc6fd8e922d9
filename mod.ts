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
export { createStub, DEMO_KEYS, type Stub, type StubOptions } from "./lib/stub/mod.ts";
