/**
 * Live progress for long pulls and hydrations: in a Deno Jupyter kernel a
 * bar updated in place through display updates (`display_id`); in a
 * terminal a bar on stderr; nothing otherwise (CI logs stay clean). It shows
 * rows, pages, retries (from every client's transport), the rate, and an ETA
 * when the total is known. The same code runs under `deno run`, where
 * `Deno.jupyter` does not exist.
 *
 * @module
 */
import { httpEvents } from "../http/events.ts";

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

/** One line of text for a state. */
export function describe(s: ProgressState): string {
  const rate = s.seconds > 0 ? s.rows / s.seconds : 0;
  const parts = [
    `${s.rows.toLocaleString("en-US")}${s.total ? `/${s.total.toLocaleString("en-US")}` : ""} rows`,
    `${s.pages} pages`,
    `${s.retries} retries`,
    ...(s.cache ? [`cache ${s.cache.hits} hits/${s.cache.misses} misses`] : []),
    `${Math.round(rate).toLocaleString("en-US")} rows/s`,
  ];
  if (s.total && rate > 0 && !s.done) {
    parts.push(`ETA ${Math.max(0, Math.ceil((s.total - s.rows) / rate))} s`);
  }
  if (s.done) parts.push(`done in ${s.seconds.toFixed(1)} s`);
  return `${s.label}: ${parts.join(" · ")}`;
}

/** The shape of `Deno.jupyter.broadcast`. */
export type Broadcast = (type: string, content: Record<string, unknown>) => Promise<void>;

/** A sink that updates one Jupyter display in place. */
export function jupyterSink(
  broadcast: Broadcast,
  id = `signalbook-${crypto.randomUUID()}`,
): ProgressSink {
  return {
    show(s, first) {
      const pct = s.total ? Math.min(100, (100 * s.rows) / s.total) : undefined;
      const bar = `<progress ${
        pct === undefined && !s.done ? "" : `value="${s.done ? 100 : pct?.toFixed(1)}" max="100"`
      } style="width:240px"></progress>`;
      const text = describe(s);
      const message = {
        data: {
          "text/html": `<div>${bar} <code>${
            text.replace(/&/g, "&amp;").replace(/</g, "&lt;")
          }</code></div>`,
          "text/plain": text,
        },
        metadata: {},
        transient: { display_id: id },
      };
      try {
        // the kernel's broadcast may or may not return a promise
        const sent = broadcast(first ? "display_data" : "update_display_data", message) as unknown;
        if (sent instanceof Promise) sent.catch(() => {});
      } catch {
        // a display failure must never break the work it reports on
      }
    },
  };
}

/** A sink that redraws one line on a terminal. */
export function ttySink(write: (text: string) => void): ProgressSink {
  return {
    show(s) {
      const width = 24;
      const frac = s.total ? Math.min(1, s.rows / s.total) : s.done ? 1 : (s.pages % width) / width;
      const filled = Math.round(frac * width);
      const bar = s.total || s.done
        ? "█".repeat(filled) + "░".repeat(width - filled)
        : "░".repeat(filled) + "█" + "░".repeat(Math.max(0, width - filled - 1));
      write(`\r\x1b[2K${bar} ${describe(s)}${s.done ? "\n" : ""}`);
    },
  };
}

/** The sink for this process: Jupyter in the kernel, stderr on a TTY, else none. */
export function autoSink(): ProgressSink | null {
  let jupyter: { broadcast?: Broadcast } | undefined;
  try {
    // outside the kernel, Deno.jupyter is absent or throws on access
    jupyter = (Deno as unknown as { jupyter?: { broadcast?: Broadcast } }).jupyter;
  } catch {
    jupyter = undefined;
  }
  if (typeof jupyter?.broadcast === "function") return jupyterSink(jupyter.broadcast.bind(jupyter));
  try {
    if (Deno.stderr.isTerminal()) {
      const enc = new TextEncoder();
      return ttySink((t) => Deno.stderr.writeSync(enc.encode(t)));
    }
  } catch {
    // no stderr access: no progress
  }
  return null;
}

let defaultSink: ProgressSink | null | undefined;

/**
 * Sets the sink every new progress display uses: a sink, `null` for none
 * (silence progress everywhere), or `undefined` to go back to
 * {@link autoSink}.
 *
 * @example
 * ```ts
 * import { useProgressSink } from "./progress.ts";
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
  /** Where to show it (default {@link autoSink}); `null` shows nothing. */
  sink?: ProgressSink | null;
  /** Minimum ms between redraws (default 150). */
  intervalMs?: number;
}

/**
 * A progress display. Counts retries announced by any client while open.
 *
 * @example
 * ```ts
 * import { Progress } from "./progress.ts";
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
  #onRetry = () => {
    this.#s.retries++;
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
      : autoSink();
    this.#interval = opts.intervalMs ?? 150;
    httpEvents.addEventListener("retry", this.#onRetry);
    httpEvents.addEventListener("cache", this.#onCache);
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
    httpEvents.removeEventListener("retry", this.#onRetry);
    httpEvents.removeEventListener("cache", this.#onCache);
    this.#draw(true);
  }
  #draw(force: boolean): void {
    if (!this.#sink) return;
    const now = performance.now();
    if (!force && now - this.#last < this.#interval) return;
    this.#last = now;
    this.#s.seconds = (now - this.#start) / 1000;
    this.#sink.show({ ...this.#s }, !this.#shown);
    this.#shown = true;
  }
}
