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
import { redactKnownKeys } from "./_redact.ts";
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

/**
 * An event target whose `CustomEvent` details never hold an API key: each
 * reaches listeners as a copy whose strings (in plain objects and arrays,
 * any depth) went through `redactKnownKeys` (`_redact.ts`), whoever
 * dispatches it. A `frame` event's `extra[].name` that a server made of the
 * key reaches listeners as `[redacted]`. The copy is made when a listener
 * first reads `detail` (once per event): an event no one reads (most
 * `limiter` and `shape` events, several per request) costs no redaction.
 */
class RedactingTarget extends EventTarget {
  override dispatchEvent(event: Event): boolean {
    const sent: unknown = event instanceof CustomEvent ? event.detail : undefined;
    if (sent !== null && sent !== undefined && !Object.hasOwn(event, "detail")) {
      // an own accessor over CustomEvent's: the sent detail redacted, copied when first read
      let read: { detail: unknown } | undefined;
      Object.defineProperty(event, "detail", {
        get: () => (read ??= { detail: clean(sent, 0) }).detail,
      });
    }
    return super.dispatchEvent(event);
  }
}

/** `v` with every key redacted: the same value when nothing changed. */
function clean(v: unknown, depth: number): unknown {
  if (typeof v === "string") return redactKnownKeys(v);
  if (typeof v !== "object" || v === null || depth > 16) return v;
  if (Array.isArray(v)) {
    const out = v.map((x) => clean(x, depth + 1));
    return out.some((x, i) => x !== v[i]) ? out : v;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const sent = Object.entries(v);
  const out = sent.map(([k, x]) => [redactKnownKeys(k), clean(x, depth + 1)] as const);
  return out.some(([k, x], i) => k !== sent[i][0] || x !== sent[i][1])
    ? Object.fromEntries(out)
    : v;
}

/** Where transports announce retries (and other observers' events; details redacted). */
export const httpEvents: EventTarget = new RedactingTarget();

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
