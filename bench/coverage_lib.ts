/**
 * Estimators against the truth: for each seed, build a small emulator world,
 * run the headline event study (the path users take: rows → transactions
 * frame → `headlineStudy`) under each clustering, and check whether each
 * 95 % interval covers the effect the emulator built in (`stub.truth`):
 * the mean expected excess return of exactly the trades the estimate uses.
 * The portfolio backtest's alpha is compared with the alpha of the same
 * backtest run on the noise-free returns (each trade's expected excess
 * return plus its realized market return).
 *
 * Shared by `bench/coverage_bench.ts` (60 seeds for the docs) and the smaller CI test
 * in `tests/backtest/coverage_test.ts`.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { createStub } from "../lib/stub/mod.ts";
import type { TruthHorizon } from "../lib/stub/mod.ts";
import { transactionsFrame } from "../lib/insider/transaction_frames.ts";
import { headlineStudy } from "../lib/backtest/headline.ts";
import { portfolioBacktest } from "../lib/backtest/portfolio.ts";
import type { ClusterBy } from "../lib/backtest/event_study.ts";
import { fromFiling } from "../lib/backtest/entry.ts";
import { type TransactionRow, WINDOW_DAYS } from "../lib/insider/fields.ts";
import { eventStudy, groupKey } from "../lib/backtest/event_study.ts";
import { tradeClass } from "../lib/families/trade_class.ts";
import { FEED_TOPICS } from "../lib/insider/feeds.ts";
import { keepOpenMarket } from "../lib/cli/backtest.ts";

/** Horizons checked. */
export const COVERAGE_HORIZONS = ["1m", "3m", "6m", "1y"] as const;
/** Clusterings compared. */
export const CLUSTERINGS: ClusterBy[] = ["two-way", "issuer", "month", "none"];
/**
 * Pulls checked: the whole history, and the newest 5,000 and 2,000 rows (as
 * `--max-rows` gives; they span about 25 and 10 months at scale 0.5, so the
 * month counts behind the intervals cover the range `minClusters` is chosen
 * from).
 */
export const PULLS = ["full", "newest 5,000", "newest 2,000"] as const;
/** A pull. */
export type Pull = typeof PULLS[number];
/** Headline groups checked. */
export const GROUPS = ["CEO buys", "All purchases", "10b5-1 sales"] as const;

/** One interval checked against the truth. */
export interface Check {
  /** Seed of the world. */
  seed: number;
  /** Clustering of the interval. */
  cluster: ClusterBy;
  /** Which rows the study saw. */
  pull: Pull;
  /** Clusters behind the interval (the smaller dimension for two-way). */
  clusters: number;
  /** Group, or `CEO buys − All purchases` for the difference. */
  target: string;
  /** Horizon. */
  horizon: TruthHorizon;
  /** The estimate (mean excess, or difference of means). */
  estimate: number;
  /** The truth for exactly these trades. */
  truth: number;
  /** Interval. */
  low: number;
  /** Interval. */
  high: number;
}

/** One world's portfolio alpha and its truth. */
export interface AlphaCheck {
  /** Seed. */
  seed: number;
  /** Holding period of the portfolio. */
  horizon: "1m" | "6m";
  /** Estimated annualized alpha of the CEO-buys portfolio (equal weight, no costs), percent/yr. */
  alpha: number;
  /** The same backtest on the noise-free returns. */
  truth: number;
}

/** One world's filing-entry approximation against the true prices, for one group and horizon. */
export interface FilingCheck {
  /** Seed. */
  seed: number;
  /** Group. */
  target: string;
  /** Horizon. */
  horizon: TruthHorizon;
  /** Trades with a filing-entry return. */
  n: number;
  /** Mean excess from the trade date (the service's figure). */
  trade: number;
  /** Mean excess from the filing date, approximated (`entry: "filing"`). */
  approx: number;
  /** Mean excess from the filing date on the emulator's true daily prices. */
  realized: number;
  /** Mean expected excess from the filing date (the emulator's truth). */
  expected: number;
  /** Mean expected excess from the trade date (the emulator's truth). */
  expectedTrade: number;
}

/** One interval of the CLI's default run (`backtest --feed ceo-trades:buy`, by role). */
export interface CliCheck {
  /** Seed. */
  seed: number;
  /** Rows pulled from the feed (`--max-rows`). */
  maxRows: number;
  /** Role group. */
  target: string;
  /** Horizon. */
  horizon: TruthHorizon;
  /** Trades behind the row. */
  n: number;
  /** Clusters behind the interval (the smaller of months and issuers). */
  clusters: number;
  /** Whether the CLI reports the row thin (no interval). */
  thin: boolean;
  /** The estimate (mean excess). */
  estimate: number;
  /** The truth for exactly these trades. */
  truth: number;
  /** Interval (NaN when thin). */
  low: number;
  /** Interval (NaN when thin). */
  high: number;
}

/**
 * Pulls of the CLI check: the default `--max-rows` (1000) and larger ones to
 * choose from. The CLI reads the default world (scale 1), where the feed
 * holds about 1,800 purchases over five years.
 */
export const CLI_PULLS = [1000, 1500, 2000] as const;

/**
 * The CLI's default run without HTTP: the feed's newest `maxRows` rows (the
 * emulator's feed order, newest filing first), open-market purchases kept
 * (`keepOpenMarket`), `eventStudy` by role with the CLI's defaults (two-way,
 * `minN` 20, `minClusters` 20), each row's interval against the truth of its
 * trades.
 */
export function cliChecks(
  seed: number,
  scale = 1,
  pulls: readonly number[] = CLI_PULLS,
): CliCheck[] {
  const stub = createStub({ seed, scale });
  const id = FEED_TOPICS["ceo-trades"].buy;
  const feed = stub.insider.trades.filter((t) => t.row.feed_ids.includes(id)).map((t) => t.row);
  const role = groupKey("role");
  const out: CliCheck[] = [];
  for (const maxRows of pulls) {
    const pulled = feed.slice(0, maxRows);
    const frame = keepOpenMarket(tradeClass(transactionsFrame(pulled)), "buy").frame;
    const kept = pulled.filter((r) => r.code === "P");
    const stats = eventStudy(frame, { groupBy: "role", horizons: [...COVERAGE_HORIZONS] })
      .toRecords() as Record<string, unknown>[];
    for (const r of stats) {
      const g = String(r.group);
      const h = String(r.horizon) as TruthHorizon;
      if (!Number(r.n)) continue;
      const members = kept.filter((k) => role(k as unknown as Record<string, unknown>) === g);
      out.push({
        seed: stub.world.seed,
        maxRows,
        target: g,
        horizon: h,
        n: num(r.n),
        clusters: num(r.n_clusters),
        thin: r.thin === true,
        estimate: num(r.mean_excess),
        truth: stub.truth.mean(members, h)!,
        low: num(r.ci_low),
        high: num(r.ci_high),
      });
    }
  }
  return out;
}

/** The checks of one world. */
export interface WorldChecks {
  /** Interval checks. */
  intervals: Check[];

  /** Portfolio alpha checks (1-month and 6-month holding). */
  alphas: AlphaCheck[];
  /** Filing-entry checks. */
  filing: FilingCheck[];
}

const num = (v: unknown) => (v === null || v === undefined ? NaN : Number(v));

/**
 * Runs the checks on one world of `scale` (0.25 ≈ 6,000 trades).
 *
 * @example
 * ```ts
 * import { checkWorld } from "./coverage_lib.ts";
 * const { intervals } = checkWorld(1, 0.1, ["issuer"]);
 * console.log(intervals.length > 0);
 * ```
 */
export function checkWorld(
  seed: number,
  scale: number,
  clusterings: ClusterBy[] = CLUSTERINGS,
  only: readonly Pull[] = PULLS,
): WorldChecks {
  const stub = createStub({ seed, scale });
  const rows = stub.insider.trades.map((t) => t.row);
  const trades = transactionsFrame(rows);
  const truth = stub.truth;
  // the trades each group uses, as the headline study defines them
  const clean = rows.filter((r) => r.is_anomalous_transaction === false);
  const members: Record<string, typeof rows> = {
    "All purchases": clean.filter((r) => r.code === "P"),
    "CEO buys": clean.filter((r) => r.code === "P" && r.is_ceo === true),
    "10b5-1 sales": clean.filter((r) => r.code === "S" && r.is_10b51 === true),
  };
  const intervals: Check[] = [];
  // the newest 2,000 rows by filing time, as a pull with maxRows 2000 returns them
  const byFiling = [...rows].sort((x, y) => y.filed_at!.localeCompare(x.filed_at!));
  const pulls: [Pull, typeof rows][] = [
    ["full", rows],
    ["newest 5,000", byFiling.slice(0, 5000)],
    ["newest 2,000", byFiling.slice(0, 2000)],
  ];
  for (const [pull, pulled] of pulls.filter(([p]) => only.includes(p))) {
    const inPull = new Set(pulled);
    const truthOf = (g: string, h: TruthHorizon) =>
      truth.mean(members[g].filter((r) => inPull.has(r)), h)!;
    const frame = pull === "full" ? trades : transactionsFrame(pulled);
    for (const cluster of clusterings) {
      // minClusters 2: every interval is kept with its cluster count, so the
      // bench can measure coverage by cluster count and apply any minimum
      const stats = headlineStudy(frame, [...COVERAGE_HORIZONS], {
        cluster,
        minN: 20,
        minClusters: 2,
      })
        .toRecords() as Record<string, unknown>[];
      for (const r of stats) {
        const g = String(r.group);
        const h = String(r.horizon) as TruthHorizon;
        if (r.thin === true) continue;
        const base = { seed, cluster, pull, clusters: num(r.n_clusters), horizon: h };
        intervals.push({
          ...base,
          target: g,
          estimate: num(r.mean_excess),
          truth: truthOf(g, h),
          low: num(r.ci_low),
          high: num(r.ci_high),
        });
        if (g === "CEO buys" && r.diff_ci_low !== null) {
          intervals.push({
            ...base,
            target: "CEO buys − All purchases",
            estimate: num(r.diff_vs_baseline),
            truth: truthOf("CEO buys", h) - truthOf("All purchases", h),
            low: num(r.diff_ci_low),
            high: num(r.diff_ci_high),
          });
        }
      }
    }
  }
  const filing = filingChecks(stub, members);
  // portfolio alpha: the realized backtest vs the same backtest on noise-free returns
  const ceo = members["CEO buys"];
  const realized = transactionsFrame(ceo);
  const noiseFree = transactionsFrame(ceo.map((r) => {
    const out: Record<string, unknown> = { ...r };
    for (const h of ["1w", "1m", "3m", "6m", "1y"] as const) {
      const ret = r[`returns_${h}`];
      const ex = r[`excess_returns_${h}`];
      const e = truth.expected(r, h);
      if (ret === null || ex === null || e === null) continue;
      out[`excess_returns_${h}`] = e;
      out[`returns_${h}`] = e + (ret - ex); // expected excess + realized market return
    }
    return out;
  }));
  const alphas = (["1m", "6m"] as const).map((horizon) => ({
    seed,
    horizon,
    alpha: portfolioBacktest(realized, { horizon, costBps: 0 }).stats.alpha ?? NaN,
    truth: portfolioBacktest(noiseFree, { horizon, costBps: 0 }).stats.alpha ?? NaN,
  }));
  return { intervals, alphas, filing };
}

/**
 * The filing-entry approximation against the true prices: for each group
 * and horizon, the mean excess return from the filing day approximated from
 * the service's points (`fromFiling`), computed exactly from the emulator's
 * daily prices, and expected (the truth), next to the trade-date figures.
 */
function filingChecks(
  stub: ReturnType<typeof createStub>,
  members: Record<string, TransactionRow[]>,
): FilingCheck[] {
  const { world, truth } = stub;
  const byRow = new Map(stub.insider.trades.map((t) => [t.row, t]));
  const out: FilingCheck[] = [];
  for (const target of ["CEO buys", "All purchases"]) {
    for (const h of COVERAGE_HORIZONS) {
      const days = WINDOW_DAYS[h];
      let n = 0;
      const sum = [0, 0, 0, 0, 0];
      for (const r of members[target]) {
        const f = fromFiling(r as unknown as Record<string, unknown>, h);
        const eTrade = truth.expected(r, h);
        if (f === null || eTrade === null) continue;
        const t = byRow.get(r)!;
        const filed = t.day + r.filing_delay_days!;
        const end = t.day + days;
        const realized = world.ret(t.company, filed, end) - world.marketRet(filed, end);
        const expected = 100 * world.expectedMarketGrowth(end - filed) *
          (Math.exp(world.effect(t.company, end) - world.effect(t.company, filed)) - 1);
        n++;
        sum[0] += r[`excess_returns_${h}`]!;
        sum[1] += f.excess;
        sum[2] += realized;
        sum[3] += expected;
        sum[4] += eTrade;
      }
      const [trade, approx, realized, expected, expectedTrade] = sum.map((x) => x / n);
      out.push({
        seed: world.seed,
        target,
        horizon: h,
        n,
        trade,
        approx,
        realized,
        expected,
        expectedTrade,
      });
    }
  }
  return out;
}

/** Coverage of one (clustering, pull, target, horizon) cell across worlds. */
export interface CoverageRow {
  /** Clustering. */
  cluster: ClusterBy;
  /** Pull. */
  pull: Pull;
  /** Target. */
  target: string;
  /** Horizon. */
  horizon: TruthHorizon;
  /** Worlds with an interval (not thin under `minClusters`). */
  worlds: number;
  /** Worlds whose interval covers the truth. */
  covered: number;
  /** Covered / worlds, percent. */
  coverage: number;
  /** Mean interval width. */
  width: number;
  /** Median clusters behind the intervals. */
  clusters: number;
}

/**
 * Coverage by clustering, pull, target and horizon, counting only intervals
 * resting on at least `minClusters` clusters (the others would be thin).
 */
export function coverage(checks: Check[], minClusters = 2): CoverageRow[] {
  const cells = new Map<string, Check[]>();
  for (const c of checks) {
    if (c.clusters < minClusters) continue;
    const k = `${c.cluster}|${c.pull}|${c.target}|${c.horizon}`;
    cells.set(k, [...(cells.get(k) ?? []), c]);
  }
  return [...cells.values()].map((cs) => {
    const covered = cs.filter((c) => c.low <= c.truth && c.truth <= c.high).length;
    const ks = cs.map((c) => c.clusters).sort((a, b) => a - b);
    return {
      cluster: cs[0].cluster,
      pull: cs[0].pull,
      target: cs[0].target,
      horizon: cs[0].horizon,
      worlds: cs.length,
      covered,
      coverage: 100 * covered / cs.length,
      width: cs.reduce((a, c) => a + (c.high - c.low), 0) / cs.length,
      clusters: ks[ks.length >> 1],
    };
  });
}

/** Mean, cross-seed standard error and the truth's mean of the portfolio alphas. */
export function alphaSummary(
  xs: AlphaCheck[],
): { mean: number; se: number; truth: number; diffSe: number; within: boolean } {
  const n = xs.length;
  const m = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const sdOf = (v: number[]) => {
    const mu = m(v);
    return Math.sqrt(v.reduce((a, b) => a + (b - mu) ** 2, 0) / (v.length - 1));
  };
  const est = xs.map((x) => x.alpha);
  const tru = xs.map((x) => x.truth);
  const diff = xs.map((x) => x.alpha - x.truth);
  const mean = m(est);
  const truth = m(tru);
  const se = sdOf(est) / Math.sqrt(n);
  const diffSe = sdOf(diff) / Math.sqrt(n);
  return { mean, se, truth, diffSe, within: Math.abs(mean - truth) <= se };
}

/** The headline gap (CEO buys − all purchases) of one demo-size world, estimated and true. */
export interface HeadlineGap {
  /** Seed. */
  seed: number;
  /** Estimated gap (difference of mean excess returns) by horizon. */
  estimate: Record<string, number>;
  /** True gap for the same trades by horizon. */
  truth: Record<string, number>;
}

/**
 * The headline study on a world of `scale` (1 = the demo's size), through
 * the user's path (transactions frame → `headlineStudy`).
 */
export function headlineGap(seed: number, scale = 1): HeadlineGap {
  const stub = createStub({ seed, scale });
  const rows = stub.insider.trades.map((t) => t.row);
  const stats = headlineStudy(transactionsFrame(rows), [...COVERAGE_HORIZONS])
    .toRecords() as Record<string, unknown>[];
  const clean = rows.filter((r) => r.is_anomalous_transaction === false && r.code === "P");
  const ceo = clean.filter((r) => r.is_ceo === true);
  const estimate: Record<string, number> = {};
  const truth: Record<string, number> = {};
  for (const r of stats) {
    if (r.group !== "CEO buys") continue;
    const h = String(r.horizon) as TruthHorizon;
    estimate[h] = num(r.diff_vs_baseline);
    truth[h] = stub.truth.mean(ceo, h)! - stub.truth.mean(clean, h)!;
  }
  return { seed, estimate, truth };
}

/** A frame of the coverage table (for printing). */
export function coverageFrame(rows: CoverageRow[]): pl.DataFrame {
  return pl.DataFrame(rows.map((r) => ({
    ...r,
    coverage: Math.round(r.coverage * 10) / 10,
    width: Math.round(r.width * 100) / 100,
  })));
}
