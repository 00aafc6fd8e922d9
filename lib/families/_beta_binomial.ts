/**
 * Empirical-Bayes shrinkage of win rates: a beta prior fitted across
 * authors by maximum likelihood of the beta-binomial marginal, and each
 * author's posterior mean under it.
 *
 * The model: author i's true rate p_i is drawn from Beta(α, β); their wins
 * k_i of n_i pitches are Binomial(n_i, p_i). Integrating p_i out, the
 * likelihood of (α, β) is the product of beta-binomial probabilities, whose
 * log is (binomial coefficients dropped, they do not depend on α, β)
 *
 * ```
 * Σ_i [ Σ_{j<k_i} ln(α+j) + Σ_{j<n_i−k_i} ln(β+j) − Σ_{j<n_i} ln(α+β+j) ]
 * ```
 *
 * which is exact for whole counts (no log-gamma approximation) and, summed
 * by j over counts of authors, costs O(largest n) per evaluation. It is
 * maximized over the prior mean μ = α/(α+β) (concave for a fixed α+β:
 * golden-section search) and the strength M = α+β (golden-section search on
 * ln M in [e^-7, e^16]).
 *
 * No spread: when the authors' counts vary no more than binomial draws at
 * one common rate would (the fitted M at its upper end, or a likelihood no
 * better than the binomial's at the pooled rate), the prior has no spread:
 * `strength` is `Infinity` and every shrunk rate is the pooled rate. The
 * same holds when every pitch won or every pitch lost.
 *
 * @module
 */

/** A fitted beta prior: its mean and its strength α + β (in pitches). */
export interface BetaPrior {
  /** The prior mean α / (α + β). */
  mean: number;
  /** α + β, the prior's weight in pitches; `Infinity` when the authors show no spread. */
  strength: number;
}

/** ln L(α, β) from the counts of authors by j (see the module doc). */
function logLik(a: Float64Array, b: Float64Array, c: Float64Array, alpha: number, beta: number) {
  let s = 0;
  for (let j = 0; j < c.length; j++) {
    if (a[j]) s += a[j] * Math.log(alpha + j);
    if (b[j]) s += b[j] * Math.log(beta + j);
    s -= c[j] * Math.log(alpha + beta + j);
  }
  return s;
}

/** The argmax of a unimodal `f` on [lo, hi] by golden-section search. */
function golden(f: (x: number) => number, lo: number, hi: number, steps = 80): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let [x1, x2] = [hi - g * (hi - lo), lo + g * (hi - lo)];
  let [f1, f2] = [f(x1), f(x2)];
  for (let i = 0; i < steps; i++) {
    if (f1 < f2) {
      [lo, x1, f1] = [x1, x2, f2];
      x2 = lo + g * (hi - lo);
      f2 = f(x2);
    } else {
      [hi, x2, f2] = [x2, x1, f1];
      x1 = hi - g * (hi - lo);
      f1 = f(x1);
    }
  }
  return (lo + hi) / 2;
}

const LOG_M = [-7, 16] as const;

/**
 * The beta prior of the authors' rates by maximum likelihood of the
 * beta-binomial marginal (see the module doc), from each author's `wins`
 * of `pitches`.
 *
 * @example
 * ```ts
 * import { fitBetaPrior } from "./_beta_binomial.ts";
 * // 100 authors of 2 pitches: 30 won none, 40 one, 30 both: μ = 0.5, M = 4 (closed form)
 * const wins = [...Array(30).fill(0), ...Array(40).fill(1), ...Array(30).fill(2)];
 * fitBetaPrior(wins, wins.map(() => 2)); // { mean: 0.5, strength: 4 } (to 1e-6)
 * ```
 */
export function fitBetaPrior(wins: readonly number[], pitches: readonly number[]): BetaPrior {
  const total = pitches.reduce((s, n) => s + n, 0);
  const won = wins.reduce((s, k) => s + k, 0);
  const pooled = won / total;
  if (!(won > 0 && won < total)) return { mean: pooled, strength: Infinity };
  const size = Math.max(...pitches);
  // at each j, how many authors have more than j wins, losses, pitches
  const above = (xs: readonly number[]) =>
    Float64Array.from({ length: size }, (_, j) => xs.filter((x) => x > j).length);
  const [a, b, c] = [above(wins), above(pitches.map((n, i) => n - wins[i])), above(pitches)];
  const at = (mu: number, m: number) => logLik(a, b, c, mu * m, (1 - mu) * m);
  const bestMean = (m: number) => golden((mu) => at(mu, m), 1e-12, 1 - 1e-12);
  const logM = golden((t) => at(bestMean(Math.exp(t)), Math.exp(t)), LOG_M[0], LOG_M[1], 60);
  const strength = Math.exp(logM);
  const mean = bestMean(strength);
  const binomial = won * Math.log(pooled) + (total - won) * Math.log(1 - pooled);
  // the binomial limit (M → ∞) is the better fit: no spread between authors
  if (logM > LOG_M[1] - 1e-3 || at(mean, strength) <= binomial) {
    return { mean: pooled, strength: Infinity };
  }
  return { mean, strength };
}

/**
 * An author's posterior mean under `prior`: (wins + α) / (pitches + α + β),
 * the raw rate pulled toward the prior mean by the weight M / (n + M); the
 * prior mean itself under a prior of no spread.
 */
export function shrunkRate(wins: number, pitches: number, prior: BetaPrior): number {
  if (!Number.isFinite(prior.strength)) return prior.mean;
  return (wins + prior.mean * prior.strength) / (pitches + prior.strength);
}
