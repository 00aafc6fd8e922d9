/**
 * The offline emulator of both services (`signalbook/stub`): a Hono app that
 * serves the pitch catalog at `/catalog` and the insider-trades service at
 * `/insider` from deterministic demo data, in-process (`stub.fetch`,
 * `stub.app.request()`) or over loopback (`deno task stub`). Where the specs
 * say "not shown" it answers one way by default and, with
 * `createStub({ dialect })` / `--dialect`, in spec-legal alternatives (every
 * point and choice is listed in `dialect.ts`).
 *
 * @example
 * ```ts
 * import { createStub, DEMO_KEYS } from "./mod.ts";
 * const stub = createStub({ seed: 1, scale: 0.1, latencyMs: 0 }); // a small world: quick to build
 * const res = await stub.fetch("http://stub/insider/api/v1/feeds?feed_id=17", {
 *   headers: { authorization: `Bearer ${DEMO_KEYS.insider}` },
 * });
 * console.log((await res.json()).data.length); // 10
 * ```
 *
 * @module
 */
export { createStub, DEMO_KEYS, type Stub, type StubApp, type StubOptions } from "./app.ts";
export { type Faults, RATE_LIMIT_MAX_KEYS, RateLimiter } from "./guard.ts";
export * from "./dialect.ts";
export { type Company, type Industry, PRICE_MODEL, signalProfile, type World } from "./world.ts";
export {
  makeTruth,
  type TradeKey,
  type Truth,
  TRUTH_HORIZONS,
  type TruthHorizon,
  type TruthRow,
} from "./truth.ts";
export type {
  Archive,
  Author,
  CatalogData,
  FilterSet,
  Pitch,
  Tag,
} from "./catalog/catalog_data.ts";
export {
  type Insider,
  INSIDER_SKILL,
  type InsiderData,
  type Trade,
} from "./insider/insider_data.ts";
export type { TransactionRow } from "../insider/fields.ts";
export { type ServeOptions, serveStub } from "./serve.ts";
