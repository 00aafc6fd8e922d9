/**
 * That a benchmark's parallel case ran in parallel: a pull asked for
 * `parallel: k` can fall back to one cursor walk without failing (the
 * windows' guards turn windows off with one warning when a service's
 * cursors or dates cannot be trusted), and a bench would then time a serial
 * pull under a "parallel" label. Every parallel pull a benchmark times goes
 * through {@link watchPull}, and its figure is refused unless requests were
 * in flight together and no fallback warning was printed.
 *
 * @module
 */

/** What {@link watchPull} saw of one pull. */
export interface PullWatch {
  /** Requests in flight at once, at most. */
  maxInFlight: number;
  /** Requests sent while at least one other was in flight. */
  overlapped: number;
  /** Requests sent. */
  requests: number;
  /** Warnings printed during the pull (a fallback to serial warns once). */
  warnings: string[];
  /** When each request was sent and answered (`performance.now()` ms; end 0 while in flight). */
  spans: [number, number][];
}

/** A fetch that counts requests in flight into `watch`. */
export function watchedFetch(
  watch: PullWatch,
  inner: typeof fetch = fetch,
): typeof fetch {
  let now = 0;
  return async (input, init) => {
    watch.requests++;
    if (now > 0) watch.overlapped++;
    now++;
    watch.maxInFlight = Math.max(watch.maxInFlight, now);
    const span: [number, number] = [performance.now(), 0];
    watch.spans.push(span);
    try {
      return await inner(input, init);
    } finally {
      now--;
      span[1] = performance.now();
    }
  };
}

/** A fresh, empty {@link PullWatch}. */
export function newWatch(): PullWatch {
  return { maxInFlight: 0, overlapped: 0, requests: 0, warnings: [], spans: [] };
}

/**
 * Requests in flight over a pull, from its {@link PullWatch.spans}: the
 * mean over the pull (from its first request to `end`) and the mean of each
 * `bucketMs` slice, as a line to print (`1.0 7.8 8.0 … 2.1`). A load-proof
 * view of the plan: a dip is a slot left idle, whatever the machine's speed.
 *
 * @example
 * ```ts
 * import { inFlightTrace, newWatch } from "./_parallel_check.ts";
 * const w = newWatch();
 * w.spans.push([0, 100], [0, 100], [100, 150]);
 * console.log(inFlightTrace(w, 200, 100)); // { mean: 1.25, line: "2.0 0.5" }
 * ```
 */
export function inFlightTrace(
  watch: PullWatch,
  end: number,
  bucketMs = 100,
): { mean: number; line: string } {
  if (watch.spans.length === 0) return { mean: 0, line: "" };
  const start = Math.min(...watch.spans.map(([a]) => a));
  const busy = (a: number, b: number) =>
    watch.spans.reduce((n, [s, e]) => n + Math.max(0, Math.min(b, e || end) - Math.max(a, s)), 0);
  const slices: string[] = [];
  for (let a = start; a < end; a += bucketMs) {
    slices.push(
      (busy(a, Math.min(end, a + bucketMs)) / (Math.min(end, a + bucketMs) - a)).toFixed(1),
    );
  }
  return { mean: end > start ? busy(start, end) / (end - start) : 0, line: slices.join(" ") };
}

/**
 * Runs `pull` with `console.warn` recorded into `watch.warnings` (and still
 * printed), and returns its result.
 */
export async function watchPull<T>(watch: PullWatch, pull: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    watch.warnings.push(args.map(String).join(" "));
    warn(...args);
  };
  try {
    return await pull();
  } finally {
    console.warn = warn;
  }
}

/**
 * Throws when a pull asked for `parallel` windows above 1 did not run them:
 * at most one request in flight at a time, fewer than half of its requests
 * sent beside another, or a warning that the windows were turned off.
 * Serial pulls (`parallel` 1) pass.
 */
export function assertRanParallel(label: string, parallel: number, watch: PullWatch): void {
  if (parallel <= 1) return;
  const why = watch.warnings.length
    ? `it warned: ${watch.warnings[0]}`
    : watch.maxInFlight <= 1
    ? "at most 1 request was in flight"
    : watch.overlapped * 2 < watch.requests
    ? `only ${watch.overlapped} of its ${watch.requests} requests were sent beside another`
    : undefined;
  if (why) throw new Error(`${label} at parallel ${parallel} ran serially: ${why}`);
}
