/**
 * The HTTP transport shared by both clients: an injected `fetch`, the base
 * URL plus `/api/v1`, the bearer key, query lists as repeated parameters,
 * JSON bodies, a per-attempt timeout combined with the caller's
 * `AbortSignal`, retries (see `retry.ts`) and typed errors (see `errors.ts`).
 *
 * The key lives in a private field: it is not enumerable, not in
 * `JSON.stringify`, `console.log` or any error message.
 *
 * @module
 */
import { ConnectionError, errorFor, type ProblemError, TimeoutError } from "./errors.ts";
import { backoffMs, retryableStatus, serverDelayMs, sleep } from "./retry.ts";
import { announceRetry } from "./events.ts";
import { type CacheOptions, openCache, type ResponseCache } from "./cache.ts";

/** A `fetch`-compatible function. */
export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** Options shared by both clients. */
export interface ClientOptions {
  /** The API key (sent as a bearer token; never printed). */
  apiKey: string;
  /** Service base URL, e.g. `https://host/catalog` (`/api/v1` is added). */
  baseUrl: string;
  /** The `fetch` to use (default `globalThis.fetch`); the emulator's `stub.fetch` plugs in. */
  fetch?: FetchLike;
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** Per-attempt timeout in ms (default 30,000). */
  timeoutMs?: number;
  /** Called before each retry (for progress displays and logs). */
  onRetry?: (info: RetryInfo) => void;
  /** Local response cache (see `cache.ts`); off when left out or `false`. */
  cache?: CacheOptions | false;
}

/** What {@link ClientOptions.onRetry} is told. */
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

/** Query values: lists become repeated parameters; undefined is left out. */
export type Query = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined
>;

/** One request. */
export interface RequestSpec {
  /** HTTP method. */
  method: "GET" | "POST";
  /** Path below `/api/v1`, already encoded. */
  path: string;
  /** Query parameters. */
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Caller's abort signal. */
  signal?: AbortSignal;
}

/** Builds the query string: arrays as repeated parameters. */
export function toSearchParams(query: Query | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) { for (const item of v) params.append(k, String(item)); }
    else params.append(k, String(v));
  }
  return params;
}

/**
 * Sends requests with retries and typed errors.
 *
 * @example
 * ```ts
 * import { Transport } from "./transport.ts";
 * import { createStub } from "../stub/mod.ts";
 * const t = new Transport({ apiKey: "demo-catalog-key", baseUrl: "http://stub/catalog", fetch: createStub().fetch });
 * const tags = await t.json<{ data: unknown[] }>({ method: "GET", path: "/tags" });
 * ```
 */
export class Transport {
  #key: string;
  #fetch: FetchLike;
  #onRetry?: (info: RetryInfo) => void;
  #cache: ResponseCache | null;
  /** Base URL without a trailing slash. */
  readonly baseUrl: string;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;

  /** Creates a transport. */
  constructor(opts: ClientOptions) {
    if (typeof opts.apiKey !== "string" || opts.apiKey.trim() === "") {
      throw new TypeError("apiKey is required (a non-empty string)");
    }
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new TypeError(`baseUrl ${JSON.stringify(opts.baseUrl)} is not an absolute URL`);
    }
    if (url.username || url.password) throw new TypeError("baseUrl must not contain credentials");
    this.#key = opts.apiKey;
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#onRetry = opts.onRetry;
    this.baseUrl = url.href.replace(/\/+$/, "");
    this.maxRetries = checkInt("maxRetries", opts.maxRetries ?? 4, 0, 20);
    this.timeoutMs = checkInt("timeoutMs", opts.timeoutMs ?? 30_000, 1, 3_600_000);
    this.#cache = openCache(opts.cache);
  }

  /** The full URL of a path and query. */
  url(path: string, query?: Query): string {
    const qs = toSearchParams(query).toString();
    return `${this.baseUrl}/api/v1${path}${qs ? `?${qs}` : ""}`;
  }

  /** Sends a request and parses the JSON answer. */
  async json<T>(spec: RequestSpec): Promise<T> {
    const res = await this.send(spec);
    return await res.json() as T;
  }

  /**
   * Sends a request, retrying what is retryable; resolves with a 2xx or 3xx
   * response, or throws a typed error.
   */
  async send(spec: RequestSpec): Promise<Response> {
    const url = this.url(spec.path, spec.query);
    const label = `${spec.method} ${spec.path}`;
    const body = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    const cacheKey = this.#cache?.keyFor(spec.method, spec.path, url, body);
    const cached = cacheKey && await this.#cache!.get(cacheKey);
    if (cached) return cached;
    for (let attempt = 0;; attempt++) {
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
      let res: Response | undefined;
      let failure: Error;
      try {
        res = await this.#fetch(url, {
          method: spec.method,
          redirect: "manual",
          headers: {
            authorization: `Bearer ${this.#key}`,
            accept: "application/json",
            ...(spec.body !== undefined ? { "content-type": "application/json" } : {}),
          },
          body,
          signal,
        });
      } catch (e) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        failure = timeout.aborted
          ? new TimeoutError(`${label} timed out after ${this.timeoutMs} ms`, { cause: e })
          : new ConnectionError(`${label} failed: ${(e as Error)?.message ?? e}`, { cause: e });
      }
      if (res && res.status < 400) return cacheKey ? await this.#cache!.put(cacheKey, res) : res;
      if (res) failure = await problemOf(res, spec.method, redact(url));
      const retryable = res ? retryableStatus(res.status) : true;
      if (!retryable || attempt >= this.maxRetries) throw failure!;
      const delayMs = serverDelayMs(res?.headers) ?? backoffMs(attempt);
      const info = {
        attempt: attempt + 1,
        delayMs,
        reason: res ? String(res.status) : failure!.name,
        request: label,
      };
      this.#onRetry?.(info);
      announceRetry(info);
      await sleep(delayMs, spec.signal);
    }
  }

  /** Fetches an absolute URL without the key (signed document URLs). */
  async fetchUnsigned(url: string, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await this.#fetch(url, {
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)])
          : AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      throw new ConnectionError(`GET ${redact(url)} failed: ${(e as Error)?.message ?? e}`, {
        cause: e,
      });
    }
    if (res.status >= 400) throw await problemOf(res, "GET", redact(url));
    return res;
  }

  /** JSON form without the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeoutMs: this.timeoutMs };
  }
}

function checkInt(name: string, v: number, lo: number, hi: number): number {
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new TypeError(
      `${name} ${JSON.stringify(v)} is not allowed; allowed: an integer from ${lo} to ${hi}`,
    );
  }
  return v;
}

/** The URL with query-string signatures shortened (they are credentials of a kind). */
function redact(url: string): string {
  return url.replace(/([?&]signature=)[^&]+/, "$1…");
}

async function problemOf(res: Response, method: string, url: string): Promise<ProblemError> {
  let body: Record<string, unknown> = {};
  let text = "";
  try {
    text = await res.text();
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed;
  } catch {
    // not JSON: keep the status and a short excerpt of the text
  }
  const str = (v: unknown) => typeof v === "string" && v !== "" ? v : undefined;
  const retryAfterMs = serverDelayMs(res.headers);
  return errorFor({
    status: res.status,
    type: str(body.type) ?? "unknown",
    title: str(body.title) ?? (res.statusText || `HTTP ${res.status}`),
    detail: str(body.detail) ?? (text.trim().slice(0, 200) || "(no details)"),
    method,
    url,
    retryAfter: retryAfterMs === undefined ? undefined : retryAfterMs / 1000,
  });
}
