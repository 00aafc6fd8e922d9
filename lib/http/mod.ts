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
  type RetryInfo,
  Transport,
} from "./transport.ts";
export {
  type ListOptions,
  type Page,
  type PageFetcher,
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
export { announceRetry, httpEvents } from "./events.ts";
export type { ValidationIssue } from "../shared/schema.ts";
