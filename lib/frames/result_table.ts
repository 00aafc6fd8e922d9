/**
 * {@link ResultTable}: a table of formatted results (the stats of an event
 * study, portfolios side by side, trade-date vs filing-date entry) that
 * displays as an HTML table in a notebook and prints as aligned text in a
 * terminal (`String(t)`, `console.log(t)`, a template literal).
 *
 * Decisions:
 * - The HTML takes its colours from the notebook's theme (no fixed text or
 *   background colour), like a frame's display, so it reads in light and dark
 *   themes and in nbconvert's HTML; numbers are right-aligned in
 *   tabular figures.
 * - The text form fits where it is printed — 100 characters in a notebook
 *   (its output area fits that without wrapping), the terminal's width on a
 *   terminal, whole lines into a pipe or file: a wider table continues in a
 *   block below that repeats its first column(s), instead of lines that wrap
 *   and break the columns ({@link textWidth}).
 *
 * @module
 */
import { DEMO_BADGE_HTML, DEMO_LABEL, markDemo } from "../shared/demo.ts";
import { escapeHtml as esc } from "../shared/html.ts";
import { inJupyter } from "../shared/jupyter.ts";

const JUPYTER = Symbol.for("Jupyter.display");
const NODE_INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** Widest text form in a notebook, in characters, before the columns continue in a block below. */
export const TEXT_WIDTH = 100;

/**
 * How wide `toString()` may be where it is printed: {@link TEXT_WIDTH} in a
 * notebook, the terminal's width on a terminal, unlimited when the output
 * goes to a pipe or a file (whole lines for grep and logs).
 */
export function textWidth(): number {
  if (inJupyter()) return TEXT_WIDTH;
  try {
    if (Deno.stdout.isTerminal()) return Math.max(60, Deno.consoleSize().columns);
  } catch { /* no terminal */ }
  return Infinity;
}

/** What a {@link ResultTable} holds. */
export interface ResultTableInit {
  /** Column headers. */
  head: readonly string[];
  /** Rows of formatted cells (as many as `head`). */
  rows: readonly (readonly string[])[];
  /** A caption above the table (optional). */
  title?: string;
  /** A note under the table: units, what a mark means (optional). */
  note?: string;
  /** Columns from this index on are numbers, right-aligned (default 1). */
  numericFrom?: number;
  /** Leading columns repeated in each block of a wide text form (default 1). */
  keyColumns?: number;
  /**
   * The figures come from the offline emulator's demo data: the text and
   * HTML forms start with the "DEMO DATA" mark (the markdown form goes into
   * `report.md`, which says so once), and `isDemo(table)` is true (see
   * `shared/demo.ts`; default false).
   */
  demo?: boolean;
}

/**
 * A table of formatted results: HTML in a notebook, aligned text elsewhere.
 * `toString()` is the text form, `toMarkdown()` a markdown table, `toHtml()`
 * the notebook's HTML; `head` and `rows` hold the cells.
 *
 * @example
 * ```ts
 * import { ResultTable } from "./result_table.ts";
 * const t = new ResultTable({
 *   head: ["group", "n", "mean excess"],
 *   rows: [["CEO", "120", "3.10%"], ["Director", "300", "1.20%"]],
 *   note: "Excess over the market, percent.",
 * });
 * console.log(t); // aligned text; as a notebook cell's value: an HTML table
 * String(t).includes("Director"); // true
 * ```
 */
export class ResultTable {
  /** Column headers. */
  readonly head: readonly string[];
  /** Rows of formatted cells. */
  readonly rows: readonly (readonly string[])[];
  /** Caption above the table ("" without one). */
  readonly title: string;
  /** Note under the table ("" without one). */
  readonly note: string;
  readonly #numericFrom: number;
  readonly #keyColumns: number;
  readonly #demo: boolean;

  /** Creates a table; every row must have as many cells as `head`. */
  constructor(init: ResultTableInit) {
    for (const [i, r] of init.rows.entries()) {
      if (r.length !== init.head.length) {
        throw new RangeError(
          `ResultTable: row ${i} has ${r.length} cells, the head ${init.head.length}`,
        );
      }
    }
    this.head = init.head;
    this.rows = init.rows;
    this.title = init.title ?? "";
    this.note = init.note ?? "";
    this.#numericFrom = init.numericFrom ?? 1;
    this.#keyColumns = Math.max(1, init.keyColumns ?? 1);
    this.#demo = init.demo === true;
    if (this.#demo) markDemo(this);
  }

  /** The aligned text form, in blocks of at most `width` characters (default: {@link textWidth}). */
  toText(width: number = textWidth()): string {
    const all = [this.head, ...this.rows];
    const w = this.head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
    const keys = [...Array(Math.min(this.#keyColumns, w.length)).keys()];
    // characters the columns take, two spaces apart
    const span = (cols: number[]) => cols.reduce((s, i) => s + w[i] + 2, -2);
    // each block the key columns and as many more as fit (at least one)
    const blocks = [[...keys]];
    for (let i = keys.length; i < w.length; i++) {
      const block = blocks.at(-1)!;
      if (block.length > keys.length && span(block) + 2 + w[i] > width) blocks.push([...keys, i]);
      else block.push(i);
    }
    const cell = (r: readonly string[], i: number) =>
      i >= this.#numericFrom ? r[i].padStart(w[i]) : r[i].padEnd(w[i]);
    const text = blocks.map((cols) =>
      [
        cols.map((i) => cell(this.head, i)).join("  ").trimEnd(),
        cols.map((i) => "─".repeat(w[i])).join("  "),
        ...this.rows.map((r) => cols.map((i) => cell(r, i)).join("  ").trimEnd()),
      ].join("\n")
    ).join("\n\n");
    return [this.#demo ? DEMO_LABEL : "", wrap(this.title, width), text, wrap(this.note, width)]
      .filter(Boolean).join("\n");
  }

  /** A markdown table (pipes in cells escaped), with the title and note as paragraphs. */
  toMarkdown(): string {
    const table = [
      "| " + this.head.join(" | ") + " |",
      "|" + this.head.map((_, i) => (i >= this.#numericFrom ? "---:" : "---")).join("|") + "|",
      ...this.rows.map((r) => "| " + r.map((c) => c.replaceAll("|", "\\|")).join(" | ") + " |"),
    ].join("\n");
    // no demo line here: the markdown goes into report.md, which says "offline emulator" once
    return [this.title && `**${this.title}**`, table, this.note].filter(Boolean).join("\n\n");
  }

  /** The notebook HTML: a caption, the table (numbers right-aligned), the note. */
  toHtml(): string {
    const align = (i: number) => (i >= this.#numericFrom ? ' class="sb-num"' : "");
    const head = this.head.map((h, i) => `<th${align(i)}>${esc(h)}</th>`).join("");
    const body = this.rows.map((r) =>
      `<tr>${r.map((c, i) => `<td${align(i)}>${esc(c)}</td>`).join("")}</tr>`
    ).join("");
    return `<div class="sb-table">${TABLE_STYLE}` + (this.#demo ? DEMO_BADGE_HTML : "") +
      (this.title ? `<div class="sb-title">${esc(this.title)}</div>` : "") +
      `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>` +
      (this.note ? `<div class="sb-note">${esc(this.note)}</div>` : "") + `</div>`;
  }

  /** Notebook display: the HTML table and the text form. */
  [JUPYTER](): Record<string, string> {
    return { "text/html": this.toHtml(), "text/plain": this.toText(TEXT_WIDTH) };
  }

  /** `console.log` (Deno reads Node's inspect hook too) and `util.inspect` print the text form. */
  [NODE_INSPECT](): string {
    return this.toText();
  }

  /** The text form. */
  toString(): string {
    return this.toText();
  }
}

/**
 * Words of `text` on lines of at most `width` characters (a longer word
 * keeps its own line); unchanged when `width` is not finite.
 *
 * @example
 * ```ts
 * import { wrap } from "./result_table.ts";
 * wrap("one two three", 7); // "one two\nthree"
 * ```
 */
export function wrap(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  return text.split("\n").map((para) => {
    const lines: string[] = [];
    let line = "";
    for (const word of para.split(" ")) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    return [...lines, line].join("\n");
  }).join("\n");
}

/**
 * The style of every {@link ResultTable}'s HTML: no colours (the theme's
 * own), text left- and numbers right-aligned with tabular figures (selectors
 * more specific than JupyterLab's `:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td`,
 * which right-aligns every cell),
 * a muted note that wraps at a readable width.
 */
export const TABLE_STYLE =
  "<style>.sb-table.sb-table table tr td,.sb-table.sb-table table tr th{white-space:nowrap;text-align:left}" +
  ".sb-table.sb-table table tr .sb-num{text-align:right;font-variant-numeric:tabular-nums}" +
  ".sb-table .sb-title{font-weight:600;margin:2px 0 4px}" +
  ".sb-table .sb-note{opacity:.8;font-size:90%;max-width:60em;margin-top:4px}</style>";
