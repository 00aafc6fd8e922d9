/**
 * The HTTP area: transport, retries, typed errors, pagination and the pool.
 *
 * @module
 */
export * from "./errors.ts";
export { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError } from "./_body.ts";
export {
  type ClientOptions,
  type FetchLike,
  type Query,
  type RequestSpec,
  Transport,
} from "./transport.ts";
export {
  type ListOptions,
  MAX_EMPTY_PAGES,
  type Page,
  type PageFetcher,
  type PagesOptions,
  Paginated,
  partialOf,
  type PartialResult,
  type Taken,
} from "./paginate.ts";
export { mapPool, type PoolFailure, type PoolResult } from "./pool.ts";
export {
  type CacheEventDetail,
  type CacheKey,
  type CacheOptions,
  type CacheStats,
  cacheStats,
  ResponseCache,
} from "./cache.ts";
export { type CallOptions, ServiceClient } from "./service_client.ts";
export { announceRetry, announceShape, httpEvents } from "./events.ts";
export type { RetryInfo, ShapeInfo } from "./events.ts";
export type { ValidationIssue } from "../shared/schema.ts";
export {
  DEFAULT_MAX_IN_FLIGHT,
  type LimiterOptions,
  type LimiterState,
  RequestLimiter,
  type Slot,
} from "./limiter.ts";
export {
  type DayRange,
  TARGET_PAGES,
  type WindowedOptions,
  windowedPages,
  type WindowSource,
} from "./windows.ts";
