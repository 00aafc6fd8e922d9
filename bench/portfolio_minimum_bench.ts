/**
 * The minimum months behind `alphaInterval` and `sharpeInterval`
 * (`MIN_INTERVAL_MONTHS`, issue 32): how often each 95 % interval covers the
 * truth for a portfolio of n months, by simulation with known alpha and
 * Sharpe ratio. Monthly returns follow the market model of the emulator's
 * headline portfolios: y = α + β·m + e with the market m ~ N(0.57, 4.6²)
 * percent a month (7 %/yr, 16 %/yr vol), α = 0.5 % a month, β = 1, and
 * residuals e from Student's t with 4 degrees of freedom (fat tails),
 * scaled to sd 1.5 % a month, with lag-1 autocorrelation 0, 0.1 or 0.2
 * (positions held over several months overlap, and the booking lumps part
 * of a position's return into the months its points are observed). The true Sharpe ratio is
 * E[y] / sd(y) · √12 of that process; the true alpha 12·α.
 *
 * The intervals are the library's (`alphaStats`: OLS with a Newey-West SE,
 * t with n − 2 degrees of freedom; `sharpeStats`: Mertens 2002 SE, normal
 * quantile) with the minimum waived. Prints coverage by n.
 *
 * `deno run -A bench/portfolio_minimum_bench.ts`; `MINIMUM_REPS` (default
 * 4,000 portfolios per n). Seeded: the same table every run.
 *
 * @module
 */
import { table } from "./loopback.ts";
import { Rng } from "../lib/shared/random.ts";
import { alphaOf, alphaStats, sharpeStats } from "../lib/backtest/_portfolio_stats.ts";
import { t975 } from "../lib/backtest/_quantiles.ts";

/** Months checked. */
export const MINIMUM_MONTHS = [3, 6, 9, 12, 18, 24, 36, 60, 120] as const;

const ALPHA = 0.5;
const BETA = 1;
const MKT = { mean: 0.57, sd: 4.6 };
const RESID = { sd: 1.5, df: 4 };
/** Lag-1 autocorrelations of the residuals compared. */
export const MINIMUM_ARS = [0, 0.1, 0.2] as const;

/** A Student-t draw with `df` degrees of freedom, scaled to unit variance. */
function studentT(rng: Rng, df: number): number {
  let chi = 0;
  for (let k = 0; k < df; k++) chi += rng.normal() ** 2;
  return rng.normal() / Math.sqrt(chi / df) / Math.sqrt(df / (df - 2));
}

/** One simulated portfolio of n months: returns and market returns. */
function simulate(rng: Rng, n: number, ar: number): { y: number[]; m: number[] } {
  const y: number[] = [];
  const m: number[] = [];
  let e = 0;
  const innov = RESID.sd * Math.sqrt(1 - ar ** 2);
  for (let t = 0; t < n + 20; t++) {
    e = ar * e + innov * studentT(rng, RESID.df);
    const mt = MKT.mean + MKT.sd * rng.normal();
    if (t >= 20) {
      y.push(ALPHA + BETA * mt + e);
      m.push(mt);
    }
  }
  return { y, m };
}

/**
 * Coverage of both intervals at each n, per autocorrelation: [alpha, alpha
 * width, Sharpe, alpha with the plain Newey-West SE (no floor, no n/(n − 2))].
 */
function coverageAt(
  reps: number,
  ar: number,
  n: number,
  rng: Rng,
): [number, number, number, number] {
  const trueSharpe = ((ALPHA + BETA * MKT.mean) /
    Math.sqrt(BETA ** 2 * MKT.sd ** 2 + RESID.sd ** 2)) * Math.sqrt(12);
  {
    let aIn = 0;
    let plainIn = 0;
    let aN = 0;
    let sIn = 0;
    let sN = 0;
    let aWidth = 0;
    for (let r = 0; r < reps; r++) {
      const { y, m } = simulate(rng, n, ar);
      const fit = alphaOf(y, m);
      const plainSe = Math.abs(fit.monthly / fit.tStat);
      if (Math.abs(fit.monthly - ALPHA) <= t975(n - 2) * plainSe) plainIn++;
      const a = alphaStats(y, m, 3).interval;
      if (a) {
        aN++;
        aWidth += a[1] - a[0];
        if (a[0] <= 12 * ALPHA && 12 * ALPHA <= a[1]) aIn++;
      }
      const s = sharpeStats(y, 3).interval;
      if (s) {
        sN++;
        if (s[0] <= trueSharpe && trueSharpe <= s[1]) sIn++;
      }
    }
    return [100 * aIn / aN, aWidth / aN, 100 * sIn / sN, 100 * plainIn / reps];
  }
}

/** The table rows: months, then alpha coverage, Sharpe coverage per autocorrelation, and alpha's width. */
export function minimumRows(reps: number): (string | number)[][] {
  const rng = new Rng(32);
  return MINIMUM_MONTHS.map((n) => {
    const cs = MINIMUM_ARS.map((ar) => coverageAt(reps, ar, n, rng));
    const p = (x: number) => `${x.toFixed(1)}%`;
    return [
      n,
      ...cs.map((c) => p(c[0])),
      ...cs.map((c) => p(c[2])),
      cs[1][1],
      cs.map((c) => c[3].toFixed(1)).join(" / "),
    ];
  });
}

/** Runs the simulation and returns the printed table. */
export function portfolioMinimumBench(
  reps = Number(Deno.env.get("MINIMUM_REPS") ?? 4000),
): string {
  return table(
    `Coverage of the 95 % intervals by portfolio months (${reps} simulated portfolios per cell; alpha ${
      12 * ALPHA
    } %/yr, beta ${BETA}, t(${RESID.df}) residuals with sd ${RESID.sd} % a month, AR(1) ${
      MINIMUM_ARS.join(" / ")
    })`,
    [
      "months",
      ...MINIMUM_ARS.map((a) => `alphaInterval, AR ${a}`),
      ...MINIMUM_ARS.map((a) => `sharpeInterval, AR ${a}`),
      "alpha width (%/yr), AR 0.1",
      "plain Newey-West alpha interval, AR 0 / 0.1 / 0.2 (%)",
    ],
    minimumRows(reps),
  );
}

if (import.meta.main) console.log(portfolioMinimumBench());
