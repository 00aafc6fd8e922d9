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
import { InvalidResponseError, SignalbookError } from "./errors.ts";
import { describe } from "./_envelope.ts";
import {
  checkScheme,
  failureOf,
  fetchResponse,
  headerDeadline,
  problemOf,
  type ProblemReading,
  redact,
  within,
} from "./_transport_parts.ts";

/** What a download needs of its client. */
export interface Download extends ProblemReading {
  /** The client's `fetch`. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Longest wait for the headers, and for each chunk of the body, ms. */
  timeoutMs: number;
}

/** An unsigned download's response (see the module doc), or a typed error. */
export async function fetchUnsigned(
  d: Download,
  url: string,
  signal?: AbortSignal,
): Promise<Response> {
  let current = checkScheme(url);
  for (let hop = 0;; hop++) {
    const label = `GET ${redact(current.href)}`;
    // (a timer the headers call off: see `headerDeadline`)
    const headers = headerDeadline(d.timeoutMs);
    const both = signal ? AbortSignal.any([signal, headers.signal]) : headers.signal;
    let res: Response | undefined;
    try {
      res = await fetchResponse(d.fetch, current.href, label, { signal: both });
      if (res.status < 300) return res;
      if (res.status < 400 && res.headers.has("location")) {
        await res.body?.cancel().catch(() => {});
        if (hop >= 5) throw new InvalidResponseError(`GET ${redact(url)}: more than 5 redirects`);
        current = checkScheme(res.headers.get("location")!, current);
        continue;
      }
      // an error answer: its first bytes read within the same deadline
      throw await within(problemOf(res, "GET", redact(current.href), label, d), both);
    } catch (e) {
      if (e instanceof SignalbookError) throw e;
      throw failureOf(e, signal, `${label} failed`, [
        [
          headers.signal,
          `${label} timed out after ${d.timeoutMs} ms${res ? " reading its error" : ""}`,
        ],
      ]);
    } finally {
      headers.clear();
    }
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
        throw failureOf(e, signal, `${label}: reading the body failed`, [
          [timeout, `${label}: no data for ${d.timeoutMs} ms while reading the body`],
        ]);
      }
      if (r.done) return;
      if (!(r.value instanceof Uint8Array)) {
        throw new InvalidResponseError(`${label}: the body gave ${describe(r.value)}, not bytes`);
      }
      yield r.value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
