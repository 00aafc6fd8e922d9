/**
 * Retry policy: which failures are retried and how long to wait.
 *
 * Retried: connection errors, timeouts (of the headers or of the body),
 * 408, 409, 429 and 5xx. The wait is `retry-after-ms` when it is between 0
 * and 60 s, else `Retry-After` (seconds or an HTTP date) when it is between
 * 0 and 60 s, else `min(0.5·2^n, 8) s × (1 − 0.25·random)` for the n-th
 * retry (n from 0). A server asking for more than {@link MAX_SERVER_DELAY_MS}
 * gets the backoff instead: the client never sleeps an hour on its word.
 *
 * @module
 */

/** Whether an answer with this status is worth another try. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The longest server-requested wait honoured, ms (60 s), for both headers. */
export const MAX_SERVER_DELAY_MS = 60_000;

/** The server's requested wait in ms, when it gave a usable one (0–60 s). */
export function serverDelayMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0 && n <= MAX_SERVER_DELAY_MS) return n;
  }
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return undefined;
  let wait = Number(ra) * 1000;
  if (!Number.isFinite(wait)) {
    const at = Date.parse(ra);
    if (Number.isNaN(at)) return undefined;
    wait = at - now;
  }
  return wait >= 0 && wait <= MAX_SERVER_DELAY_MS ? wait : undefined;
}

/** Exponential backoff with jitter for the n-th retry (n from 0), in ms. */
export function backoffMs(n: number, random: () => number = Math.random): number {
  return Math.min(0.5 * 2 ** n, 8) * (1 - 0.25 * random()) * 1000;
}

/**
 * The least wait before the n-th retry (n from 0), whatever the server
 * asked: a twentieth of the backoff without jitter (25, 50, 100, 200,
 * 400 ms). `Retry-After: 0` is honoured as "soon", not as "now, five
 * times": 5 attempts take at least 375 ms, not 54 ms. (Small on purpose:
 * a server that asks for a few ms during a 429 storm pays it on every
 * refused round, shared by all requests of the client.)
 */
export function minRetryDelayMs(n: number): number {
  return (Math.min(0.5 * 2 ** n, 8) * 1000) / 20;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
