/**
 * Transport events for observers such as progress bars: a `retry` event
 * (detail: {@link RetryInfo}) before each retry of any client, and a `cache`
 * event (detail: `{ hit, request }`, see `cache.ts`) for each request a
 * response cache answers or misses.
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
