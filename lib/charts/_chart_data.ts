/**
 * Input checks and row extraction shared by the chart helpers: a helper
 * given an empty frame, or one missing a column it needs, throws an error
 * naming the helper and the column.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { requireColumns } from "../frames/columns.ts";
import { noteDemoData, SIDE_COLORS } from "./chart.ts";
import { notice } from "../shared/notice.ts";
import { sideLabels, sideNote, sideOf, type Sides } from "../families/side.ts";

function isFrame(x: unknown): x is pl.DataFrame {
  return typeof x === "object" && x !== null &&
    (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "DataFrame";
}

/** Fields of an object whose values are DataFrames. */
function frameFields(x: object): string[] {
  return Object.keys(x).filter((k) => isFrame((x as Record<string, unknown>)[k]));
}

/**
 * Checks that a chart helper got a DataFrame. The usual slip — a result
 * object passed where its frame is expected (`equityCurveChart(result)` for
 * `result.monthly`, `bucketChart(buckets)` for `buckets.frame`,
 * `tradeTimeline(hydrated)` for `hydrated.frame`) — gets an error naming the
 * field to pass, instead of a TypeError from deep inside the chart.
 *
 * @example
 * ```ts
 * import { connect, portfolioBacktest } from "../../mod.ts";
 * import { expectFrame } from "./_chart_data.ts";
 * const { insider } = await connect();
 * const result = portfolioBacktest(await insider.search({}).frame({ maxRows: 500 }), { horizon: "1m" });
 * try {
 *   expectFrame("equityCurveChart", result, "data", "monthly");
 * } catch (e) {
 *   console.log((e as Error).message); // …pass its monthly frame: equityCurveChart(result.monthly)
 * }
 * ```
 */
export function expectFrame(
  fn: string,
  value: unknown,
  param = "data",
  field?: string,
): pl.DataFrame {
  if (isFrame(value)) return value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const fields = frameFields(value);
    const portfolio = fields.includes("monthly") && "stats" in value;
    if (portfolio && field === "monthly") {
      throw new TypeError(
        `${fn}: got a portfolioBacktest result ({ monthly, stats }); pass its monthly frame: ${fn}(result.monthly)`,
      );
    }
    if (portfolio) {
      throw new TypeError(
        `${fn}: ${param} must be a DataFrame, got a portfolioBacktest result ({ monthly, stats }); ${fn} draws trades or study rows, while equityCurveChart(result.monthly) and drawdownChart(result.monthly) draw a portfolio`,
      );
    }
    if (fields.length) {
      const f = field && fields.includes(field)
        ? field
        : fields.includes("frame")
        ? "frame"
        : fields[0];
      throw new TypeError(
        `${fn}: ${param} must be a DataFrame, got an object whose ${
          fields.map((k) => JSON.stringify(k)).join(", ")
        } ${
          fields.length === 1 ? "field is a DataFrame" : "fields are DataFrames"
        }; pass it: ${fn}(${param}.${f})`,
      );
    }
  }
  const got = value === null || value === undefined
    ? String(value)
    : Array.isArray(value)
    ? `an array of ${value.length}`
    : typeof value === "object"
    ? `an object with keys ${Object.keys(value).slice(0, 6).join(", ") || "(none)"}`
    : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
  throw new TypeError(`${fn}: ${param} must be a DataFrame, got ${got}`);
}

/**
 * Rows of the needed columns (plus optional ones when present), after
 * checks. A demo frame (the offline emulator's) makes the chart drawn from
 * these rows say so ({@link noteDemoData}).
 */
export function rowsOf(
  fn: string,
  df: pl.DataFrame,
  needed: readonly string[],
  optional: readonly string[] = [],
  param = "data",
): Record<string, unknown>[] {
  expectFrame(fn, df, param);
  requireColumns(fn, df, needed);
  noteDemoData(df);
  if (df.height === 0) throw new Error(`${fn}: the frame is empty (0 rows); nothing to draw`);
  const cols = [
    ...needed,
    ...optional.filter((c) => df.columns.includes(c) && !needed.includes(c)),
  ];
  return df.select(...cols).toRecords() as Record<string, unknown>[];
}

/** Mean and 95 % interval (normal approximation) of finite values. */
export function meanCi(values: number[]): { n: number; mean: number; lo: number; hi: number } {
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  const mean = n ? xs.reduce((a, b) => a + b, 0) / n : NaN;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : NaN;
  const half = n > 1 ? 1.96 * sd / Math.sqrt(n) : NaN;
  return { n, mean, lo: mean - half, hi: mean + half };
}

/**
 * Rows with a `side` label under `sides` (see lib/families/side.ts: by
 * default "Buy" is code `P`, "Sell" code `S`), rows of neither side left out
 * and counted; the colour scale of the two labels; and the subtitle: the
 * chart's own line, then what the sides are and how many trades were left
 * out. A caller's own subtitle is kept as given, and the count is then said
 * in a notice, so it is never dropped unsaid. `count` turns the rows left
 * out into a number of trades (default: one row per trade).
 */
export function sided<T extends Record<string, unknown>>(
  fn: string,
  rows: T[],
  sides: Sides,
  base: string,
  subtitle: string | undefined,
  count: (leftOut: T[]) => number = (l) => l.length,
): {
  rows: (T & { side: string })[];
  leftOut: number;
  color: { domain: string[]; range: string[]; label: string; legend: true };
  subtitle: string;
} {
  const labels = sideLabels(sides);
  const out: (T & { side: string })[] = [];
  const none: T[] = [];
  for (const r of rows) {
    const s = sideOf(r, sides);
    if (s !== 0) out.push({ ...r, side: labels[s === 1 ? 0 : 1] });
    else none.push(r);
  }
  const leftOut = count(none);
  if (out.length === 0 && none.length > 0) {
    throw new Error(
      `${fn}: none of the ${leftOut} trades is a ${labels[0].toLowerCase()} or a ${
        labels[1].toLowerCase()
      } (${sideNote(sides, 0)})${
        sides === "tradeClass" ? '; sides: "acquiredDisposed" draws them by their A/D code' : ""
      }`,
    );
  }
  if (subtitle !== undefined && leftOut > 0) notice(`${fn}: ${sideNote(sides, leftOut)}.`);
  return {
    rows: out,
    leftOut,
    color: {
      domain: [...labels],
      range: [...SIDE_COLORS.range],
      label: sides === "acquiredDisposed" ? "A/D code" : "Side",
      legend: true,
    },
    subtitle: subtitle ?? `${base}\n${sideNote(sides, leftOut)}`,
  };
}
