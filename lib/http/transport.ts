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
import {
  ConnectionError,
  errorFor,
  InvalidResponseError,
  ProblemError,
  type ProblemReader,
  SignalbookError,
  TimeoutError,
  UnsupportedUrlError,
} from "./errors.ts";
import {
  backoffMs,
  DEFAULT_RETRY_BUDGET_MS,
  groupOf,
  minRetryDelayMs,
  retryableStatus,
  RetryGroup,
  serverDelayMs,
  sleep,
} from "./retry.ts";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  jsonProblem,
  LargeBodyGate,
  readBody,
  readPrefix,
} from "./_body.ts";
import { knownKeys, redactError, redactKnownKeys, type Redactor, redactorFor } from "./_redact.ts";
import type { Scrubbed } from "./_key_match.ts";
import { checkApiKey, checkBaseUrl } from "./_config.ts";
import type { CacheKey } from "./cache.ts";
import { DEMO_HEADER, isDemo, isLoopbackUrl, markDemo } from "../shared/demo.ts";
import { announceRetry, type RetryInfo } from "./events.ts";
import { WideJson } from "../shared/wide_rows.ts";
import { intOption } from "../shared/options.ts";
import { type CacheOptions, openCache, type ResponseCache } from "./cache.ts";
import { CircuitOpenError, type LimiterOptions, refusalStatus, RequestLimiter } from "./limiter.ts";

/** Default `firstByteTimeoutMs`: 10 s for an answer's headers. */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 10_000;

/** Timeouts after which a request is not tried again (the first attempt's plus this many retries). */
export const MAX_TIMEOUT_RETRIES = 1;

/** A `fetch`-compatible function. */
export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** Options shared by both clients (`maxInFlight`, `requestsPerSecond`: see `limiter.ts`). */
export interface ClientOptions extends LimiterOptions {
  /**
   * The API key (sent as a bearer token; never printed). Trimmed; blank or
   * holding a control character is a `ConfigurationError` (see `_config.ts`).
   */
  apiKey: string;
  /**
   * Service base URL, e.g. `https://host/catalog` (`/api/v1` is added); no
   * query, fragment or credentials (see `_config.ts`).
   */
  baseUrl: string;
  /** The `fetch` to use (default `globalThis.fetch`); the emulator's `stub.fetch` plugs in. */
  fetch?: FetchLike;
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /**
   * Retry budget in time of a call group (a pull, a `hydrate`), ms (default
   * 60,000; 0: no retry at all): see `retry.ts`. Once spent, the group ends
   * with a typed error (`type: "retry-budget"`) and sends nothing more.
   */
  retryBudgetMs?: number;
  /** Per-attempt timeout in ms (default 30,000). */
  timeoutMs?: number;
  /**
   * Longest wait for an answer's headers, ms (default
   * {@link DEFAULT_FIRST_BYTE_TIMEOUT_MS}, 10 s; at most `timeoutMs`). A
   * server that accepts the connection and never answers fails by it, and
   * a request that timed out twice is not tried again: about 21 s in all
   * with the defaults, not 5 × `timeoutMs`.
   */
  firstByteTimeoutMs?: number;
  /** Called before each retry (for progress displays and logs). */
  onRetry?: (info: RetryInfo) => void;
  /** Local response cache (see `cache.ts`); off when left out or `false`. */
  cache?: CacheOptions | false;
  /**
   * Largest decoded answer read into memory, in bytes (default 16 MiB; see
   * `_body.ts`). A larger one is a `ResponseTooLargeError`, not retried.
   */
  maxResponseBytes?: number;
}

export type { RetryInfo };

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
 * const t = new Transport({ apiKey: "demo-catalog-key", baseUrl: "http://stub/catalog", fetch: createStub({ scale: 0.1 }).fetch });
 * const tags = await t.json<{ data: unknown[] }>({ method: "GET", path: "/tags" });
 * ```
 */
export class Transport {
  #key: string;
  #redact: Redactor;
  /** Replaces the key in answer bodies before they are parsed (see `_key_match.ts`). */
  #scrub: (text: string) => Scrubbed;
  /** Longest form of the key (a dump writes a byte in up to 6 characters): a cut text drops that much. */
  get #keyTail(): number {
    return 6 * this.#key.length;
  }
  /** Bounds the bytes of answers read at once (see `LargeBodyGate`). */
  #largeBodies = new LargeBodyGate();
  /** Parses answers, lists of wide rows without dictionary-mode objects (see `wide_rows.ts`). */
  #wideJson = new WideJson();
  #fetch: FetchLike;
  #onRetry?: (info: RetryInfo) => void;
  #cache: ResponseCache | null;
  /** The client's request budget: every API request waits here for a slot (see `limiter.ts`). */
  readonly limiter: RequestLimiter;
  /** Base URL without a trailing slash. */
  readonly baseUrl: string;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Retry budget in time of a call group, ms. */
  readonly retryBudgetMs: number;
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;
  /** Longest wait for an answer's headers, ms. */
  readonly firstByteTimeoutMs: number;
  /** Largest decoded answer read into memory, bytes. */
  readonly maxResponseBytes: number;

  readonly #problem: ProblemReader;
  #demo: boolean;
  /** Whether the emulator's header may mark this client's answers (a loopback host only). */
  readonly #headerMarks: boolean;

  /**
   * Creates a transport; `problem` reads error answers by the service's own
   * status table (default {@link errorFor}: by status, `premium-required` by type).
   */
  constructor(opts: ClientOptions, problem: ProblemReader = errorFor) {
    this.#problem = problem;
    this.#demo = isDemo(opts.fetch);
    // the key trimmed, refused blank or with a control character; the URL without query or credentials
    this.#key = checkApiKey(opts.apiKey, "apiKey");
    this.baseUrl = checkBaseUrl(opts.baseUrl, "baseUrl");
    // one matcher of the key: registered for the process (a short key is warned about once),
    // the redactor of this client's errors, the body scan and the cache's check
    const key = knownKeys.register(this.#key);
    this.#redact = redactorFor(key);
    this.#scrub = key.scrub;
    const holds = key.holds;
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#onRetry = opts.onRetry;
    this.#headerMarks = isLoopbackUrl(new URL(this.baseUrl));
    this.maxRetries = intOption("maxRetries", opts.maxRetries ?? 4, 0, 20);
    this.retryBudgetMs = intOption(
      "retryBudgetMs",
      opts.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS,
      0,
      3_600_000,
    );
    this.timeoutMs = intOption("timeoutMs", opts.timeoutMs ?? 30_000, 1, 3_600_000);
    this.firstByteTimeoutMs = Math.min(
      this.timeoutMs,
      intOption(
        "firstByteTimeoutMs",
        opts.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
        1,
        3_600_000,
      ),
    );
    this.maxResponseBytes = intOption(
      "maxResponseBytes",
      opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      1,
      MAX_RESPONSE_BYTES,
    );
    this.#cache = openCache(opts.cache, this.maxResponseBytes, holds);
    this.limiter = new RequestLimiter(opts);
  }

  /** The full URL of a path and query. */
  url(path: string, query?: Query): string {
    const qs = toSearchParams(query).toString();
    return `${this.baseUrl}/api/v1${path}${qs ? `?${qs}` : ""}`;
  }

  /**
   * Sends a request and parses the JSON answer. Reading the body falls under
   * the same per-attempt timeout as the headers: a body that stalls or
   * trickles past `timeoutMs` is a {@link TimeoutError} and is retried. A
   * `2xx` answer that is not a JSON object (or whose `data` is not a list),
   * or a redirect, is an {@link InvalidResponseError}; one larger than
   * `maxResponseBytes` a `ResponseTooLargeError`.
   */
  async json<T>(spec: RequestSpec): Promise<T> {
    return await this.read(spec, (body, label) => objectBody(body, label) as T);
  }

  /**
   * Sends a request and hands its JSON answer, whatever its form (an array
   * too), to `accept`, which returns what the caller wants or throws an
   * {@link InvalidResponseError} for a form it does not know. It runs
   * inside the attempt: an answer it refuses is not cached. Otherwise as
   * {@link Transport.json}.
   */
  async read<T>(spec: RequestSpec, accept: (body: unknown, label: string) => T): Promise<T> {
    return await this.#attempts(spec, async (res, label) => {
      if (res.status >= 300) {
        await res.body?.cancel().catch(() => {});
        throw new InvalidResponseError(
          `${label} answered ${res.status} (a redirect${
            res.headers.get("location") ? ` to ${redact(res.headers.get("location")!)}` : ""
          }); the client does not follow redirects of API calls`,
        );
      }
      if (!this.#demo && this.#headerMarks && res.headers.has(DEMO_HEADER)) this.#demo = true;
      const out = accept(await this.#json(res, label), label);
      if (this.#demo && typeof out === "object" && out !== null) {
        markDemo(out);
        // a page's rows too: `pitchesFrame(page.rows)` is demo data as well
        const rows = (out as { rows?: unknown }).rows;
        if (Array.isArray(rows)) markDemo(rows);
      }
      return out;
    });
  }

  /**
   * True once this transport has read the offline emulator's answers: its
   * `fetch` is the emulator's (marked, see `shared/demo.ts`) or an answer
   * from a loopback host carried the emulator's header. What the client builds from them is
   * marked as demo data.
   */
  get demo(): boolean {
    return this.#demo;
  }

  /**
   * Sends a request, retrying what is retryable; resolves with a 2xx or 3xx
   * response whose body has already been read (within the per-attempt
   * timeout and within `maxResponseBytes`), or throws a typed error.
   */
  async send(spec: RequestSpec): Promise<Response> {
    return await this.#attempts(spec, async (res, label) => {
      return rebuilt(res, await readBody(res, this.maxResponseBytes, label, this.#largeBodies));
    });
  }

  /**
   * The body parsed as JSON, within `maxResponseBytes` (see `_body.ts`);
   * lists of wide rows without building 174-key objects (see
   * `shared/wide_rows.ts`, `WideJson`). Before it is parsed, every occurrence of this
   * client's key in it (any form `_redact.ts` knows) is replaced by
   * `[redacted]`, with one warning naming the request and the count: a
   * service that echoes the key in a 200 answer gets it into no row,
   * frame, display, event or file.
   */
  async #json(res: Response, label: string): Promise<unknown> {
    const bytes = await readBody(res, this.maxResponseBytes, label, this.#largeBodies);
    // the text itself when it holds no key
    const { text, count } = this.#scrub(new TextDecoder().decode(bytes));
    if (count > 0) {
      const what = count === 1 ? "1 value of the answer was" : `${count} values of the answer were`;
      console.warn(
        `signalbook: ${label}: ${what} this client's API key, replaced by "[redacted]" ` +
          "before it was read (a service should never echo the key)",
      );
    }
    return parseJson(text, label, this.#wideJson);
  }

  /** `p`, with this client's key removed from any error it throws (see `_redact.ts`). */
  async #clean<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      throw redactError(e, this.#redact);
    }
  }

  /**
   * Reads a successful answer once (within `maxResponseBytes`), hands it to
   * `read`, and stores it in the cache only once `read` accepted it.
   */
  async #readAndStore<T>(
    res: Response,
    key: CacheKey,
    label: string,
    read: (res: Response, label: string) => Promise<T>,
  ): Promise<T> {
    const bytes = await readBody(res, this.maxResponseBytes, label, this.#largeBodies);
    const value = await read(rebuilt(res, bytes), label);
    if (res.status >= 200 && res.status < 300 && !NULL_BODY.has(res.status)) {
      await this.#cache!.put(key, rebuilt(res, bytes));
    }
    return value;
  }

  /** {@link Transport.#tryAll}, with this client's key removed from any error it throws. */
  async #attempts<T>(
    spec: RequestSpec,
    read: (res: Response, label: string) => Promise<T>,
  ): Promise<T> {
    return await this.#clean(this.#tryAll(spec, read));
  }

  async #tryAll<T>(
    spec: RequestSpec,
    read: (res: Response, label: string) => Promise<T>,
  ): Promise<T> {
    const url = this.url(spec.path, spec.query);
    const label = `${spec.method} ${spec.path}`;
    const body = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    const cacheKey = this.#cache?.keyFor(spec.method, spec.path, url, body);
    const cached = cacheKey && await this.#cache!.get(cacheKey);
    if (cached) return await read(cached, label);
    let timeouts = 0;
    // the call group whose retry budget this request shares (alone: its own)
    const group = groupOf(spec.signal) ?? new RetryGroup();
    for (let attempt = 0, throttled = false;; attempt++) {
      // a group ended by a storm sends nothing more
      if (group.stopped) throw group.stopped;
      // a throttled request goes back to the front of the queue
      const slot = await this.limiter.acquire(spec.signal, throttled).catch((e) => {
        if (!(e instanceof CircuitOpenError)) throw e;
        throw (group.stopped = errorFor({
          status: e.status,
          type: "circuit-open",
          title: e.status === 429 ? "Too Many Requests" : "Service Unavailable",
          detail: `${e.message} (the client's circuit is open)`,
          method: spec.method,
          url: redact(url),
        }));
      });
      const timeout = AbortSignal.timeout(this.timeoutMs);
      // the headers must come within firstByteTimeoutMs (a silent server fails fast)
      const headers = new AbortController();
      const firstByte = setTimeout(
        () =>
          headers.abort(
            new DOMException(`no answer within ${this.firstByteTimeoutMs} ms`, "TimeoutError"),
          ),
        this.firstByteTimeoutMs,
      );
      const signal = AbortSignal.any([
        ...(spec.signal ? [spec.signal] : []),
        timeout,
        headers.signal,
      ]);
      let res: Response | undefined;
      let failure: Error;
      try {
        const r: unknown = await within(
          this.#fetch(url, {
            method: spec.method,
            redirect: "manual",
            headers: {
              authorization: `Bearer ${this.#key}`,
              accept: "application/json",
              ...(spec.body !== undefined ? { "content-type": "application/json" } : {}),
            },
            body,
            signal,
          }),
          signal,
        );
        clearTimeout(firstByte);
        if (!(r instanceof Response)) {
          throw new InvalidResponseError(`${label}: fetch gave ${typeOf(r)}, not a Response`);
        }
        res = r;
        if (res.status < 400) {
          const ok = res;
          const done = cacheKey && ok.status < 300
            ? this.#readAndStore(ok, cacheKey, label, read)
            : read(ok, label);
          const value = await within(done, signal, () => ok.body?.cancel().catch(() => {}));
          this.limiter.succeeded(slot);
          return value;
        }
        failure = await within(
          problemOf(
            res,
            spec.method,
            redact(url),
            label,
            this.#redact,
            this.#problem,
            this.#keyTail,
          ),
          signal,
          () => res?.body?.cancel().catch(() => {}),
        );
      } catch (e) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        if (e instanceof InvalidResponseError) throw e;
        failure = headers.signal.aborted
          ? new TimeoutError(
            `${label}: no answer within ${this.firstByteTimeoutMs} ms (firstByteTimeoutMs)`,
            { cause: e },
          )
          : timeout.aborted
          ? new TimeoutError(`${label} timed out after ${this.timeoutMs} ms`, { cause: e })
          : new ConnectionError(`${label} to ${new URL(url).host} failed: ${messageOf(e)}`, {
            cause: e,
          });
        res = undefined;
      } finally {
        clearTimeout(firstByte);
        slot.release();
      }
      const server = serverDelayMs(res?.headers);
      // a server's wait is honoured, but never below a floor that grows with the attempts
      // (Retry-After: 0 must not buy five attempts in 50 ms)
      const delayMs = Math.max(minRetryDelayMs(attempt), server ?? backoffMs(attempt));
      if (res?.status === 429) {
        // pauses every request of the client (and halves its budget); counts toward its circuit
        this.limiter.throttled(slot, delayMs);
      } else if (res && refusalStatus(res.status)) this.limiter.refused(slot, res.status, delayMs);
      else if (res) this.limiter.succeeded(slot);
      const retryable = res ? retryableStatus(res.status) : true;
      // a server that never answered twice is down or silent: no more attempts at it
      if (failure instanceof TimeoutError && ++timeouts > MAX_TIMEOUT_RETRIES) throw failure;
      if (!retryable || attempt >= this.maxRetries) throw failure;
      // the group's retry budget: a wait past it ends the group
      if (!group.charge(delayMs, this.retryBudgetMs)) {
        throw (group.stopped = budgetSpent(failure, this.retryBudgetMs, group.spentMs));
      }
      const info = {
        attempt: attempt + 1,
        delayMs,
        reason: res ? String(res.status) : failure.name,
        request: label,
      };
      this.#onRetry?.(info);
      announceRetry(info);
      // after a 429 the limiter's pause is the wait
      throttled = res?.status === 429;
      if (!throttled) await sleep(delayMs, spec.signal);
    }
  }

  /**
   * Fetches an absolute URL without the key (signed document URLs). Only
   * `http:` and `https:` URLs are read, redirects included (at most 5, each
   * checked): anything else is an {@link UnsupportedUrlError} before any
   * byte is read. The answer's headers (and an error answer's first bytes)
   * must arrive within `timeoutMs`; the body is the caller's to read with
   * {@link Transport.readChunks}, whose only time limit is a gap of
   * `timeoutMs` without a byte. A download that keeps arriving is never cut
   * by its total time.
   */
  async fetchUnsigned(url: string, signal?: AbortSignal): Promise<Response> {
    return await this.#clean(this.#fetchUnsigned(url, signal));
  }

  async #fetchUnsigned(url: string, signal?: AbortSignal): Promise<Response> {
    let current = checkScheme(url);
    for (let hop = 0;; hop++) {
      // a timer, not AbortSignal.timeout: the signal handed to fetch stays tied
      // to the body, so it must not fire once the headers are in
      const headers = new AbortController();
      const timer = setTimeout(
        () =>
          headers.abort(
            new DOMException(`no answer within ${this.timeoutMs} ms`, "TimeoutError"),
          ),
        this.timeoutMs,
      );
      const both = signal ? AbortSignal.any([signal, headers.signal]) : headers.signal;
      try {
        const res = await this.#unsignedHop(current, both, signal, headers.signal);
        if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
          await res.body?.cancel().catch(() => {});
          if (hop >= 5) {
            throw new InvalidResponseError(`GET ${redact(url)}: more than 5 redirects`);
          }
          current = checkScheme(nextUrl(current, res.headers.get("location")!).href);
          continue;
        }
        if (res.status >= 300) {
          throw await this.#unsignedProblem(res, current, both, signal);
        }
        return res;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** One unsigned request: its response, or a typed error. */
  async #unsignedHop(
    url: URL,
    both: AbortSignal,
    signal: AbortSignal | undefined,
    timeout: AbortSignal,
  ): Promise<Response> {
    try {
      const r: unknown = await within(
        this.#fetch(url.href, { redirect: "manual", signal: both }),
        both,
      );
      if (!(r instanceof Response)) {
        throw new InvalidResponseError(
          `GET ${redact(url.href)}: fetch gave ${typeOf(r)}, not a Response`,
        );
      }
      return r;
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (e instanceof InvalidResponseError) throw e;
      if (timeout.aborted) {
        throw new TimeoutError(`GET ${redact(url.href)} timed out after ${this.timeoutMs} ms`, {
          cause: e,
        });
      }
      throw new ConnectionError(`GET ${redact(url.href)} failed: ${messageOf(e)}`, { cause: e });
    }
  }

  /** The typed error of an unsigned error answer (its first bytes read within the timeout). */
  async #unsignedProblem(
    failed: Response,
    url: URL,
    both: AbortSignal,
    signal: AbortSignal | undefined,
  ): Promise<SignalbookError> {
    try {
      return await within(
        problemOf(
          failed,
          "GET",
          redact(url.href),
          `GET ${redact(url.href)}`,
          this.#redact,
          this.#problem,
          this.#keyTail,
        ),
        both,
        () => failed.body?.cancel().catch(() => {}),
      );
    } catch (e) {
      if (e instanceof SignalbookError) return e;
      if (signal?.aborted) throw signal.reason;
      return new TimeoutError(
        `GET ${redact(url.href)} timed out after ${this.timeoutMs} ms reading its error`,
        { cause: e },
      );
    }
  }

  /**
   * The chunks of a response body, each of which must arrive within
   * `timeoutMs` of the previous one (an idle timeout: a stalled body is a
   * {@link TimeoutError}, a broken one a {@link ConnectionError}).
   */
  async *readChunks(res: Response, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    try {
      yield* this.#chunks(res, signal);
    } catch (e) {
      throw redactError(e, this.#redact);
    }
  }

  async *#chunks(res: Response, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    if (!res.body) return;
    const reader = res.body.getReader();
    const label = `GET ${redact(res.url || "(response)")}`;
    try {
      for (;;) {
        const timeout = AbortSignal.timeout(this.timeoutMs);
        const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await within(reader.read(), both);
        } catch (e) {
          if (signal?.aborted) throw signal.reason;
          if (timeout.aborted) {
            throw new TimeoutError(
              `${label}: no data for ${this.timeoutMs} ms while reading the body`,
              { cause: e },
            );
          }
          throw new ConnectionError(`${label}: reading the body failed: ${messageOf(e)}`, {
            cause: e,
          });
        }
        if (r.done) return;
        if (!(r.value instanceof Uint8Array)) {
          throw new InvalidResponseError(`${label}: the body gave ${typeOf(r.value)}, not bytes`);
        }
        yield r.value;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  /** JSON form without the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeoutMs: this.timeoutMs };
  }
}

/**
 * The error that ends a call group whose retry budget is spent: the last
 * refusal's typed error, `type: "retry-budget"`, or the last failure
 * itself when it was no answer (a connection error, a timeout).
 */
function budgetSpent(failure: Error, budgetMs: number, spentMs: number): Error {
  if (!(failure instanceof ProblemError)) return failure;
  return errorFor({
    status: failure.status,
    type: "retry-budget",
    title: failure.title,
    detail: `the call's retry budget of ${budgetMs / 1000} s is spent (${
      Math.round(spentMs / 100) / 10
    } s waited); no more attempts; last answer: ${failure.detail}`,
    method: failure.method,
    url: failure.url,
    retryAfter: failure.retryAfter,
  });
}

/** The largest `maxResponseBytes` allowed: 500 MiB, below V8's longest string. */
const MAX_RESPONSE_BYTES = 500 * 1024 * 1024;

/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A Response of `res`'s status and headers with `bytes` as its body. */
function rebuilt(res: Response, bytes: Uint8Array<ArrayBuffer>): Response {
  return new Response(NULL_BODY.has(res.status) ? null : bytes, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** The target of a redirect, or an {@link InvalidResponseError} naming the bad location. */
function nextUrl(current: URL, location: string): URL {
  try {
    return new URL(location, current);
  } catch {
    throw new InvalidResponseError(
      `GET ${redact(current.href)} redirected to an invalid URL ${
        JSON.stringify(redact(location))
      }`,
    );
  }
}

/** Only `http:` and `https:` URLs are read. */
function checkScheme(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InvalidResponseError(
      `the service gave an invalid URL ${JSON.stringify(redact(raw))}`,
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new UnsupportedUrlError(
      `refusing to read ${JSON.stringify(u.protocol)} URL ${
        // every key out before the cut: a cut key is one no redactor recognises
        JSON.stringify(
          redactKnownKeys(redact(raw)).slice(0, 80),
        )}; allowed schemes: http:, https: (nothing was read)`,
      u.protocol,
    );
  }
  return u;
}

/**
 * `p`, or the signal's reason as soon as it aborts (an injected `fetch` or
 * body stream that ignores the signal cannot hang the caller).
 */
function within<T>(p: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  if (signal.aborted) {
    p.catch(() => {});
    onAbort?.();
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", abort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", abort);
        reject(e);
      },
    );
  });
}

/** An error's message with its causes ("fetch failed: dns error: …"). */
function messageOf(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, i = 0; x !== undefined && x !== null && i < 4; i++) {
    const m = x instanceof Error ? x.message : String(x);
    if (m && !parts.some((p) => p.includes(m))) parts.push(m);
    x = x instanceof Error ? x.cause : undefined;
  }
  return parts.join(": ");
}

function typeOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}

/** The parsed JSON answer, or an {@link InvalidResponseError} saying it is not JSON. */
function parseJson(text: string, label: string, json: WideJson): unknown {
  try {
    return json.parse(text, label);
  } catch (e) {
    throw new InvalidResponseError(
      `${label}: the answer is not valid JSON (${jsonProblem(e)}; ${text.length} characters${
        // redacted before it is cut, so no part of a key slips through
        text.length
          ? `, starting ${JSON.stringify(redactKnownKeys(text.slice(0, 4096)).slice(0, 40))}`
          : ""})`,
    );
  }
}

/** A JSON object answer (whose `data`, if any, is a list), or an {@link InvalidResponseError}. */
function objectBody(parsed: unknown, label: string): Record<string, unknown> {
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new InvalidResponseError(
      `${label}: the answer is not a JSON object but ${typeOf(parsed)}`,
    );
  }
  const data = (parsed as Record<string, unknown>).data;
  if (data !== undefined && !Array.isArray(data)) {
    throw new InvalidResponseError(
      `${label}: the answer's "data" is not a list but ${typeOf(data)}`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** The URL with query-string signatures shortened (they are credentials of a kind). */
function redact(url: string): string {
  return url.replace(/([?&]signature=)[^&]+/, "$1…");
}

/**
 * The typed error of an error answer, from at most the first
 * `ERROR_PREFIX_BYTES` of its body (the rest is never downloaded).
 */
async function problemOf(
  res: Response,
  method: string,
  url: string,
  label: string,
  secrets: Redactor,
  read: ProblemReader,
  keyTail: number,
): Promise<ProblemError> {
  let body: Record<string, unknown> = {};
  let text = "";
  let cut = false;
  try {
    ({ text, truncated: cut } = await readPrefix(res, label));
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed;
  } catch {
    // not JSON: keep the status and a short excerpt of the text
  }
  const str = (v: unknown) => typeof v === "string" && v !== "" ? v : undefined;
  const retryAfterMs = serverDelayMs(res.headers);
  return read({
    status: res.status,
    type: str(body.type) ?? "unknown",
    title: str(body.title) ?? (res.statusText || `HTTP ${res.status}`),
    // an excerpt is redacted before it is cut, so no part of a key slips through; a body cut
    // short may end inside a key, so its last `keyTail` characters go too
    detail: str(body.detail) ??
      (excerpt(secrets(text.trim()), cut ? keyTail : 0) || "(no details)"),
    method,
    url,
    retryAfter: retryAfterMs === undefined ? undefined : retryAfterMs / 1000,
  });
}

/** The first 200 characters of a redacted text, without its last `tail` characters. */
function excerpt(text: string, tail: number): string {
  return text.slice(0, Math.max(0, Math.min(200, text.length - tail)));
}
