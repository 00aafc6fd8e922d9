/**
 * Entry at the trade date against entry at the filing date, on the same
 * trades: {@link entryComparison} pairs each trade of a study with itself
 * (`event_study.ts`'s `entryPairs`) and shows the cost of waiting with the
 * interval of the difference.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { studyInput } from "./_inputs.ts";
import { isDemo } from "../shared/demo.ts";
import { ResultTable } from "../frames/result_table.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import { buildFrame } from "../frames/build.ts";
import { entryPairs } from "./event_study.ts";
import { type Columns, columnSpecs, fmt, pct, signed, tabulate } from "./_format.ts";

type Row = Record<string, unknown>;

/**
 * The entry comparison of {@link entryComparison}: a table, and the figures
 * behind it as a frame (`frame`: `group`, `horizon`, `n_paired`,
 * `mean_trade`, `mean_filing`, `diff`, `diff_low`, `diff_high`,
 * `thin_reason`), one row per group and horizon.
 */
export type EntryComparison = ResultTable & { readonly frame: Frame };

/**
 * Entry at the trade date against entry at the filing date, over the same
 * trades: for each group and horizon of an event study, the trades with a
 * value at both entries (`n_paired`; a trade filed on or after the
 * horizon's end, or lacking a value at one entry, is left out), their mean
 * excess return from each entry, the difference (`diff`, filing minus
 * trade, percentage points) and its 95 % interval (`diff_low`, `diff_high`:
 * the interval of the trades' own differences, clustered as the study is,
 * thin under the study's minimums). Give it the frame `eventStudy` or
 * `headlineStudy` returned (it re-reads that study's trades, which need
 * `filing_delay_days` and the returns up to each horizon). A
 * {@link ResultTable} (HTML in a notebook, aligned text in a terminal) whose
 * `frame` holds the figures; `format: "markdown"` gives a markdown string.
 *
 * @example
 * ```ts
 * import { connect, entryComparison, headlineStudy } from "../../mod.ts";
 * const { insider } = await connect();
 * const trades = await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 });
 * const comparison = entryComparison(headlineStudy(trades, ["1m", "3m"]));
 * console.log(comparison); // the table
 * comparison.frame.columns; // group, horizon, n_paired, mean_trade, mean_filing, diff, diff_low, …
 * ```
 */
export function entryComparison(study: pl.DataFrame): EntryComparison;
/** The comparison as a markdown table. */
export function entryComparison(study: pl.DataFrame, format: "markdown"): string;
/** The comparison as a table (`"text"`, the default) or as markdown. */
export function entryComparison(
  study: pl.DataFrame,
  format?: "text" | "markdown",
): EntryComparison | string;
export function entryComparison(
  study: pl.DataFrame,
  format: "text" | "markdown" = "text",
): EntryComparison | string {
  studyInput("entryComparison", study);
  const { diff, trade } = entryPairs(study);
  const figures = diff.map((r, i) => {
    const a = trade[i].mean_excess as number | null;
    const d = r.mean_excess as number | null;
    return {
      group: r.group,
      horizon: r.horizon,
      n_paired: r.n,
      mean_trade: a,
      mean_filing: a !== null && d !== null ? a + d : null,
      diff: d,
      diff_low: r.ci_low,
      diff_high: r.ci_high,
      thin_reason: r.thin_reason,
    };
  });
  const table = Object.assign(
    new ResultTable({
      ...tabulate(ENTRY_TABLE, figures),
      numericFrom: 2,
      keyColumns: 2,
      demo: isDemo(study),
      note: ENTRY_NOTE,
    }),
    { frame: asFrame(buildFrame(ENTRY_COLUMNS, figures), false, isDemo(study)) },
  );
  return format === "markdown" ? table.toMarkdown() : table;
}

/** The table's columns: each header and how a row of figures reads. */
const ENTRY_TABLE: Columns<Row> = [
  ["group", (f) => String(f.group)],
  ["horizon", (f) => String(f.horizon)],
  ["n paired", (f) => fmt(f.n_paired)],
  ["mean excess, trade date", (f) => pct(f.mean_trade)],
  ["mean excess, filing date", (f) => pct(f.mean_filing)],
  ["filing − trade (pp)", (f) => f.diff === null ? "–" : signed(f.diff as number)],
  [
    "95% CI of filing − trade",
    (f) => f.thin_reason ? `thin: ${f.thin_reason}` : `[${fmt(f.diff_low)}, ${fmt(f.diff_high)}]`,
  ],
];

const ENTRY_NOTE =
  "The same trades from both entries (n paired: realized at both; a trade filed on or after the horizon's end is left out). Filing-date returns are approximated from the 1-week point. The interval is that of the trades' own differences, clustered as the study is.";

const ENTRY_COLUMNS = columnSpecs(
  "group:code horizon n_paired:integer mean_trade:decimal mean_filing diff diff_low diff_high " +
    "thin_reason:code",
);
