/**
 * Lazy cursor pagination: a list call returns a {@link Paginated}, an async
 * iterable of rows that fetches the next page while the caller consumes the
 * current one, and stops fetching (aborting the prefetch) when the caller
 * stops.
 *
 * @module
 */

/** One fetched page. */
export interface Page<Row> {
  /** The rows of this page. */
  rows: Row[];
  /** Cursor of the next page, or null on the last one. */
  next: string | null;
  /** The raw envelope as the service sent it. */
  raw: unknown;
}

/** Options of a list call. */
export interface ListOptions {
  /** Abort signal for every page request. */
  signal?: AbortSignal;
  /** Request the next page while the current one is consumed (default true). */
  prefetch?: boolean;
  /**
   * Start at this page cursor instead of the first page: resume a pull that
   * failed, from `error.partial.cursor` (see {@link PartialResult}).
   */
  cursor?: string;
}

/**
 * What a failed `take()` or `.frame()` had read before a page failed for
 * good (after every retry), attached to the thrown error as `error.partial`:
 * the rows so far (an array for `take`, a frame for `.frame()`) and the
 * cursor of the page that failed. Pass that cursor as the list's
 * `{ cursor }` option to fetch the rest; `cursor` is null when the first
 * page failed (start over).
 *
 * @example
 * ```ts
 * import { connect, partialOf } from "../../mod.ts";
 * const { insider } = await connect();
 * try {
 *   await insider.search({}, { pageSize: 50 }).take(120);
 * } catch (e) {
 *   const partial = partialOf<unknown[]>(e);
 *   if (partial) console.log(partial.rows.length, "rows kept; resume at", partial.cursor);
 * }
 * ```
 */
export interface PartialResult<R> {
  /** Rows read before the failure. */
  rows: R;
  /** Cursor of the page that failed (resume there), or null when it was the first page. */
  cursor: string | null;
}

const failedAt = new WeakMap<object, string | null>();

/** The cursor of the page whose fetch threw `error`, when it came from a list. */
export function failedCursor(error: unknown): string | null | undefined {
  return typeof error === "object" && error !== null ? failedAt.get(error) : undefined;
}

/** Attaches `{ rows, cursor }` to a list failure as `error.partial`; returns the error. */
export function withPartial<R>(error: unknown, rows: R): unknown {
  const cursor = failedCursor(error);
  if (cursor !== undefined && typeof error === "object" && error !== null) {
    Object.defineProperty(error, "partial", {
      value: { rows, cursor } satisfies PartialResult<R>,
      enumerable: false,
      configurable: true,
    });
  }
  return error;
}

/** `error.partial` of a list failure (see {@link PartialResult}), or undefined. */
export function partialOf<R>(error: unknown): PartialResult<R> | undefined {
  return typeof error === "object" && error !== null && "partial" in error
    ? (error as { partial: PartialResult<R> }).partial
    : undefined;
}

/** Fetches the page at a cursor (null = first page). */
export type PageFetcher<Row> = (cursor: string | null, signal: AbortSignal) => Promise<Page<Row>>;

/** Rows collected with {@link Paginated.take}. */
export interface Taken<Row> extends Array<Row> {
  /** True when more rows existed beyond the ones taken. */
  truncated: boolean;
}

/**
 * A lazy list of pages and rows.
 *
 * @example
 * ```ts
 * import { Paginated } from "./paginate.ts";
 * const list = new Paginated<number>(async (cursor) => ({
 *   rows: cursor ? [3, 4] : [1, 2],
 *   next: cursor ? null : "p2",
 *   raw: {},
 * }));
 * for await (const n of list) console.log(n); // 1 2 3 4
 * ```
 */
export class Paginated<Row> implements AsyncIterable<Row> {
  #fetch: PageFetcher<Row>;
  #signal?: AbortSignal;
  #prefetch: boolean;
  #start: string | null;
  /** Creates a lazy list over a page fetcher; `prefetch: false` fetches strictly one page at a time. */
  constructor(fetchPage: PageFetcher<Row>, opts: ListOptions = {}) {
    this.#signal = opts.signal;
    this.#prefetch = opts.prefetch ?? true;
    this.#start = opts.cursor ?? null;
    // a failing page remembers its cursor, for error.partial
    this.#fetch = (cursor, signal) =>
      fetchPage(cursor, signal).catch((e) => {
        if (typeof e === "object" && e !== null) failedAt.set(e, cursor);
        throw e;
      });
  }

  /** Pages in order; the next page is requested as soon as the current one arrives. */
  async *pages(): AsyncGenerator<Page<Row>, void, undefined> {
    const ac = new AbortController();
    const signal = this.#signal ? AbortSignal.any([this.#signal, ac.signal]) : ac.signal;
    let pending: Promise<Page<Row>> | null = this.#fetch(this.#start, signal);
    try {
      while (pending) {
        const page: Page<Row> = await pending;
        if (!this.#prefetch) {
          pending = null;
          yield page;
          if (page.next) pending = this.#fetch(page.next, signal);
          continue;
        }
        pending = page.next ? this.#fetch(page.next, signal) : null;
        // an unobserved rejection of the prefetch must not crash the process
        pending?.catch(() => {});
        yield page;
      }
    } finally {
      if (pending) ac.abort(new DOMException("pagination stopped", "AbortError"));
    }
  }

  /** Rows in order across pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Row, void, undefined> {
    for await (const page of this.pages()) yield* page.rows;
  }

  /** The first `n` rows (fewer if the list is shorter); `truncated` says whether more existed. */
  async take(n: number): Promise<Taken<Row>> {
    if (!Number.isInteger(n) || n < 0) {
      throw new TypeError(`take(${JSON.stringify(n)}) is not allowed; allowed: an integer >= 0`);
    }
    const out = [] as unknown as Taken<Row>;
    out.truncated = false;
    if (n === 0) return out;
    try {
      for await (const page of this.pages()) {
        for (const row of page.rows) {
          if (out.length === n) {
            out.truncated = true;
            return out;
          }
          out.push(row);
        }
        if (out.length === n) {
          out.truncated = page.next !== null;
          return out;
        }
      }
    } catch (e) {
      throw withPartial(e, out);
    }
    return out;
  }

  /** The first page only (or the page at the `cursor` option). */
  async firstPage(): Promise<Page<Row>> {
    const ac = new AbortController();
    const signal = this.#signal ? AbortSignal.any([this.#signal, ac.signal]) : ac.signal;
    return await this.#fetch(this.#start, signal);
  }
}
