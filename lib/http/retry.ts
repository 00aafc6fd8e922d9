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
 * A call group — the requests of one pull (a list walk, all windows of a
 * parallel pull) or of one `hydrate` — shares a retry budget in time
 * (`retryBudgetMs` of the client, default {@link DEFAULT_RETRY_BUDGET_MS}):
 * the time during which at least one of its requests waits to be tried
 * again. A retry whose wait would take the group past it is not made: the
 * group ends, with a typed error of the last refusal (`type:
 * "retry-budget"`), and every later request of the group fails with that
 * error at once, sending nothing ({@link RetryGroup}). With the client's
 * circuit (`limiter.ts`) this bounds a storm in time and in calls, whatever
 * the number of rows. A call outside any group (one detail) is its own.
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
  const usable = (wait: number) => (wait >= 0 && wait <= MAX_SERVER_DELAY_MS ? wait : undefined);
  const ms = headers?.get("retry-after-ms")?.trim();
  const ra = headers?.get("retry-after")?.trim();
  // Retry-After: seconds, or else an HTTP date
  const seconds = Number(ra) * 1000;
  return (ms ? usable(Number(ms)) : undefined) ??
    (!ra ? undefined : usable(Number.isFinite(seconds) ? seconds : Date.parse(ra) - now));
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

/** Default retry budget of a call group, ms (60 s: one of the longest waits honoured). */
export const DEFAULT_RETRY_BUDGET_MS = 60_000;

/**
 * The retry budget of one call group (see the module doc): the time its
 * requests spend waiting to be tried again, counted once however many wait
 * at the same time. `now` is injectable for tests.
 *
 * @example
 * ```ts
 * import { RetryGroup } from "./retry.ts";
 * let t = 0;
 * const group = new RetryGroup(() => t);
 * console.log(group.charge(2000, 3000), group.charge(2000, 3000)); // true true (the same 2 s)
 * t = 2000;
 * console.log(group.charge(2000, 3000)); // false: 4 s of waits
 * ```
 */
export class RetryGroup {
  #now: () => number;
  #spent = 0;
  #until = -Infinity;
  /** The error that ended the group, once it ended. */
  stopped: Error | undefined;
  /** Creates an empty group. */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }
  /** Time spent waiting so far, ms. */
  get spentMs(): number {
    return this.#spent;
  }
  /**
   * Books a wait of `delayMs` from now; false (nothing booked) when the
   * group's waits would then pass `budgetMs`.
   */
  charge(delayMs: number, budgetMs: number): boolean {
    const now = this.#now();
    const end = now + delayMs;
    const added = Math.max(0, end - Math.max(now, this.#until));
    if (this.#spent + added > budgetMs) return false;
    this.#spent += added;
    this.#until = Math.max(this.#until, end);
    return true;
  }
}

const groups = new WeakMap<AbortSignal, RetryGroup>();

/** The call group a request's signal belongs to, if any. */
export function groupOf(signal: AbortSignal | undefined): RetryGroup | undefined {
  return signal ? groups.get(signal) : undefined;
}

/**
 * A signal that aborts when `own` or `parent` (if any) does, tied to a call
 * group: the group of `parent` when it has one, else `group` (default: a
 * new one). Every request sent with it shares the group's retry budget.
 */
export function joinGroup(
  own: AbortSignal,
  parent?: AbortSignal,
  group: RetryGroup = groupOf(parent) ?? new RetryGroup(),
): AbortSignal {
  const signal = parent ? AbortSignal.any([parent, own]) : own;
  groups.set(signal, group);
  return signal;
}

/**
 * A new call group, and a signal (following `parent`) whose requests share
 * its retry budget: what a `hydrate` sends its details with.
 */
export function callGroup(parent?: AbortSignal): { signal: AbortSignal; group: RetryGroup } {
  const group = new RetryGroup();
  return { signal: joinGroup(new AbortController().signal, parent, group), group };
}
