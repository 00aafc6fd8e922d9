/**
 * Event studies over a transactions frame: for each group and horizon, how
 * the stock did after the trade.
 *
 * Figures, per group × horizon (returns in percent):
 * - `n`: trades with a realized return at that horizon (younger trades are
 *   left out, never treated as zero);
 * - `mean_return`, `median_return`: the stock's return from the trade date;
 * - `mean_excess`, `median_excess`: return minus the market over the same
 *   window (the service's `excess_returns_*`); with `benchmark: "none"` the
 *   raw return is used wherever "excess" is named below;
 * - `hit_rate`: share of trades with a positive excess return (for sales a
 *   low hit rate means the sale was well timed);
 * - `t_stat`: mean / (sd / √n) of the excess return;
 * - `ci_low`, `ci_high`: bootstrap 95 % interval of the mean excess return
 *   (percentile method, seeded, so reruns give the same figures);
 * - `diff_vs_baseline`, `diff_ci_low`, `diff_ci_high`: the mean excess minus
 *   the baseline group's, with its own bootstrap interval.
 *
 * Grouping uses only what was known at filing time: roles and flags of the
 * filing, its value, and the point-in-time win rate (computed by the service
 * from the insider's earlier trades only). `returns_latest` is never used.
 *
 * Limits: the sample is what the service returns today (survivorship: the
 * issuers still covered); windows of trades close in time overlap, so the
 * trades are not independent and the intervals are too narrow when trades
 * cluster; returns are from the trade date, while an investor could act only
 * after the filing.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { Rng } from "../shared/random.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import { buildFrame } from "../frames/build.ts";
import { WINDOW_DAYS } from "../families/transactions.ts";
import { requireColumns } from "../frames/columns.ts";

/** Horizons an event study can use. */
export const STUDY_HORIZONS = ["1w", "1m", "3m", "6m", "1y"] as const;
/** A study horizon. */
export type StudyHorizon = typeof STUDY_HORIZONS[number];

/** Built-in groupings. */
export const GROUPINGS = ["role", "size", "winRate", "cluster", "10b5-1", "side"] as const;
/** A built-in grouping, a column name, or a function of a row. */
export type GroupBy =
  | typeof GROUPINGS[number]
  | `${string}`
  | ((row: Record<string, unknown>) => string | null);

/** Options of {@link eventStudy}. */
export interface EventStudyOptions {
  /** Grouping (default: one group "all"). */
  groupBy?: GroupBy;
  /** Horizons (default 1m, 3m, 6m, 1y). */
  horizons?: StudyHorizon[];
  /** `market` (default): excess returns; `none`: raw returns. */
  benchmark?: "market" | "none";
  /** Baseline group for the differences (default: the largest group). */
  baseline?: string;
  /** Bootstrap resamples (default 1,000). */
  samples?: number;
  /** Bootstrap seed (default 42). */
  seed?: number;
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
  side: [
    ["acquired_disposed_code"],
    (r) =>
      r.acquired_disposed_code === "A" ? "buy" : r.acquired_disposed_code === "D" ? "sell" : null,
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

function mean(xs: Float64Array | number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function bootMeans(xs: number[], samples: number, rng: Rng): Float64Array {
  const out = new Float64Array(samples);
  const n = xs.length;
  for (let b = 0; b < samples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += xs[Math.floor(rng.next() * n)];
    out[b] = s / n;
  }
  return out;
}

function pct(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))];
}

/**
 * Runs an event study; returns one row per group × horizon.
 *
 * @example
 * ```ts
 * import { connect, eventStudy } from "../../mod.ts";
 * const { insider } = await connect();
 * const buys = await insider.search({ tradeType: "purchase", onlyMarketTransactions: true }).frame();
 * const stats = eventStudy(buys, { groupBy: "role", horizons: ["1m", "3m", "6m"] });
 * ```
 */
export function eventStudy(trades: pl.DataFrame, opts: EventStudyOptions = {}): Frame {
  const horizons = opts.horizons ?? ["1m", "3m", "6m", "1y"];
  for (const h of horizons) {
    if (!(STUDY_HORIZONS as readonly string[]).includes(h)) {
      throw new RangeError(
        `eventStudy: horizon ${JSON.stringify(h)} is not allowed; allowed: ${
          STUDY_HORIZONS.join(", ")
        }`,
      );
    }
  }
  const samples = opts.samples ?? 1000;
  const benchmark = opts.benchmark ?? "market";
  let keyOf: (r: Record<string, unknown>) => string | null;
  let needCols: string[] = [];
  const g = opts.groupBy;
  if (g === undefined) keyOf = () => "all";
  else if (typeof g === "function") keyOf = g;
  else if (BUILT_IN[g]) [needCols, keyOf] = BUILT_IN[g];
  else {
    needCols = [g];
    keyOf = (r) => r[g] === null || r[g] === undefined ? null : String(r[g]);
  }
  const valueCols = horizons.flatMap((h) => [`returns_${h}`, `excess_returns_${h}`]);
  requireColumns("eventStudy", trades, [...needCols, ...valueCols]);
  const extra = typeof g === "function"
    ? trades.columns
    : [...new Set([...needCols, ...valueCols])];
  const rows = trades.select(...extra).toRecords() as Record<string, unknown>[];
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const k = keyOf(r);
    if (k === null) continue;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(r);
  }
  if (groups.size === 0) {
    throw new Error("eventStudy: no trades to study (empty frame or every group key null)");
  }
  const names = [...groups.keys()].sort();
  const baseline = opts.baseline ?? [...groups].sort((a, b) => b[1].length - a[1].length)[0][0];
  if (!groups.has(baseline)) {
    throw new RangeError(
      `eventStudy: baseline ${JSON.stringify(baseline)} is not a group; groups: ${
        names.join(", ")
      }`,
    );
  }
  const out: Record<string, unknown>[] = [];
  for (const h of horizons) {
    const value = (r: Record<string, unknown>) =>
      (benchmark === "market" ? r[`excess_returns_${h}`] : r[`returns_${h}`]) as number | null;
    const boots = new Map<string, Float64Array>();
    const vals = new Map<string, number[]>();
    for (const name of names) {
      const xs = groups.get(name)!.map(value).filter((v): v is number =>
        typeof v === "number" && Number.isFinite(v)
      );
      vals.set(name, xs);
      if (xs.length) {
        boots.set(
          name,
          bootMeans(xs, samples, new Rng((opts.seed ?? 42) * 7_919 + hash(`${name}|${h}`))),
        );
      }
    }
    const base = boots.get(baseline);
    for (const name of names) {
      const xs = vals.get(name)!;
      const rs = groups.get(name)!.map((r) => r[`returns_${h}`]).filter((v): v is number =>
        typeof v === "number"
      );
      const n = xs.length;
      const m = n ? mean(xs) : NaN;
      const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1)) : NaN;
      const bm = boots.get(name);
      const sorted = bm ? Float64Array.from(bm).sort() : undefined;
      let diff: number | null = null;
      let dlo: number | null = null;
      let dhi: number | null = null;
      if (bm && base && name !== baseline) {
        const d = new Float64Array(samples);
        for (let i = 0; i < samples; i++) d[i] = bm[i] - base[i];
        d.sort();
        diff = m - mean(vals.get(baseline)!);
        dlo = pct(d, 0.025);
        dhi = pct(d, 0.975);
      }
      out.push({
        group: name,
        horizon: h,
        horizon_days: WINDOW_DAYS[h],
        n,
        mean_return: rs.length ? mean(rs) : null,
        median_return: rs.length ? median(rs) : null,
        mean_excess: n ? m : null,
        median_excess: n ? median(xs) : null,
        hit_rate: n ? xs.filter((x) => x > 0).length / n : null,
        t_stat: n > 1 && sd > 0 ? m / (sd / Math.sqrt(n)) : null,
        ci_low: sorted ? pct(sorted, 0.025) : null,
        ci_high: sorted ? pct(sorted, 0.975) : null,
        baseline,
        diff_vs_baseline: diff,
        diff_ci_low: dlo,
        diff_ci_high: dhi,
      });
    }
  }
  return asFrame(
    buildFrame([
      { name: "group", dtype: "utf8" },
      { name: "horizon", dtype: "utf8" },
      { name: "horizon_days", dtype: "i64" },
      { name: "n", dtype: "i64" },
      { name: "mean_return", dtype: "f64" },
      { name: "median_return", dtype: "f64" },
      { name: "mean_excess", dtype: "f64" },
      { name: "median_excess", dtype: "f64" },
      { name: "hit_rate", dtype: "f64" },
      { name: "t_stat", dtype: "f64" },
      { name: "ci_low", dtype: "f64" },
      { name: "ci_high", dtype: "f64" },
      { name: "baseline", dtype: "utf8" },
      { name: "diff_vs_baseline", dtype: "f64" },
      { name: "diff_ci_low", dtype: "f64" },
      { name: "diff_ci_high", dtype: "f64" },
    ], out),
    false,
  );
}

function hash(s: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16_777_619);
  return h >>> 0;
}
