/**
 * The figures of an event study, horizon by horizon: for each group, the
 * trades with a value at the horizon, their statistics, the interval of the
 * mean and of the difference against the baseline (two-way clustered or a
 * cluster bootstrap), the thin rule, and with `adjust: "bonferroni"` the
 * same intervals widened to hold jointly over the study. The columns and
 * their rules are documented in `event_study.ts`; this module computes them.
 *
 * @module
 */
import { columnSpecs } from "./_format.ts";
import { clusterBootstrap, type Observation } from "./bootstrap.ts";
import { twoWayClusterSe, type TwoWayObservation, usableSe } from "./_cluster_se.ts";
import { tQuantile } from "./_quantiles.ts";
import { jStat, mean, percentile, sd, trimmedMean } from "./_stats.ts";
import { WINDOW_DAYS } from "../insider/fields.ts";
import { type Entry, num } from "./entry.ts";
import type { ColumnSpec } from "../frames/dtypes.ts";

/** Clusterings of the intervals. */
export const CLUSTERS = ["two-way", "month", "issuer", "none"] as const;
/** How trades are clustered for the intervals. */
export type ClusterBy = typeof CLUSTERS[number];
/** Multiple-comparison adjustments of an event study's intervals. */
export const ADJUSTMENTS = ["none", "bonferroni"] as const;

/** The study's settings, defaults applied and checked (`resolveStudyOptions`). */
export interface StudySettings {
  /** Horizons in time order. */
  horizons: string[];
  /** Bootstrap resamples. */
  samples: number;
  /** Bootstrap seed. */
  seed: number;
  /** Thin below this many trades. */
  minN: number;
  /** Thin below this many clusters. */
  minClusters: number;
  /** The clustering asked for. */
  cluster: ClusterBy;
  /** Excess over the market, or raw returns. */
  benchmark: "market" | "none";
  /** Where returns start. */
  entry: Entry;
  /** Whether joint (Bonferroni) intervals are added. */
  adjust: typeof ADJUSTMENTS[number];
}

/** A trade's values at a horizon. */
export interface StudyValue {
  /** Raw return, percent. */
  ret: unknown;
  /** Excess return, percent. */
  excess: unknown;
}

/** What the cells read of the trades: the groups, their members and each trade's values and keys. */
export interface StudyData {
  /** Group names, in order. */
  names: string[];
  /** Row indices of each group's trades. */
  members: number[][];
  /** The baseline group (null: none). */
  baseline: string | null;
  /** A trade's values at a horizon; null when it is not realized there (young, or filed too late). */
  valueOf(i: number, h: string): StudyValue | null;
  /** +1 buy, −1 sell, 0 neither (1 for every trade when the frame has no side column). */
  signOf(i: number): 1 | -1 | 0;
  /** Whether the frame has the side column. */
  hasSide: boolean;
  /** A trade's calendar month, null without a date. */
  monthOf(i: number): string | null;
  /** A trade's issuer, null without one. */
  issuerOf(i: number): string | null;
}

/** Two-sided miss rate of the intervals (95 %). */
const MISS = 0.05;

/** An interval at miss rate p, or null when it has none. */
type Band = (p: number) => [number, number] | null;

const finite = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** Per group at one horizon: the trades' values and counts. */
function collect(d: StudyData, o: StudySettings, h: string) {
  const usesMonth = o.cluster === "two-way" || o.cluster === "month";
  const usesIssuer = o.cluster === "two-way" || o.cluster === "issuer";
  // each trade's keys for either interval (the bootstrap reads `cluster`, two-way the two keys)
  const obs: (Observation & TwoWayObservation)[] = [];
  const groups = d.members.map((idx, gi) => {
    const g = { vals: [] as number[], raws: [] as number[], buys: 0, sales: 0, noSide: 0, hits: 0 };
    const miss = { nonfinite: 0, missing: 0, noMonth: 0, noIssuer: 0 };
    for (const i of idx) {
      const p = d.valueOf(i, h);
      if (p === null) continue;
      // one set of trades for every figure: both values finite (the raw return alone with
      // benchmark "none"); a realized trade with a NaN, ±Infinity or missing value is counted
      const v = o.benchmark === "market" ? p.excess : p.ret;
      if (!finite(p.ret) || !finite(v)) {
        miss.nonfinite++;
        continue;
      }
      g.raws.push(p.ret);
      g.vals.push(v);
      const sign = d.signOf(i);
      if (sign > 0) g.buys++;
      else if (sign < 0) g.sales++;
      else g.noSide++;
      if (sign !== 0 && (sign < 0 ? v < 0 : v > 0)) g.hits++;
      const month = d.monthOf(i);
      const issuer = d.issuerOf(i);
      const lacksMonth = usesMonth && month === null;
      const lacksIssuer = usesIssuer && issuer === null;
      if (lacksMonth) miss.noMonth++;
      if (lacksIssuer) miss.noIssuer++;
      if (lacksMonth || lacksIssuer) miss.missing++;
      // a trade without a cluster key is its own cluster (counted in n_missing_cluster)
      const m = month ?? `#${i}`;
      const s = issuer ?? `#${i}`;
      const cluster = o.cluster === "month" ? m : o.cluster === "issuer" ? s : `#${i}`;
      obs.push({ value: v, group: gi, month: m, issuer: s, cluster });
    }
    return { ...g, ...miss };
  });
  return { groups, obs };
}

/** The spread of each group's mean and of its difference from another, for the intervals. */
interface Spread {
  /** The mean's standard error, cluster count and band. */
  of(gi: number, m: number): { se: number; clusters: number; what: string; band: Band };
  /** The band of mean(gi) − mean(bi) = diff; null when its spread is not usable. */
  diff(gi: number, bi: number, diff: number): Band | null;
}

function twoWaySpread(two: TwoWayObservation[], groups: number): Spread {
  const cse = twoWayClusterSe(two, groups);
  const band = (x: number, se: number, df: number): Band => (p) => {
    const t = tQuantile(1 - p / 2, df);
    return [x - t * se, x + t * se];
  };
  return {
    of(gi, m) {
      const c = cse.of([[gi, 1]]);
      const what = c.months <= c.issuers ? "months" : "issuers";
      return { se: c.se, clusters: Math.min(c.months, c.issuers), what, band: band(m, c.se, c.df) };
    },
    diff(gi, bi, diff) {
      const c = cse.of([[gi, 1], [bi, -1]]);
      return usableSe(c.se, Math.abs(diff)) ? band(diff, c.se, c.df) : null;
    },
  };
}

function bootSpread(obs: Observation[], groups: number, o: StudySettings, h: string): Spread {
  const boot = clusterBootstrap(obs, groups, o.samples, o.seed * 7_919 + hash(h));
  const band = (sorted: Float64Array): Band => (p) => [
    percentile(sorted, p / 2),
    percentile(sorted, 1 - p / 2),
  ];
  const what = o.cluster === "month" ? "months" : o.cluster === "issuer" ? "issuers" : "trades";
  return {
    of(gi) {
      const bm = boot.means[gi].filter(Number.isFinite).sort();
      return { se: sd(bm), clusters: boot.clusters[gi], what, band: band(bm) };
    },
    diff(gi, bi, diff) {
      const d = boot.means[gi].map((x, k) => x - boot.means[bi][k]).filter(Number.isFinite).sort();
      return usableSe(sd(d), Math.abs(diff)) ? band(d) : null;
    },
  };
}

/**
 * Why a row is thin, or null when it is not: fewer trades than `minN`, fewer
 * clusters than `minClusters` (a row with exactly `minClusters` is not thin),
 * or a standard error of zero or rounding noise.
 *
 * @example
 * ```ts
 * import { thinReason } from "./_study_cells.ts";
 * thinReason({ n: 40, clusters: 20, what: "months", se: 1, m: 0.5, sd: 3 }, 20, 20); // null
 * thinReason({ n: 40, clusters: 19, what: "months", se: 1, m: 0.5, sd: 3 }, 20, 20); // "19 months < minClusters 20"
 * ```
 */
export function thinReason(
  c: { n: number; clusters: number; what: string; se: number; m: number; sd: number },
  minN: number,
  minClusters: number,
): string | null {
  if (c.n === 0) return "no trade with a return at this horizon";
  if (c.n < minN) return `${c.n} trades < minN ${minN}`;
  if (c.clusters < minClusters) return `${c.clusters} ${c.what} < minClusters ${minClusters}`;
  if (!usableSe(c.se, Math.max(Math.abs(c.m), c.sd))) {
    return "standard error is zero (one cluster or identical values)";
  }
  return null;
}

/**
 * The rows of one horizon, one per group, with the bands behind their
 * intervals (for the joint adjustment) and the trades lacking a cluster key.
 */
function horizonCells(d: StudyData, o: StudySettings, h: string) {
  const { groups, obs } = collect(d, o, h);
  const spread = o.cluster === "two-way"
    ? twoWaySpread(obs, d.names.length)
    : bootSpread(obs, d.names.length, o, h);
  const fig = groups.map((g, gi) => {
    const n = g.vals.length;
    const m = n ? mean(g.vals) : NaN;
    const s = spread.of(gi, m);
    return {
      n,
      m,
      ...s,
      reason: thinReason({ n, m, ...s, sd: sd(g.vals) }, o.minN, o.minClusters),
    };
  });
  const bi = d.baseline === null ? -1 : d.names.indexOf(d.baseline);
  return d.names.map((name, gi) => {
    const g = groups[gi];
    const f = fig[gi];
    const thin = f.reason !== null;
    let diff: number | null = null;
    let diffBand: Band | null = null;
    if (bi >= 0 && gi !== bi && f.n && groups[bi].vals.length) {
      diff = f.m - mean(groups[bi].vals);
      if (!thin && fig[bi].reason === null) diffBand = spread.diff(gi, bi, diff);
    }
    const band = thin ? null : f.band;
    const ci = band?.(MISS);
    const dci = diffBand?.(MISS);
    return {
      band,
      diffBand,
      missing: g.missing,
      row: {
        group: name,
        horizon: h,
        horizon_days: WINDOW_DAYS[h],
        n: f.n,
        n_clusters: f.clusters,
        thin,
        thin_reason: f.reason,
        mean_return: g.raws.length ? mean(g.raws) : null,
        median_return: g.raws.length ? jStat.median(g.raws) : null,
        mean_excess: f.n ? f.m : null,
        median_excess: f.n ? jStat.median(g.vals) : null,
        trimmed_mean_excess: f.n ? trimmedMean(g.vals) : null,
        hit_rate: f.n - g.noSide ? (100 * g.hits) / (f.n - g.noSide) : null,
        t_stat: !thin && usableSe(sd(g.vals), Math.abs(f.m))
          ? f.m / (sd(g.vals) / Math.sqrt(f.n))
          : null,
        t_cluster: thin ? null : f.m / f.se,
        ci_low: num(ci?.[0]),
        ci_high: num(ci?.[1]),
        side: sideLabel(d.hasSide, f.n, g),
        cluster: usedClustering(o.cluster, f.n, g.noMonth, g.noIssuer),
        entry: o.entry,
        baseline: d.baseline,
        diff_vs_baseline: diff,
        diff_ci_low: num(dci?.[0]),
        diff_ci_high: num(dci?.[1]),
        n_nonfinite: g.nonfinite,
        n_missing_cluster: g.missing,
        n_no_side: d.hasSide ? g.noSide : f.n,
      },
    };
  });
}

function sideLabel(
  hasSide: boolean,
  n: number,
  g: { buys: number; sales: number; noSide: number },
): string | null {
  if (!n || !hasSide) return null;
  return g.buys === n ? "buy" : g.sales === n ? "sell" : g.noSide === n ? "other" : "mixed";
}

/**
 * The clustering really used: a dimension no trade of the row has a key for is one cluster per
 * trade, which leaves the other dimension alone.
 */
function usedClustering(asked: ClusterBy, n: number, noMonth: number, noIssuer: number): ClusterBy {
  // the dimensions asked for, less those no trade of the row has a key for
  const month = (asked === "two-way" || asked === "month") && !(n > 0 && noMonth === n);
  const issuer = (asked === "two-way" || asked === "issuer") && !(n > 0 && noIssuer === n);
  return month && issuer ? "two-way" : month ? "month" : issuer ? "issuer" : "none";
}

/**
 * Every row of a study (groups in order, horizons in time within a group),
 * with the joint intervals when `adjust` is `"bonferroni"`: the family is
 * every interval the study reports (the means' and the differences'), each
 * widened to miss rate 0.05 / family, and `n_comparisons` is its size. Also
 * returns how many trade-horizon rows lack a cluster key.
 *
 * @example
 * ```ts
 * import { studyRows } from "./_study_cells.ts";
 * const data = {
 *   names: ["all"], members: [[0, 1, 2]], baseline: null, hasSide: false,
 *   valueOf: (i: number) => ({ ret: i, excess: i }), signOf: () => 1 as const,
 *   monthOf: (i: number) => `2024-0${i + 1}`, issuerOf: (i: number) => String(i),
 * };
 * const settings = { horizons: ["1m"], samples: 100, seed: 1, minN: 2, minClusters: 2,
 *   cluster: "two-way" as const, benchmark: "market" as const, entry: "trade" as const, adjust: "none" as const };
 * studyRows(data, settings).rows[0].mean_excess; // 1
 * ```
 */
export function studyRows(
  d: StudyData,
  o: StudySettings,
): { rows: Record<string, unknown>[]; missing: number } {
  const byHorizon = o.horizons.map((h) => horizonCells(d, o, h));
  const cells = d.names.flatMap((_, gi) => byHorizon.map((hs) => hs[gi]));
  if (o.adjust === "bonferroni") {
    const family = cells.filter((c) => c.band).length + cells.filter((c) => c.diffBand).length;
    for (const c of cells) {
      const ci = c.band?.(MISS / family);
      const dci = c.diffBand?.(MISS / family);
      Object.assign(c.row, {
        ci_low_adj: num(ci?.[0]),
        ci_high_adj: num(ci?.[1]),
        diff_ci_low_adj: num(dci?.[0]),
        diff_ci_high_adj: num(dci?.[1]),
        n_comparisons: family,
      });
    }
  }
  return { rows: cells.map((c) => c.row), missing: cells.reduce((s, c) => s + c.missing, 0) };
}

/** The columns of an event-study frame, in order (the joint ones only with `adjust: "bonferroni"`). */
export function studyColumns(adjust: StudySettings["adjust"]): readonly ColumnSpec[] {
  return adjust === "bonferroni" ? [...STUDY_COLUMNS, ...ADJUSTED_COLUMNS] : STUDY_COLUMNS;
}

const STUDY_COLUMNS = columnSpecs(
  "group:code horizon horizon_days:integer n n_clusters thin:boolean thin_reason:code " +
    "mean_return:decimal median_return mean_excess median_excess trimmed_mean_excess hit_rate " +
    "t_stat t_cluster ci_low ci_high side:code cluster entry baseline diff_vs_baseline:decimal " +
    "diff_ci_low diff_ci_high n_nonfinite:integer n_missing_cluster n_no_side",
);

const ADJUSTED_COLUMNS = columnSpecs(
  "ci_low_adj:decimal ci_high_adj diff_ci_low_adj diff_ci_high_adj n_comparisons:integer",
);

function hash(s: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16_777_619);
  return h >>> 0;
}
