/**
 * Downloads of absolute URLs without the key (signed document URLs): only
 * `http:` and `https:` URLs are read, redirects included (at most 5, each
 * checked); the answer's headers (and an error answer's first bytes) must
 * arrive within `timeoutMs`, and the body is read chunk by chunk with an
 * idle timeout of `timeoutMs` between chunks (a download that keeps
 * arriving is never cut by its total time). The transport (`transport.ts`)
 * removes its key from whatever these throw.
 *
 * @module
 */
import {
  ConnectionError,
  InvalidResponseError,
  type ProblemReader,
  SignalbookError,
  TimeoutError,
} from "./errors.ts";
import type { Redactor } from "./_redact.ts";
import {
  checkScheme,
  messageOf,
  nextUrl,
  problemOf,
  redact,
  typeOf,
  within,
} from "./_transport_parts.ts";

/** What a download needs of its client. */
export interface Download {
  /** The client's `fetch`. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Longest wait for the headers, and for each chunk of the body, ms. */
  timeoutMs: number;
  /** The client's redactor (error excerpts). */
  redact: Redactor;
  /** The service's reading of error answers. */
  problem: ProblemReader;
  /** Characters a cut error body drops at its end (see `problemOf`). */
  keyTail: number;
}

/** An unsigned download's response (see the module doc), or a typed error. */
export async function fetchUnsigned(
  d: Download,
  url: string,
  signal?: AbortSignal,
): Promise<Response> {
  let current = checkScheme(url);
  for (let hop = 0;; hop++) {
    // a timer, not AbortSignal.timeout: the signal handed to fetch stays tied
    // to the body, so it must not fire once the headers are in
    const headers = new AbortController();
    const timer = setTimeout(
      () =>
        headers.abort(
          new DOMException(`no answer within ${d.timeoutMs} ms`, "TimeoutError"),
        ),
      d.timeoutMs,
    );
    const both = signal ? AbortSignal.any([signal, headers.signal]) : headers.signal;
    try {
      const res = await unsignedHop(d, current, both, signal, headers.signal);
      if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
        await res.body?.cancel().catch(() => {});
        if (hop >= 5) {
          throw new InvalidResponseError(`GET ${redact(url)}: more than 5 redirects`);
        }
        current = checkScheme(nextUrl(current, res.headers.get("location")!).href);
        continue;
      }
      if (res.status >= 300) {
        throw await unsignedProblem(d, res, current, both, signal);
      }
      return res;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** One unsigned request: its response, or a typed error. */
async function unsignedHop(
  d: Download,
  url: URL,
  both: AbortSignal,
  signal: AbortSignal | undefined,
  timeout: AbortSignal,
): Promise<Response> {
  try {
    const r: unknown = await within(
      d.fetch(url.href, { redirect: "manual", signal: both }),
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
      throw new TimeoutError(`GET ${redact(url.href)} timed out after ${d.timeoutMs} ms`, {
        cause: e,
      });
    }
    throw new ConnectionError(`GET ${redact(url.href)} failed: ${messageOf(e)}`, { cause: e });
  }
}

/** The typed error of an unsigned error answer (its first bytes read within the timeout). */
async function unsignedProblem(
  d: Download,
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
        d.redact,
        d.problem,
        d.keyTail,
      ),
      both,
      () => failed.body?.cancel().catch(() => {}),
    );
  } catch (e) {
    if (e instanceof SignalbookError) return e;
    if (signal?.aborted) throw signal.reason;
    return new TimeoutError(
      `GET ${redact(url.href)} timed out after ${d.timeoutMs} ms reading its error`,
      { cause: e },
    );
  }
}

/** The chunks of a response body, each within `timeoutMs` of the previous one. */
export async function* bodyChunks(
  d: Download,
  res: Response,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const label = `GET ${redact(res.url || "(response)")}`;
  try {
    for (;;) {
      const timeout = AbortSignal.timeout(d.timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await within(reader.read(), both);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (timeout.aborted) {
          throw new TimeoutError(
            `${label}: no data for ${d.timeoutMs} ms while reading the body`,
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
