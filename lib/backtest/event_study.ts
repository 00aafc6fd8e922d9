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
 * disposed code (`acquired`, `disposed`). Any grouping whose key is null
 * for some trades leaves them out with the same notice.
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
 * Why these defaults (measured with `bench/coverage_bench.ts` against the
 * emulator's complete truth over 60 unseen worlds, seeds 8001–8060;
 * docs/validation.md has the tables): the old default, month clusters,
 * covered the truth in as few as 80 % of worlds (all purchases, 1 year:
 * one stock's overlapping 1-year windows fall in different months) and
 * 83–89 % on fewer than 20 months. Two-way covered 93–98 % in every
 * full-pull cell and 93–100 % on the newest 5,000 rows. Issuer clusters
 * covered 87–97 % in the emulator, whose stocks share no shock beyond the
 * market's beta spread; real stocks share industry and style moves within
 * a month, which only the month dimension catches, hence two-way. A
 * minimum of 20 clusters (`minClusters`): below it a dimension's variance
 * rests on too few independent draws (Cameron & Miller 2015), and a pull
 * of the newest 2,000 trades (under a year) gives thin rows rather than
 * precise-looking ones. The t quantiles are exact (`_quantiles.ts`), so a
 * lowered `minClusters` still gets a true t interval.
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
import { requireColumns } from "../frames/columns.ts";
import { clusterBootstrap, type Observation } from "./bootstrap.ts";
import { t975, twoWayClusterSe, type TwoWayObservation, usableSe } from "./_cluster_se.ts";
import { ENTRIES, type Entry, FILING_COLUMNS, fromFiling } from "./entry.ts";
import { mean, median, percentile, sd, trimmedMean } from "./_stats.ts";
import { notice } from "../shared/notice.ts";
import { sideColumn, sideOf, SIDES, type Sides } from "../families/side.ts";
import { DAY_FORMS, monthTextOfDay, readDay, unreadable } from "./_month.ts";
import { UNREADABLE } from "../shared/values/mod.ts";

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

/** Clusterings of the intervals. */
export const CLUSTERS = ["two-way", "month", "issuer", "none"] as const;
/** How trades are clustered for the intervals. */
export type ClusterBy = typeof CLUSTERS[number];
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
  /** Groups to list first, in this order (the rest follow in natural order). */
  order?: string[];
  /**
   * What buy and sell mean for the `side` column and the hit rate's sign:
   * `"tradeClass"` (default: code `P` buys, code `S` sells, other codes
   * neither) or `"acquiredDisposed"` (`A` / `D`). See {@link SIDES}.
   */
  sides?: Sides;
}

function role(r: Record<string, unknown>): string {
  if (r.is_ceo) return "CEO";
  if (r.is_cfo) return "CFO";
  if (r.is_director) return "Director";
  if (r.is_10_percent_owner) return "10% owner";
  if (r.is_officer) return "Other officer";
  return "Other";
}

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

const BUILT_IN: Record<string, [string[], (r: Record<string, unknown>) => string | null]> = {
  role: [["is_ceo", "is_cfo", "is_director", "is_10_percent_owner", "is_officer"], role],
  size: [["transaction_value"], size],
  winRate: [["win_rate_1y_pct", "win_rate_1y_total"], winRate],
  cluster: [["is_cluster_trade_30d"], (r) => r.is_cluster_trade_30d ? "cluster" : "no cluster"],
  "10b5-1": [["is_10b51"], (r) => r.is_10b51 ? "10b5-1 plan" : "no plan"],
  // trade classes: code P buys, code S sells (open-market and 10b5-1); other codes have no group
  side: [["code"], (r) => ["sell", null, "buy"][sideOf(r) + 1]],
  acquiredDisposed: [
    ["acquired_disposed_code"],
    (r) => ["disposed", null, "acquired"][sideOf(r, "acquiredDisposed") + 1],
  ],
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

/** Natural order of the groups of each built-in grouping. */
const NATURAL: Record<string, string[]> = {
  role: ["CEO", "CFO", "Director", "10% owner", "Other officer", "Other"],
  size: ["< $100k", "$100k–1m", "≥ $1m"],
  winRate: ["no record (< 3 trades)", "win rate < 50%", "win rate 50–65%", "win rate ≥ 65%"],
  cluster: ["no cluster", "cluster"],
  "10b5-1": ["no plan", "10b5-1 plan"],
  side: ["buy", "sell"],
  acquiredDisposed: ["acquired", "disposed"],
};

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
  return [...NATURAL[name]];
}

function allowed(what: string, value: unknown, list: readonly string[]): never {
  throw new RangeError(
    `eventStudy: ${what} ${JSON.stringify(value)} is not allowed; allowed: ${list.join(", ")}${
      didYouMean(value, list)
    }`,
  );
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
  const horizons = [...new Set(opts.horizons ?? DEFAULT_HORIZONS)];
  for (const h of horizons) {
    if (!(STUDY_HORIZONS as readonly string[]).includes(h)) allowed("horizon", h, STUDY_HORIZONS);
  }
  horizons.sort((a, b) => WINDOW_DAYS[a] - WINDOW_DAYS[b]);
  const samples = opts.samples ?? 1000;
  if (!Number.isInteger(samples) || samples < 10) {
    allowed("samples", opts.samples, ["an integer >= 10"]);
  }
  const minN = opts.minN ?? 20;
  if (!Number.isInteger(minN) || minN < 2) allowed("minN", opts.minN, ["an integer >= 2"]);
  const minClusters = opts.minClusters ?? DEFAULT_MIN_CLUSTERS;
  if (!Number.isInteger(minClusters) || minClusters < 2) {
    allowed("minClusters", opts.minClusters, ["an integer >= 2"]);
  }
  const clusterBy = opts.cluster ?? DEFAULT_CLUSTER;
  if (!(CLUSTERS as readonly string[]).includes(clusterBy)) {
    allowed("cluster", opts.cluster, CLUSTERS);
  }
  const entry = opts.entry ?? "trade";
  if (!(ENTRIES as readonly string[]).includes(entry)) allowed("entry", opts.entry, ENTRIES);
  const benchmark = opts.benchmark ?? "market";
  if (benchmark !== "market" && benchmark !== "none") {
    allowed("benchmark", benchmark, ["market", "none"]);
  }
  const seed = opts.seed ?? 42;
  const sides = opts.sides ?? "tradeClass";
  if (!(SIDES as readonly string[]).includes(sides)) allowed("sides", opts.sides, SIDES);
  let keyOf: (r: Record<string, unknown>) => string | null;
  let needCols: string[] = [];
  let natural: string[] = [];
  const g = opts.groupBy;
  if (g === undefined) keyOf = () => "all";
  else if (typeof g === "function") keyOf = g;
  else if (BUILT_IN[g]) {
    [needCols, keyOf] = BUILT_IN[g];
    natural = NATURAL[g];
  } else {
    if (typeof g !== "string" || !trades.columns.includes(g)) {
      throw new RangeError(
        `eventStudy: groupBy ${JSON.stringify(g)} is neither a grouping (${
          GROUPINGS.join(", ")
        }) nor a column of the frame${
          // suggest groupings only; columns only when no grouping is close (and at most 3)
          didYouMean(g, GROUPINGS) || didYouMean(g, trades.columns, 3)}`,
      );
    }
    needCols = [g];
    keyOf = (r) => r[g] === null || r[g] === undefined ? null : String(r[g]);
  }
  const valueCols = entry === "filing"
    ? [
      ...FILING_COLUMNS,
      ...FORWARD_WINDOWS.filter((w) => WINDOW_DAYS[w] <= WINDOW_DAYS[horizons.at(-1)!])
        .flatMap((w) => [`returns_${w}`, `excess_returns_${w}`]),
    ]
    : horizons.flatMap((h) => [`returns_${h}`, `excess_returns_${h}`]);
  // longer windows, when the frame has them, tell a realized trade with a missing value from a
  // young one (the service's windows are nested: a trade with a 1y value has its 6m value)
  const laterCols = FORWARD_WINDOWS.filter((w) => WINDOW_DAYS[w] > WINDOW_DAYS[horizons[0]])
    .flatMap((w) => [`returns_${w}`, `excess_returns_${w}`])
    .filter((c) => trades.columns.includes(c) && !valueCols.includes(c));
  const clusterCols = clusterBy === "two-way"
    ? ["transaction_date", "issuer_cik"]
    : clusterBy === "month"
    ? ["transaction_date"]
    : clusterBy === "issuer"
    ? ["issuer_cik"]
    : [];
  const lacking = clusterCols.filter((c) => !trades.columns.includes(c));
  if (lacking.length) {
    throw new Error(
      `eventStudy: the frame lacks column "${lacking[0]}", needed by cluster: "${clusterBy}"${
        opts.cluster === undefined ? " (the default)" : ""
      }; pass cluster: "none" to treat trades as independent`,
    );
  }
  requireColumns("eventStudy", trades, [...needCols, ...valueCols, ...clusterCols]);
  // without the side column, every trade's hit is "excess above 0" and `side` is null
  const sideCol = trades.columns.includes(sideColumn(sides)) ? [sideColumn(sides)] : [];
  const cols = typeof g === "function"
    ? trades.columns
    : [...new Set([...needCols, ...valueCols, ...laterCols, ...sideCol, ...clusterCols])];
  const rows = trades.select(...cols).toRecords() as Record<string, unknown>[];
  const groups = new Map<string, number[]>();
  let ungrouped = 0;
  rows.forEach((r, i) => {
    const k = keyOf(r);
    if (k === null) {
      ungrouped++;
      return;
    }
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(i);
  });
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
    const o = opts.order?.indexOf(name) ?? -1;
    if (o >= 0) return o;
    const n = natural.indexOf(name);
    return n >= 0 ? 10_000 + n : 20_000;
  };
  // stable sort: ties keep first appearance
  const names = [...groups.keys()].sort((a, b) => rank(a) - rank(b));
  const baseline = opts.baseline ?? null;
  if (baseline !== null && !groups.has(baseline)) {
    throw new RangeError(
      `eventStudy: baseline ${JSON.stringify(baseline)} is not a group; groups: ${
        names.join(", ")
      }${didYouMean(baseline, names)}`,
    );
  }
  const monthRaw = (i: number) => {
    const v = rows[i].transaction_date;
    const d = readDay(v);
    if (d === UNREADABLE) throw unreadable("eventStudy", "transaction_date", v, i, DAY_FORMS);
    return d === null ? null : monthTextOfDay(d);
  };
  const issuerRaw = (i: number) => {
    const v = rows[i].issuer_cik;
    return v === null || v === undefined ? null : String(v);
  };
  // a trade without a cluster key is its own cluster (counted in n_missing_cluster)
  const monthOf = (i: number) => monthRaw(i) ?? `#${i}`;
  const issuerOf = (i: number) => issuerRaw(i) ?? `#${i}`;
  const clusterOf = (i: number): string =>
    clusterBy === "month" ? monthOf(i) : clusterBy === "issuer" ? issuerOf(i) : `#${i}`;
  const usesMonth = clusterBy === "two-way" || clusterBy === "month";
  const usesIssuer = clusterBy === "two-way" || clusterBy === "issuer";
  const present = (v: unknown) => v !== null && v !== undefined;
  /**
   * Whether a trade is old enough for horizon `h`: it has a value (even NaN) at `h`, or at any
   * longer window. A realized trade missing a value the figures need is counted in
   * `n_nonfinite`, whichever value it lacks; only a trade with nothing at `h` or later is young.
   */
  const realized = (r: Record<string, unknown>, h: string) =>
    FORWARD_WINDOWS.some((w) =>
      WINDOW_DAYS[w] >= WINDOW_DAYS[h] &&
      (present(r[`returns_${w}`]) || present(r[`excess_returns_${w}`]))
    );
  /** The realized values at a horizon; null when not realized yet (no value yet, or filed too late). */
  const valueOf = (i: number, h: string): { ret: unknown; excess: unknown } | null => {
    const r = rows[i];
    if (entry === "filing") {
      const f = fromFiling(r, h);
      if (f) return f;
      const d = r.filing_delay_days;
      // filed on or after the horizon's end: no filing-entry return at it (not a missing value)
      if (finite(d) && d >= WINDOW_DAYS[h]) return null;
      // realized, but lacking a value the approximation needs (a return, an excess, a usable
      // filing delay) or with a non-finite one: counted
      return realized(r, h) ? { ret: NaN, excess: NaN } : null;
    }
    return realized(r, h) ? { ret: r[`returns_${h}`], excess: r[`excess_returns_${h}`] } : null;
  };
  const signOf = (i: number): 1 | -1 | 0 => sideCol.length ? sideOf(rows[i], sides) : 1;
  const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
  let missingTotal = 0;
  const cells = new Map<string, Record<string, unknown>>();
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  for (const h of horizons) {
    const obs: Observation[] = [];
    const two: TwoWayObservation[] = [];
    const zeros = () => names.map(() => 0);
    const [buys, sales, noSide, hits, nonfinite, missing, noMonth, noIssuer] = [
      zeros(),
      zeros(),
      zeros(),
      zeros(),
      zeros(),
      zeros(),
      zeros(),
      zeros(),
    ];
    const vals: number[][] = names.map(() => []);
    const raws: number[][] = names.map(() => []);
    names.forEach((name, gi) => {
      for (const i of groups.get(name)!) {
        const p = valueOf(i, h);
        if (p === null) continue;
        // one set of trades for every figure: both values finite (the raw return alone with
        // benchmark "none"); a realized trade with a NaN, ±Infinity or missing value is counted
        const v = benchmark === "market" ? p.excess : p.ret;
        if (!finite(p.ret) || !finite(v)) {
          nonfinite[gi]++;
          continue;
        }
        raws[gi].push(p.ret);
        vals[gi].push(v);
        const sign = signOf(i);
        if (sign > 0) buys[gi]++;
        else if (sign < 0) sales[gi]++;
        else noSide[gi]++;
        if (sign !== 0 && (sign < 0 ? v < 0 : v > 0)) hits[gi]++;
        const lacksMonth = usesMonth && monthRaw(i) === null;
        const lacksIssuer = usesIssuer && issuerRaw(i) === null;
        if (lacksMonth) noMonth[gi]++;
        if (lacksIssuer) noIssuer[gi]++;
        if (lacksMonth || lacksIssuer) missing[gi]++;
        if (clusterBy === "two-way") {
          two.push({ value: v, group: gi, month: monthOf(i), issuer: issuerOf(i) });
        } else obs.push({ value: v, group: gi, cluster: clusterOf(i) });
      }
    });
    const boot = clusterBy === "two-way"
      ? null
      : clusterBootstrap(obs, names.length, samples, seed * 7_919 + hash(h));
    const cse = clusterBy === "two-way" ? twoWayClusterSe(two, names.length) : null;
    // per group: the interval, its SE and cluster count, and why it is thin
    const fig = names.map((_, gi) => {
      const xs = vals[gi];
      const n = xs.length;
      const m = n ? mean(xs) : NaN;
      let se: number;
      let lo: number;
      let hi: number;
      let clusters: number;
      let what: string;
      if (cse) {
        const c = cse.of([[gi, 1]]);
        se = c.se;
        const t = t975(c.df);
        lo = m - t * se;
        hi = m + t * se;
        clusters = Math.min(c.months, c.issuers);
        what = c.months <= c.issuers ? "months" : "issuers";
      } else {
        const bm = boot!.means[gi].filter(Number.isFinite).sort();
        se = sd(bm);
        lo = percentile(bm, 0.025);
        hi = percentile(bm, 0.975);
        clusters = boot!.clusters[gi];
        what = clusterBy === "month" ? "months" : clusterBy === "issuer" ? "issuers" : "trades";
      }
      const reason = n === 0
        ? "no trade with a return at this horizon"
        : n < minN
        ? `${n} trades < minN ${minN}`
        : clusters < minClusters
        ? `${clusters} ${what} < minClusters ${minClusters}`
        : !usableSe(se, Math.max(Math.abs(m), sd(xs)))
        ? "standard error is zero (one cluster or identical values)"
        : null;
      return { n, m, se, lo, hi, clusters, reason };
    });
    const bi = baseline === null ? -1 : names.indexOf(baseline);
    names.forEach((name, gi) => {
      const { n, m, se, lo, hi, clusters, reason } = fig[gi];
      const xs = vals[gi];
      const s = sd(xs);
      const thin = reason !== null;
      const rs = raws[gi];
      missingTotal += missing[gi];
      // the clustering really used: a dimension no trade of the row has a key for is one
      // cluster per trade, which leaves the other dimension alone
      const allMonths = n > 0 && noMonth[gi] === n;
      const allIssuers = n > 0 && noIssuer[gi] === n;
      const used = clusterBy === "two-way"
        ? allMonths && allIssuers ? "none" : allMonths ? "issuer" : allIssuers ? "month" : "two-way"
        : (clusterBy === "month" && allMonths) || (clusterBy === "issuer" && allIssuers)
        ? "none"
        : clusterBy;
      const signed = n - noSide[gi];
      let diff: number | null = null;
      let dlo: number | null = null;
      let dhi: number | null = null;
      if (bi >= 0 && gi !== bi && n && vals[bi].length) {
        diff = m - mean(vals[bi]);
        if (!thin && fig[bi].reason === null) {
          if (cse) {
            const c = cse.of([[gi, 1], [bi, -1]]);
            if (usableSe(c.se, Math.abs(diff))) {
              const t = t975(c.df);
              dlo = diff - t * c.se;
              dhi = diff + t * c.se;
            }
          } else {
            const a = boot!.means[gi];
            const b = boot!.means[bi];
            const d: number[] = [];
            for (let k = 0; k < samples; k++) {
              const x = a[k] - b[k];
              if (Number.isFinite(x)) d.push(x);
            }
            const sorted = Float64Array.from(d).sort();
            if (usableSe(sd(sorted), Math.abs(diff))) {
              dlo = percentile(sorted, 0.025);
              dhi = percentile(sorted, 0.975);
            }
          }
        }
      }
      cells.set(`${name}\u0000${h}`, {
        group: name,
        horizon: h,
        horizon_days: WINDOW_DAYS[h],
        n,
        n_clusters: clusters,
        thin,
        thin_reason: reason,
        mean_return: rs.length ? mean(rs) : null,
        median_return: rs.length ? median(rs) : null,
        mean_excess: n ? m : null,
        median_excess: n ? median(xs) : null,
        trimmed_mean_excess: n ? trimmedMean(xs) : null,
        hit_rate: signed ? (100 * hits[gi]) / signed : null,
        t_stat: !thin && usableSe(s, Math.abs(m)) ? m / (s / Math.sqrt(n)) : null,
        t_cluster: thin ? null : m / se,
        ci_low: thin ? null : num(lo),
        ci_high: thin ? null : num(hi),
        side: !n || !sideCol.length
          ? null
          : buys[gi] === n
          ? "buy"
          : sales[gi] === n
          ? "sell"
          : noSide[gi] === n
          ? "other"
          : "mixed",
        cluster: used,
        entry,
        baseline,
        diff_vs_baseline: diff,
        diff_ci_low: num(dlo ?? NaN),
        diff_ci_high: num(dhi ?? NaN),
        n_nonfinite: nonfinite[gi],
        n_missing_cluster: missing[gi],
        n_no_side: sideCol.length ? noSide[gi] : n,
      });
    });
  }
  if (missingTotal) {
    notice(
      `eventStudy: ${missingTotal} trade-horizon rows lack a cluster key (${
        usesMonth && usesIssuer
          ? "transaction_date or issuer_cik"
          : usesMonth
          ? "transaction_date"
          : "issuer_cik"
      }) and count as clusters of their own (column n_missing_cluster; \`cluster\` names the clustering really used)`,
    );
  }
  const out = names.flatMap((name) => horizons.map((h) => cells.get(`${name}\u0000${h}`)!));
  return asFrame(buildFrame(STUDY_COLUMNS, out), false, isDemo(trades));
}

/** The columns of an event-study frame, in order. */
const STUDY_COLUMNS = [
  { name: "group", type: "code" },
  { name: "horizon", type: "code" },
  { name: "horizon_days", type: "integer" },
  { name: "n", type: "integer" },
  { name: "n_clusters", type: "integer" },
  { name: "thin", type: "boolean" },
  { name: "thin_reason", type: "code" },
  { name: "mean_return", type: "decimal" },
  { name: "median_return", type: "decimal" },
  { name: "mean_excess", type: "decimal" },
  { name: "median_excess", type: "decimal" },
  { name: "trimmed_mean_excess", type: "decimal" },
  { name: "hit_rate", type: "decimal" },
  { name: "t_stat", type: "decimal" },
  { name: "t_cluster", type: "decimal" },
  { name: "ci_low", type: "decimal" },
  { name: "ci_high", type: "decimal" },
  { name: "side", type: "code" },
  { name: "cluster", type: "code" },
  { name: "entry", type: "code" },
  { name: "baseline", type: "code" },
  { name: "diff_vs_baseline", type: "decimal" },
  { name: "diff_ci_low", type: "decimal" },
  { name: "diff_ci_high", type: "decimal" },
  { name: "n_nonfinite", type: "integer" },
  { name: "n_missing_cluster", type: "integer" },
  { name: "n_no_side", type: "integer" },
] as const;

function hash(s: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16_777_619);
  return h >>> 0;
}
