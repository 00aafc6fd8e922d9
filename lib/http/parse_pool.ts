/**
 * Large JSON answers parsed off the loop thread while a parallel pull runs.
 *
 * A parallel pull receives `parallel` answers at once, and the loop thread
 * parsed them one after another: a 100-row insider search page (0.45 MB, 174
 * keys a row) took 4.4 ms to `JSON.parse` and 1.3 ms more to copy its rows
 * compact (`shared/wide_rows.ts`), and the garbage of its dictionary-mode
 * rows cost as much again in collections. At 100 ms and `parallel: 8` that
 * loop-thread time, not the link, set the pace (measured with `deno run
 * --cpu-prof`; see `bench/parallel_bench.ts`). While a pull holds the pool
 * ({@link holdParsePool}), an answer of at least {@link OFF_LOOP_BYTES}
 * goes to a worker, which parses it and takes its lists of wide rows out as
 * value arrays ({@link packWideLists}); the loop thread only receives them
 * (structured clone) and builds the compact rows, about 1.1 ms a page.
 *
 * What does not change: the answer is the one `JSON.parse` gives (same
 * values, same keys in the same order); an answer that is not JSON is
 * parsed again on the loop thread, so its error is the usual one; nothing
 * is parsed off the loop thread when no pull holds the pool, when workers
 * cannot start (no permission, no `Worker`), or for smaller answers (a
 * worker's round trip costs more than parsing them).
 *
 * Workers: `min(2, hardwareConcurrency − 2)` from 4 cores on, none below
 * (then every answer is parsed on the loop thread, as in a serial pull).
 * Passing an answer to a worker and back costs CPU of its own: on this
 * 2-core machine, with the emulator on the same cores, a 20,000-row search
 * `.frame()` at `parallel: 8` took 1.25–1.66 s of loop-thread CPU with one
 * worker against 1.70–2.34 s without, but 3.0–4.0 s of CPU in all against
 * 2.0–3.1 s, and no less time (three runs each, side by side, load 6–7).
 * With cores to spare the worker's time is free and the loop thread's is
 * what paces the pull; without, the copy is a cost. Workers are started
 * when the first holder takes the pool (they boot during its first
 * request) and terminated when the last lets go and no answer is being
 * parsed, so no worker outlives the pulls that use it.
 *
 * @module
 */
import { type PackedJson, unpackWideLists } from "../shared/wide_rows.ts";

/** Answers from this size (bytes) are parsed off the loop thread while the pool is held: 64 KiB. */
export const OFF_LOOP_BYTES = 64 * 1024;

interface Job {
  resolve: (body: unknown) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
}

let holders = 0;
let slots: Slot[] = [];
let nextId = 1;
/** Set once starting a worker failed: the pool stays off for the process. */
let broken = false;

class NotParsed extends Error {}

/** Workers the pool starts: `min(2, cores − 2)` from 4 cores on, else none (see the module doc). */
let size = defaultSize();

function defaultSize(): number {
  const cores = typeof navigator === "object" ? navigator.hardwareConcurrency ?? 1 : 1;
  return cores >= 4 ? Math.min(2, cores - 2) : 0;
}

/**
 * Sets how many workers the pool starts from the next holder on (0: none,
 * every answer is parsed on the loop thread); returns the previous size.
 * For tests and measurements: the default suits the machine.
 *
 * @example
 * ```ts
 * import { setParseWorkers } from "./parse_pool.ts";
 * const before = setParseWorkers(0); // parse everything on the loop thread
 * setParseWorkers(before);
 * ```
 */
export function setParseWorkers(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 8) {
    throw new TypeError(
      `parse workers ${String(n)} is not allowed; allowed: an integer from 0 to 8`,
    );
  }
  const before = size;
  size = n;
  return before;
}

function start(): void {
  if (broken || slots.length > 0 || size === 0 || typeof Worker !== "function") return;
  try {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL("./_parse_worker.ts", import.meta.url).href, {
        type: "module",
      });
      const slot: Slot = { worker, jobs: new Map() };
      worker.onmessage = (e: MessageEvent<{ id: number; packed?: PackedJson }>) => {
        const job = slot.jobs.get(e.data.id);
        if (!job) return;
        slot.jobs.delete(e.data.id);
        if (e.data.packed) job.resolve(e.data.packed);
        else job.reject(new NotParsed());
        stopIfIdle();
      };
      worker.onerror = (e) => {
        // a worker that cannot run: its answers and every later one are parsed on the loop thread
        e.preventDefault();
        broken = true;
        fail(slot);
      };
      slots.push(slot);
    }
  } catch {
    broken = true;
    for (const s of slots) fail(s);
  }
}

function fail(slot: Slot): void {
  slot.worker.terminate();
  slots = slots.filter((s) => s !== slot);
  for (const job of slot.jobs.values()) job.reject(new NotParsed());
  slot.jobs.clear();
}

function stopIfIdle(): void {
  if (holders > 0 || slots.some((s) => s.jobs.size > 0)) return;
  for (const s of slots) s.worker.terminate();
  slots = [];
}

/**
 * Takes the pool for a pull: while any holder has it, large answers are
 * parsed off the loop thread. Returns the function that lets it go (call
 * it once, when the pull ends).
 *
 * @example
 * ```ts
 * import { holdParsePool } from "./parse_pool.ts";
 * const release = holdParsePool();
 * try {
 *   // … a parallel pull …
 * } finally {
 *   release();
 * }
 * ```
 */
export function holdParsePool(): () => void {
  holders++;
  start();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holders--;
    stopIfIdle();
  };
}

/** Workers running now (0 when no pull holds the pool). */
export function parseWorkers(): number {
  return slots.length;
}

/**
 * The JSON value of `bytes`, parsed by a worker when the pool is held and
 * the answer is large; otherwise (or when the worker could not parse it)
 * undefined is returned and the caller parses on the loop thread.
 */
export async function parseOffLoop(bytes: Uint8Array): Promise<{ body: unknown } | undefined> {
  if (holders === 0 || bytes.length < OFF_LOOP_BYTES || broken) {
    return undefined;
  }
  start();
  if (slots.length === 0) return undefined;
  let slot = slots[0];
  for (const s of slots) if (s.jobs.size < slot.jobs.size) slot = s;
  const id = nextId++;
  try {
    const packed = await new Promise<PackedJson>((resolve, reject) => {
      slot.jobs.set(id, { resolve: resolve as (b: unknown) => void, reject });
      slot.worker.postMessage({ id, bytes });
    });
    return { body: unpackWideLists(packed) };
  } catch {
    // not JSON (the loop thread raises its usual error), a worker that stopped,
    // or rows that cannot be rebuilt here (no code generation): parse on the loop thread
    return undefined;
  }
}
