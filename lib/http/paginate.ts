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
  /** Creates a lazy list over a page fetcher; `prefetch: false` fetches strictly one page at a time. */
  constructor(fetchPage: PageFetcher<Row>, opts: ListOptions = {}) {
    this.#fetch = fetchPage;
    this.#signal = opts.signal;
    this.#prefetch = opts.prefetch ?? true;
  }

  /** Pages in order; the next page is requested as soon as the current one arrives. */
  async *pages(): AsyncGenerator<Page<Row>, void, undefined> {
    const ac = new AbortController();
    const signal = this.#signal ? AbortSignal.any([this.#signal, ac.signal]) : ac.signal;
    let pending: Promise<Page<Row>> | null = this.#fetch(null, signal);
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
    return out;
  }

  /** The first page only. */
  async firstPage(): Promise<Page<Row>> {
    const ac = new AbortController();
    const signal = this.#signal ? AbortSignal.any([this.#signal, ac.signal]) : ac.signal;
    return await this.#fetch(null, signal);
  }
}
