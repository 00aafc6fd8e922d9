/**
 * Progress of long work, as a hook: data code (framed lists, hydration,
 * sync) opens a {@link Progress} and updates its counters; where the
 * counters are shown is up to a sink. The notebook layer provides the
 * default sink (a Jupyter display updated in place, or a bar on a terminal)
 * with {@link provideAutoSink} when it is loaded (importing `mod.ts` or
 * calling `connect()` does that); without one, progress is counted and not
 * shown. So nothing below the notebook layer imports display code.
 *
 * @module
 */
import { httpEvents } from "./events.ts";

/** What a progress display knows. */
export interface ProgressState {
  /** What is being done. */
  label: string;
  /** Rows so far. */
  rows: number;
  /** Pages so far. */
  pages: number;
  /** Retries seen so far. */
  retries: number;
  /** Requests of every client on the wire now (shown once any request went through a limiter). */
  inFlight?: number;
  /** Requests waiting for a slot now: budget full, paused after a `429`, or spaced by a rate cap. */
  waiting?: number;
  /** `429` answers seen so far, also counted in `retries` (each request is sent again; none is lost). */
  throttled?: number;
  /** Response-cache hits and misses seen so far (shown when a cache is in use). */
  cache?: { hits: number; misses: number };
  /** Rows expected, when known. */
  total?: number;
  /** Elapsed seconds. */
  seconds: number;
  /** Finished. */
  done: boolean;
}

/** Where progress goes. */
export interface ProgressSink {
  /** Shows or updates the state. */
  show(state: ProgressState, first: boolean): void;
}

let autoFactory: (() => ProgressSink | null) | undefined;

/**
 * Installs the factory of the default sink (the notebook layer's
 * `autoSink`); called once when that layer loads.
 *
 * @example
 * ```ts
 * import { provideAutoSink } from "./progress_hook.ts";
 * provideAutoSink(() => ({ show: (s) => console.log(s.label, s.rows) }));
 * ```
 */
export function provideAutoSink(factory: (() => ProgressSink | null) | undefined): void {
  autoFactory = factory;
}

let defaultSink: ProgressSink | null | undefined;

/**
 * Sets the sink every new progress display uses: a sink, `null` for none
 * (silence progress everywhere), or `undefined` to go back to the default
 * (the notebook layer's `autoSink`).
 *
 * @example
 * ```ts
 * import { useProgressSink } from "./progress_hook.ts";
 * useProgressSink(null); // no progress bars in this process
 * ```
 */
export function useProgressSink(sink: ProgressSink | null | undefined): void {
  defaultSink = sink;
}

/** Options of {@link Progress}. */
export interface ProgressOptions {
  /** Rows expected, when known (enables the ETA). */
  total?: number;
  /** Where to show it (default: the provided auto sink); `null` shows nothing. */
  sink?: ProgressSink | null;
  /** Minimum ms between redraws (default 150). */
  intervalMs?: number;
}

/**
 * A progress display. Counts retries and response-cache hits and misses
 * announced by any client while open.
 *
 * @example
 * ```ts
 * import { Progress } from "./progress_hook.ts";
 * const p = new Progress("download", { total: 100 });
 * p.update({ rows: 50, pages: 1 });
 * p.done();
 * ```
 */
export class Progress {
  #s: ProgressState;
  #sink: ProgressSink | null;
  #start = performance.now();
  #last = -Infinity;
  #shown = false;
  #interval: number;
  #onRetry = (e: Event) => {
    this.#s.retries++;
    if ((e as CustomEvent<{ reason: string }>).detail?.reason === "429") {
      this.#s.throttled = (this.#s.throttled ?? 0) + 1;
    }
    this.#draw(false);
  };
  #listening = new AbortController();
  #limiters = new Map<unknown, { inFlight: number; waiting: number }>();
  #onLimiter = (e: Event) => {
    const d = (e as CustomEvent<{ inFlight: number; waiting: number; source: unknown }>).detail;
    if (!d) return;
    this.#limiters.set(d.source, { inFlight: d.inFlight, waiting: d.waiting });
    const all = [...this.#limiters.values()];
    this.#s.inFlight = all.reduce((n, v) => n + v.inFlight, 0);
    this.#s.waiting = all.reduce((n, v) => n + v.waiting, 0);
    this.#draw(false);
  };
  #onCache = (e: Event) => {
    const c = this.#s.cache ??= { hits: 0, misses: 0 };
    if ((e as CustomEvent<{ hit: boolean }>).detail?.hit) c.hits++;
    else c.misses++;
    this.#draw(false);
  };
  /** Opens a progress display. */
  constructor(label: string, opts: ProgressOptions = {}) {
    this.#s = { label, rows: 0, pages: 0, retries: 0, total: opts.total, seconds: 0, done: false };
    this.#sink = opts.sink !== undefined
      ? opts.sink
      : defaultSink !== undefined
      ? defaultSink
      : autoFactory?.() ?? null;
    this.#interval = opts.intervalMs ?? 150;
    // until done(): one abort takes the three listeners off
    const signal = this.#listening.signal;
    httpEvents.addEventListener("retry", this.#onRetry, { signal });
    httpEvents.addEventListener("cache", this.#onCache, { signal });
    httpEvents.addEventListener("limiter", this.#onLimiter, { signal });
    this.#draw(true);
  }
  /** The current state. */
  get state(): Readonly<ProgressState> {
    return {
      ...this.#s,
      cache: this.#s.cache && { ...this.#s.cache },
      seconds: (performance.now() - this.#start) / 1000,
    };
  }
  /** Sets counters (absolute values). */
  update(patch: Partial<Pick<ProgressState, "rows" | "pages" | "total">>): void {
    Object.assign(this.#s, patch);
    this.#draw(false);
  }
  /** Closes the display with its final figures. */
  done(): void {
    if (this.#s.done) return;
    this.#s.done = true;
    this.#listening.abort();
    this.#draw(true);
  }
  #draw(force: boolean): void {
    if (!this.#sink) return;
    const now = performance.now();
    if (!force && now - this.#last < this.#interval) return;
    this.#last = now;
    this.#sink.show(this.state, !this.#shown);
    this.#shown = true;
  }
}
