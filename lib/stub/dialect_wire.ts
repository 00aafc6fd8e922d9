/**
 * The dialect points that concern every answer rather than one endpoint
 * (see `dialect.ts`): the form of problem `type`s and the other rewrites of
 * answers' bodies ({@link answerDialect}), and rate-limit headers. Both are
 * middleware installed only for a dialect that asks for them, so the
 * default dialect's answers cost nothing extra.
 *
 * @module
 */
import { RateLimiter } from "./guard.ts";
import type { MiddlewareHandler } from "npm:hono@4.13.19";
import type { Dialect } from "./dialect.ts";
import type { Faults } from "./guard.ts";
import { plainValues, valueRows, widen } from "./dialect_values.ts";
import { noneRequired, omitNulls, renameCursor } from "./dialect_rows.ts";

/** Base of problem type URIs in the `uri` dialect (`.invalid` never resolves). */
export const PROBLEM_TYPE_BASE = "https://problems.signalbook.invalid/";

/** Per `problemTypes` choice: a problem type's name as it is written. */
export const PROBLEM_TYPES: Record<Dialect["problemTypes"], (type: string) => string> = {
  name: (type) => type,
  uri: (type) => PROBLEM_TYPE_BASE + type,
  path: (type) => "/problems/" + type,
  "about-blank": () => "about:blank",
};

/**
 * The one rewrite of answers' bodies for the dialect points that change
 * them, installed only when the dialect asks: the `type` of every problem
 * answer; on `200` answers under `/api/v1/`, the values of rows and details
 * (`dialect_values.ts`), then `nulls` and `cursorName` (`dialect_rows.ts`);
 * and the OpenAPI description to match. Undefined for a dialect that
 * changes no body.
 */
export function answerDialect(d: Dialect): MiddlewareHandler | undefined {
  const values = !plainValues(d);
  const nulls = d.nulls === "omit";
  const cursor = d.cursorName === "cursor";
  const problems = d.problemTypes !== "name";
  if (!values && !nulls && !cursor && !problems) return undefined;
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get("content-type") ?? "";
    const path = new URL(c.req.url).pathname;
    let body = res.status === 200 && type.includes("application/json") &&
        path.includes("/api/v1/") && (values || nulls || cursor)
      ? await res.clone().json()
      : undefined;
    if (type === "application/problem+json" && problems) {
      body = await res.clone().json();
      body.type = PROBLEM_TYPES[d.problemTypes](body.type);
    } else if (body === undefined) return;
    else if (path.endsWith("/openapi.json")) {
      if (!values && !nulls) return;
      if (values) widen(body, d);
      if (nulls) noneRequired(body);
    } else {
      if (values) body = valueRows(body, path, d);
      if (nulls) body = omitNulls(body, true);
      if (cursor) body = renameCursor(body);
    }
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    c.res = new Response(JSON.stringify(body), { status: res.status, headers });
  };
}

/** Rate-limit response headers a dialect sends on every answer, with what each says. */
export const RATE_LIMIT_HEADERS: Record<Dialect["rateLimitHeaders"], Record<string, string>> = {
  none: {},
  "x-ratelimit": {
    "X-RateLimit-Limit": "Requests allowed per window",
    "X-RateLimit-Remaining": "Requests left in this window",
    "X-RateLimit-Reset": "End of the window, epoch seconds",
  },
  ratelimit: {
    "RateLimit-Limit": "Requests allowed per window",
    "RateLimit-Remaining": "Requests left in this window",
    "RateLimit-Reset": "Seconds until the window ends",
    "RateLimit-Policy": "Quota policy, `<limit>;w=<seconds>`",
  },
};

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
  const names = Object.keys(RATE_LIMIT_HEADERS[d.rateLimitHeaders]);
  return async (c, next) => {
    const key = c.req.header("authorization") ?? "";
    const t = now();
    counter.hit(key);
    const w = counter.windowOf(key) ?? { start: t, count: 1 };
    await next();
    const resetMs = w.start + windowMs;
    // each header of the dialect's table, by the last word of its name
    const values: Record<string, number | string> = {
      Limit: limit,
      Remaining: Math.max(0, limit - w.count),
      Reset: d.rateLimitHeaders === "x-ratelimit"
        ? Math.ceil(resetMs / 1000)
        : Math.max(0, Math.ceil((resetMs - t) / 1000)),
      Policy: `${limit};w=${Math.round(windowMs / 1000)}`,
    };
    for (const name of names) c.res.headers.set(name, String(values[name.split("-").at(-1)!]));
  };
}
