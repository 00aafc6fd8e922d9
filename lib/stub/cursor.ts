/**
 * Opaque, HMAC-signed cursors bound to the query they came from. A cursor
 * carries an offset, the sort and a hash of the other parameters; a tampered
 * cursor, or one reused with another sort or other filters, is rejected.
 *
 * @module
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

interface Payload {
  /** Offset of the page. */
  o: number;
  /** Sort it belongs to. */
  s: string;
  /** Hash of the other parameters. */
  h: string;
}

/** One page of a list, and the cursors around it. */
export interface Page<T> {
  /** The page's items. */
  rows: T[];
  /** Whether items follow the page. */
  hasMore: boolean;
  /** Cursor of the next page (null on the last). */
  next: string | null;
  /** Cursor of the previous page (null on the first). */
  prev: string | null;
  /** Cursor of the first page of the same query. */
  head: string;
}

/**
 * A service's lists paged by signed cursors, the same on both services:
 * each query's list made once and kept (more than `keep` lists clears
 * them), and the page a cursor points at, or why the cursor is refused.
 *
 * @example
 * ```ts
 * import { Pages } from "./cursor.ts";
 * const pages = new Pages<number>("secret", 8);
 * const q = { sort: "n", query: "all", limit: 2, make: () => [1, 2, 3] };
 * const first = pages.page({ ...q, cursor: undefined });
 * if ("rows" in first) {
 *   const second = pages.page({ ...q, cursor: first.next });
 *   console.log(first.rows, "rows" in second && second.rows); // [ 1, 2 ] [ 3 ]
 * }
 * ```
 */
export class Pages<T> {
  readonly #secret: string;
  readonly #lists = new Map<string, T[]>();
  readonly #keep: number;

  /** Pages signed with `secret`, keeping at most `keep` lists. */
  constructor(secret: string, keep: number) {
    this.#secret = secret;
    this.#keep = keep;
  }

  /**
   * The page at `cursor` (none: the first) of `limit` items of the list
   * `make()` gives for `query` (the parameters other than the sort, the
   * cursor and the limit) in `sort`; or the cursor's error.
   */
  page(q: {
    cursor: string | null | undefined;
    sort: string;
    query: unknown;
    limit: number;
    make: () => T[];
  }): Page<T> | { error: string } {
    // a stable short hash of the query
    const hash = createHash("sha256").update(JSON.stringify(q.query)).digest("base64url")
      .slice(0, 16);
    let offset = 0;
    if (q.cursor !== undefined && q.cursor !== null) {
      const d = this.#decode(q.cursor, q.sort, hash);
      if ("error" in d) return d;
      offset = d.offset;
    }
    const key = `${q.sort}\n${hash}`;
    let all = this.#lists.get(key);
    if (!all) {
      all = q.make();
      if (this.#lists.size > this.#keep) this.#lists.clear();
      this.#lists.set(key, all);
    }
    const at = (o: number) => {
      const body = Buffer.from(JSON.stringify({ o, s: q.sort, h: hash })).toString("base64url");
      return `${body}.${this.#sign(body)}`;
    };
    const hasMore = offset + q.limit < all.length;
    return {
      rows: all.slice(offset, offset + q.limit),
      hasMore,
      next: hasMore ? at(offset + q.limit) : null,
      prev: offset > 0 ? at(Math.max(0, offset - q.limit)) : null,
      head: at(0),
    };
  }

  /** The offset a cursor carries, or the reason it is not valid here. */
  #decode(cursor: string, sort: string, hash: string): { offset: number } | { error: string } {
    const [body, sig, extra] = cursor.split(".");
    if (!body || !sig || extra !== undefined) return { error: "the cursor is malformed" };
    const want = Buffer.from(this.#sign(body));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) {
      return { error: "the cursor is not one this service issued (tampered or corrupted)" };
    }
    let p: Payload;
    try {
      p = JSON.parse(Buffer.from(body, "base64url").toString());
    } catch {
      return { error: "the cursor is malformed" };
    }
    if (p.s !== sort) {
      return {
        error: `the cursor belongs to sort "${p.s}", not "${sort}"; restart without cursor`,
      };
    }
    if (p.h !== hash) {
      return { error: "the cursor belongs to other filters; restart without cursor" };
    }
    return { offset: p.o };
  }

  #sign(body: string): string {
    return createHmac("sha256", this.#secret).update(body).digest("base64url").slice(0, 22);
  }
}
