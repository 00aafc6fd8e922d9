/**
 * A feeds service that lies about its paging, as an injected `fetch`
 * (`GET /feeds`: `from`/`to` inclusive filing days, `limit`, `cursor`;
 * newest filing first). Rows are `perDay` a day for `days` days, filed at
 * 15:00 UTC (the same Eastern day), each with its own accession number.
 * Its cursor is the page number, read under the request's `limit`: bare
 * (`pageCursor: true`), or after the request's date bounds (the default,
 * `from~to~n`: a cursor that names its filter, as date windows need).
 *
 * Lies (any mix):
 * - `loopAfter: n`: after `n` pages a walk goes on forever, sending its
 *   pages again from the first under ever-new page numbers;
 * - `again: [i, …]`: the rows at these indexes (of the whole list) are sent
 *   twice, right after themselves in their page;
 * - `repeatPrev: true`: each page after the first starts with the last
 *   row of the page before it (sent again across pages);
 * - `endAfter: i`: a page holding the row at index `i` ends right after it
 *   and says `has_more: false` (an early end, a hole after it);
 * - `failOnce: n`: the first request for page `n` is refused with a `400`
 *   (not retried: the pull fails there);
 * - `flipOdd: true`: every other page (the 2nd, 4th, …) is served from the
 *   opposite end of the list: page `k` holds the `k`-th page counted from
 *   its end (pages then overlap, and rows between them never come);
 * - `skipPages: k`: the list's own request (no date bounds) serves page `n`
 *   (after the first) as page `n + k`: `k` pages are skipped, nothing is
 *   sent again (date-bounded requests are honest).
 *
 * Not a lie: `cursorPrefix` opens every cursor with that text (any Unicode:
 * cursors are opaque), and a cursor sent back without it is refused with a
 * `400`, as a service whose cursors are signed would.
 */
import { InsiderClient } from "../../mod.ts";

/** How the service lies (see the module doc). */
export interface Lies {
  days: number;
  perDay: number;
  loopAfter?: number;
  again?: number[];
  repeatPrev?: boolean;
  endAfter?: number;
  pageCursor?: boolean;
  failOnce?: number;
  cursorPrefix?: string;
  flipOdd?: boolean;
  skipPages?: number;
}

/** The first (newest) day of the list. */
const FIRST = Date.UTC(2024, 11, 31);

/** A feed row as the service sends it. */
export interface LyingRow {
  accession_number: string;
  transaction_id: number;
  filed_at: string;
}

/** The lying service (see {@link lyingFeeds}). */
export interface LyingFeeds {
  /** Its `fetch`. */
  fetch: (input: Request | URL | string) => Promise<Response>;
  /** Requests served. */
  counts: { requests: number };
  /** An insider client on it. */
  insider: InsiderClient;
  /** Rows in the whole list. */
  total: number;
}

/** The row at index `i` of the whole list. */
export function rowAt(i: number, perDay: number): LyingRow {
  const day = new Date(FIRST - Math.floor(i / perDay) * 86_400_000).toISOString().slice(0, 10);
  return {
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: `${day}T15:00:00.000Z`,
  };
}

/** The lying service: its `fetch`, the requests it served, and a client on it. */
export function lyingFeeds(lies: Lies): LyingFeeds {
  const all = Array.from({ length: lies.days * lies.perDay }, (_, i) => ({
    i,
    ...rowAt(i, lies.perDay),
  }));
  const counts = { requests: 0 };
  const fetch = (input: Request | URL | string): Promise<Response> => {
    counts.requests++;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const q = url.searchParams;
    const from = q.get("from");
    const to = q.get("to");
    const limit = Number(q.get("limit") ?? 10);
    const prefix = lies.cursorPrefix ?? "";
    const sent = q.get("cursor");
    const n = Number((sent ?? "0").split("~").at(-1));
    if (n === lies.failOnce || (sent !== null && !sent.startsWith(prefix))) {
      if (n === lies.failOnce) lies.failOnce = undefined;
      return Promise.resolve(
        Response.json({ type: "bad", title: "Bad Request", detail: "refused once" }, {
          status: 400,
        }),
      );
    }
    const list = all.filter((r) => {
      const d = r.filed_at.slice(0, 10);
      return (!from || d >= from) && (!to || d <= to);
    });
    const pages = Math.ceil(list.length / limit);
    const skip = !from && !to && n > 0 ? lies.skipPages ?? 0 : 0;
    const at = (lies.loopAfter !== undefined ? n % lies.loopAfter : n) + skip;
    let rows = lies.flipOdd && at % 2 === 1
      ? list.slice(Math.max(0, list.length - (at + 1) * limit), list.length - at * limit)
      : list.slice(at * limit, (at + 1) * limit);
    let more = lies.loopAfter !== undefined || at + 1 < pages;
    const cut = rows.findIndex((r) => r.i === lies.endAfter);
    if (cut >= 0) {
      rows = rows.slice(0, cut + 1);
      more = false;
    }
    const again = new Set(lies.again ?? []);
    rows = rows.flatMap((r) => (again.has(r.i) ? [r, r] : [r]));
    const prev = at > 0 ? list[at * limit - 1] : undefined;
    if (lies.repeatPrev && prev) rows = [prev, ...rows];
    const data = rows.map(({ i: _i, ...r }) => r);
    return Promise.resolve(Response.json({
      data,
      next_cursor: more
        ? prefix + (lies.pageCursor ? (prefix && "~") : `${from ?? ""}~${to ?? ""}~`) + (n + 1)
        : null,
      has_more: more,
    }));
  };
  const insider = new InsiderClient({
    apiKey: "sk-test-lying-feeds",
    baseUrl: "http://lies.test/insider",
    fetch,
  });
  return { fetch, counts, insider, total: all.length };
}
