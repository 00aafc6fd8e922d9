/**
 * Transport events for observers such as progress bars: a `retry` event
 * (detail: {@link RetryInfo}) before each retry of any client.
 *
 * @module
 */
import type { RetryInfo } from "./transport.ts";

/** Where transports announce retries. */
export const httpEvents: EventTarget = new EventTarget();

/** Announces a retry. */
export function announceRetry(info: RetryInfo): void {
  httpEvents.dispatchEvent(new CustomEvent<RetryInfo>("retry", { detail: info }));
}
