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
 * - Frames carry the mark through the notebook display's Proxy: `filter`,
 *   `select`, `join`, `groupBy(…).agg(…)` of a demo frame are demo frames,
 *   and their display starts with a "DEMO DATA" badge ({@link DEMO_LABEL}).
 * - What a demo frame's methods hand out carries it too: `toRecords()`,
 *   `rows()`, `toObject()`. Results built from a demo frame (event studies,
 *   portfolios, buckets), the charts drawn from them (and the files
 *   `saveChart` writes) and `report.md` say "offline emulator" too.
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
 * Whether `x` carries the demo mark.
 *
 * @example
 * ```ts
 * import { isDemo, markDemo } from "./demo.ts";
 * isDemo(markDemo([1, 2])); // true
 * isDemo([1, 2]); // false
 * ```
 */
export function isDemo(x: unknown): boolean {
  if ((typeof x !== "object" && typeof x !== "function") || x === null) return false;
  try {
    return (x as { [DEMO]?: unknown })[DEMO] === true;
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
  try {
    Object.defineProperty(x, DEMO, { value: true, enumerable: false, configurable: true });
  } catch {
    // frozen or exotic: left unmarked (frames are marked through their display instead)
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
