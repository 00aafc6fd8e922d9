/**
 * The two dialect points that concern every answer rather than one endpoint
 * (see `dialect.ts`): the form of problem `type`s, and rate-limit headers.
 * Both are middleware installed only for a dialect that asks for them, so
 * the default dialect's answers cost nothing extra.
 *
 * @module
 */
import { RateLimiter } from "./guard.ts";
import type { MiddlewareHandler } from "npm:hono@4.13.19";
import type { Dialect } from "./dialect.ts";
import type { Faults } from "./guard.ts";

/** Base of problem type URIs in the `uri` dialect (`.invalid` never resolves). */
export const PROBLEM_TYPE_BASE = "https://problems.signalbook.invalid/";

/** A problem type name in the dialect's form. */
export function problemTypeIn(type: string, d: Pick<Dialect, "problemTypes">): string {
  return d.problemTypes === "uri"
    ? PROBLEM_TYPE_BASE + type
    : d.problemTypes === "path"
    ? "/problems/" + type
    : d.problemTypes === "about-blank"
    ? "about:blank"
    : type;
}

/** Rewrites the `type` of every problem answer; undefined for the default form. */
export function problemTypes(d: Dialect): MiddlewareHandler | undefined {
  if (d.problemTypes === "name") return undefined;
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.headers.get("content-type") !== "application/problem+json") return;
    const body = await res.clone().json() as { type: string };
    body.type = problemTypeIn(body.type, d);
    c.res = new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
}

/** Nominal budget advertised when no `rateLimit` fault is set: 600 requests a minute per key. */
export const NOMINAL_RATE_LIMIT = { limit: 600, windowMs: 60_000 } as const;

/**
 * Rate-limit headers on every answer (a fixed window per key, the one the
 * `rateLimit` fault enforces when set, else {@link NOMINAL_RATE_LIMIT});
 * undefined when the dialect sends none.
 */
export function rateLimitHeaders(
  d: Dialect,
  opts: Faults,
  now: () => number,
): MiddlewareHandler | undefined {
  if (d.rateLimitHeaders === "none") return undefined;
  const { limit, windowMs } = opts.rateLimit ?? NOMINAL_RATE_LIMIT;
  // bounded like the limiter (least recently used keys dropped), and fed only keys that
  // authentication accepted: the app puts this after `bearer`
  const counter = new RateLimiter({ limit, windowMs }, now, opts.rateLimit?.maxKeys);
  return async (c, next) => {
    const key = c.req.header("authorization") ?? "";
    const t = now();
    counter.hit(key);
    const w = counter.windowOf(key) ?? { start: t, count: 1 };
    await next();
    const remaining = String(Math.max(0, limit - w.count));
    const resetMs = w.start + windowMs;
    const h = c.res.headers;
    if (d.rateLimitHeaders === "x-ratelimit") {
      h.set("x-ratelimit-limit", String(limit));
      h.set("x-ratelimit-remaining", remaining);
      h.set("x-ratelimit-reset", String(Math.ceil(resetMs / 1000)));
    } else {
      h.set("ratelimit-limit", String(limit));
      h.set("ratelimit-remaining", remaining);
      h.set("ratelimit-reset", String(Math.max(0, Math.ceil((resetMs - t) / 1000))));
      h.set("ratelimit-policy", `${limit};w=${Math.round(windowMs / 1000)}`);
    }
  };
}
