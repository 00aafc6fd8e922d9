/**
 * The emulator application: both services in one Hono app, the catalog at
 * `/catalog` and the insider service at `/insider`, each behind fault
 * injection and bearer authentication with the demo keys.
 *
 * @module
 */
import { DEMO_HEADER, markDemo } from "../shared/demo.ts";
import { refuse } from "../shared/options.ts";
import { type Context, Hono } from "npm:hono@4.13.19";
import { except } from "npm:hono@4.13.19/combine";
import { HTTPException } from "npm:hono@4.13.19/http-exception";
import type { OpenAPIHono } from "npm:@hono/zod-openapi@1.6.3";
import { bearer, type Faults, faults, rateLimit, RateLimiter } from "./guard.ts";
import { bodyLimit } from "npm:hono@4.13.19/body-limit";
import { problem } from "./problem.ts";
import type { World } from "./world.ts";
import { openWorld } from "./world_cache.ts";
import type { CatalogData } from "./catalog/catalog_data.ts";
import { catalogService } from "./catalog/catalog_service.ts";
import type { InsiderData } from "./insider/insider_data.ts";
import { insiderService } from "./insider/insider_service.ts";
import { makeTruth, type Truth } from "./truth.ts";
import { type Dialect, type DialectSpec, resolveDialect } from "./dialect.ts";
import { answerDialect, rateLimitHeaders } from "./dialect_wire.ts";

/** Demo keys of the emulator (fixed contract). */
export const DEMO_KEYS = {
  catalog: "demo-catalog-key",
  catalogLapsed: "demo-catalog-lapsed",
  insider: "demo-insider-key",
  insiderLapsed: "demo-insider-lapsed",
} as const;

/** Options of {@link createStub}. */
export interface StubOptions extends Faults {
  /** Seed of the demo data (default 1). */
  seed?: number;
  /** Multiplier of the demo counts, 0.01 to 100 (default 1: ~3,000 pitches, ~25,000 trades). */
  scale?: number;
  /** The frozen "today" of the demo world, `YYYY-MM-DD` (default 2026-11-20). */
  asOf?: string;
  /** Wall clock for signed-URL expiry and rate limits (default `Date.now`). */
  now?: () => number;
  /** When true, document URL signing fails with `503` (catalog rule 6). */
  signingFails?: boolean;
  /** When false, the insider service answers `503` as if API keys were not configured. */
  insiderKeysConfigured?: boolean;
  /**
   * Origin of signed document URLs (default `http://signalbook.offline`;
   * `serveStub` sets its own address). The request's `Host` is never used.
   */
  origin?: string;
  /**
   * Spec-legal alternatives for the points the specs leave open (default:
   * the default dialect). One name (`"upper-digits"`), a comma-separated list
   * or a list of names (`["feed-items", "problem-uri"]`, `"all"`), single
   * choices (`"feedContainer=results"`), or an object of per-point choices
   * (`{ tags: "by-type" }`); see `dialect.ts` for every point and choice.
   * A bad value throws a `RangeError` naming it.
   */
  dialect?: DialectSpec;
  /**
   * Where the generated world is kept between processes: a folder, or
   * `false` for none (default: the user's cache folder; see
   * `world_cache.ts`). A world read back is value for value the one
   * generated; only the time to the first answer differs.
   */
  worldCache?: string | false;
  /**
   * Most serialized search rows the insider service keeps, so a page asked
   * for again (a retry, a second pull of the same rows) is joined from
   * strings rather than serialized again (about 4 KB a row). Default 5,000:
   * the in-process emulator runs in the user's own process, where keeping
   * every row of a full pull (23,000 rows, about 95 MB) cost more memory
   * than the CPU it saved. `serveStub` (`deno task stub`) keeps
   * `SERVER_KEPT_ROWS`: a server process of its own, where CPU is what the
   * client on the same machine competes for, bounded for large worlds.
   */
  keepServedRows?: number;
}

/** Largest request body accepted, bytes (1 MB); larger ones get `413` before any parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The parts of the Hono app callers use. */
export interface StubApp {
  /** Hono's test helper: a path (or URL) and init, answered in-process. */
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>;
  /** The fetch handler (what `Deno.serve` takes). */
  fetch(request: Request): Response | Promise<Response>;
}

/** A running emulator. */
export interface Stub {
  /** The Hono app (use `app.request()` in tests). */
  app: StubApp;
  /** A `fetch` that serves requests in-process; pass it to the clients. */
  fetch: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  /** The demo world. */
  world: World;
  /** The catalog demo data. */
  catalog: CatalogData;
  /** The insider demo data. */
  insider: InsiderData;
  /** The dialect this emulator answers in (every point, checked). */
  dialect: Dialect;
  /**
   * The effects built into this world: expected excess return per trade and
   * by role, feed, size and skill at each horizon (see {@link Truth}).
   */
  truth: Truth;
  /**
   * The rate limiter both services share when `rateLimit` is set (its `size`
   * is the number of keys it tracks), else undefined.
   */
  rateLimiter?: RateLimiter;
}

function tooLarge(): Response {
  return problem(
    413,
    "body-too-large",
    `the request body is larger than ${MAX_BODY_BYTES} bytes (1 MB); send a smaller body`,
  );
}

/**
 * Builds the emulator of both services.
 *
 * @example
 * ```ts
 * import { createStub } from "./app.ts";
 * const stub = createStub({ seed: 1, scale: 0.1 }); // scale: a tenth of the demo world
 * const res = await stub.app.request("/catalog/api/v1/tags", {
 *   headers: { authorization: "Bearer demo-catalog-key" },
 * });
 * console.log(res.status); // 200
 * ```
 */
export function createStub(opts: StubOptions = {}): Stub {
  const now = opts.now ?? Date.now;
  const dialect = resolveDialect(opts.dialect);
  const kept = opts.keepServedRows;
  if (kept !== undefined && !(typeof kept === "number" && kept >= 0)) {
    refuse("createStub", "keepServedRows", kept, ["a number ≥ 0 (or Infinity)"]);
  }
  const scale = opts.scale;
  if (scale !== undefined && !(typeof scale === "number" && scale >= 0.01 && scale <= 100)) {
    // the range `deno task stub --scale` accepts (a world of scale 0.001 fails to generate)
    refuse("createStub", "scale", scale, ["a number from 0.01 to 100"]);
  }
  // the world with the insiders' signals in its prices, from the cache folder when there;
  // the catalog (read from there too, or built) and the truth when first asked for
  const { world, insider, catalog: catalogData } = openWorld({
    seed: opts.seed,
    scale,
    asOf: opts.asOf,
    cache: opts.worldCache,
  });
  let truth: Truth | undefined;
  const secret = `signalbook-stub-${world.seed}`;
  const limiter = opts.rateLimit
    ? new RateLimiter(opts.rateLimit, now, opts.rateLimit.maxKeys)
    : undefined;
  const root = new Hono();
  // every answer says it is demo data (see shared/demo.ts): clients mark what they build from it
  // (after the answer is made, `c.header` sets it on a copy of the answer: a redirect's headers
  // cannot be changed in place)
  root.use("*", async (c, next) => {
    await next();
    c.header(DEMO_HEADER, "offline emulator");
  });
  const answers = answerDialect(dialect);
  if (answers) root.use("*", answers);
  root.use("*", bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => tooLarge() }));
  const rateHeaders = rateLimitHeaders(dialect, opts, now);
  const services: [string, OpenAPIHono, Parameters<typeof bearer>[0], () => boolean][] = [
    [
      "/catalog",
      catalogService({
        world,
        data: catalogData,
        secret,
        now,
        signingFails: opts.signingFails,
        origin: opts.origin,
        dialect,
      }),
      { active: [DEMO_KEYS.catalog], lapsed: [DEMO_KEYS.catalogLapsed] },
      () => true,
    ],
    [
      "/insider",
      insiderService({
        world,
        data: insider,
        secret,
        dialect,
        keepServedRows: opts.keepServedRows,
      }),
      { active: [DEMO_KEYS.insider], lapsed: [DEMO_KEYS.insiderLapsed] },
      () => opts.insiderKeysConfigured !== false,
    ],
  ];
  for (const [prefix, service, keys, available] of services) {
    const sub = new Hono();
    // in this order, for every answer but the (public) OpenAPI description; the rate limits
    // after authentication: unknown keys never reach their (bounded) maps
    const guards = [
      faults(opts),
      bearer(keys, available),
      rateHeaders,
      limiter && rateLimit(limiter),
    ];
    const openapi = (c: Context) => c.req.path.endsWith("/api/v1/openapi.json");
    sub.use("/api/v1/*", except(openapi, ...guards.filter((g) => g !== undefined)));
    sub.route("/", service);
    root.route(prefix, sub);
  }
  root.notFound((c) => problem(404, "not-found", `no route for ${c.req.method} ${c.req.path}`));
  root.onError((err) => {
    if (err instanceof HTTPException) {
      // a problem the handlers threw (`fail`) is answered as it is
      return err.res
        ? err.getResponse()
        : problem(err.status, err.status === 400 ? "invalid-request" : "error", err.message);
    }
    return problem(500, "internal-error", "unexpected emulator error");
  });
  return {
    app: { request: (input, init) => root.request(input, init), fetch: (req) => root.fetch(req) },
    fetch: markDemo((input, init) => Promise.resolve(root.fetch(new Request(input, init)))),
    world,
    get catalog() {
      return catalogData();
    },
    insider,
    get truth() {
      return truth ??= makeTruth(world, insider);
    },
    dialect,
    rateLimiter: limiter,
  };
}
