/**
 * Middleware shared by both emulated services, in this order: fault
 * injection (latency, random `503`s), bearer authentication against the demo
 * keys, and a rate limit answering `429` with `Retry-After`. The limiter
 * runs after authentication, so a request with a missing or unknown key gets
 * its `401` without touching the limiter's map, and the map is bounded
 * anyway (least recently used keys dropped).
 *
 * @module
 */
import type { MiddlewareHandler } from "npm:hono@4.13.19";
import { problem } from "./problem.ts";
import { Rng } from "../shared/random.ts";
import { LRUCache } from "npm:lru-cache@11.5.4";

/** Fault options for testing clients. */
export interface Faults {
  /** Latency per request, ms: each answer goes out this long after its request came in (default 0). */
  latencyMs?: number;
  /** Probability of a `503` problem per request (default 0). */
  failRate?: number;
  /**
   * Fixed-window rate limit per accepted key: at most `limit` requests per
   * `windowMs` (see {@link RateLimiter}).
   */
  rateLimit?: {
    limit: number;
    windowMs: number;
    /** Most keys tracked at once (default {@link RATE_LIMIT_MAX_KEYS}). */
    maxKeys?: number;
  };
}

/**
 * Latency and random failures. Each answer goes out `latencyMs` after its
 * request came in, the emulator's own work on it inside that time (an
 * answer whose work takes longer goes out when it is made): requests that
 * arrive together are answered together, their answers made while they
 * wait, not one after another once every wait has ended (which added the
 * work of the answers before it to each answer's latency). The rate limit
 * is separate ({@link rateLimit}): it runs after {@link bearer}, so only
 * accepted keys are counted.
 */
export function faults(opts: Faults): MiddlewareHandler {
  // the injected failures are the same in every run (seed 7)
  const rng = new Rng(7);
  return async (_c, next) => {
    const due = performance.now() + (opts.latencyMs ?? 0);
    const answer = opts.failRate && rng.next() < opts.failRate
      ? problem(503, "service-unavailable", "injected failure (--fail-rate); retry the request")
      : await next();
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return answer;
  };
}

/** Most keys a {@link RateLimiter} tracks by default (least recently used dropped first). */
export const RATE_LIMIT_MAX_KEYS = 1024;

/**
 * Fixed-window request counts per API key, in a map bounded to `maxKeys`
 * entries: the least recently used key is dropped when a new one would go
 * past the bound (`lru-cache`, whose hits make their key the most recent;
 * reading a window does not). It is fed only keys that {@link bearer} accepted (see
 * {@link rateLimit}), so junk keys never reach it; the bound is a second
 * line of defence. A dropped key starts a fresh window when it returns.
 *
 * @example
 * ```ts
 * import { RateLimiter } from "./guard.ts";
 * const limiter = new RateLimiter({ limit: 2, windowMs: 1000 }, () => 0, 100);
 * console.log(limiter.hit("k"), limiter.hit("k"), limiter.hit("k")); // 0 0 1
 * ```
 */
export class RateLimiter {
  readonly #windows: LRUCache<string, { start: number; count: number }>;
  /** Creates a limiter allowing `rule.limit` requests per `rule.windowMs` per key. */
  constructor(
    readonly rule: { limit: number; windowMs: number },
    readonly now: () => number = Date.now,
    readonly maxKeys: number = RATE_LIMIT_MAX_KEYS,
  ) {
    this.#windows = new LRUCache({ max: maxKeys });
  }
  /** Keys tracked now (at most `maxKeys`). */
  get size(): number {
    return this.#windows.size;
  }
  /** The current window of `key` (its start and requests counted), if it is tracked. */
  windowOf(key: string): { start: number; count: number } | undefined {
    const w = this.#windows.peek(key);
    return w ? { ...w } : undefined;
  }
  /** Counts a request for `key`; returns 0 when allowed, else the seconds to wait. */
  hit(key: string): number {
    const t = this.now();
    let w = this.#windows.get(key);
    if (!w || t - w.start >= this.rule.windowMs) this.#windows.set(key, w = { start: t, count: 0 });
    if (++w.count <= this.rule.limit) return 0;
    return Math.max(1, Math.ceil((w.start + this.rule.windowMs - t) / 1000));
  }
}

/** `429` with `Retry-After` once a key goes past the limiter's rule; put it after {@link bearer}. */
export function rateLimit(limiter: RateLimiter): MiddlewareHandler {
  const { limit, windowMs } = limiter.rule;
  return async (c, next) => {
    const wait = limiter.hit(bearerKey(c.req.header("authorization")) ?? "");
    if (wait) {
      return problem(
        429,
        "rate-limited",
        `rate limit of ${limit} requests per ${windowMs} ms exceeded; retry after ${wait} s`,
        { "retry-after": String(wait) },
      );
    }
    return await next();
  };
}

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
function bearerKey(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
}

/** Key states of a service. */
export interface Keys {
  /** Keys of active Premium accounts. */
  active: readonly string[];
  /** Keys whose Premium membership lapsed. */
  lapsed: readonly string[];
}

/** Bearer authentication: `401` for a missing or unknown key, `403` for a lapsed one. */
export function bearer(keys: Keys, available: () => boolean = () => true): MiddlewareHandler {
  return async (c, next) => {
    if (!available()) {
      return problem(
        503,
        "keys-unavailable",
        "API keys are not configured or the key service is unavailable",
      );
    }
    const key = bearerKey(c.req.header("authorization"));
    if (key === undefined) {
      return problem(401, "unauthorized", "missing API key: send Authorization: Bearer <API_KEY>", {
        "www-authenticate": "Bearer",
      });
    }
    if (keys.lapsed.includes(key)) {
      return problem(403, "premium-required", "the Premium membership of this key has lapsed");
    }
    if (!keys.active.includes(key)) {
      return problem(401, "unauthorized", "invalid API key", { "www-authenticate": "Bearer" });
    }
    return await next();
  };
}
