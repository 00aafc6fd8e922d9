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
  errorFor,
  InvalidResponseError,
  type ProblemReader,
  RequestValidationError,
  TimeoutError,
} from "./errors.ts";
import {
  backoffMs,
  DEFAULT_RETRY_BUDGET_MS,
  groupOf,
  minRetryDelayMs,
  retryableStatus,
  RetryGroup,
  serverDelayMs,
} from "./retry.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, LargeBodyGate, readBody } from "./_body.ts";
import { bodyChunks, type Download, fetchUnsigned } from "./_download.ts";
import {
  budgetSpent,
  failureOf,
  fetchResponse,
  headerDeadline,
  MAX_RESPONSE_BYTES,
  objectBody,
  parseJson,
  problemOf,
  rebuilt,
  redact,
  sleep,
  within,
} from "./_transport_parts.ts";
import { knownKeys, redactError, type Redactor, redactorFor } from "./_redact.ts";
import type { KeyMatcher } from "./_key_match.ts";
import { checkApiKey, checkBaseUrl } from "./_config.ts";
import { DEMO_HEADER, isDemo, isLoopbackUrl, markDemo } from "../shared/demo.ts";
import { announceRetry, type RetryInfo } from "./events.ts";
import { WideJson } from "../shared/wide_rows.ts";
import { intOption } from "../shared/options.ts";
import { type CacheKey, type CacheOptions, ResponseCache } from "./cache.ts";
import {
  CircuitOpenError,
  type LimiterOptions,
  refusalStatus,
  RequestLimiter,
  type Slot,
} from "./limiter.ts";

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

/**
 * The whole-number options of a client: its default, least and most value
 * (see {@link ClientOptions}).
 */
const WHOLE_OPTIONS = {
  maxRetries: [4, 0, 20],
  retryBudgetMs: [DEFAULT_RETRY_BUDGET_MS, 0, 3_600_000],
  timeoutMs: [30_000, 1, 3_600_000],
  firstByteTimeoutMs: [DEFAULT_FIRST_BYTE_TIMEOUT_MS, 1, 3_600_000],
  maxResponseBytes: [DEFAULT_MAX_RESPONSE_BYTES, 1, MAX_RESPONSE_BYTES],
} as const satisfies Partial<Record<keyof ClientOptions, readonly [number, number, number]>>;

/** Reads a successful answer (its body read whole) into what the caller wants. */
type Reader<T> = (res: Response, bytes: Uint8Array<ArrayBuffer>, label: string) => T;

/** A failed attempt: what failed it, and the error answer when there was one. */
type Failed = { failure: Error; res?: Response };

/** One request being tried: what every attempt of it shares. */
interface Call<T> {
  spec: RequestSpec;
  url: string;
  label: string;
  body: string | undefined;
  cacheKey: CacheKey | undefined;
  read: Reader<T>;
  group: RetryGroup;
  /** Attempts that timed out so far. */
  timeouts: number;
}

/**
 * Builds the query string: arrays as repeated parameters. A value a URL
 * cannot carry as given — text holding a lone surrogate, which has no UTF-8
 * form (a URL would send U+FFFD instead: another cursor than the service
 * gave) — is a {@link RequestValidationError} naming the parameter, before
 * anything is sent.
 */
export function toSearchParams(query: Query | undefined): URLSearchParams {
  const pairs = Object.entries(query ?? {}).flatMap(([k, v]) =>
    (v === undefined ? [] : [v].flat()).map((item) => [k, String(item)])
  );
  const bad = pairs.find(([, s]) => !s.isWellFormed());
  if (bad) {
    const [k, s] = bad;
    const at = [...s].findIndex((ch) => !ch.isWellFormed());
    const shown = JSON.stringify(s.slice(0, 40)); // the key is taken out by #clean
    throw new RequestValidationError([{
      param: k,
      value: shown,
      message: `${shown} cannot be sent in a URL as given: it holds a lone surrogate ` +
        `(${JSON.stringify([...s][at])} at code point ${at}), which has no UTF-8 form`,
    }]);
  }
  return new URLSearchParams(pairs);
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
  /** The key's one matcher: the body scan before an answer is parsed (see `_key_match.ts`). */
  #matcher: KeyMatcher;
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
  readonly maxRetries!: number;
  /** Retry budget in time of a call group, ms. */
  readonly retryBudgetMs!: number;
  /** Per-attempt timeout, ms. */
  readonly timeoutMs!: number;
  /** Longest wait for an answer's headers, ms. */
  readonly firstByteTimeoutMs!: number;
  /** Largest decoded answer read into memory, bytes. */
  readonly maxResponseBytes!: number;

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
    this.#matcher = knownKeys.register(this.#key);
    this.#redact = redactorFor(this.#matcher);
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#onRetry = opts.onRetry;
    this.#headerMarks = isLoopbackUrl(new URL(this.baseUrl));
    // each a whole number within its bounds, named in the error (see `shared/options.ts`)
    for (const [name, [fallback, min, max]] of Object.entries(WHOLE_OPTIONS)) {
      const value = opts[name as keyof typeof WHOLE_OPTIONS] ?? fallback;
      Object.assign(this, { [name]: intOption(name, value, min, max) });
    }
    // the headers' wait is part of the attempt's
    this.firstByteTimeoutMs = Math.min(this.timeoutMs, this.firstByteTimeoutMs);
    this.#cache = opts.cache ? new ResponseCache(opts.cache, this.maxResponseBytes) : null;
    this.limiter = new RequestLimiter(opts);
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
    return await this.#clean(this.#tryAll(spec, (res, bytes, label) => {
      if (res.status >= 300) {
        throw new InvalidResponseError(
          `${label} answered ${res.status} (a redirect${
            res.headers.get("location") ? ` to ${redact(res.headers.get("location")!)}` : ""
          }); the client does not follow redirects of API calls`,
        );
      }
      if (!this.#demo && this.#headerMarks && res.headers.has(DEMO_HEADER)) this.#demo = true;
      const out = accept(this.#json(bytes, label), label);
      if (this.#demo && typeof out === "object" && out !== null) {
        markDemo(out);
        // a page's rows too: `pitchesFrame(page.rows)` is demo data as well
        const rows = (out as { rows?: unknown }).rows;
        if (Array.isArray(rows)) markDemo(rows);
      }
      return out;
    }));
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
   * The body parsed as JSON, within `maxResponseBytes` (see `_body.ts`);
   * lists of wide rows without building 174-key objects (see
   * `shared/wide_rows.ts`, `WideJson`). Before it is parsed, every value of
   * it that is this client's key (any form `_key_forms.ts` knows) is replaced
   * by `[redacted]`, with one warning naming the request and the count; an
   * answer holding the key inside a longer value is refused with an
   * {@link InvalidResponseError} (see `_key_match.ts`): a service that echoes
   * the key in a 200 answer gets it into no row, frame, display, event or
   * file, and no value is changed.
   */
  #json(bytes: Uint8Array, label: string): unknown {
    // the text itself when it holds no key
    const { text, count, inside } = this.#matcher.scrub(new TextDecoder().decode(bytes));
    // an answer that is not JSON says so first (its excerpt without any key)
    const parsed = parseJson(text, label, this.#wideJson);
    if (inside > 0) {
      throw new InvalidResponseError(
        `${label}: ${
          inside === 1 ? "a value of the answer holds" : `${inside} values of the answer hold`
        } this client's API key inside a longer text (or a field's name); the answer is refused, ` +
          "since the key cannot be taken out without changing the value (a service should never " +
          "echo the key)",
      );
    }
    if (count > 0) {
      const what = count === 1 ? "1 value of the answer was" : `${count} values of the answer were`;
      console.warn(
        `signalbook: ${label}: ${what} this client's API key, replaced by "[redacted]" ` +
          "before it was read (a service should never echo the key)",
      );
    }
    return parsed;
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
   * Hands a successful answer, read once (within `maxResponseBytes`), to the
   * call's reader; a cacheable one is stored in the cache only once the
   * reader accepted it.
   */
  async #accept<T>(call: Call<T>, res: Response): Promise<T> {
    const bytes = await readBody(res, this.maxResponseBytes, call.label, this.#largeBodies);
    const value = call.read(res, bytes, call.label);
    if (call.cacheKey && res.status < 300) {
      await this.#cache!.put(call.cacheKey, rebuilt(res, bytes));
    }
    return value;
  }

  /**
   * Tries a request until it is answered, fails for good or its group ends:
   * a slot of the limiter ({@link Transport.#slot}), one attempt
   * ({@link Transport.#once}), and the decision to try again
   * ({@link Transport.#again}).
   */
  async #tryAll<T>(spec: RequestSpec, read: Reader<T>): Promise<T> {
    const qs = toSearchParams(spec.query).toString();
    const url = `${this.baseUrl}/api/v1${spec.path}${qs ? `?${qs}` : ""}`;
    const label = `${spec.method} ${spec.path}`;
    const body = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    const cacheKey = this.#cache?.keyFor(spec.method, spec.path, url, body);
    const cached = cacheKey && await this.#cache!.get(cacheKey);
    if (cached) return read(cached, await cached.bytes(), label);
    // the call group whose retry budget this request shares (alone: its own)
    const call: Call<T> = {
      spec,
      url,
      label,
      body,
      cacheKey,
      read,
      group: groupOf(spec.signal) ?? new RetryGroup(),
      timeouts: 0,
    };
    for (let attempt = 0, throttled = false;; attempt++) {
      // a group ended by a storm sends nothing more
      if (call.group.stopped) throw call.group.stopped;
      const slot: Slot = await this.#slot(call, throttled);
      const out = await this.#once(call, slot);
      if ("value" in out) return out.value;
      throttled = await this.#again(call, attempt, slot, out);
    }
  }

  /** A slot of the limiter (a throttled request at the front), or the typed error of an open circuit. */
  async #slot<T>(call: Call<T>, throttled: boolean): Promise<Slot> {
    return await this.limiter.acquire(call.spec.signal, throttled).catch((e) => {
      if (!(e instanceof CircuitOpenError)) throw e;
      throw (call.group.stopped = errorFor({
        status: e.status,
        type: "circuit-open",
        title: e.status === 429 ? "Too Many Requests" : "Service Unavailable",
        detail: `${e.message} (the client's circuit is open)`,
        method: call.spec.method,
        url: redact(call.url),
      }));
    });
  }

  /**
   * One attempt: the answer read (`value`), or the failure and the error
   * answer, if there was one. The headers must come within
   * `firstByteTimeoutMs` (a silent server fails fast), the whole answer
   * within `timeoutMs`.
   */
  async #once<T>(call: Call<T>, slot: Slot): Promise<{ value: T } | Failed> {
    const { spec, label } = call;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const headers = headerDeadline(this.firstByteTimeoutMs);
    const signal = AbortSignal.any([
      ...(spec.signal ? [spec.signal] : []),
      timeout,
      headers.signal,
    ]);
    try {
      // with the key; a value that is not a Response is refused
      const res = await fetchResponse(this.#fetch, call.url, label, {
        method: spec.method,
        headers: {
          authorization: `Bearer ${this.#key}`,
          accept: "application/json",
          ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: call.body,
        signal,
      });
      headers.clear();
      // the body is read within the attempt's deadline (its reader holds the body: a read the
      // deadline ends is stopped by the fetch's own signal)
      if (res.status < 400) {
        const value = await within(this.#accept(call, res), signal);
        this.limiter.succeeded(slot);
        return { value };
      }
      const failure = await within(
        problemOf(res, spec.method, redact(call.url), label, this.#download),
        signal,
      );
      return { failure, res };
    } catch (e) {
      const failure = failureOf(e, spec.signal, `${label} to ${new URL(call.url).host} failed`, [
        [
          headers.signal,
          `${label}: no answer within ${this.firstByteTimeoutMs} ms (firstByteTimeoutMs)`,
        ],
        [timeout, `${label} timed out after ${this.timeoutMs} ms`],
      ]);
      return { failure };
    } finally {
      headers.clear();
      slot.release();
    }
  }

  /**
   * After a failed attempt: tells the limiter, then throws the failure when
   * it is not tried again (not retryable, out of retries, timed out twice,
   * the group's budget spent), or waits for the next attempt. True when the
   * wait is the limiter's pause after a `429`.
   */
  async #again<T>(
    call: Call<T>,
    attempt: number,
    slot: Slot,
    { failure, res }: Failed,
  ): Promise<boolean> {
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
    if (failure instanceof TimeoutError && ++call.timeouts > MAX_TIMEOUT_RETRIES) throw failure;
    if (!retryable || attempt >= this.maxRetries) throw failure;
    // the group's retry budget: a wait past it ends the group
    if (!call.group.charge(delayMs, this.retryBudgetMs)) {
      throw (call.group.stopped = budgetSpent(failure, this.retryBudgetMs, call.group.spentMs));
    }
    const info = {
      attempt: attempt + 1,
      delayMs,
      reason: res ? String(res.status) : failure.name,
      request: call.label,
    };
    this.#onRetry?.(info);
    announceRetry(info);
    // after a 429 the limiter's pause is the wait
    if (res?.status === 429) return true;
    await sleep(delayMs, call.spec.signal);
    return false;
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
    return await this.#clean(fetchUnsigned(this.#download, url, signal));
  }

  /**
   * The chunks of a response body, each of which must arrive within
   * `timeoutMs` of the previous one (an idle timeout: a stalled body is a
   * {@link TimeoutError}, a broken one a {@link ConnectionError}).
   */
  async *readChunks(res: Response, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    try {
      yield* bodyChunks(this.#download, res, signal);
    } catch (e) {
      throw redactError(e, this.#redact);
    }
  }

  /** What the unsigned download path and error answers need of this client (see `_download.ts`). */
  get #download(): Download {
    return {
      fetch: this.#fetch,
      timeoutMs: this.timeoutMs,
      redact: this.#redact,
      problem: this.#problem,
      // the key's longest form (a dump writes a byte in up to 6 characters): a cut text drops that much
      keyTail: 6 * this.#key.length,
    };
  }

  /** JSON form without the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, maxRetries: this.maxRetries, timeoutMs: this.timeoutMs };
  }
}
