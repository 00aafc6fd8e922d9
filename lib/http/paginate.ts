/**
 * Lazy cursor pagination: a list call returns a {@link Paginated}, an async
 * iterable of rows that fetches the next page while the caller consumes the
 * current one, and stops fetching (aborting the prefetch) when the caller
 * stops.
 *
 * The server is not trusted to end its own list:
 * - a page's `next` is what the envelope reader made of it (the client's
 *   `_envelopes.ts`): the cursor, unless a has-more flag said false;
 * - a cursor seen before in the same pull (A→A, A→B→A) ends the pull with a
 *   {@link PaginationError} (`reason: "repeated-cursor"`) instead of paging
 *   forever; the rows of the page that repeated it are kept (they are new);
 * - only a digest of each cursor is kept ({@link cursorDigest}, 16
 *   characters), never the cursor, so a long pull of long cursors holds
 *   16 bytes a page; a cursor longer than {@link MAX_CURSOR_CHARS} is
 *   refused with an {@link InvalidResponseError} (a cursor names a
 *   position; one that large is a broken or hostile server, and each page
 *   would carry it);
 * - {@link MAX_EMPTY_PAGES} empty pages in a row that still claim more end it
 *   with `reason: "empty-pages"`;
 * - a caller that wants `n` rows (`take(n)`, `.frame({ maxRows })`) never
 *   makes a request once `n` rows have arrived: the last page's `next`
 *   already says whether more exist.
 * Both errors carry the rows read so far as `error.partial` on `take()` and
 * `.frame()`, like any other failed page.
 *
 * @module
 */
import { InvalidResponseError, PaginationError } from "./errors.ts";
import { redactKnownKeys } from "./_redact.ts";

/**
 * Empty pages in a row that still carry a cursor before a pull gives up
 * (a paid request each). Five: a server that filters after paging may send
 * an empty page now and then, but not five in a row without a bug.
 */
export const MAX_EMPTY_PAGES = 5;

/**
 * Longest cursor accepted (characters): 8 KiB. The services' own cursors
 * are well under 200 characters; a longer one is refused before it is sent
 * back, with an {@link InvalidResponseError} that does not quote it.
 */
export const MAX_CURSOR_CHARS = 8192;

/**
 * A 64-bit digest of a cursor (FNV-1a over its UTF-16 units, two 32-bit
 * lanes), as 16 hex characters: what a pull keeps to spot a cursor sent
 * again, instead of the cursor itself.
 *
 * @example
 * ```ts
 * import { cursorDigest } from "./paginate.ts";
 * console.log(cursorDigest("abc").length); // 16
 * ```
 */
export function cursorDigest(cursor: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ cursor.length;
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c ^ (a >>> 16), 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** `next` when it is an acceptable cursor; throws {@link InvalidResponseError} when it is too long. */
export function checkCursor(next: string): string {
  if (next.length > MAX_CURSOR_CHARS) {
    throw new InvalidResponseError(
      `the service sent a cursor of ${next.length} characters; at most ${MAX_CURSOR_CHARS} are ` +
        `accepted (a cursor names a position, it does not carry data); stopped`,
    );
  }
  return next;
}

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

/** Records the cursor to resume at after `error` (for lists that page otherwise, e.g. `windows.ts`). */
export function setFailedCursor(error: unknown, cursor: string | null): void {
  if (typeof error === "object" && error !== null) failedAt.set(error, cursor);
}

/** Attaches `{ rows, cursor }` to a list failure as `error.partial`; returns the error. */
export function withPartial<R>(error: unknown, rows: R): unknown {
  const cursor = failedCursor(error);
  if (cursor !== undefined && typeof error === "object" && error !== null) {
    // a cursor holding a key is shown redacted (it could not be resumed anyway: no service
    // issues cursors that carry its caller's key)
    const partial: PartialResult<R> = {
      rows,
      cursor: cursor === null ? null : redactKnownKeys(cursor),
    };
    // an accessor, not enumerable: JSON.stringify(error) and Deno.inspect(error, { showHidden })
    // do not print the rows (server data, which may hold anything)
    Object.defineProperty(error, "partial", {
      get: () => partial,
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

/**
 * A cursor as an error message quotes it: the first 40 characters, cut
 * after any key has been redacted from the whole cursor (a cut made first
 * could leave part of a key no redactor recognises).
 */
export function quoteCursor(cursor: string): string {
  const clean = redactKnownKeys(cursor);
  return JSON.stringify(clean.length > 40 ? clean.slice(0, 40) + "…" : clean);
}

/** Options of {@link Paginated.pages}. */
export interface PagesOptions {
  /**
   * Rows the caller wants: once this many have arrived no further page is
   * requested (not even prefetched), whatever the last page's cursor says.
   */
  limit?: number;
}

/**
 * Fetches the page at a cursor (null = first page). `want`, when given, is
 * how many rows the caller wants in all (`take(n)`, `.frame({ maxRows })`),
 * so that the fetcher can ask for a smaller page than the service's
 * default (see {@link pageSizeFor}).
 */
export type PageFetcher<Row> = (
  cursor: string | null,
  signal: AbortSignal,
  want?: number,
) => Promise<Page<Row>>;

/**
 * The `want` of walks that asked for smaller pages than the service's
 * default, by the digest of each cursor they were sent: a walk started
 * later at one of those cursors (`error.partial.cursor` of a failed
 * `take(10)`, a `page.next`) asks for the same page size, so a page-number
 * cursor means the same rows. At most {@link SMALL_PAGE_WALKS} are kept,
 * the oldest forgotten first (a forgotten cursor is resumed at the
 * service's default page size).
 */
const smallPageWalks = new Map<string, number>();

/** Cursors of small-page walks remembered (see `smallPageWalks`). */
export const SMALL_PAGE_WALKS = 10_000;

/** Remembers a small-page walk's `want` by the digest of a cursor it was sent. */
function rememberWant(digest: string, want: number): void {
  smallPageWalks.delete(digest);
  if (smallPageWalks.size >= SMALL_PAGE_WALKS) {
    smallPageWalks.delete(smallPageWalks.keys().next().value!);
  }
  smallPageWalks.set(digest, want);
}

/**
 * The page size a list asks for: the caller's own `pageSize`/`limit` when
 * set; else, when the caller wants fewer rows in all than the service's
 * default page holds, that many (so `take(10)` of a search asks for 10
 * rows, not the default 100: a peek does not pay for, send and parse a
 * whole page); else undefined (the service's default). A list started at a
 * `cursor` is given the `want` of the walk that was sent that cursor, when
 * that walk asked for smaller pages in this process, else none
 * ({@link Paginated.pages}).
 *
 * @example
 * ```ts
 * import { pageSizeFor } from "./paginate.ts";
 * console.log(pageSizeFor(undefined, 10, 100), pageSizeFor(50, 10, 100), pageSizeFor(undefined, 500, 100));
 * // 10 50 undefined
 * ```
 */
export function pageSizeFor(
  asked: number | undefined,
  want: number | undefined,
  serviceDefault: number,
): number | undefined {
  if (asked !== undefined) return asked;
  return want !== undefined && want >= 1 && want < serviceDefault ? want : undefined;
}

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
    this.#fetch = (cursor, signal, want) =>
      fetchPage(cursor, signal, want).catch((e) => {
        if (typeof e === "object" && e !== null) failedAt.set(e, cursor);
        throw e;
      });
  }

  /**
   * Pages in order; the next page is requested as soon as the current one
   * arrives (unless `limit` rows have arrived). Throws a
   * {@link PaginationError} after yielding a page whose cursor was seen
   * before, or the last of {@link MAX_EMPTY_PAGES} empty pages claiming more.
   */
  async *pages(opts: PagesOptions = {}): AsyncGenerator<Page<Row>, void, undefined> {
    const limit = opts.limit ?? Infinity;
    const ac = new AbortController();
    const signal = this.#signal ? AbortSignal.any([this.#signal, ac.signal]) : ac.signal;
    /** Digests of the cursors of this walk (see {@link cursorDigest}). */
    const seen = new Set<string>();
    if (this.#start !== null) seen.add(cursorDigest(this.#start));
    let received = 0;
    let empty = 0;
    let pages = 0;
    // a walk that starts at a cursor keeps the page size of the walk that was sent it (a
    // service whose cursor is a page number reads it under the request's page size): only a
    // walk from the first page chooses its own
    const want = this.#start === null
      ? (Number.isFinite(limit) ? limit : undefined)
      : smallPageWalks.get(cursorDigest(this.#start));
    let pending: Promise<Page<Row>> | null = this.#fetch(this.#start, signal, want);
    try {
      while (pending) {
        const page: Page<Row> = await pending;
        pending = null;
        pages++;
        received += page.rows.length;
        empty = page.rows.length === 0 && page.next !== null ? empty + 1 : 0;
        const next = page.next;
        // one digest per cursor, for the small-page memory and for the walk's own loop check
        const digest = next !== null && next.length <= MAX_CURSOR_CHARS ? cursorDigest(next) : null;
        if (want !== undefined && digest !== null) rememberWant(digest, want);
        let stop: PaginationError | null = null;
        if (next !== null && received < limit) {
          checkCursor(next);
          if (seen.has(digest!)) {
            stop = new PaginationError(
              `the service sent cursor ${quoteCursor(next)} again after ${pages} pages ` +
                `(${received} rows); stopped instead of paging in a loop`,
              "repeated-cursor",
              next,
            );
          } else if (empty >= MAX_EMPTY_PAGES) {
            stop = new PaginationError(
              `the service sent ${empty} empty pages in a row that still claim more rows ` +
                `(after ${received} rows); stopped`,
              "empty-pages",
              next,
            );
          } else {
            seen.add(digest!);
            if (this.#prefetch) {
              pending = this.#fetch(next, signal, want);
              // an unobserved rejection of the prefetch must not crash the process
              pending.catch(() => {});
            }
          }
        }
        yield page;
        if (stop) {
          failedAt.set(stop, next);
          throw stop;
        }
        if (!this.#prefetch && next !== null && received < limit) {
          pending = this.#fetch(next, signal, want);
        }
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
      for await (const page of this.pages({ limit: n })) {
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
