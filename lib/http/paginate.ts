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
 * - with the list's row key (the clients give one; "" is no key): a row sent again under
 *   the same key is handed out once, and the pull ends with one warning
 *   counting them ({@link duplicateWarning}), when it is part of an overlap:
 *   a run of rows that repeats, in order, the rows received just before it
 *   (a row sent twice in a row; a page that starts with the last rows of the
 *   page before, as an offset list shows when rows were added at its head).
 *   Any other row sent again (one from further back, an overlap that stops
 *   before the rows just before it, or ends the list there) means the pages
 *   are not consecutive slices of one list, so rows between them may never
 *   come: the pull ends with `reason: "skipped-rows"` before that page is
 *   handed out. What this cannot see: pages that skip rows without sending
 *   any again, or that overlap exactly as a shifted offset list does (keys
 *   alone cannot tell those from an honest list). A page with rows, none of
 *   them new, under a new cursor is a loop with fresh cursor names and ends
 *   the pull with `reason: "repeated-rows"` (the keys are held for the pull:
 *   a few tens of bytes a row); the checks of a walk are {@link WalkCheck};
 * - a walk that asks for smaller pages than the service's default
 *   (`take(10)`) hands out its cursors with that size attached
 *   (`sbp1.<size>.<cursor>`, see {@link sizedCursor}), in `error.partial.cursor` and
 *   in `page.next`: a walk resumed there asks for the same size, so a
 *   cursor that is a page number means the same rows, whatever else ran in
 *   the process;
 * - a caller that wants `n` rows (`take(n)`, `.frame({ maxRows })`) never
 *   makes a request once `n` rows have arrived: the last page's `next`
 *   already says whether more exist.
 * These errors carry the rows read so far as `error.partial` on `take()` and
 * `.frame()`, like any other failed page.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { InvalidResponseError, PaginationError } from "./errors.ts";
import { redactKnownKeys } from "./_redact.ts";
import { joinGroup } from "./retry.ts";

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
 * A 64-bit digest of a cursor (the first 64 bits of the SHA-256 of its
 * UTF-16 units, `node:crypto`), as 16 hex characters: what a pull keeps to
 * spot a cursor sent again, instead of the cursor itself.
 *
 * @example
 * ```ts
 * import { cursorDigest } from "./paginate.ts";
 * console.log(cursorDigest("abc").length); // 16
 * ```
 */
export function cursorDigest(cursor: string): string {
  return createHash("sha256").update(cursor, "utf16le").digest("hex").slice(0, 16);
}

/**
 * The warning a pull ends with when the service sent `n` rows again under
 * a key it had already sent (each was handed out once).
 *
 * @example
 * ```ts
 * import { duplicateWarning } from "./paginate.ts";
 * console.log(duplicateWarning(3));
 * ```
 */
export function duplicateWarning(n: number): string {
  return `signalbook: the service sent ${n} row${n === 1 ? "" : "s"} again under a key it had ` +
    `already sent in this pull; each row was kept once`;
}

const SIZED = "sbp1.";

/**
 * A cursor with the page size (`want`) of the walk that was sent it
 * attached, as the walk hands it out (see the module doc).
 *
 * @example
 * ```ts
 * import { readSizedCursor, sizedCursor } from "./paginate.ts";
 * console.log(sizedCursor("2", 10)); // sbp1.10.2
 * console.log(readSizedCursor("sbp1.10.2")); // { cursor: "2", want: 10 }
 * ```
 */
export function sizedCursor(cursor: string, want: number): string {
  return `${SIZED}${want}.${cursor}`;
}

/**
 * A cursor handed to a list: the service's own (no size), or one made by
 * {@link sizedCursor}. A malformed `sbp1.` cursor is a `TypeError` naming it.
 */
export function readSizedCursor(cursor: string): { cursor: string; want?: number } {
  if (!cursor.startsWith(SIZED)) return { cursor };
  const m = /^sbp1\.([1-9]\d{0,8})\.([\s\S]+)$/.exec(cursor);
  if (!m) {
    throw new TypeError(
      `cursor ${quoteCursor(cursor)} is not allowed; allowed: a cursor this list handed out`,
    );
  }
  return { cursor: m[2], want: Number(m[1]) };
}

/**
 * The checks of one walk of a list (the module doc's rules), kept across
 * its continuations: cursors sent again, empty pages in a row, and, with
 * the rows' keys, rows sent again. A row sent again is kept once when it is
 * part of an overlap: a run of rows that repeats, in order, the rows
 * received just before it (a row sent twice in a row; a page that starts
 * with the last rows of the page before, as an offset list shows when rows
 * were added at its head). Any other row sent again means the pages are not
 * consecutive slices of one list, so rows between them may never come: the
 * walk stops with a {@link PaginationError} (`"skipped-rows"`) instead of
 * handing out a list with holes. A page whose rows all came before is a
 * loop (`"repeated-rows"`).
 *
 * @example
 * ```ts
 * import { WalkCheck } from "./paginate.ts";
 * const check = new WalkCheck();
 * const keys = ["a", "b", "b", "c"];
 * console.log(check.rows(keys, keys, null), check.twice); // ["a", "b", "c"] 1
 * ```
 */
export class WalkCheck {
  /** Digests of the cursors of this walk (see {@link cursorDigest}). */
  readonly #cursors = new Set<string>();
  /** Keys of the rows received. */
  readonly #keys = new Set<string>();
  /** Keys of the new rows of the page before and of this page, in order; where this page's start. */
  #recent: string[] = [];
  #pageStart = 0;
  /** In an overlap: the index in `#recent` of the key it must repeat next (-1: none under way). */
  #expect = -1;
  #empty = 0;
  /** Pages checked, rows received (new ones), rows sent again (dropped). */
  pages = 0;
  received = 0;
  twice = 0;

  /** A check of a walk that starts at `start` (a cursor of the list, or null). */
  constructor(start: string | null = null) {
    if (start !== null) this.#cursors.add(cursorDigest(start));
  }

  /** Whether a row of this key was received in this walk (since the last {@link WalkCheck.forget}). */
  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** Forgets the keys of the rows received (a walk that is done: they are not needed). */
  forget(): void {
    this.#keys.clear();
  }

  /** Records `cursor` as sent in this walk (a continuation that starts there). */
  sent(cursor: string | null): void {
    if (cursor !== null) this.#cursors.add(cursorDigest(cursor));
  }

  /**
   * The rows of a page without those sent again in this walk (counted in
   * `twice`); `keys[i]` is the key of `rows[i]` ("" is no key: never sent
   * again). Throws a {@link PaginationError} for a loop or skipped rows, its
   * cursor `at` (the page's); `last`: the walk ends with this page, so an
   * overlap under way must be complete.
   */
  rows<Row>(rows: Row[], keys: readonly string[], at: string | null, last = false): Row[] {
    this.pages++;
    if (rows.length > 0 && keys.every((key) => key !== "" && this.#keys.has(key))) {
      // every row came before, under a new cursor: a loop with fresh cursor names
      throw new PaginationError(
        `the service sent a page of ${rows.length} rows all sent before in this walk, under a ` +
          `new cursor, after ${this.pages} pages (${this.received} rows); stopped instead of ` +
          `paging in a loop`,
        "repeated-rows",
        at ?? "",
      );
    }
    const recent = this.#recent = this.#recent.slice(this.#pageStart);
    this.#pageStart = recent.length;
    const going = () => this.#expect >= 0 && this.#expect < recent.length;
    let out: Row[] | undefined;
    keys.forEach((key, i) => {
      if (key === "") out?.push(rows[i]); // no key: never sent again, no part of an overlap
      else if (!this.#keys.has(key)) {
        // a new row ends an overlap: it must have reached the rows just before it
        if (going()) throw this.#skipped(at, rows.length);
        this.#expect = -1;
        this.#keys.add(key);
        recent.push(key);
        out?.push(rows[i]);
      } else {
        const j = going() ? this.#expect : recent.lastIndexOf(key);
        if (j < 0 || recent[j] !== key) throw this.#skipped(at, rows.length);
        this.#expect = j + 1;
        out ??= rows.slice(0, i);
      }
    });
    if (last && going()) throw this.#skipped(at, rows.length);
    this.twice += rows.length - (out ?? rows).length;
    this.received += (out ?? rows).length;
    return out ?? rows;
  }

  #skipped(at: string | null, n: number): PaginationError {
    return new PaginationError(
      `the service sent rows again that are not the rows just before them (page ${this.pages}, ` +
        `${n} rows, after ${this.received} rows): its pages are not consecutive slices of one ` +
        `list, so rows between them may never come; stopped instead of handing out a list ` +
        `with holes`,
      "skipped-rows",
      at ?? "",
    );
  }

  /**
   * After a page of `count` rows whose cursor is `next`: the error the walk
   * stops with there (a cursor sent again, {@link MAX_EMPTY_PAGES} empty
   * pages in a row), else null. A cursor longer than {@link MAX_CURSOR_CHARS}
   * throws an {@link InvalidResponseError} (it is not sent back).
   */
  next(count: number, next: string | null): PaginationError | null {
    this.#empty = count === 0 && next !== null ? this.#empty + 1 : 0;
    if (next === null) return null;
    if (next.length > MAX_CURSOR_CHARS) {
      throw new InvalidResponseError(
        `the service sent a cursor of ${next.length} characters; at most ${MAX_CURSOR_CHARS} are ` +
          `accepted (a cursor names a position, it does not carry data); stopped`,
      );
    }
    const digest = cursorDigest(next);
    if (this.#cursors.has(digest)) {
      return new PaginationError(
        `the service sent cursor ${quoteCursor(next)} again after ${this.pages} pages ` +
          `(${this.received} rows); stopped instead of paging in a loop`,
        "repeated-cursor",
        next,
      );
    }
    this.#cursors.add(digest);
    if (this.#empty < MAX_EMPTY_PAGES) return null;
    return new PaginationError(
      `the service sent ${this.#empty} empty pages in a row that still claim more rows ` +
        `(after ${this.received} rows); stopped`,
      "empty-pages",
      next,
    );
  }
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

/** Where to resume a walk of page size `want` at `cursor` (null: start over). */
function resumable(cursor: string | null, want: number | undefined): string | null {
  return cursor !== null && want !== undefined ? sizedCursor(cursor, want) : cursor;
}

/** The cursor of the page whose fetch threw `error`, when it came from a list. */
export function failedCursor(error: unknown): string | null | undefined {
  return typeof error === "object" && error !== null ? failedAt.get(error) : undefined;
}

/** Records the cursor to resume at after `error` (for lists that page otherwise, e.g. `windows.ts`); returns the error. */
export function setFailedCursor<E>(error: E, cursor: string | null): E {
  if (typeof error === "object" && error !== null) failedAt.set(error, cursor);
  return error;
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
 * The page size a list asks for: the caller's own `pageSize`/`limit` when
 * set; else, when the caller wants fewer rows in all than the service's
 * default page holds, that many (so `take(10)` of a search asks for 10
 * rows, not the default 100: a peek does not pay for, send and parse a
 * whole page); else undefined (the service's default). A list started at a
 * cursor is given the `want` that cursor carries ({@link sizedCursor}),
 * else none.
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
  /** Where the list starts (null: its first page), and the page size that cursor carries (see {@link sizedCursor}). */
  #start: { cursor: string | null; want?: number };
  /** (Typed on `unknown`: a list of a union row type holds lists of each.) */
  #key?: (row: unknown) => string;
  /**
   * Creates a lazy list over a page fetcher; `prefetch: false` fetches
   * strictly one page at a time; `key` (a key unique to a row in the list)
   * turns on the duplicate and loop checks of the module doc.
   */
  constructor(fetchPage: PageFetcher<Row>, opts: ListOptions = {}, key?: (row: Row) => string) {
    this.#signal = opts.signal;
    this.#prefetch = opts.prefetch ?? true;
    this.#start = opts.cursor === undefined ? { cursor: null } : readSizedCursor(opts.cursor);
    this.#key = key as ((row: unknown) => string) | undefined;
    // a failing page remembers its cursor (with the walk's page size), for error.partial
    this.#fetch = (cursor, signal, want) =>
      fetchPage(cursor, signal, want).catch((e) => {
        throw setFailedCursor(e, resumable(cursor, want));
      });
  }

  /**
   * Pages in order; the next page is requested as soon as the current one
   * arrives (unless `limit` rows have arrived). Throws a
   * {@link PaginationError} after yielding a page whose cursor was seen
   * before, or the last of {@link MAX_EMPTY_PAGES} empty pages claiming more.
   */
  async *pages(opts: PagesOptions = {}): AsyncGenerator<Page<Row>, void, undefined> {
    yield* this.#walk(opts.limit ?? Infinity, false);
  }

  /** The walk of {@link Paginated.pages}; `first`: its first page only (no request after it). */
  async *#walk(limit: number, first: boolean): AsyncGenerator<Page<Row>, void, undefined> {
    const ac = new AbortController();
    // one walk is one call group: its requests share a retry budget (see `retry.ts`)
    const signal = joinGroup(ac.signal, this.#signal);
    const { cursor: start, want: startWant } = this.#start;
    const check = new WalkCheck(start);
    const keyOf = this.#key;
    // a walk started at a cursor asks for the page size that cursor carries (a service whose
    // cursor is a page number reads it under the request's page size): only a walk from the
    // first page chooses its own
    const want = start === null ? (Number.isFinite(limit) ? limit : undefined) : startWant;
    let at = start;
    let pending: Promise<Page<Row>> | null = this.#fetch(at, signal, want);
    try {
      while (pending) {
        const raw: Page<Row> = await pending;
        pending = null;
        const next = raw.next;
        let rows: Row[];
        try {
          // (a first page alone is no end of the walk: an overlap may go on after it)
          rows = check.rows(
            raw.rows,
            raw.rows.map((r) => keyOf?.(r) ?? ""),
            at,
            !first && next === null,
          );
        } catch (e) {
          throw setFailedCursor(e, resumable(at, want));
        }
        const more = !first && next !== null && check.received < limit;
        const stop = more ? check.next(raw.rows.length, next) : null;
        const ask = more && !stop ? () => this.#fetch(next!, signal, want) : undefined;
        if (ask && this.#prefetch) {
          pending = ask();
          // an unobserved rejection of the prefetch must not crash the process
          pending.catch(() => {});
        }
        // a small-page walk hands out its cursors with their page size
        yield {
          ...raw,
          rows,
          next: want !== undefined && next !== null ? sizedCursor(next, want) : next,
        };
        if (stop) throw setFailedCursor(stop, resumable(next, want));
        at = next;
        if (ask && !this.#prefetch) pending = ask();
      }
    } finally {
      if (pending) ac.abort(new DOMException("pagination stopped", "AbortError"));
      if (check.twice > 0) console.warn(duplicateWarning(check.twice));
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
        const room = n - out.length;
        for (const row of page.rows.slice(0, room)) out.push(row);
        if (out.length === n) {
          // more existed: rows past the ones taken, or a page after them
          out.truncated = page.rows.length > room || page.next !== null;
          return out;
        }
      }
    } catch (e) {
      throw withPartial(e, out);
    }
    return out;
  }

  /** The first page only (or the page at the `cursor` option, at the page size it carries). */
  async firstPage(): Promise<Page<Row>> {
    // (its checks are a walk's: a row sent twice in the page is handed out once, with the warning)
    const walk = this.#walk(Infinity, true);
    try {
      return (await walk.next()).value as Page<Row>;
    } finally {
      await walk.return();
    }
  }
}
