/**
 * The parts of the transport's requests that hold no state (`transport.ts`
 * wires them): the checks of options and URLs, the race of a promise with a
 * signal, the typed error of an error answer, the reading of a JSON answer,
 * and the error that ends a call group whose retry budget is spent.
 *
 * @module
 */
import {
  ConnectionError,
  errorFor,
  InvalidResponseError,
  ProblemError,
  type ProblemReader,
  TimeoutError,
  UnsupportedUrlError,
} from "./errors.ts";
import { serverDelayMs } from "./retry.ts";
import { jsonProblem, readPrefix } from "./_body.ts";
import { describe } from "./_envelope.ts";
import { redactKnownKeys, type Redactor } from "./_redact.ts";
import type { WideJson } from "../shared/wide_rows.ts";
import { parseAnswer } from "../shared/json_numbers.ts";

/**
 * The error that ends a call group whose retry budget is spent: the last
 * refusal's typed error, `type: "retry-budget"`, or the last failure
 * itself when it was no answer (a connection error, a timeout).
 */
export function budgetSpent(failure: Error, budgetMs: number, spentMs: number): Error {
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
export const MAX_RESPONSE_BYTES = 500 * 1024 * 1024;

/** Statuses whose Response may not have a body. */
export const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A Response of `res`'s status and headers with `bytes` as its body. */
export function rebuilt(res: Response, bytes: Uint8Array<ArrayBuffer>): Response {
  return new Response(NULL_BODY.has(res.status) ? null : bytes, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/**
 * Only `http:` and `https:` URLs are read: `raw` as a URL (a redirect's
 * location read against the URL it came `from`), or an
 * {@link InvalidResponseError} naming the bad location.
 */
export function checkScheme(raw: string, from?: URL): URL {
  const u = URL.parse(raw, from);
  if (!u) {
    throw new InvalidResponseError(
      from
        ? `GET ${redact(from.href)} redirected to an invalid URL ${JSON.stringify(redact(raw))}`
        : `the service gave an invalid URL ${JSON.stringify(redact(raw))}`,
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new UnsupportedUrlError(
      `refusing to read ${JSON.stringify(u.protocol)} URL ${
        // every key out before the cut: a cut key is one no redactor recognises
        JSON.stringify(
          redactKnownKeys(redact(from ? u.href : raw)).slice(0, 80),
        )}; allowed schemes: http:, https: (nothing was read)`,
      u.protocol,
    );
  }
  return u;
}

/**
 * The wait for an answer's headers: a signal that aborts with a
 * `TimeoutError` "no answer within `ms` ms" unless `clear` is called first
 * (a timer, not `AbortSignal.timeout`: the signal handed to fetch stays tied
 * to the body, so it must not fire once the headers are in).
 */
export function headerDeadline(ms: number): { signal: AbortSignal; clear: () => void } {
  const ac = new AbortController();
  const timer = setTimeout(
    () => ac.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")),
    ms,
  );
  return { signal: ac.signal, clear: () => clearTimeout(timer) };
}

/**
 * `p`, or the signal's reason as soon as it aborts (an injected `fetch` or
 * body stream that ignores the signal cannot hang the caller).
 */
export function within<T>(p: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  let abort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    abort = () => {
      onAbort?.();
      reject(signal.reason);
    };
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
  });
  return Promise.race([p, aborted]).finally(() => signal.removeEventListener("abort", abort));
}

/**
 * One `fetch` of `url` that does not follow redirects, raced with its
 * signal ({@link within}); a value that is not a Response is an
 * {@link InvalidResponseError} (the API call's and the unsigned download's one check).
 */
export async function fetchResponse(
  fetch: (input: string, init?: RequestInit) => Promise<Response>,
  url: string,
  label: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<Response> {
  const r: unknown = await within(fetch(url, { ...init, redirect: "manual" }), init.signal);
  if (!(r instanceof Response)) {
    throw new InvalidResponseError(`${label}: fetch gave ${describe(r)}, not a Response`);
  }
  return r;
}

/**
 * Waits `ms`, or rejects with the signal's reason when it aborts first (the
 * timer cleared): {@link within} a timer.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return signal ? within(waited, signal, () => clearTimeout(timer)) : waited;
}

/**
 * What failed a request (a fetch, a body read) as a typed error: the
 * caller's abort is thrown as its reason and an {@link InvalidResponseError}
 * as it is; past a deadline it is the {@link TimeoutError} worded for the
 * first of `deadlines` whose signal fired; else a {@link ConnectionError}
 * `<failed>: <message with its causes>`.
 */
export function failureOf(
  e: unknown,
  caller: AbortSignal | undefined,
  failed: string,
  deadlines: [AbortSignal, string][],
): Error {
  if (caller?.aborted) throw caller.reason;
  if (e instanceof InvalidResponseError) throw e;
  const late = deadlines.find(([signal]) => signal.aborted);
  return late
    ? new TimeoutError(late[1], { cause: e })
    : new ConnectionError(`${failed}: ${messageOf(e)}`, { cause: e });
}

/** An error's message with its causes ("fetch failed: dns error: …"). */
export function messageOf(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, i = 0; x !== undefined && x !== null && i < 4; i++) {
    const m = x instanceof Error ? x.message : textOf(x);
    if (m && !parts.some((p) => p.includes(m))) parts.push(m);
    x = x instanceof Error ? x.cause : undefined;
  }
  return parts.join(": ");
}

/** `String(v)`, or `[object Object]` for an object that has no string form (no prototype). */
function textOf(v: unknown): string {
  try {
    return String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/**
 * The parsed JSON answer, or an {@link InvalidResponseError} saying it is
 * not JSON. A number literal a double does not hold as written is its text
 * (`shared/json_numbers.ts`), for the grammars to read exactly or refuse.
 */
export function parseJson(text: string, label: string, json: WideJson): unknown {
  try {
    return parseAnswer(text, (t) => json.parse(t, label));
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
export function objectBody(parsed: unknown, label: string): Record<string, unknown> {
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new InvalidResponseError(
      `${label}: the answer is not a JSON object but ${describe(parsed)}`,
    );
  }
  const data = (parsed as Record<string, unknown>).data;
  if (data !== undefined && !Array.isArray(data)) {
    throw new InvalidResponseError(
      `${label}: the answer's "data" is not a list but ${describe(data)}`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** The URL with query-string signatures shortened (they are credentials of a kind). */
export function redact(url: string): string {
  return url.replace(/([?&]signature=)[^&]+/, "$1…");
}

/** How a client reads an error answer: its redactor, its service's reading, its key's tail. */
export interface ProblemReading {
  /** The client's redactor (error excerpts). */
  redact: Redactor;
  /** The service's reading of error answers. */
  problem: ProblemReader;
  /** Characters a cut error body drops at its end (see {@link excerpt}). */
  keyTail: number;
}

/**
 * The typed error of an error answer, from at most the first
 * `ERROR_PREFIX_BYTES` of its body (the rest is never downloaded).
 */
export async function problemOf(
  res: Response,
  method: string,
  url: string,
  label: string,
  { redact: secrets, problem: read, keyTail }: ProblemReading,
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
export function excerpt(text: string, tail: number): string {
  return text.slice(0, Math.max(0, Math.min(200, text.length - tail)));
}
