/**
 * The "demo data" mark: whatever signalbook builds from the offline
 * emulator's answers says so where the user looks, even under
 * `connect({ quiet: true })` (which silences the one-time notice, never the
 * fact).
 *
 * - Who can mark data as demo: only the in-process emulator (its `fetch`
 *   is tagged with {@link markDemo}) and a `deno task stub` on this machine.
 *   The emulator sends the header {@link DEMO_HEADER} on every answer, and
 *   a client honours it only when its base URL is a loopback host
 *   ({@link isLoopbackUrl}): a live host sending the header gets no mark
 *   (anyone can send a header; only this machine's own stub is believed).
 *   A client that reads such an answer marks what it returns: pages,
 *   `take()` arrays, frames.
 * - On disk: a dataset records the source of its rows (`lib/store/`), and
 *   everything read back from a dataset holding emulator rows (`scan*`,
 *   `query()`, and what is built from them) carries the same mark; demo
 *   and live rows never share a dataset.
 * - Frames carry the mark on their Polars data (`frames/_demo_trace.ts`):
 *   `filter`, `select`, `join`, `groupBy(…).agg(…)` of a demo frame are demo
 *   frames, and their display starts with a "DEMO DATA" badge ({@link DEMO_LABEL}).
 * - What a demo frame's methods hand out carries it too: `toRecords()`,
 *   `rows()`, `toObject()`. Results built from a demo frame (event studies,
 *   portfolios, buckets), the charts drawn from them (and the files
 *   `saveChart` writes) and `report.md` say "offline emulator" too. A
 *   result record (a plain object such as `portfolioBacktest`'s or
 *   `authorWinRates`'s) is demo data when a frame or list it holds is:
 *   {@link isDemo} looks into it, so no builder has to mark it by hand.
 *
 * The mark is a non-enumerable symbol property: it never changes a frame's
 * columns, `JSON.stringify`, equality or what is written to parquet.
 *
 * @module
 */
import { escapeHtml } from "./html.ts";

/** The symbol behind the mark (`Symbol.for`, so two copies of the module agree). */
export const DEMO: unique symbol = Symbol.for("signalbook.demo") as never;

/** Header the emulator sends on every answer. */
export const DEMO_HEADER = "x-signalbook-demo";

/** The words every demo mark uses. */
export const DEMO_LABEL = "DEMO DATA · offline emulator, not the live service";

/** The marks' colour: amber, legible with white text on it and as text on a white chart card. */
export const DEMO_COLOR = "#b45309";

/**
 * The badge HTML displays open with (frames, result tables): white on
 * amber, legible on light and dark pages and in print.
 */
export const DEMO_BADGE_HTML =
  `<div style="display:inline-block;background:${DEMO_COLOR};color:#fff;font-weight:600;` +
  `padding:1px 6px;border-radius:3px;margin-bottom:2px">${escapeHtml(DEMO_LABEL)}</div>`;

/**
 * Whether `x` carries the demo mark, or is a result record built from
 * something that does: a plain object of at most 32 fields (a portfolio's
 * result, an author win-rate study, buckets) any of whose values, two
 * levels deep at most, carries it (its `monthly` or `frame`). A result built from demo
 * data is demo data, whichever builder made it.
 *
 * Where the mark follows: a frame signalbook hands out (a client's
 * `.frame()`, `scan*`, `query()`) keeps it through its methods, and mixing
 * demo data into any frame, whoever made it, is demo data —
 * `plain.vstack(demo)`, `plain.join(demo, …)`, `plain.hstack(demoColumns)`,
 * `pl.concat([plain, demo])` (lazy too), `pl.DataFrame(demo.toRecords())`
 * (the mark is on Polars' native data, `frames/_demo_trace.ts`) — so
 * `writeDataset` refuses it into a live dataset. Where it cannot follow (a
 * mark is a property of an object, never of the rows): bytes, text and
 * files Polars writes, and values copied out (numbers, strings, rows
 * rebuilt by hand); docs/datasets.md, "Where the demo mark cannot follow".
 *
 * @example
 * ```ts
 * import { isDemo, markDemo } from "./demo.ts";
 * isDemo(markDemo([1, 2])); // true
 * isDemo([1, 2]); // false
 * isDemo({ frame: markDemo([1]), requests: 3 }); // true: a result built from demo data
 * ```
 */
export function isDemo(x: unknown): boolean {
  return demoWithin(x, RESULT_DEPTH);
}

/** How deep {@link isDemo} looks into plain result objects. */
const RESULT_DEPTH = 2;
/** Most fields of a plain object {@link isDemo} looks into (result records have a dozen). */
const RESULT_FIELDS = 32;

/**
 * Whether `x` itself carries the demo mark (what {@link markDemo} set),
 * without looking into it: the check for one row among thousands.
 *
 * @example
 * ```ts
 * import { carriesDemoMark, markDemo } from "./demo.ts";
 * carriesDemoMark(markDemo({ a: 1 })); // true
 * carriesDemoMark({ frame: markDemo([1]) }); // false (isDemo says true)
 * ```
 */
export function carriesDemoMark(x: unknown): boolean {
  if ((typeof x !== "object" && typeof x !== "function") || x === null) return false;
  try {
    if ((x as { [DEMO]?: unknown })[DEMO] === true) return true;
  } catch {
    // a Proxy that refuses unknown keys (nodejs-polars frames): its data is looked at below
  }
  const data = nativeOf(x);
  return data !== undefined && carriesDemoMark(data);
}

/**
 * The native object holding a nodejs-polars frame's, lazy frame's or
 * series' data (`_df`, `_ldf`, `_s`), which carries the mark of frames
 * derived from it by any Polars call (`frames/_demo_trace.ts`); undefined
 * for anything else.
 */
function nativeOf(x: object): object | undefined {
  try {
    const o = x as { _df?: unknown; _ldf?: unknown; _s?: unknown };
    const data = o._df ?? o._ldf ?? o._s;
    return typeof data === "object" && data !== null && data !== x ? data : undefined;
  } catch {
    return undefined;
  }
}

function demoWithin(x: unknown, depth: number): boolean {
  if (carriesDemoMark(x)) return true;
  if (depth === 0 || typeof x !== "object" || x === null || Array.isArray(x)) return false;
  try {
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) return false;
    // a record of a few fields (a row of a service's 174 is data, not a result: not looked into)
    let fields = 0;
    for (const k in x) {
      if (++fields > RESULT_FIELDS) return false;
      const v = (x as Record<string, unknown>)[k];
      if (typeof v === "object" && v !== null && demoWithin(v, depth - 1)) return true;
    }
    return false;
  } catch {
    return false; // a Proxy that refuses unknown keys (nodejs-polars frames)
  }
}

/**
 * Marks an object (an array, a page, a function) as demo data and returns it.
 *
 * @example
 * ```ts
 * import { isDemo, markDemo } from "./demo.ts";
 * const rows = markDemo([{ a: 1 }]);
 * console.log(isDemo(rows), JSON.stringify(rows)); // true [{"a":1}]
 * ```
 */
export function markDemo<T extends object>(x: T): T {
  // a frame's own data too: what Polars derives from it is demo data (`frames/_demo_trace.ts`)
  for (const o of [x, nativeOf(x)]) {
    try {
      if (o) Object.defineProperty(o, DEMO, { value: true, enumerable: false, configurable: true });
    } catch {
      // frozen or exotic: left unmarked (frames are marked through their display instead)
    }
  }
  return x;
}

/**
 * Whether `url` names this machine: `localhost` (and `*.localhost`),
 * `127.0.0.0/8` or `[::1]`. Only answers from such a host may mark data as
 * demo by the emulator's header (a `deno task stub` on this machine).
 *
 * @example
 * ```ts
 * import { isLoopbackUrl } from "./demo.ts";
 * isLoopbackUrl("http://127.0.0.1:8787/insider"); // true
 * isLoopbackUrl("https://api.example.com/insider"); // false
 * ```
 */
export function isLoopbackUrl(url: string | URL): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(host);
}
