/**
 * Notebook display of DataFrames: shape, dtypes, and head and tail rows
 * (nodejs-polars's own notebook display shows neither shape nor dtypes).
 * Frames returned by signalbook carry it; {@link show} gives it to any frame.
 * Under `deno run`, `console.log(df)` prints the Polars table as usual.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { dtypeName } from "./dtypes.ts";
import { escapeHtml as esc } from "../shared/html.ts";

const JUPYTER = Symbol.for("Jupyter.display");

/** Media bundle a Jupyter front end renders. */
export type MediaBundle = Record<string, string>;

function cell(v: unknown, dtype: string): string {
  if (v === null || v === undefined) return "null";
  if (v instanceof Date) {
    return dtype === "Date" ? v.toISOString().slice(0, 10) : v.toISOString().replace(".000Z", "Z");
  }
  if (Array.isArray(v)) return JSON.stringify(v);
  if (typeof v === "number") {
    return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  }
  return String(v);
}

/** HTML and plain-text renderings of a frame with its shape and dtypes. */
export function frameBundle(df: pl.DataFrame, head = 10, tail = 5): MediaBundle {
  const [rows, cols] = [df.height, df.width];
  const columns = df.getColumns();
  const dtypes = columns.map((c) => dtypeName(c.dtype));
  const pick = rows <= head + tail
    ? [...Array(rows).keys()]
    : [...Array(head).keys(), -1, ...Array.from({ length: tail }, (_, i) => rows - tail + i)];
  const body = pick.map((i) =>
    i < 0 ? `<tr>${columns.map(() => "<td>…</td>").join("")}</tr>` : `<tr>${
      columns.map((c, j) => {
        const v = cell(c.getIndex(i), dtypes[j]);
        return `<td${v === "null" ? ' style="opacity:.5"' : ""}>${esc(v)}</td>`;
      }).join("")
    }</tr>`
  ).join("");
  const html =
    `<div class="signalbook-frame"><small>shape: (${
      rows.toLocaleString("en-US")
    }, ${cols})</small>` +
    `<table><thead><tr>${columns.map((c) => `<th>${esc(c.name)}</th>`).join("")}</tr>` +
    `<tr>${
      dtypes.map((d) => `<td><i>${esc(d)}</i></td>`).join("")
    }</tr></thead><tbody>${body}</tbody></table></div>`;
  return { "text/html": html, "text/plain": df.toString() };
}

/**
 * Gives a frame the signalbook notebook display (in place) and returns it.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { withDisplay } from "./display.ts";
 * const df = withDisplay(pl.DataFrame({ a: [1, 2] }));
 * df; // in a notebook: shape (2, 1), dtype f64, the rows
 * ```
 */
export function withDisplay<T extends pl.DataFrame>(df: T): T {
  (df as unknown as Record<symbol, unknown>)[JUPYTER] = () => frameBundle(df);
  return df;
}

/** Something a notebook cell renders through `Symbol.for("Jupyter.display")`. */
export interface Displayable {
  /** Plain-text form. */
  toString(): string;
}

/**
 * A displayable view of any frame: return it from a notebook cell to see the
 * shape, dtypes, and the first `head` and last `tail` rows.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { show } from "./display.ts";
 * show(pl.DataFrame({ a: [1, 2, 3] }), { head: 2, tail: 1 });
 * ```
 */
export function show(
  df: pl.DataFrame,
  opts: { head?: number; tail?: number } = {},
): Displayable {
  const view: Displayable & Record<symbol, unknown> = { toString: () => df.toString() };
  view[JUPYTER] = () => frameBundle(df, opts.head ?? 10, opts.tail ?? 5);
  return view;
}
