/**
 * Transport events for observers such as progress bars: a `retry` event
 * (detail: {@link RetryInfo}) before each retry of any client, a `cache`
 * event (detail: `{ hit, request }`, see `cache.ts`) for each request a
 * response cache answers or misses, and a `shape` event (detail:
 * {@link ShapeInfo}) each time a client reads an answer whose form the spec
 * leaves open, naming the form it recognised (what `deno task doctor`
 * reports as "the choice the service made").
 *
 * @module
 */
/** What a retry announcement (and `ClientOptions.onRetry`) is told. */
export interface RetryInfo {
  /** Retry number, from 1. */
  attempt: number;
  /** Wait before it, ms. */
  delayMs: number;
  /** Why: an HTTP status or an error name. */
  reason: string;
  /** Method and path. */
  request: string;
}

/** Where transports announce retries. */
export const httpEvents: EventTarget = new EventTarget();

/** Announces a retry. */
export function announceRetry(info: RetryInfo): void {
  httpEvents.dispatchEvent(new CustomEvent<RetryInfo>("retry", { detail: info }));
}

/**
 * Which form an answer took at a point the spec leaves open ("not shown"),
 * e.g. `{ endpoint: "GET /feeds", point: "list container", shape: '"data"' }`.
 */
export interface ShapeInfo {
  /** Method and path template, e.g. `GET /feeds`. */
  endpoint: string;
  /** The open point: `list container`, `has-more flag`, `cursor`, `hit fields`, … */
  point: string;
  /** The form recognised, e.g. `"data"`, `bare list`, `none`. */
  shape: string;
}

/**
 * Announces the form an answer took (a `shape` event on {@link httpEvents}).
 *
 * @example
 * ```ts
 * import { announceShape, httpEvents, type ShapeInfo } from "./events.ts";
 * const seen: ShapeInfo[] = [];
 * httpEvents.addEventListener("shape", (e) => seen.push((e as CustomEvent<ShapeInfo>).detail));
 * announceShape({ endpoint: "GET /feeds", point: "list container", shape: '"data"' });
 * console.log(seen.length); // 1
 * ```
 */
export function announceShape(info: ShapeInfo): void {
  httpEvents.dispatchEvent(new CustomEvent<ShapeInfo>("shape", { detail: info }));
}
