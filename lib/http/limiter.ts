/**
 * One adaptive request budget per client: every request a client sends —
 * list pages, date windows, prefetch, hydration, sync — waits here for a
 * slot, so a client never has more than its budget in flight whatever mix
 * of calls runs at once.
 *
 * - **Maximum in flight** (`maxInFlight`, default {@link DEFAULT_MAX_IN_FLIGHT}
 *   = 16). Why 16: the services publish no rate limit, and throughput is
 *   in-flight ÷ latency, so 16 requests at a 100 ms round trip are already
 *   160 requests/s, more than an API of this kind usually grants per key;
 *   beyond the server's rate, more in flight only buys `429`s. 16 leaves room
 *   for the widest parallel pull (`parallel: 8`, one request per window)
 *   plus a hydration at its default concurrency (8) at the same time. Raise
 *   it for a service you know allows more (hydration at `concurrency: 64`
 *   needs `maxInFlight: 64` to run 64 at once).
 * - **Requests per second** (`requestsPerSecond`, default none): starts are
 *   spaced at least `1000 / rps` ms apart, so a known quota is never
 *   exceeded and no `429` is provoked.
 * - **AIMD on `429`.** A `429` halves the current limit (multiplicative
 *   decrease, at most once per round: answers to requests sent before the
 *   last decrease do not halve it again) and pauses every new start until
 *   the server's `Retry-After` (or `retry-after-ms`) has passed — 1 s when
 *   it names none. After as many successes in a row as the current limit (a
 *   round), the limit grows by one (additive increase), up to
 *   `maxInFlight`.
 * - **A learned rate.** Concurrency alone cannot hold a rate limit (at a
 *   100 ms round trip, 2 in flight are 20 requests/s, 3 are 30), and every
 *   `429` costs a whole `Retry-After` pause. So a `429` also sets a rate
 *   cap: the rate the server accepted just before it, times
 *   {@link RATE_MARGIN} (0.95, room for timer jitter against the server's
 *   window). That rate is the requests started in the span before the
 *   refused one was sent — the span is its `Retry-After`, from 0.1 to 1 s,
 *   taken as the server's window — less those refused; requests sent after
 *   it are left out, since a window that refused it refuses them too. So
 *   against a fixed window of 20 a second the cap is 19, whatever the
 *   client sent before. The cap then stays below the rate that drew the
 *   `429` for {@link PROBE_AFTER_MS} (30 s): probing above a limit just
 *   measured would only buy another `429` and its pause. Below that, and
 *   after it, the cap grows by 5 % (at least 1 request/s) every 3 s without
 *   a `429`, so it finds its way back up when the server allows more. It
 *   never exceeds `requestsPerSecond`.
 * - **Nothing is lost or reordered.** A throttled request goes back to the
 *   front of the queue (it was sent earliest) and is sent again once the
 *   pause ends; callers see only the later answer. It counts as one of the
 *   transport's `maxRetries` (default 4), as before: the pause is shared by
 *   every request of the client and the budget is halved, so a second `429`
 *   for the same request needs a server that keeps refusing after its own
 *   `Retry-After`. Requests start in the order they asked for a slot.
 *
 * - **A circuit for refusal storms.** A server that keeps refusing —
 *   `429`, `502`, `503` or `504`, whatever its `Retry-After` says — would
 *   otherwise be asked again and again, each request paying its own waits
 *   in turn (a `hydrate` of 24 rows under `429` with `Retry-After: 2` took
 *   104 s and 120 calls). So {@link CIRCUIT_ROUNDS} refused rounds in a row
 *   (a round: requests sent after the previous round's first refusal; no
 *   other answer in between) open the circuit for {@link CIRCUIT_OPEN_MS}:
 *   every queued request, and every new one, fails at once with a
 *   {@link CircuitOpenError} (the transport makes it a typed error of the
 *   status that opened it, `type: "circuit-open"`), so a pool returns what
 *   it has. Rounds are spaced by the server's wait or the backoff: the
 *   circuit opens a few seconds into a storm (about 8 s at `Retry-After:
 *   2`), whatever the number of requests. After the open period one request
 *   is let through; one more refusal opens it again. A call group's own
 *   retry budget in time (`retry.ts`) bounds what the circuit does not: long
 *   waits, and storms broken by the odd success.
 *
 * The state (in flight, waiting, throttled so far, current limit) is
 * published as `limiter` events on `httpEvents`, which the progress display
 * shows.
 *
 * @module
 */
import { httpEvents } from "./events.ts";
import { intOption, optionProblem } from "../shared/options.ts";

/** Default maximum of requests in flight per client (see the module doc for why). */
export const DEFAULT_MAX_IN_FLIGHT = 16;

/** Pause after a `429` that names no `Retry-After`, ms. */
export const DEFAULT_THROTTLE_MS = 1000;

/** Share of the rate a server accepted before a `429` that the learned cap allows. */
export const RATE_MARGIN = 0.95;

/** How long after a `429` the learned cap stays below the rate that drew it, ms. */
export const PROBE_AFTER_MS = 30_000;

/** Refused rounds in a row (429, 502, 503, 504) that open the circuit. */
export const CIRCUIT_ROUNDS = 5;

/** Whether an answer of this status is a refusal that counts toward the circuit. */
export function refusalStatus(status: number): boolean {
  return status === 429 || (status >= 502 && status <= 504);
}

/** How long an open circuit refuses requests, ms. */
export const CIRCUIT_OPEN_MS = 30_000;

/**
 * A request refused by the client itself: the server kept refusing (see
 * the module doc), so the circuit is open for {@link CIRCUIT_OPEN_MS}.
 */
export class CircuitOpenError extends Error {
  /**
   * Creates the error.
   *
   * @param status The status of the refusal that opened it (429, 502, 503 or 504).
   */
  constructor(rounds: number, readonly status: number) {
    super(
      `the service refused ${rounds} rounds of requests in a row (last: ${status}); no ` +
        `request is sent for ${CIRCUIT_OPEN_MS / 1000} s`,
    );
    this.name = "CircuitOpenError";
  }
}

/** Options of {@link RequestLimiter}. */
export interface LimiterOptions {
  /** Most requests in flight at once (default 16, from 1 to 256). */
  maxInFlight?: number;
  /** Most request starts per second (default: no cap). */
  requestsPerSecond?: number;
}

/** What a `limiter` event on `httpEvents` carries. */
export interface LimiterState {
  /** Requests on the wire now. */
  inFlight: number;
  /** Requests waiting for a slot now (budget full, paused after a `429`, or spaced by the rate cap). */
  waiting: number;
  /** `429` answers seen so far by this client. */
  throttled: number;
  /** The current adaptive limit (at most `maxInFlight`). */
  limit: number;
  /** True while new starts are paused by a `Retry-After`. */
  paused: boolean;
  /** The rate cap learned from `429`s (requests/s), when one was. */
  learnedRate?: number;
}

/** A granted slot: release it when the answer has been read. */
export interface Slot {
  /** When the request started (`performance.now()`). */
  readonly startedAt: number;
  /** Frees the slot (idempotent). */
  release(): void;
}

interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * The request budget of one client.
 *
 * @example
 * ```ts
 * import { RequestLimiter } from "./limiter.ts";
 * const limiter = new RequestLimiter({ maxInFlight: 2, requestsPerSecond: 50 });
 * const slot = await limiter.acquire();
 * try {
 *   // send the request
 * } finally {
 *   slot.release();
 * }
 * console.log(limiter.state.inFlight); // 0
 * ```
 */
export class RequestLimiter {
  /** The ceiling of the adaptive limit. */
  readonly maxInFlight: number;
  /** The rate cap, or undefined. */
  readonly requestsPerSecond: number | undefined;
  #limit: number;
  #inFlight = 0;
  #queue: Waiter[] = [];
  #pausedUntil = 0;
  #nextStart = 0;
  #successes = 0;
  #lastDecrease = -Infinity;
  #throttled = 0;
  /** Rate learned from `429`s (requests/s), and when it last changed. */
  #learned: number | undefined;
  #learnedAt = 0;
  /** The rate that drew the last `429` (requests/s), and when. */
  #refusedRate = Infinity;
  #refusedAt = -Infinity;
  /** Requests started in the last 2 s, in start order, and those refused (for the learned rate). */
  #sent: Slot[] = [];
  #refusedSlots = new WeakSet<Slot>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #now: () => number;
  /**
   * Refused rounds in a row; when the last one ends (its wait: requests sent
   * before then belong to it), its status; until when the circuit is open.
   */
  #refusedRounds = 0;
  #roundEnds = -Infinity;
  #refusedStatus = 429;
  #openUntil = -Infinity;

  /** Creates a budget; `now` is injectable for tests (default `performance.now`). */
  constructor(opts: LimiterOptions = {}, now: () => number = () => performance.now()) {
    this.maxInFlight = intOption("maxInFlight", opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, 1, 256);
    const rps = opts.requestsPerSecond;
    if (rps !== undefined && !(typeof rps === "number" && rps >= 0.01 && rps <= 100_000)) {
      throw new TypeError(optionProblem("requestsPerSecond", rps, "a number from 0.01 to 100000"));
    }
    this.requestsPerSecond = opts.requestsPerSecond;
    this.#limit = this.maxInFlight;
    this.#now = now;
  }

  /** The current state (what the progress display shows). */
  get state(): LimiterState {
    return {
      inFlight: this.#inFlight,
      waiting: this.#queue.length,
      throttled: this.#throttled,
      limit: Math.floor(this.#limit),
      paused: this.#pausedUntil > this.#now(),
      ...(this.#learned !== undefined ? { learnedRate: this.#learned } : {}),
    };
  }

  /**
   * Waits for a slot (in order of asking; `front` puts a throttled request
   * ahead of the others). Rejects with the signal's reason when it aborts
   * first.
   */
  acquire(signal?: AbortSignal, front = false): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#circuitOpen()) {
      return Promise.reject(new CircuitOpenError(this.#refusedRounds, this.#refusedStatus));
    }
    return new Promise<Slot>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = this.#queue.indexOf(w);
          if (i >= 0) this.#queue.splice(i, 1);
          this.#publish();
          reject(signal.reason);
        };
        signal.addEventListener("abort", w.onAbort, { once: true });
      }
      if (front) this.#queue.unshift(w);
      else this.#queue.push(w);
      this.#pump();
      this.#publish();
    });
  }

  /**
   * Reports a refusal (`429`, `502`, `503`, `504`) to a request sent at
   * `slot.startedAt`, whose retry waits `waitMs` (default 1 s): new starts
   * pause that long, and it counts toward the circuit, once per round (the
   * requests sent before the round's wait ended are its own).
   */
  refused(slot: Slot, status: number, waitMs = DEFAULT_THROTTLE_MS): void {
    const now = this.#now();
    this.#pausedUntil = Math.max(this.#pausedUntil, now + waitMs);
    if (slot.startedAt >= this.#roundEnds) {
      this.#roundEnds = now + waitMs;
      this.#refusedStatus = status;
      if (++this.#refusedRounds >= CIRCUIT_ROUNDS) this.#open(now);
    }
    this.#publish();
  }

  /**
   * Reports a `429` to a request sent at `slot.startedAt`: it counts toward
   * the circuit, halves the limit (once per round) and pauses new starts
   * for `retryAfterMs` (default 1 s).
   */
  throttled(slot: Slot, retryAfterMs: number | undefined): void {
    this.#throttled++;
    const now = this.#now();
    this.#refusedSlots.add(slot);
    this.refused(slot, 429, retryAfterMs);
    if (slot.startedAt > this.#lastDecrease) {
      this.#limit = Math.max(1, Math.floor(this.#limit / 2));
      this.#lastDecrease = now;
      this.#successes = 0;
      // the server's window is taken as its Retry-After (0.1 to 1 s): the requests started
      // in that span before this one, less those refused, are what it accepts per window
      const span = Math.min(1000, Math.max(100, retryAfterMs ?? 1000));
      const from = slot.startedAt - span;
      const accepted = this.#sent.filter((x) =>
        x.startedAt >= from && x.startedAt < slot.startedAt && !this.#refusedSlots.has(x)
      ).length;
      if (accepted > 0) {
        this.#refusedRate = (accepted * 1000) / span;
        this.#refusedAt = now;
        this.#learned = RATE_MARGIN * this.#refusedRate;
        this.#learnedAt = now;
      }
    }
    this.#publish();
  }

  /**
   * Reports an answer to `slot` that was not a `429`: after a round of them,
   * the limit grows by one.
   */
  succeeded(_slot?: Slot): void {
    const now = this.#now();
    this.#refusedRounds = 0;
    if (this.#learned !== undefined && now - this.#learnedAt >= 3000) {
      // below the rate that drew the last 429 until PROBE_AFTER_MS have passed
      const ceiling = now - this.#refusedAt < PROBE_AFTER_MS
        ? RATE_MARGIN * this.#refusedRate
        : Infinity;
      this.#learned = Math.max(
        this.#learned,
        Math.min(ceiling, this.#learned + Math.max(1, 0.05 * this.#learned)),
      );
      this.#learnedAt = now;
    }
    if (this.#limit >= this.maxInFlight) return;
    if (++this.#successes >= Math.floor(this.#limit)) {
      this.#limit = Math.min(this.maxInFlight, this.#limit + 1);
      this.#successes = 0;
      this.#pump();
    }
  }

  /** Whether the circuit is open now; once its time is up, one more refusal opens it again. */
  #circuitOpen(): boolean {
    if (this.#openUntil === -Infinity) return false;
    if (this.#now() < this.#openUntil) return true;
    this.#openUntil = -Infinity;
    this.#refusedRounds = CIRCUIT_ROUNDS - 1;
    return false;
  }

  /** Opens the circuit: every queued request fails now. */
  #open(now: number): void {
    this.#openUntil = now + CIRCUIT_OPEN_MS;
    const error = new CircuitOpenError(this.#refusedRounds, this.#refusedStatus);
    for (const w of this.#queue.splice(0)) {
      if (w.signal && w.onAbort) w.signal.removeEventListener("abort", w.onAbort);
      w.reject(error);
    }
  }

  #grant(w: Waiter): void {
    if (w.signal && w.onAbort) w.signal.removeEventListener("abort", w.onAbort);
    this.#inFlight++;
    let released = false;
    const startedAt = this.#now();
    const old = this.#sent.findIndex((x) => x.startedAt >= startedAt - 2000);
    this.#sent.splice(0, old === -1 ? this.#sent.length : old);
    const slot: Slot = {
      startedAt,
      release: () => {
        if (released) return;
        released = true;
        this.#inFlight--;
        this.#pump();
        this.#publish();
      },
    };
    this.#sent.push(slot);
    w.resolve(slot);
  }

  #pump(): void {
    while (this.#queue.length > 0 && this.#inFlight < Math.floor(this.#limit)) {
      const now = this.#now();
      const wait = Math.max(this.#pausedUntil, this.#nextStart) - now;
      if (wait > 0) {
        this.#arm(wait);
        return;
      }
      const rate = Math.min(this.requestsPerSecond ?? Infinity, this.#learned ?? Infinity);
      // starts on a timeline of 1000/rate ms steps: a timer that fires late (by less than
      // a step) is made up by the next start, so the average holds; after a pause, a fresh step
      if (rate !== Infinity) {
        const step = 1000 / rate;
        this.#nextStart = now - this.#nextStart > step ? now + step : this.#nextStart + step;
      }
      this.#grant(this.#queue.shift()!);
    }
  }

  #arm(ms: number): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#pump();
      this.#publish();
    }, Math.ceil(ms));
  }

  #publish(): void {
    httpEvents.dispatchEvent(
      new CustomEvent<LimiterState & { source: RequestLimiter }>("limiter", {
        detail: { ...this.state, source: this },
      }),
    );
  }
}
