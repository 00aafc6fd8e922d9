/**
 * Portfolio risk figures against the emulator's true paths: for one world,
 * the headline portfolios (CEO buys and all open-market purchases, equal
 * weight, long, no costs) are backtested twice with the same calendar-month
 * engine (`portfolioFromPositions`): once from the service's points (what
 * `portfolioBacktest` sees), once from the emulator's true daily prices (each
 * position's growth known at every month end). The difference is the
 * booking's error alone: same positions, same months, same weights.
 *
 * Shared by `bench/portfolio_truth_bench.ts` (60 seeds for the docs) and the CI test
 * `tests/backtest/portfolio_truth_test.ts`.
 *
 * @module
 */
import { createStub } from "../lib/stub/mod.ts";
import type { World } from "../lib/stub/world.ts";
import { transactionsFrame } from "../lib/insider/transaction_frames.ts";
import {
  portfolioBacktest,
  portfolioFromPositions,
  type PortfolioHorizon,
  type PortfolioPosition,
  type PortfolioStats,
  type SPREADS,
} from "../lib/backtest/portfolio.ts";
import type { Entry } from "../lib/backtest/entry.ts";
import { WINDOW_DAYS } from "../lib/insider/fields.ts";
import type { TransactionRow } from "../lib/insider/fields.ts";

/**
 * Diagnostic portfolio: all purchases but the emulator's ten-bagger (one
 * biotech re-rated 15× over 100 days in every world), whose run-up the
 * booking compounds within a segment.
 */
export const NO_TEN_BAGGER = "All purchases, no ten-bagger";
/**
 * Diagnostic portfolio: all purchases but the ten-bagger, at most one open
 * position per issuer (a purchase is left out while an earlier one of the
 * same stock is within a year), so no two positions share a stock's month.
 */
export const ONE_PER_ISSUER = "All purchases, one per issuer";

/**
 * The two diagnostic portfolios of a world's purchases: {@link NO_TEN_BAGGER}
 * and {@link ONE_PER_ISSUER}.
 *
 * @example
 * ```ts
 * import { createStub } from "../lib/stub/mod.ts";
import type { World } from "../lib/stub/world.ts";
 * import { diagnosticGroups } from "./portfolio_truth_lib.ts";
 * const stub = createStub({ seed: 1, scale: 0.1 });
 * const groups = diagnosticGroups(stub.world, stub.insider.trades.filter((t) => t.row.code === "P"));
 * console.log(Object.keys(groups));
 * ```
 */
export function diagnosticGroups<T extends { company: number; day: number }>(
  world: World,
  trades: T[],
): Record<string, T[]> {
  // the ten-bagger: the one company whose path has an effect besides the insiders' signals
  const landmark = world.companies.findIndex((_, c) =>
    Math.abs(world.effect(c, world.asOf) - world.abnormal(c, world.asOf)) > 1e-9
  );
  // at most one open position per issuer: a later purchase of the same stock
  // is left out until the earlier position's longest holding (1 year) ends
  const busy = new Map<number, number>();
  return {
    [NO_TEN_BAGGER]: trades.filter((t) => t.company !== landmark),
    [ONE_PER_ISSUER]: [...trades].sort((a, b) => a.day - b.day).filter((t) => {
      if (t.company === landmark || (busy.get(t.company) ?? -Infinity) > t.day) return false;
      busy.set(t.company, t.day + 365);
      return true;
    }),
  };
}

/** Figures compared. */
export const RISK_FIGURES = [
  "vol",
  "maxDrawdown",
  "hitRate",
  "sharpe",
  "informationRatio",
  "meanExcess",
  "excessSd",
  "alpha",
  "meanReturn",
  "autocorrelation",
  "lastMonth",
] as const;
/** A compared figure. */
export type RiskFigure = typeof RISK_FIGURES[number];

/** One portfolio of one world: estimated and true figures. */
export interface RiskCheck {
  /** Seed. */
  seed: number;
  /** Portfolio. */
  target: string;
  /** Holding period. */
  horizon: PortfolioHorizon;
  /** Entry. */
  entry: Entry;
  /** From the service's points (`portfolioBacktest`). */
  estimate: Record<RiskFigure, number>;
  /** From the emulator's daily prices. */
  truth: Record<RiskFigure, number>;
}

const DAY = 86_400_000;
const firstDayOf = (m: number) => Date.UTC(Math.floor(m / 12), m % 12, 1) / DAY;
const monthOfDay = (d: number) => {
  const t = new Date(d * DAY);
  return t.getUTCFullYear() * 12 + t.getUTCMonth();
};

function lag1(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  let num = 0;
  let den = 0;
  for (let t = 0; t < xs.length; t++) {
    den += (xs[t] - m) ** 2;
    if (t > 0) num += (xs[t] - m) * (xs[t - 1] - m);
  }
  return num / den;
}

function figures(
  res: { stats: PortfolioStats; monthly: { getColumn(c: string): { toArray(): unknown[] } } },
) {
  const rets = res.monthly.getColumn("return").toArray() as number[];
  const ex = res.monthly.getColumn("excess_return").toArray() as number[];
  const mx = ex.reduce((a, b) => a + b, 0) / ex.length;
  return {
    vol: res.stats.vol ?? NaN,
    maxDrawdown: res.stats.maxDrawdown,
    hitRate: res.stats.hitRate ?? NaN,
    sharpe: res.stats.sharpe ?? NaN,
    informationRatio: res.stats.informationRatio ?? NaN,
    meanExcess: mx,
    excessSd: Math.sqrt(ex.reduce((a, b) => a + (b - mx) ** 2, 0) / (ex.length - 1)),
    alpha: res.stats.alpha ?? NaN,
    meanReturn: rets.reduce((a, b) => a + b, 0) / rets.length,
    autocorrelation: lag1(rets),
    lastMonth: rets[rets.length - 1],
  };
}

/**
 * Estimated and true risk figures of the headline portfolios in one world.
 *
 * With `diagnostics`, also {@link NO_TEN_BAGGER} and {@link ONE_PER_ISSUER},
 * which isolate the causes of the booking's bias at long holdings.
 *
 * @example
 * ```ts
 * import { riskChecks } from "./portfolio_truth_lib.ts";
 * const checks = riskChecks(1, 0.2, ["6m"]);
 * console.log(checks[0].estimate.vol, checks[0].truth.vol);
 * ```
 */
export function riskChecks(
  seed: number,
  scale: number,
  horizons: PortfolioHorizon[] = ["1m", "3m", "6m", "1y"],
  entries: Entry[] = ["trade", "filing"],
  edges: "trim" | "keep" = "trim",
  spread: typeof SPREADS[number] = "market",
  diagnostics = false,
): RiskCheck[] {
  const stub = createStub({ seed, scale });
  const { world } = stub;
  const trades = stub.insider.trades.filter((t) =>
    t.row.code === "P" && t.row.is_anomalous_transaction === false
  );
  const groups: Record<string, typeof trades> = {
    "CEO buys": trades.filter((t) => t.row.is_ceo === true),
    "All purchases": trades,
  };
  if (diagnostics) Object.assign(groups, diagnosticGroups(world, trades));
  const out: RiskCheck[] = [];
  for (const [target, ts] of Object.entries(groups)) {
    const frame = transactionsFrame(ts.map((t) => t.row as TransactionRow));
    for (const horizon of horizons) {
      const days = WINDOW_DAYS[horizon];
      for (const entry of entries) {
        const est = portfolioBacktest(frame, { horizon, entry, edges, spread });
        const positions: PortfolioPosition[] = [];
        for (const t of ts) {
          const r = t.row;
          const delay = entry === "filing" ? r.filing_delay_days! : 0;
          if (r[`returns_${horizon}`] === null || delay >= days) continue;
          const start = t.day + delay;
          const end = t.day + days;
          // growth at every month-end close inside the holding, and at the end
          const stock: [number, number][] = [[0, 1]];
          const market: [number, number][] = [[0, 1]];
          const p0 = world.price(t.company, start);
          const q0 = world.market(start);
          for (let m = monthOfDay(start + 1); firstDayOf(m + 1) - 1 < end; m++) {
            const d = firstDayOf(m + 1) - 1;
            if (d <= start) continue;
            stock.push([d - start, world.price(t.company, d) / p0]);
            market.push([d - start, world.market(d) / q0]);
          }
          stock.push([end - start, world.price(t.company, end) / p0]);
          market.push([end - start, world.market(end) / q0]);
          positions.push({ start, end, sign: 1, size: 1, stock, market });
        }
        const truth = portfolioFromPositions(positions, { edges, entry });
        out.push({
          seed,
          target,
          horizon,
          entry,
          estimate: figures(est),
          truth: figures(truth),
        });
      }
    }
  }
  return out;
}
