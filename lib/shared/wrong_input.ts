/**
 * The one wording of a helper given the wrong object: at most two lines,
 * the first opening with the helper's name and saying what to pass and what
 * it got, the second (when a frame lacks columns) naming them:
 *
 * ```
 * eventStudyChart: pass the result of eventStudy(...); got a trades frame (3,000 rows × 174 columns)
 * the frame lacks columns "group", "horizon", "horizon_days", "mean_excess", "ci_low", "ci_high"
 * ```
 *
 * A frame missing only a few of the columns (a typo, a dropped column) is
 * the right object with a slip: one line naming the columns with close
 * matches (`tradeClass: the frame lacks column "code" (did you mean
 * "kode"?)`).
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { didYouMean } from "./suggest.ts";

/** Whether a value is a nodejs-polars DataFrame (wrapped or not). */
export function isFrame(x: unknown): x is pl.DataFrame {
  return typeof x === "object" && x !== null &&
    (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "DataFrame";
}

/** Frames signalbook makes, known by their columns (derived ones first: they keep trade keys). */
const KINDS: [(c: Set<string>) => boolean, string][] = [
  [(c) => c.has("mean_excess") && c.has("ci_low") && c.has("group"), "an eventStudy result"],
  [(c) => c.has("month") && c.has("equity"), "the monthly frame of a portfolioBacktest result"],
  [(c) => c.has("scope") && c.has("window") && c.has("pct"), "a winRates frame"],
  [(c) => c.has("horizon_order") && c.has("excess_return"), "a forwardReturns frame"],
  [(c) => c.has("direction") && c.has("window_order"), "an insiderReturns frame"],
  [(c) => c.has("win_rate_low") && c.has("author_username"), "the frame of authorWinRates"],
  [(c) => [...c].some((x) => x.endsWith("_bucket")), "a bucket frame of pitches"],
  [(c) => c.has("pitch_id"), "a pitches frame"],
  [(c) => c.has("transaction_date") || c.has("accession_number"), "a trades frame"],
];

const count = (n: number) => n.toLocaleString("en-US");

function keysOf(x: object): string {
  const keys = Object.keys(x);
  return keys.length ? `{ ${keys.slice(0, 4).join(", ")}${keys.length > 4 ? ", …" : ""} }` : "{}";
}

/**
 * What a value is, in a few words: a frame by its kind and shape, a
 * signalbook result by its fields, anything else by its type.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { describeInput } from "./wrong_input.ts";
 * describeInput(pl.DataFrame({ month: [1], equity: [1] }));
 * // "the monthly frame of a portfolioBacktest result (1 row × 2 columns)"
 * ```
 */
export function describeInput(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (isFrame(x)) {
    const cols = new Set(x.columns);
    const kind = KINDS.find(([is]) => is(cols))?.[1] ?? "a frame";
    return `${kind} (${count(x.height)} row${x.height === 1 ? "" : "s"} × ${count(x.width)} column${
      x.width === 1 ? "" : "s"
    })`;
  }
  if (Array.isArray(x)) return `an array of ${count(x.length)}`;
  if (typeof x !== "object") {
    return `${typeof x} ${
      (typeof x === "bigint" ? `${x}n` : JSON.stringify(x) ?? String(x)).slice(0, 40)
    }`;
  }
  const o = x as Record<string, unknown>;
  if (isFrame(o.monthly) && "stats" in o) return "a portfolioBacktest result ({ monthly, stats })";
  const values = Object.values(o);
  if (
    values.length &&
    values.every((v) =>
      typeof v === "object" && v !== null && isFrame((v as { monthly?: unknown }).monthly)
    )
  ) {
    return `portfolioBacktest results by name ${keysOf(o)}`;
  }
  if (values.length && values.every(isFrame)) return `frames by name ${keysOf(o)}`;
  if (isFrame(o.frame)) return `a result object ${keysOf(o)}`;
  return `an object ${keysOf(o)}`;
}

/** What a helper takes, for its wrong-object error. */
export interface Wanted {
  /** What to pass, after "pass": `"the result of eventStudy(...)"`. */
  pass: string;
  /** Columns the frame needs. */
  columns?: readonly string[];
  /**
   * The field of a result object that holds the frame to pass (`frame`,
   * `monthly`): an object with that field gets "pass its <field>:
   * fn(x.<field>)".
   */
  field?: string;
  /** The parameter's name in that hint (default `result`). */
  param?: string;
}

function list(cols: readonly string[], max = 8): string {
  const shown = cols.slice(0, max).map((c) => JSON.stringify(c)).join(", ");
  return cols.length > max ? `${shown} and ${cols.length - max} more` : shown;
}

/**
 * The error for a wrong object: line 1 `fn: pass …; got …`, line 2 the
 * columns the frame lacks (when given).
 */
export function wrongInput(
  fn: string,
  wanted: Wanted,
  got: unknown,
  missing: readonly string[] = [],
): TypeError {
  const o = got as Record<string, unknown> | null;
  const field = wanted.field;
  const hint = field && typeof o === "object" && o !== null && !isFrame(o) && isFrame(o[field])
    ? `; pass its ${field}: ${fn}(${wanted.param ?? "result"}.${field})`
    : "";
  const second = missing.length
    ? `\nthe frame lacks column${missing.length === 1 ? "" : "s"} ${list(missing)}`
    : "";
  return new TypeError(`${fn}: pass ${wanted.pass}; got ${describeInput(got)}${hint}${second}`);
}

/**
 * Throws a `TypeError` unless `df` has every column of `cols`. When it lacks most of them
 * (more than half, or more than 3) and `wanted` says what the helper takes,
 * the frame is the wrong object: {@link wrongInput}. Otherwise one line
 * names the lacking columns (each with up to 3 close matches when there are
 * at most 3).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { checkColumns } from "./wrong_input.ts";
 * try {
 *   checkColumns("myChart", pl.DataFrame({ a: [1], ab: [2] }), ["a", "b"]);
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // myChart: the frame lacks column "b" (did you mean "ab"?); it has 2 columns
 * }
 * ```
 */
export function checkColumns(
  fn: string,
  df: pl.DataFrame,
  cols: readonly string[],
  wanted?: Wanted,
): void {
  const have = new Set(df.columns);
  const missing = cols.filter((c) => !have.has(c));
  if (!missing.length) return;
  if (wanted && (missing.length * 2 > cols.length || missing.length > 3)) {
    throw wrongInput(fn, wanted, df, missing);
  }
  const named = missing.length > 3
    ? `columns ${list(missing)}`
    : `column ${missing.map((c) => JSON.stringify(c) + didYouMean(c, df.columns, 3)).join(", ")}`;
  throw new TypeError(`${fn}: the frame lacks ${named}; it has ${df.width} columns`);
}

/**
 * The frame a helper was given, after checks: a DataFrame (else
 * {@link wrongInput}) with the columns of `wanted` ({@link checkColumns}).
 */
export function expectFrame(fn: string, value: unknown, wanted: Wanted): pl.DataFrame {
  if (!isFrame(value)) throw wrongInput(fn, wanted, value);
  checkColumns(fn, value, wanted.columns ?? [], wanted);
  return value;
}
