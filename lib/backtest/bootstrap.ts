/**
 * The cluster bootstrap behind the event study's intervals.
 *
 * Observations (one per trade row with a finite value) carry a group and a
 * cluster. Each replicate draws as many clusters as there are, with
 * replacement, from all clusters of all groups at once, and recomputes every
 * group's mean from the observations of the drawn clusters (a cluster drawn
 * twice counts twice). Drawing jointly keeps what groups share: when "CEO
 * buys" and "All purchases" both sit in a bad month, a replicate that draws
 * that month twice moves both, so the interval of their difference reflects
 * that common shock instead of treating the two groups as independent.
 *
 * With one cluster per observation this is the ordinary i.i.d. (pairs)
 * bootstrap of the whole sample.
 *
 * @module
 */
import { Rng } from "../shared/random.ts";

/** One observation: its value, group index and cluster key. */
export interface Observation {
  /** The value (e.g. an excess return in percent). */
  value: number;
  /** Index of its group. */
  group: number;
  /** Its cluster (e.g. "2024-03" or an issuer CIK). */
  cluster: string;
}

/** Bootstrap output: per group, the replicate means and the number of clusters it spans. */
export interface BootResult {
  /** Replicate means, one `Float64Array(samples)` per group (NaN when a replicate drew none of it). */
  means: Float64Array[];
  /** Distinct clusters holding at least one observation of each group. */
  clusters: number[];
}

/**
 * Joint cluster bootstrap of group means.
 *
 * @example
 * ```ts
 * import { clusterBootstrap } from "./bootstrap.ts";
 * const obs = [1, 2, 3, 4].map((v, i) => ({ value: v, group: 0, cluster: String(i % 2) }));
 * const { means, clusters } = clusterBootstrap(obs, 1, 200, 7);
 * // clusters[0] === 2; means[0] holds 200 replicate means
 * ```
 */
export function clusterBootstrap(
  obs: readonly Observation[],
  groups: number,
  samples: number,
  seed: number,
): BootResult {
  // per cluster (in order of first appearance), the sum and count of each group present in it
  const cells = [...Map.groupBy(obs, (o) => o.cluster).values()].map((own) =>
    [...Map.groupBy(own, (o) => o.group)].map(([g, os]) =>
      [g, os.reduce((s, o) => s + o.value, 0), os.length] as const
    )
  );
  const C = cells.length;
  const clusters = Array.from(
    { length: groups },
    (_, g) => cells.filter((cell) => cell.some(([h]) => h === g)).length,
  );
  const means = Array.from({ length: groups }, () => new Float64Array(samples));
  const rng = new Rng(seed);
  const sums = new Float64Array(groups);
  const counts = new Float64Array(groups);
  for (let b = 0; b < samples; b++) {
    sums.fill(0);
    counts.fill(0);
    for (let d = 0; d < C; d++) {
      for (const [g, s, n] of cells[Math.floor(rng.next() * C)]) {
        sums[g] += s;
        counts[g] += n;
      }
    }
    for (let g = 0; g < groups; g++) means[g][b] = counts[g] > 0 ? sums[g] / counts[g] : NaN;
  }
  return { means, clusters };
}
