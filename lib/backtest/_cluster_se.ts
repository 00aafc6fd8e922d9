/**
 * Analytic cluster-robust standard errors of group means, one-way or
 * two-way (Cameron, Gelbach & Miller 2011, "Robust inference with multiway
 * clustering", JBES 29; Petersen 2009, RFS 22).
 *
 * A group's mean m = Σ xᵢ / n is a regression on a constant; its score in
 * cluster c is s_c = Σ_{i∈c} (xᵢ − m) / n and the one-way variance is
 * `G/(G−1) · Σ_c s_c²` (the small-sample factor of Stata and statsmodels,
 * with K = 1). Two-way: `V = V_month + V_issuer − V_month∩issuer`, each
 * term with its own factor; when the difference is not positive (it can
 * be, in small samples) the larger one-way variance is used, as CGM
 * suggest. The interval is m ± t(G − 1)·se with G the smaller dimension's
 * cluster count (Cameron & Miller 2015, "A practitioner's guide to
 * cluster-robust inference", JHR 50).
 *
 * Differences of two groups (which may share trades: "CEO buys" are also in
 * "All purchases") use the difference of their scores cluster by cluster,
 * so what the groups share is accounted for.
 *
 * @module
 */
/** One observation: value, group, and its two cluster keys. */
export interface TwoWayObservation {
  /** The value (e.g. an excess return in percent). */
  value: number;
  /** Index of its group. */
  group: number;
  /** First dimension (calendar month of the trade). */
  month: string;
  /** Second dimension (issuer). */
  issuer: string;
}

/** Standard error with its degrees of freedom and cluster counts. */
export interface ClusterSe {
  /** Standard error (NaN below two clusters in a dimension). */
  se: number;
  /** Degrees of freedom of the t interval: the smaller cluster count − 1. */
  df: number;
  /** Distinct months. */
  months: number;
  /** Distinct issuers. */
  issuers: number;
}

type Dim = "month" | "issuer" | "both";
const keyOf = (o: TwoWayObservation, d: Dim) =>
  d === "month" ? o.month : d === "issuer" ? o.issuer : `${o.month}\u0000${o.issuer}`;

/**
 * Two-way cluster-robust standard errors for group means and differences.
 *
 * @example
 * ```ts
 * import { twoWayClusterSe } from "./_cluster_se.ts";
 * const obs = [1, 2, 3, 4, 5, 6].map((v, i) => ({
 *   value: v, group: 0, month: `m${i % 3}`, issuer: `i${i % 2}`,
 * }));
 * const se = twoWayClusterSe(obs, 1);
 * se.of([[0, 1]]).months; // 3
 * ```
 */
export function twoWayClusterSe(
  obs: readonly TwoWayObservation[],
  groups: number,
): { means: number[]; of: (weights: [number, number][]) => ClusterSe } {
  // each group's observations, in order: their count and mean
  const byGroup = Map.groupBy(obs, (o) => o.group);
  const counts = Array.from({ length: groups }, (_, g) => byGroup.get(g)?.length ?? 0);
  const means = counts.map((n, g) =>
    n ? byGroup.get(g)!.reduce((s, o) => s + o.value, 0) / n : NaN
  );
  /** A linear combination Σ w_g · mean_g (e.g. [[a, 1], [b, −1]] for a − b). */
  const of = (weights: [number, number][]): ClusterSe => {
    const w = new Map(weights);
    const variance = (d: Dim) => {
      // each cluster's score: Σ w_g (x − mean_g) / n_g over its observations of the weighted groups
      const scores = [
        ...Map.groupBy(obs.filter((o) => w.has(o.group)), (o) => keyOf(o, d))
          .values(),
      ].map((os) =>
        os.reduce((s, o) => s + (w.get(o.group)! * (o.value - means[o.group])) / counts[o.group], 0)
      );
      const G = scores.length;
      const v = scores.reduce((a, s) => a + s * s, 0);
      return { v: G > 1 ? (G / (G - 1)) * v : NaN, G };
    };
    const m = variance("month");
    const i = variance("issuer");
    const b = variance("both");
    let v = m.v + i.v - b.v;
    if (!(v > 0)) v = Math.max(m.v, i.v);
    const G = Math.min(m.G, i.G);
    return { se: Math.sqrt(v), df: G - 1, months: m.G, issuers: i.G };
  };
  return { means, of };
}

/**
 * Whether a standard error is usable for a t: positive, finite and more
 * than rounding noise relative to the scale of the data (`scale`, e.g. the
 * values' standard deviation or the mean's magnitude). A single cluster, or
 * values that are all equal, give an SE of 0 or ~1e-14: never a t.
 *
 * @example
 * ```ts
 * import { usableSe } from "./_cluster_se.ts";
 * usableSe(1e-14, 10.6); // false
 * usableSe(0.8, 10.6); // true
 * ```
 */
export function usableSe(se: number, scale: number): boolean {
  return Number.isFinite(se) && se > 1e-9 * Math.max(1, Math.abs(scale));
}
