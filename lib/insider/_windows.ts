/**
 * How the insider service's lists are cut into date windows (see
 * `http/windows.ts`): both filter on the filing date in US Eastern Time —
 * the search with `filingDateFrom`/`filingDateTo` (inclusive, Eastern Time
 * as the spec says; with `filingDatePreset: "custom"`, or refining the
 * caller's own preset), feeds with `from`/`to` (inclusive filing dates; read
 * as Eastern Time like the search's). A row's day is the Eastern date of its
 * filing timestamp. Only the planning relies on that reading: the seams are
 * checked by key, so a service that dated rows otherwise would cost speed,
 * never rows.
 *
 * The search is date-ordered only under `sortBy: "filedAt"` (the default);
 * feeds are always newest filing first (their order is learned from the
 * rows, as the spec does not show it).
 *
 * @module
 */
import { datedSource, type DayRange, type PageSender, type WindowSource } from "../http/windows.ts";
import { listId } from "../http/windows.ts";
import type { FeedRow } from "./feeds.ts";
import { type InsiderFilter, SEARCH_PAGE_SIZE } from "./filter.ts";
import { FEED_PAGE_SIZE } from "./params.ts";
import { GRAMMARS, IGNORE, isoDay, UNREADABLE } from "../shared/values/mod.ts";
import { isoMs } from "../shared/values/timestamp.ts";

/** The Eastern date formatter, made on first use: making it loads the zone's data (13–24 ms). */
let formatter: Intl.DateTimeFormat | undefined;
const eastern = (ms: number) =>
  (formatter ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  })).format(ms);

const HOUR_MS = 3_600_000;
/** Eastern dates by UTC hour (bounded: cleared when full). */
const byHour = new Map<number, string>();
const MAX_HOURS = 100_000;
/** 1884-01-01: New York's clocks keep whole-hour offsets from UTC since November 1883 (tz database). */
const WHOLE_HOURS_SINCE = Date.UTC(1884, 0, 1);

/**
 * The US Eastern calendar date (`YYYY-MM-DD`) of a timestamp read by the
 * timestamp grammar (`shared/values/timestamp.ts`), or of a date as it is;
 * undefined for a value outside both.
 *
 * Formatting with `Intl` took 2.5 µs a row, a quarter of the loop thread's
 * time in a parallel search pull (`inRange` and `track` read every row's
 * day). Eastern Time's offsets have been whole hours since 1883 (EST, EDT and
 * the war-time EWT/EPT), so every instant of one UTC hour has the same
 * Eastern date: it is formatted once per hour and kept. Earlier instants
 * (local mean time) are formatted each time. The canonical form
 * (`…T…sssZ`, what both services send) is read by the grammar's hand-written
 * fast path (`isoMs`), which gives the grammar's answer without its regular
 * expression; any other form, or a canonical-looking text that path
 * refuses, goes to the full grammar.
 */
export function easternDate(iso: unknown): string | undefined {
  if (iso === null || iso === undefined) return undefined;
  let ms: number | typeof UNREADABLE = NaN;
  if (typeof iso === "string") {
    if (iso.length === 24 && iso.charCodeAt(23) === 90) ms = isoMs(iso);
    else if (!Number.isNaN(isoDay(iso))) return iso;
  }
  // the timestamp grammar: a zone-less time is UTC, never the machine's zone
  if (ms !== ms) ms = GRAMMARS.timestamp.read(iso, IGNORE);
  if (ms === UNREADABLE) return undefined;
  if (ms < WHOLE_HOURS_SINCE) return eastern(ms);
  const hour = Math.floor(ms / HOUR_MS);
  let day = byHour.get(hour);
  if (day === undefined) {
    day = eastern(ms);
    if (byHour.size >= MAX_HOURS) byHour.clear();
    byHour.set(hour, day);
  }
  return day;
}

/** `a/b`, or "" (no key: never taken for a duplicate) when either is missing. */
function pair(a: unknown, b: unknown): string {
  return a === undefined || a === null || a === "" || b === undefined || b === null || b === ""
    ? ""
    : `${a}/${b}`;
}

/** The key of a trade search row (camelCase): its filing and transaction ("" when either is missing). */
export function searchKey(row: unknown): string {
  const r = row as { accessionNumber?: unknown; transactionId?: unknown };
  return pair(r.accessionNumber, r.transactionId);
}

/** The key of a feed row: its filing and transaction ("" when either is missing). */
export function feedKey(row: FeedRow): string {
  return pair(row.accession_number, row.transaction_id);
}

/** Sends one search page with this filter. */
export type SearchSender<Row> = PageSender<InsiderFilter, Row>;

/** The windows of a trade search, or undefined when its sort is not by filing time. */
export function searchWindows<Row>(
  filter: InsiderFilter,
  pageSize: number | undefined,
  send: SearchSender<Row>,
): WindowSource<Row> | undefined {
  if ((filter.sortBy ?? "filedAt") !== "filedAt") return undefined;
  // "All time" bounds nothing: a window's range is a custom one; any other preset is refined
  const preset = filter.filingDatePreset ?? "All time";
  const windowed = (r: DayRange): InsiderFilter => ({
    ...filter,
    filingDatePreset: preset === "All time" ? "custom" : preset,
    filingDateFrom: r.from,
    filingDateTo: r.to,
  });
  return datedSource<Row>({
    pageSize: pageSize ?? SEARCH_PAGE_SIZE,
    order: filter.sortDirection ?? "desc",
    bounds: { from: filter.filingDateFrom ?? undefined, to: filter.filingDateTo ?? undefined },
    list: listId("POST /search", filter),
    day: (row) => easternDate((row as { filedAt?: unknown }).filedAt),
    key: searchKey,
  }, (r, cursor, signal, size) => send(r ? windowed(r) : filter, cursor, signal, size));
}

/** Sends one feeds page with these date bounds. */
export type FeedSender = PageSender<DayRange, FeedRow>;

/** The windows of a feeds list. */
export function feedWindows(
  own: DayRange,
  limit: number | undefined,
  send: FeedSender,
  list?: string,
): WindowSource<FeedRow> {
  return datedSource({
    pageSize: limit ?? FEED_PAGE_SIZE,
    // feeds list the newest filings first: known before any row, so a first page that holds one
    // day (a busy day fills a feed page) can be split at once instead of after a second page
    order: "desc",
    bounds: own,
    list,
    day: (row) => easternDate(row.filed_at),
    key: feedKey,
  }, (r, cursor, signal, size) => send(r ?? own, cursor, signal, size));
}
