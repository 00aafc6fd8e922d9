/**
 * Middleware shared by both emulated services: fault injection (latency,
 * random `503`s, a rate limit answering `429` with `Retry-After`) and bearer
 * authentication against the demo keys.
 *
 * @module
 */
import type { MiddlewareHandler } from "npm:hono@4.13.19";
import { problem } from "./problem.ts";
import { Rng } from "../shared/random.ts";

/** Fault options for testing clients. */
export interface Faults {
  /** Added latency per request, ms (default 0). */
  latencyMs?: number;
  /** Probability of a `503` problem per request (default 0). */
  failRate?: number;
  /** Fixed-window rate limit per key: at most `limit` requests per `windowMs`. */
  rateLimit?: { limit: number; windowMs: number };
  /** Seed of the fault generator (default 7). */
  faultSeed?: number;
}

/** Latency, random failures and the rate limit, in that order. */
export function faults(opts: Faults, now: () => number): MiddlewareHandler {
  const rng = new Rng(opts.faultSeed ?? 7);
  const windows = new Map<string, { start: number; count: number }>();
  return async (c, next) => {
    if (opts.rateLimit) {
      const key = c.req.header("authorization") ?? "";
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= opts.rateLimit.windowMs) {
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      if (++w.count > opts.rateLimit.limit) {
        const wait = Math.max(1, Math.ceil((w.start + opts.rateLimit.windowMs - t) / 1000));
        return problem(
          429,
          "rate-limited",
          `rate limit of ${opts.rateLimit.limit} requests per ${opts.rateLimit.windowMs} ms exceeded; retry after ${wait} s`,
          { "retry-after": String(wait) },
        );
      }
    }
    if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
    if (opts.failRate && rng.next() < opts.failRate) {
      return problem(
        503,
        "service-unavailable",
        "injected failure (--fail-rate); retry the request",
      );
    }
    return await next();
  };
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
    const header = c.req.header("authorization") ?? "";
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) {
      return problem(401, "unauthorized", "missing API key: send Authorization: Bearer <API_KEY>", {
        "www-authenticate": "Bearer",
      });
    }
    if (keys.lapsed.includes(m[1])) {
      return problem(403, "premium-required", "the Premium membership of this key has lapsed");
    }
    if (!keys.active.includes(m[1])) {
      return problem(401, "unauthorized", "invalid API key", { "www-authenticate": "Bearer" });
    }
    return await next();
  };
}
