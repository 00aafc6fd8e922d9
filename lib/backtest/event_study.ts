/**
 * Event studies over a transactions frame: for each group and horizon, how
 * the stock did after the trade (from the trade date, or with
 * `entry: "filing"` from the filing date).
 *
 * Figures, per group × horizon (returns in percent):
 * - `n`: trades with a realized return at that horizon (younger trades are
 *   left out, never treated as zero); `n_clusters`: distinct clusters among
 *   them — for `"two-way"` the smaller of distinct months and distinct
 *   issuers, else months, issuers, or trades with `cluster: "none"`;
 * - `thin` and `thin_reason`: a row is thin when it has fewer than `minN`
 *   trades (default 20), fewer than `minClusters` clusters (default 20), or
 *   a standard error that is zero or rounding noise (one cluster, identical
 *   values: never a t). A thin row is still reported, but its `t_stat`,
 *   `t_cluster`, intervals and difference intervals are null, and
 *   `thin_reason` says why (e.g. `9 months < minClusters 20`);
 * - `mean_return`, `median_return`: the stock's return after the trade;
 * - `mean_excess`, `median_excess`, `trimmed_mean_excess` (10 % cut at each
 *   end): return minus the market over the same window (the service's
 *   `excess_returns_*`); with `benchmark: "none"` the raw return is used
 *   wherever "excess" is named;
 * - `hit_rate`: percent (0–100) of trades that went the insider's way: a
 *   buy hits when its excess return is above 0, a sell when it is below 0.
 *   Buy and sell are trade classes by default (`sides: "tradeClass"`: an
 *   open-market purchase, code `P`, is a buy; a sale, code `S`, open-market
 *   or under a 10b5-1 plan, is a sell); other codes (awards, option
 *   exercises, gifts, …) have no side: they are left out of `hit_rate` and
 *   counted in `n_no_side`. `sides: "acquiredDisposed"` uses the
 *   acquired (`A`) / disposed (`D`) code instead. A frame without the side
 *   column (`code`, or `acquired_disposed_code`) counts every trade as a
 *   buy for the hit rate, and its `side` is null;
 * - `t_stat`: mean / (sd / √n), the textbook t that assumes independent
 *   trades (kept for reference and cross-checks);
 * - `t_cluster`: mean / the clustered standard error;
 * - `ci_low`, `ci_high`: 95 % interval of the mean (see Clustering);
 * - `side`: `buy` or `sell` when every trade of the row is one (under
 *   `sides`), `other` when none is a buy or a sell, else `mixed`;
 * - `cluster`: the clustering really used — the one asked for, unless no
 *   trade of the row has a key for one of its dimensions (e.g. every
 *   `issuer_cik` null: two-way is then month clustering, and the row says
 *   `month`); `entry`: `trade` or `filing`;
 *   `baseline`: the baseline group (null when none was asked for);
 * - `diff_vs_baseline`, `diff_ci_low`, `diff_ci_high`: mean minus the
 *   baseline's mean, with its interval;
 * - `n_nonfinite`: trades realized at the horizon that lack a value a
 *   figure needs or have one that is not finite (NaN, ±Infinity, null),
 *   whichever it is: a return without its excess or an excess without its
 *   return (with `benchmark: "none"` only the return is needed), and with
 *   `entry: "filing"` a missing filing delay or a NaN or infinite return at
 *   any earlier window (the path to the filing day is interpolated through
 *   them). They are left out of every figure of the row: `mean_return` and
 *   `mean_excess` use one set of trades. A trade is realized at a horizon
 *   when it has a value (even NaN) there or at any longer window in the
 *   frame (the service's windows are nested); one with nothing there yet is
 *   young, left out and not counted. (A typed frame such as
 *   `transactionsFrame` holds a NaN as null; such a trade is counted when
 *   any other value at or after the horizon shows it realized.) Trades
 *   filed on or after the horizon's end have no filing-entry return there
 *   and are not counted either;
 * - `n_missing_cluster`: trades of the row without a key the clustering
 *   needs (`transaction_date` for months, `issuer_cik` for issuers); each
 *   counts as a cluster of its own (the conservative choice for the
 *   variance: it adds no correlation) and a notice says how many;
 * - `n_no_side`: trades that are neither a buy nor a sell (see `hit_rate`).
 *
 * `groupBy: "side"` groups by trade class (`buy`: code `P`, `sell`: code
 * `S`); trades of other codes get no group and are left out, with a notice
 * that counts them. `groupBy: "acquiredDisposed"` groups by the acquired /
 * disposed code (`acquired`, `disposed`). `groupBy: "cluster"` groups by
 * the service's flag `is_cluster_trade_30d` (`cluster`, `no cluster`): a
 * trade is in a cluster when at least two different insiders of the same
 * issuer traded in the same direction within the 30 days up to it
 * (`cluster_insider_count_30d` ≥ 2; see `clusterChart`). Any grouping whose
 * key is null for some trades leaves them out with the same notice.
 *
 * Clustering (`cluster`): trades close in time share market shocks and trades
 * in one stock share its news (and one stock's overlapping windows its
 * path), so they are not independent. `"two-way"` (default) clusters by
 * calendar month of the trade and by issuer at once (Cameron, Gelbach &
 * Miller 2011): analytic variance V_month + V_issuer − V_both, t interval
 * on the smaller cluster count − 1 degrees of freedom (`_cluster_se.ts`).
 * `"month"`, `"issuer"` and `"none"` are cluster bootstraps (percentile
 * intervals; `bootstrap.ts`, joint resampling across groups, seeded).
 *
 * Why these defaults: measured against the emulator's complete truth
 * (`bench/coverage_bench.ts`); the coverage tables and the reasoning are in
 * docs/validation.md ("Clustering" and "Minimum clusters"). The t quantiles
 * are exact (`_quantiles.ts`), so a lowered `minClusters` still gets a true
 * t interval.
 *
 * Joint intervals (`adjust`): `"none"` (default) gives each interval at
 * 95 % on its own. `"bonferroni"` adds `ci_low_adj`, `ci_high_adj`,
 * `diff_ci_low_adj`, `diff_ci_high_adj` and `n_comparisons`: the family is
 * every interval the study reports (each non-thin row's interval of the
 * mean, and each interval of a difference against the baseline), and each
 * is widened to the 1 − 0.05/`n_comparisons` level (two-way: the t quantile
 * at that level; bootstrap: the percentiles at 0.025/`n_comparisons` and
 * its complement, which rest on few resamples: raise `samples`), so that all
 * of them cover their truths together with probability at least 95 %.
 *
 * Entry (`entry`): `"trade"` (default) uses the service's returns from the
 * trade date; `"filing"` approximates the return from the close of the
 * filing day (`transaction_date + filing_delay_days`) to the same end,
 * taking out the growth before the filing, interpolated log-linearly
 * between the trade date and the 1-week point (`entry.ts`). Trades filed on
 * or after the horizon's end are left out at that horizon.
 *
 * Order of the rows: groups in their natural order (built-in groupings: size
 * ascending, roles CEO, CFO, Director, 10% owner, Other officer, Other; other
 * groupings: `order`, then first appearance), horizons in time within a group.
 *
 * Grouping uses only what was known at filing time: roles and flags of the
 * filing, its value, and the point-in-time win rate (computed by the service
 * from the insider's earlier trades only). `returns_latest` is never used.
 *
 * Limits: the sample is what the service returns today (survivorship: the
 * issuers still covered); with the default entry, returns are from the trade
 * date, while an investor could act only after the filing; clustered
 * intervals need enough clusters, hence `minClusters`.
 *
 * @module
 */
import { tradesInput } from "./_inputs.ts";
import { isDemo } from "../shared/demo.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import { asFrame, type Frame } from "../frames/list.ts";
import { buildFrame } from "../frames/build.ts";
import { DEFAULT_HORIZONS, FORWARD_WINDOWS, WINDOW_DAYS } from "../insider/fields.ts";
import { didYouMean } from "../shared/suggest.ts";
import { checkColumns } from "../shared/wrong_input.ts";
import { ENTRIES, type Entry, FILING_COLUMNS, fromFiling, realizedAt } from "./entry.ts";
import { notice } from "../shared/notice.ts";
import { sideColumn, sideOf, SIDES, type Sides } from "../families/side.ts";
import { monthOfDay, monthText, tradeDay } from "./_month.ts";
import { choice, refuse, wholeNumber } from "../shared/options.ts";
import {
  ADJUSTMENTS,
  type ClusterBy,
  CLUSTERS,
  studyColumns,
  type StudyData,
  studyRows,
  type StudySettings,
  type StudyValue,
} from "./_study_cells.ts";

export { ADJUSTMENTS, type ClusterBy, CLUSTERS };
/** Buy and sell are defined once, in the families area (see {@link SIDES}). */
export { sideColumn, sideOf, SIDES, type Sides };

/** Horizons an event study can use. */
export const STUDY_HORIZONS: typeof FORWARD_WINDOWS = FORWARD_WINDOWS;
/** A study horizon. */
export type StudyHorizon = typeof STUDY_HORIZONS[number];

/** Built-in groupings. */
export const GROUPINGS = [
  "role",
  "size",
  "winRate",
  "cluster",
  "10b5-1",
  "side",
  "acquiredDisposed",
] as const;
/** A built-in grouping, a column name, or a function of a row. */
export type GroupBy =
  | typeof GROUPINGS[number]
  | `${string}`
  | ((row: Record<string, unknown>) => string | null);

/** The default clustering, chosen from the coverage runs (see the module doc). */
export const DEFAULT_CLUSTER: ClusterBy = "two-way";
/** The default minimum number of clusters for a t or an interval (see the module doc). */
export const DEFAULT_MIN_CLUSTERS = 20;

/** Options of {@link eventStudy}. */
export interface EventStudyOptions {
  /** Grouping (default: one group "all"). */
  groupBy?: GroupBy;
  /** Horizons (default 1m, 3m, 6m, 1y); reported in time order. */
  horizons?: readonly StudyHorizon[];
  /** `market` (default): excess returns; `none`: raw returns. */
  benchmark?: "market" | "none";
  /** Baseline group for the differences (default: none, no differences). */
  baseline?: string;
  /** Bootstrap resamples (default 1,000). */
  samples?: number;
  /** Bootstrap seed (default 42). */
  seed?: number;
  /** Groups with fewer trades are flagged `thin`, without t or intervals (default 20). */
  minN?: number;
  /**
   * Groups spanning fewer clusters (the smaller dimension for `"two-way"`)
   * are flagged `thin`, without t or intervals (default 20).
   */
  minClusters?: number;
  /**
   * Clustering of the intervals: `"two-way"` (default: month × issuer,
   * analytic), or the bootstrap by calendar month of the trade, by issuer,
   * or none (i.i.d.).
   */
  cluster?: ClusterBy;
  /**
   * `"trade"` (default): returns from the trade date, as the service
   * reports them; `"filing"`: from the filing date, approximated (see
   * `entry.ts` and the module doc).
   */
  entry?: Entry;
  /**
   * `"none"` (default): each interval at 95 % on its own; `"bonferroni"`:
   * also `ci_low_adj`, `ci_high_adj`, `diff_ci_low_adj`, `diff_ci_high_adj`,
   * joint over every interval of the study (`n_comparisons` of them).
   */
  adjust?: typeof ADJUSTMENTS[number];
  /** Groups to list first, in this order (the rest follow in natural order). */
  order?: string[];
  /**
   * What buy and sell mean for the `side` column and the hit rate's sign:
   * `"tradeClass"` (default: code `P` buys, code `S` sells, other codes
   * neither) or `"acquiredDisposed"` (`A` / `D`). See {@link SIDES}.
   */
  sides?: Sides;
}

/** Each role's flag column, in the order a trade's role is read (the first flag set wins; else "Other"). */
const ROLES = [
  ["is_ceo", "CEO"],
  ["is_cfo", "CFO"],
  ["is_director", "Director"],
  ["is_10_percent_owner", "10% owner"],
  ["is_officer", "Other officer"],
] as const;

const role = (r: Record<string, unknown>) => ROLES.find(([flag]) => r[flag])?.[1] ?? "Other";

function size(r: Record<string, unknown>): string | null {
  const v = r.transaction_value as number | null;
  if (v === null || v === undefined) return null;
  return v < 100_000 ? "< $100k" : v < 1_000_000 ? "$100k–1m" : "≥ $1m";
}

function winRate(r: Record<string, unknown>): string {
  const pct = r.win_rate_1y_pct as number | null;
  const total = r.win_rate_1y_total as number | null;
  if (pct === null || pct === undefined || !total || total < 3) return "no record (< 3 trades)";
  return pct < 50 ? "win rate < 50%" : pct < 65 ? "win rate 50–65%" : "win rate ≥ 65%";
}

/** A grouping: the columns it reads, its row → group function, its groups' natural order. */
type Grouping = [string[], (r: Record<string, unknown>) => string | null, string[]];

/** A grouping by a flag column: `yes` where it is set, else `no` (in the order `no`, `yes`). */
function flagged(column: string, yes: string, no: string): Grouping {
  return [[column], (r) => r[column] ? yes : no, [no, yes]];
}

/** A grouping by side under `sides` (`sideOf`): `buy`, `sell`, and no group for neither. */
function sided(sides: Sides, buy: string, sell: string): Grouping {
  return [[sideColumn(sides)], (r) => [sell, null, buy][sideOf(r, sides) + 1], [buy, sell]];
}

/** Each built-in grouping. */
const BUILT_IN: Record<string, Grouping> = {
  role: [ROLES.map(([flag]) => flag), role, [...ROLES.map(([, name]) => name), "Other"]],
  size: [["transaction_value"], size, ["< $100k", "$100k–1m", "≥ $1m"]],
  winRate: [
    ["win_rate_1y_pct", "win_rate_1y_total"],
    winRate,
    ["no record (< 3 trades)", "win rate < 50%", "win rate 50–65%", "win rate ≥ 65%"],
  ],
  cluster: flagged("is_cluster_trade_30d", "cluster", "no cluster"),
  "10b5-1": flagged("is_10b51", "10b5-1 plan", "no plan"),
  // trade classes: code P buys, code S sells (open-market and 10b5-1); other codes have no group
  side: sided("tradeClass", "buy", "sell"),
  acquiredDisposed: sided("acquiredDisposed", "acquired", "disposed"),
};

/**
 * The row → group function of a built-in grouping (for combining groupings).
 *
 * @example
 * ```ts
 * import { groupKey } from "./event_study.ts";
 * groupKey("role")({ is_ceo: true }); // "CEO"
 * ```
 */
export function groupKey(
  name: typeof GROUPINGS[number],
): (row: Record<string, unknown>) => string | null {
  return BUILT_IN[name][1];
}

/** Columns a built-in grouping reads. */
export function groupColumns(name: typeof GROUPINGS[number]): string[] {
  return BUILT_IN[name][0];
}

/**
 * The natural order of a built-in grouping's groups (size ascending, roles
 * in a fixed order).
 *
 * @example
 * ```ts
 * import { groupOrder } from "./event_study.ts";
 * groupOrder("size"); // ["< $100k", "$100k–1m", "≥ $1m"]
 * ```
 */
export function groupOrder(name: typeof GROUPINGS[number]): string[] {
  return [...BUILT_IN[name][2]];
}

/**
 * Runs an event study; returns one row per group × horizon (see the module
 * doc for every column).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, eventStudy, tradeClass } from "../../mod.ts";
 * const { insider } = await connect();
 * // "buys": open-market purchases (code P), not option exercises or awards
 * const buys = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 5000 }))
 *   .filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * const stats = eventStudy(buys, {
 *   groupBy: "role",
 *   horizons: ["1m", "3m", "6m"],
 *   baseline: "Director",
 *   minN: 20,
 *   minClusters: 20,
 * });
 * ```
 */
export function eventStudy(trades: pl.DataFrame, opts: EventStudyOptions = {}): Frame {
  tradesInput("eventStudy", trades);
  const settings = resolveStudyOptions(opts);
  const data = studyData(trades, opts, settings);
  const { rows, missing } = studyRows(data, settings);
  if (missing) {
    notice(
      `eventStudy: ${missing} trade-horizon rows lack a cluster key (${
        CLUSTER_COLUMNS[settings.cluster].join(" or ")
      }) and count as clusters of their own (column n_missing_cluster; \`cluster\` names the clustering really used)`,
    );
  }
  const frame = asFrame(buildFrame(studyColumns(settings.adjust), rows), false, isDemo(trades));
  STUDIES.set(frame, { trades, opts });
  return frame;
}

/** The trades and options behind each study frame, for {@link entryPairs}. */
const STUDIES = new WeakMap<object, { trades: pl.DataFrame; opts: EventStudyOptions }>();

/**
 * The options of {@link eventStudy} with their defaults, each checked
 * (a bad value is a `RangeError` naming it, with close matches).
 *
 * @example
 * ```ts
 * import { resolveStudyOptions } from "./event_study.ts";
 * resolveStudyOptions({ horizons: ["3m", "1m"] }).horizons; // ["1m", "3m"]
 * ```
 */
export function resolveStudyOptions(opts: EventStudyOptions): StudySettings {
  const fn = "eventStudy";
  const horizons: string[] = [...new Set(opts.horizons ?? DEFAULT_HORIZONS)].map((h) =>
    (STUDY_HORIZONS as readonly unknown[]).includes(h)
      ? h
      : refuse(fn, "horizon", h, STUDY_HORIZONS)
  );
  horizons.sort((a, b) => WINDOW_DAYS[a] - WINDOW_DAYS[b]);
  return {
    horizons,
    samples: wholeNumber(fn, "samples", opts.samples, 10, 1000),
    minN: wholeNumber(fn, "minN", opts.minN, 2, 20),
    minClusters: wholeNumber(fn, "minClusters", opts.minClusters, 2, DEFAULT_MIN_CLUSTERS),
    cluster: choice(fn, "cluster", opts.cluster, CLUSTERS, DEFAULT_CLUSTER),
    entry: choice(fn, "entry", opts.entry, ENTRIES, "trade"),
    adjust: choice(fn, "adjust", opts.adjust, ADJUSTMENTS, "none"),
    benchmark: choice(fn, "benchmark", opts.benchmark, ["market", "none"], "market"),
    seed: opts.seed ?? 42,
  };
}

/** The grouping of `groupBy`: built in, a function, or a column's values. */
function grouping(trades: pl.DataFrame, g: GroupBy | undefined): Grouping {
  if (g === undefined) return [[], () => "all", []];
  if (typeof g === "function") return [[], g, []];
  if (BUILT_IN[g]) return BUILT_IN[g];
  if (typeof g !== "string" || !trades.columns.includes(g)) {
    throw new RangeError(
      `eventStudy: groupBy ${JSON.stringify(g)} is neither a grouping (${
        GROUPINGS.join(", ")
      }) nor a column of the frame${
        // suggest groupings only; columns only when no grouping is close (and at most 3)
        didYouMean(g, GROUPINGS) || didYouMean(g, trades.columns, 3)}`,
    );
  }
  return [[g], (r) => r[g] == null ? null : String(r[g]), []];
}

/** The key columns of each clustering. */
const CLUSTER_COLUMNS: Record<ClusterBy, string[]> = {
  "two-way": ["transaction_date", "issuer_cik"],
  month: ["transaction_date"],
  issuer: ["issuer_cik"],
  none: [],
};

/** The columns a study reads: values, the realized check, the side and the cluster keys. */
function studyColumnsOf(
  trades: pl.DataFrame,
  opts: EventStudyOptions,
  o: StudySettings,
  needCols: string[],
  sideCol: string[],
): string[] {
  const valueCols = o.entry === "filing"
    ? [
      ...FILING_COLUMNS,
      ...FORWARD_WINDOWS.filter((w) => WINDOW_DAYS[w] <= WINDOW_DAYS[o.horizons.at(-1)!])
        .flatMap((w) => [`returns_${w}`, `excess_returns_${w}`]),
    ]
    : o.horizons.flatMap((h) => [`returns_${h}`, `excess_returns_${h}`]);
  // longer windows, when the frame has them, tell a realized trade with a missing value from a
  // young one (the service's windows are nested: a trade with a 1y value has its 6m value)
  const laterCols = FORWARD_WINDOWS.filter((w) => WINDOW_DAYS[w] > WINDOW_DAYS[o.horizons[0]])
    .flatMap((w) => [`returns_${w}`, `excess_returns_${w}`])
    .filter((c) => trades.columns.includes(c) && !valueCols.includes(c));
  const clusterCols = CLUSTER_COLUMNS[o.cluster];
  const lacking = clusterCols.filter((c) => !trades.columns.includes(c));
  if (lacking.length) {
    throw new Error(
      `eventStudy: the frame lacks column "${lacking[0]}", needed by cluster: "${o.cluster}"${
        opts.cluster === undefined ? " (the default)" : ""
      }; pass cluster: "none" to treat trades as independent`,
    );
  }
  checkColumns("eventStudy", trades, [...needCols, ...valueCols, ...clusterCols]);
  if (typeof opts.groupBy === "function") return trades.columns;
  return [...new Set([...needCols, ...valueCols, ...laterCols, ...sideCol, ...clusterCols])];
}

/**
 * The groups of a study, in order (`order`, then the grouping's natural
 * order, then first appearance), with their members' row indices; trades
 * without a group are left out with a notice.
 */
function groupTrades(
  rows: Record<string, unknown>[],
  keyOf: (r: Record<string, unknown>) => string | null,
  g: GroupBy | undefined,
  natural: string[],
  order: string[] | undefined,
): { names: string[]; members: number[][] } {
  // each group's row indices, groups in order of first appearance; null: no group
  const groups = Map.groupBy(rows.keys(), (i) => keyOf(rows[i]));
  const ungrouped = groups.get(null)?.length ?? 0;
  groups.delete(null);
  if (groups.size === 0) {
    throw new Error("eventStudy: no trades to study (empty frame or every group key null)");
  }
  if (ungrouped) {
    notice(
      `eventStudy: ${ungrouped} of ${rows.length} trades have no group ${
        g === "side"
          ? 'under groupBy "side" (neither an open-market purchase, code P, nor a sale, code S)'
          : g === "acquiredDisposed"
          ? 'under groupBy "acquiredDisposed" (no acquired/disposed code)'
          : "(their group key is null)"
      } and are left out`,
    );
  }
  const rank = (name: string) => {
    const o = order?.indexOf(name) ?? -1;
    if (o >= 0) return o;
    const n = natural.indexOf(name);
    return n >= 0 ? 10_000 + n : 20_000;
  };
  // stable sort: ties keep first appearance
  const names = ([...groups.keys()] as string[]).sort((a, b) => rank(a) - rank(b));
  return { names, members: names.map((n) => groups.get(n)!) };
}

/**
 * What the study's cells read of the trades (see `StudyData`), at the study's entry, and each
 * trade's values at either entry.
 */
function studyData(
  trades: pl.DataFrame,
  opts: EventStudyOptions,
  o: StudySettings,
): StudyData & { at: ReturnType<typeof entryValues> } {
  const sides = choice("eventStudy", "sides", opts.sides, SIDES, "tradeClass");
  const [needCols, keyOf, natural] = grouping(trades, opts.groupBy);
  // without the side column, every trade's hit is "excess above 0" and `side` is null
  const sideCol = trades.columns.includes(sideColumn(sides)) ? [sideColumn(sides)] : [];
  const cols = studyColumnsOf(trades, opts, o, needCols, sideCol);
  const rows = trades.select(...cols).toRecords() as Record<string, unknown>[];
  const { names, members } = groupTrades(rows, keyOf, opts.groupBy, natural, opts.order);
  const baseline = opts.baseline ?? null;
  if (baseline !== null && !names.includes(baseline)) {
    throw new RangeError(
      `eventStudy: baseline ${JSON.stringify(baseline)} is not a group; groups: ${
        names.join(", ")
      }${didYouMean(baseline, names)}`,
    );
  }
  const hasSide = sideCol.length > 0;
  const at = entryValues(rows);
  return {
    at,
    names,
    members,
    baseline,
    hasSide,
    valueOf: at[o.entry],
    signOf: (i) => hasSide ? sideOf(rows[i], sides) : 1,
    monthOf: (i) => {
      const d = tradeDay("eventStudy", rows[i].transaction_date, i);
      return d === null ? null : monthText(monthOfDay(d));
    },
    issuerOf: (i) => rows[i].issuer_cik == null ? null : String(rows[i].issuer_cik),
  };
}

/** Each trade's values at a horizon from either entry; null when it is not realized there. */
function entryValues(
  rows: Record<string, unknown>[],
): Record<Entry, (i: number, h: string) => StudyValue | null> {
  return {
    trade: (i, h) => {
      const r = rows[i];
      return realizedAt(r, h) ? { ret: r[`returns_${h}`], excess: r[`excess_returns_${h}`] } : null;
    },
    filing: (i, h) => {
      const r = rows[i];
      const f = fromFiling(r, h);
      if (f) return f;
      const d = r.filing_delay_days;
      // filed on or after the horizon's end: no filing-entry return at it (not a missing value)
      if (typeof d === "number" && Number.isFinite(d) && d >= WINDOW_DAYS[h]) return null;
      // realized, but lacking a value the approximation needs (a return, an excess, a usable
      // filing delay) or with a non-finite one: counted
      return realizedAt(r, h) ? { ret: NaN, excess: NaN } : null;
    },
  };
}

/**
 * The same trades at both entries, for `entryComparison`: per group and
 * horizon of a study, the trades realized at both the trade date and the
 * filing date (`n` is the number of pairs), and two studies over them, with
 * the study's own clustering and thin rule, as rows of a study: `diff`, of
 * each trade's filing-date value minus its trade-date value (its mean and
 * interval are those of the difference), and `trade`, of the trade-date
 * values of the same trades. A trade with a value at only one entry is left
 * out of both.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { entryPairs, eventStudy } from "./event_study.ts";
 * const trades = pl.DataFrame({
 *   returns_1m: [2, 4, 6], excess_returns_1m: [1, 2, 3], returns_1w: [1, 1, 1],
 *   excess_returns_1w: [0, 0, 0], filing_delay_days: [2, 2, 40],
 * });
 * const pairs = entryPairs(eventStudy(trades, { horizons: ["1m"], cluster: "none", minN: 2 }));
 * pairs.diff[0].n; // 2: the third trade was filed after its month
 * ```
 */
export function entryPairs(
  study: pl.DataFrame,
): { diff: Record<string, unknown>[]; trade: Record<string, unknown>[] } {
  const known = STUDIES.get(study);
  if (!known) {
    throw new RangeError(
      "entryComparison: give the frame eventStudy (or headlineStudy) returned, as it is: the comparison re-reads that study's trades (a filtered or rebuilt frame has none)",
    );
  }
  const opts = { ...known.opts, entry: "filing" as const, baseline: undefined, adjust: undefined };
  const settings = resolveStudyOptions(opts);
  const data = studyData(known.trades, opts, settings);
  const sub = (x: unknown, y: unknown) =>
    typeof x === "number" && typeof y === "number" ? x - y : NaN;
  const diffOf = (i: number, h: string): StudyValue | null => {
    const [a, b] = [data.at.trade(i, h), data.at.filing(i, h)];
    if (a === null || b === null) return null;
    return { ret: sub(b.ret, a.ret), excess: sub(b.excess, a.excess) };
  };
  const rows = (valueOf: StudyData["valueOf"]) => studyRows({ ...data, valueOf }, settings).rows;
  return {
    diff: rows(diffOf),
    trade: rows((i, h) => diffOf(i, h) === null ? null : data.at.trade(i, h)),
  };
}
