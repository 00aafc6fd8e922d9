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
  // per cluster, the sum and count of each group present in it (sparse)
  const index = new Map<string, number>();
  const cells: Map<number, [number, number]>[] = [];
  for (const o of obs) {
    let c = index.get(o.cluster);
    if (c === undefined) {
      c = cells.length;
      index.set(o.cluster, c);
      cells.push(new Map());
    }
    const cell = cells[c].get(o.group);
    if (cell) {
      cell[0] += o.value;
      cell[1] += 1;
    } else cells[c].set(o.group, [o.value, 1]);
  }
  const C = cells.length;
  const start = new Int32Array(C + 1);
  for (let c = 0; c < C; c++) start[c + 1] = start[c] + cells[c].size;
  const eg = new Int32Array(start[C]);
  const es = new Float64Array(start[C]);
  const en = new Float64Array(start[C]);
  const clusters = new Array<number>(groups).fill(0);
  for (let c = 0, k = 0; c < C; c++) {
    for (const [g, [s, n]] of cells[c]) {
      eg[k] = g;
      es[k] = s;
      en[k] = n;
      clusters[g]++;
      k++;
    }
  }
  const means = Array.from({ length: groups }, () => new Float64Array(samples));
  const rng = new Rng(seed);
  const sums = new Float64Array(groups);
  const counts = new Float64Array(groups);
  for (let b = 0; b < samples; b++) {
    sums.fill(0);
    counts.fill(0);
    for (let d = 0; d < C; d++) {
      const c = Math.floor(rng.next() * C);
      for (let k = start[c]; k < start[c + 1]; k++) {
        sums[eg[k]] += es[k];
        counts[eg[k]] += en[k];
      }
    }
    for (let g = 0; g < groups; g++) means[g][b] = counts[g] > 0 ? sums[g] / counts[g] : NaN;
  }
  return { means, clusters };
}
