/**
 * The list the clients return when `parallel` asks for more than one date
 * window at a time: a {@link FramedList} whose pages come from
 * `windowedPages` (`http/windows.ts`), so iteration, `take(n)` and
 * `.frame({ maxRows })` all pull `parallel` windows at once and hand the
 * rows out in the serial order.
 *
 * @module
 */
import type { Page, PageFetcher, PagesOptions } from "../http/paginate.ts";
import { decodeWindowCursor, windowedPages, type WindowSource } from "../http/windows.ts";
import { RequestValidationError } from "../http/errors.ts";
import { notAllowed } from "../http/_validate.ts";
import { FramedList, type FrameMaker, type RawListOptions } from "./list.ts";

/** List options with `parallel`: date windows in flight at once (1–32, default 1: serial). */
export interface ParallelListOptions extends RawListOptions {
  /**
   * Date windows pulled at once (1 to 32; default 1, one cursor walk).
   * Only for date-ordered sorts (see `http/windows.ts`); other sorts are
   * pulled serially whatever this says. The requests of all windows share
   * the client's request budget (`maxInFlight`).
   */
  parallel?: number;
}

/**
 * Checks a count option before any request (`parallel`, a hydration's
 * `concurrency`): an integer from 1 to `max`, `fallback` when not given.
 */
export function checkCount(param: string, value: unknown, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new RequestValidationError([notAllowed(param, value, `an integer from 1 to ${max}`)]);
  }
  return value;
}

/**
 * A {@link FramedList} over date windows.
 *
 * @example
 * ```ts
 * import { connect } from "../../mod.ts";
 * const { insider } = await connect();
 * const df = await insider.search({}, { pageSize: 100, parallel: 4 }).frame({ maxRows: 2000 });
 * console.log(df.height); // 2000, the same rows in the same order as the serial pull
 * ```
 */
export class WindowedList<Row> extends FramedList<Row> {
  #source: WindowSource<Row>;
  #parallel: number;
  #signal?: AbortSignal;
  #cursor?: string;
  /** Whether this list warned already (one warning per list, whatever its pulls). */
  #warned = false;
  /** Creates the list over a window source; `fetchPage` serves `firstPage()`. */
  constructor(
    fetchPage: PageFetcher<Row>,
    source: WindowSource<Row>,
    toFrame: FrameMaker<Row>,
    opts: ParallelListOptions,
  ) {
    super(fetchPage, toFrame, { ...opts, cursor: undefined });
    this.#source = source;
    this.#parallel = checkCount("parallel", opts.parallel, 32, 1);
    this.#signal = opts.signal;
    this.#cursor = opts.cursor;
  }

  /** Pages in the serial order, `parallel` windows in flight, values as sent. */
  protected override sentPages(
    opts: PagesOptions = {},
  ): AsyncGenerator<Page<Row>, void, undefined> {
    return windowedPages(this.#source, {
      parallel: this.#parallel,
      limit: opts.limit,
      signal: this.#signal,
      cursor: this.#cursor,
      onFallback: (message) => {
        if (!this.#warned) console.warn(message);
        this.#warned = true;
      },
    });
  }

  /** The first page in the serial order (typed by `pages`, unless `raw`). */
  override async firstPage(): Promise<Page<Row>> {
    const it = this.pages({ limit: 1 });
    try {
      const r = await it.next();
      return r.done ? { rows: [], next: null, raw: null } : r.value;
    } finally {
      await it.return(undefined);
    }
  }
}

/**
 * The list a client returns: a {@link WindowedList} when `parallel` is above
 * 1 (or the cursor is a window cursor) and the sort is date-ordered
 * (`source` given), else the serial {@link FramedList}.
 */
export function listOf<Row>(
  fetchPage: PageFetcher<Row>,
  toFrame: FrameMaker<Row>,
  opts: ParallelListOptions,
  source: WindowSource<Row> | undefined,
): FramedList<Row> {
  const parallel = checkCount("parallel", opts.parallel, 32, 1);
  // a window cursor is read now: one that holds no position is refused before any request
  const windowCursor = opts.cursor !== undefined &&
    decodeWindowCursor(opts.cursor, source?.list) !== undefined;
  // a cursor left by a small-page serial walk (`take(10)`) resumes that walk, serially
  const sized = opts.cursor?.startsWith("sbp1.") ?? false;
  if (source && !sized && (parallel > 1 || windowCursor)) {
    return new WindowedList(fetchPage, source, toFrame, opts);
  }
  if (windowCursor) {
    throw new RequestValidationError([{
      param: "cursor",
      value: opts.cursor,
      message: "is a cursor of a parallel pull; allowed: resume it with the list's own date sort",
    }]);
  }
  return new FramedList(fetchPage, toFrame, opts);
}
