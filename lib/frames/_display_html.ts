/**
 * The compact renderings behind signalbook's notebook display: a frame as
 * shape, dtypes, head and tail rows (ISO dates and timestamps, compact lists,
 * visible nulls), with the middle columns of a wide frame elided as Polars'
 * own repr does; a LazyFrame as its columns and plan, never collected.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { dtypeName } from "./dtypes.ts";
import { escapeHtml as esc } from "../shared/html.ts";
import { DEMO_BADGE_HTML, DEMO_LABEL } from "../shared/demo.ts";

/** Media bundle a Jupyter front end renders (MIME type → content). */
export type MediaBundle = Record<string, string>;

/** How much of a frame the display shows. */
export interface DisplayOptions {
  /** Rows from the top (default 10). */
  head?: number;
  /** Rows from the bottom (default 5). */
  tail?: number;
  /** Most columns shown; wider frames show the first and last ones around `…` (default 12; a result view shows all its key columns). */
  maxColumns?: number;
  /** Longest text shown in a cell before `…` (default 40 characters). */
  maxChars?: number;
  /**
   * Every column in frame order with numbers unrounded, even for a result
   * frame (an event study, a portfolio's months) whose default view shows
   * its key columns first with 2 decimals (default false).
   */
  all?: boolean;
  /** Start with the "DEMO DATA" badge: the rows are the offline emulator's (default false). */
  demo?: boolean;
}

/**
 * How a result frame displays by default: its key columns first (those it
 * has, in this order), numbers to 2 decimals. A frame is recognised by the
 * columns in `when`. Key columns that are null in every row (the baseline
 * difference when no baseline was asked for) are left out of the key view.
 */
const RESULT_VIEWS = [
  {
    name: "event study",
    when: ["group", "horizon", "n", "mean_excess", "ci_low", "ci_high"],
    key: [
      "group",
      "horizon",
      "n",
      "n_clusters",
      "mean_excess",
      "median_excess",
      "ci_low",
      "ci_high",
      "diff_vs_baseline",
      "diff_ci_low",
      "diff_ci_high",
      "thin",
      "thin_reason",
    ],
  },
  {
    name: "portfolio months",
    when: ["month", "n_positions", "return", "excess_return", "equity", "drawdown"],
    key: [
      "month",
      "n_positions",
      "return",
      "market_return",
      "excess_return",
      "equity",
      "drawdown",
      "turnover",
    ],
  },
];

/** The result view a frame's columns match, if any. */
function resultView(columns: readonly string[]) {
  return RESULT_VIEWS.find((v) => v.when.every((c) => columns.includes(c)));
}

const STYLE = "<style>.sb-null{opacity:.45;font-style:italic}" +
  ".sb-frame td,.sb-frame th{white-space:nowrap;text-align:left}</style>";

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * One cell as text: ISO dates and timestamps, compact lists, `null` for
 * nulls; non-integer numbers to 6 decimals, or to `decimals` when given.
 */
export function formatCell(v: unknown, dtype: string, maxChars = 40, decimals?: number): string {
  if (v === null || v === undefined) return "null";
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return "null";
    const iso = v.toISOString();
    return dtype === "Date" ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
  }
  if (Array.isArray(v)) {
    const shown = v.slice(0, 4).map((x) => formatCell(x, "", 16));
    return clip(`[${shown.join(", ")}${v.length > 4 ? `, … +${v.length - 4}` : ""}]`, maxChars);
  }
  if (typeof v === "number") {
    if (decimals !== undefined && dtype.startsWith("Float") && Number.isFinite(v)) {
      return v.toFixed(decimals);
    }
    return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  }
  if (typeof v === "bigint") return String(v);
  if (typeof v === "object") return clip(JSON.stringify(v), maxChars);
  return clip(String(v), maxChars);
}

/** Column positions shown, with -1 where the elided middle goes. */
function pickColumns(width: number, max: number): number[] {
  if (width <= max) return [...Array(width).keys()];
  const left = Math.ceil((max - 1) / 2) + 1;
  const right = Math.max(1, max - left);
  return [
    ...Array(left).keys(),
    -1,
    ...Array.from({ length: right }, (_, i) => width - right + i),
  ];
}

function textTable(header: string[], dtypes: string[], rows: string[][]): string {
  const all = [header, dtypes, ...rows];
  const widths = header.map((_, j) => Math.max(...all.map((r) => r[j].length)));
  const line = (r: string[]) => r.map((c, j) => c.padEnd(widths[j])).join("  ").trimEnd();
  return [line(header), line(dtypes), ...rows.map(line)].join("\n");
}

/**
 * A table to render: the shown part of {@link shownTable} (shape, the shown
 * header and dtypes, and rows: `null` marks the elided middle), and the width.
 */
type Table = ReturnType<typeof shownTable> & {
  width: number;
  /** Extra words for the header line (a result view, a truncated pull). */
  notes?: string[];
  /** The rows are the offline emulator's: a badge before everything else. */
  demo?: boolean;
};

function renderTable(t: Table): MediaBundle {
  const shape = `shape: (${t.height.toLocaleString("en-US")}, ${t.width.toLocaleString("en-US")})`;
  const rowsShown = t.rows.filter((r) => r !== null).length;
  const note = [
    rowsShown < t.height
      ? `${(t.height - rowsShown).toLocaleString("en-US")} rows not shown (…)`
      : "",
    t.elided > 0 ? `${t.elided} columns not shown (…)` : "",
    ...(t.notes ?? []),
  ].filter(Boolean).map((n) => ` · ${n}`).join("");
  // the text form keeps "shape: …" first; the demo mark ends that line
  const textNote = t.demo ? `${note} · ${DEMO_LABEL}` : note;
  const td = (v: string) => (v === "null" ? `<td class="sb-null">null</td>` : `<td>${esc(v)}</td>`);
  const body = t.rows.map((r) =>
    r === null
      ? `<tr>${t.header.map(() => "<td>…</td>").join("")}</tr>`
      : `<tr>${r.map(td).join("")}</tr>`
  ).join("");
  const badge = t.demo ? `${DEMO_BADGE_HTML}<br>` : "";
  const html = `<div class="sb-frame">${STYLE}${badge}<small>${esc(shape + note)}</small>` +
    `<table><thead><tr>${t.header.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>` +
    `<tr>${t.dtypes.map((d) => `<td><i>${esc(d)}</i></td>`).join("")}</tr></thead>` +
    `<tbody>${body}</tbody></table></div>`;
  const text = `${shape}${textNote}\n` +
    textTable(t.header, t.dtypes, t.rows.map((r) => r ?? t.header.map(() => "…")));
  return { "text/html": html, "text/plain": text };
}

/**
 * The shown part of a table of `height` rows and the columns `names` (of
 * `types`): at most `maxColumns` columns around `…`, the head and tail rows
 * around a `…` row, each shown row's cells (of the shown columns, by
 * index) from `cells(shown, from, to)` for rows `[from, to)`.
 */
function shownTable(
  names: readonly string[],
  types: readonly string[],
  height: number,
  opts: DisplayOptions,
  maxColumns: number,
  cells: (shown: number[], from: number, to: number) => string[][],
) {
  const cols = pickColumns(names.length, Math.max(2, maxColumns));
  const shown = cols.filter((j) => j >= 0);
  const [head, tail] = [opts.head ?? 10, opts.tail ?? 5];
  const blocks = height <= head + tail ? [[0, height]] : [[0, head], [height - tail, height]];
  const rows = blocks.flatMap(([from, to], p) => [
    ...(p > 0 ? [null] : []),
    ...cells(shown, from, to).map((r) => {
      let k = 0;
      return cols.map((j) => (j < 0 ? "…" : r[k++]));
    }),
  ]);
  return {
    height,
    header: cols.map((j) => (j < 0 ? "…" : names[j])),
    dtypes: cols.map((j) => (j < 0 ? "…" : types[j])),
    rows,
    elided: names.length - shown.length,
  };
}

/**
 * HTML and plain-text renderings of a frame with its shape and dtypes. The
 * header line says how many rows and columns are not shown. A result frame
 * (an `eventStudy`, a `portfolioBacktest`'s `monthly`) shows its key columns
 * first with 2 decimals, and says so; `{ all: true }` shows it as any frame.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { frameBundle } from "./_display_html.ts";
 * const bundle = frameBundle(pl.DataFrame({ a: [1, 2], b: ["x", null] }));
 * console.log(bundle["text/plain"]); // shape: (2, 2), then the dtypes and rows
 * ```
 */
export function frameBundle(
  df: pl.DataFrame,
  opts: DisplayOptions = {},
  notes: string[] = [],
): MediaBundle {
  const maxChars = opts.maxChars ?? 40;
  const [height, width] = [df.height, df.width];
  const allTypes = df.dtypes.map((d) => dtypeName(d));
  const view = opts.all ? undefined : resultView(df.columns);
  let order = [...df.columns.keys()];
  let decimals: number | undefined;
  const more: string[] = [];
  if (view) {
    const nullCounts = df.nullCount().row(0) as number[];
    const key = view.key.map((c) => df.columns.indexOf(c))
      .filter((j) => j >= 0 && (nullCounts[j] < height || height === 0));
    order = key;
    decimals = 2;
    const rest = df.columns.length - key.length;
    more.push(
      `${view.name}: key columns, 2 decimals${
        rest > 0 ? `; ${rest} more in show(df, { all: true })` : ""
      }`,
    );
  }
  const names = order.map((j) => df.columns[j]);
  const types = order.map((j) => allTypes[j]);
  const cells = (shown: number[], from: number, to: number) => {
    const series = df.select(...shown.map((j) => names[j])).slice(from, to - from).getColumns();
    return Array.from(
      { length: to - from },
      (_, i) =>
        series.map((c, k) => formatCell(c.getIndex(i), types[shown[k]], maxChars, decimals)),
    );
  };
  // a result view shows all its key columns unless told otherwise
  const max = opts.maxColumns ?? (view ? Infinity : 12);
  const table = shownTable(names, types, height, opts, max, cells);
  return renderTable({ ...table, width, notes: [...more, ...notes], demo: opts.demo === true });
}

/**
 * HTML and plain-text renderings of an array of records (rows as objects),
 * like {@link frameBundle}; the dtype row shows each column's JavaScript kind.
 *
 * @example
 * ```ts
 * import { recordsBundle } from "./_display_html.ts";
 * recordsBundle([{ a: 1, b: new Date(0) }, { a: 2, b: null }])["text/plain"];
 * ```
 */
export function recordsBundle(
  records: readonly Record<string, unknown>[],
  opts: DisplayOptions = {},
): MediaBundle {
  const maxChars = opts.maxChars ?? 40;
  const names = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const kind = (v: unknown) =>
    v === null || v === undefined
      ? ""
      : v instanceof Date
      ? "Datetime"
      : Array.isArray(v)
      ? "List"
      : typeof v;
  const allTypes = names.map((n) => {
    const kinds = [...new Set(records.map((r) => kind(r[n])).filter(Boolean))];
    return kinds.length === 1 ? kinds[0] : kinds.length ? "mixed" : "null";
  });
  const cells = (shown: number[], from: number, to: number) =>
    records.slice(from, to).map((r) =>
      shown.map((j) => formatCell(r[names[j]], allTypes[j], maxChars))
    );
  const table = shownTable(names, allTypes, records.length, opts, opts.maxColumns ?? 12, cells);
  return renderTable({ ...table, width: names.length, demo: opts.demo === true });
}

/**
 * HTML and plain-text renderings of a LazyFrame: its columns and its query
 * plan. Nothing is collected.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { lazyBundle } from "./_display_html.ts";
 * const lazy = pl.DataFrame({ a: [1, 2] }).lazy().filter(pl.col("a").gt(1));
 * console.log(lazyBundle(lazy)["text/plain"]); // LazyFrame, 1 column: a; then the plan
 * ```
 */
export function lazyBundle(lf: pl.LazyDataFrame, opts: { demo?: boolean } = {}): MediaBundle {
  let columns: string[];
  try {
    columns = lf.columns; // resolves the schema (a scan reads file metadata), never the data
  } catch (e) {
    columns = [`(schema unavailable: ${e instanceof Error ? e.message : String(e)})`];
  }
  const plan = lf.describePlan();
  const head = `LazyFrame (not collected), ${columns.length} column${
    columns.length === 1 ? "" : "s"
  }: ${clip(columns.join(", "), 2000)}`;
  // demo data says so, as a frame's display does
  const badge = opts.demo ? `${DEMO_BADGE_HTML}<br>` : "";
  return {
    "text/html": `<div class="sb-lazy">${badge}<small>${esc(head)}</small><pre>${
      esc(clip(plan, 20000))
    }</pre></div>`,
    "text/plain": `${head}${opts.demo ? ` · ${DEMO_LABEL}` : ""}\n${plan}`,
  };
}
