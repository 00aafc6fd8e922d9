/**
 * The ground truth of the demo world: the expected excess return the
 * emulator built into each trade, and its averages by role, feed, size and
 * skill at each horizon. Estimators (event studies, portfolio backtests) can
 * be checked against it, because the emulator knows what it generated.
 *
 * How it is exact: a stock's path is `base · e^(effect)`, where the base
 * is compensated so its expected simple return equals the market's
 * (`PRICE_MODEL`) and `effect` is every deterministic effect the world
 * builds into the path (`World.effect`): the sum of the informed trades'
 * signals (`INSIDER_SKILL`) plus, for one biotech, the ten-bagger landmark's
 * re-rating (`TEN_BAGGER`: 15× over 100 days). For a trade on day d and
 * horizon h (days), the expected excess return is therefore
 * `100 · E[M(d+h)/M(d)] · (e^(effect(d+h) − effect(d)) − 1)` percent:
 * the trade's own signal plus any other insiders' signals at the issuer that
 * overlap its window, plus the re-rating where the window overlaps it (the
 * landmark issuer's buys before the run-up have a 1-year truth of several
 * hundred percent, as their returns do). It is conditional on the world's schedule of trades,
 * and integrates over the price noise. Filing-time fields (feeds, win rates,
 * clusters) use only information from before the filing, so selecting on
 * them leaves the expectation unchanged.
 *
 * The ten-bagger is never picked on its path (it is the biotech with the
 * lowest idiosyncratic volatility, `addLandmarks`), so its price noise is
 * mean-zero in every window, like any stock's. (Picked on the
 * run-up's first day, as before world cache version 8, it was a stock whose
 * price had just fallen, and its purchases realized less than this truth;
 * `bench/truth_rows_bench.ts` measures the rows against the truth.)
 *
 * @module
 */
import { FORWARD_WINDOWS, type TransactionRow, WINDOW_DAYS } from "../insider/fields.ts";
import type { World } from "./world.ts";
import type { InsiderData, Trade } from "./insider/insider_data.ts";
import { INSIDER_SKILL } from "./insider/insider_data.ts";
import { fieldsOf } from "./insider/stored_trades.ts";
import { PRICE_MODEL } from "./world.ts";

/** Horizons of the forward excess-return fields (`excess_returns_<h>`). */
export const TRUTH_HORIZONS: typeof FORWARD_WINDOWS = FORWARD_WINDOWS;
/** A horizon of {@link Truth}. */
export type TruthHorizon = typeof TRUTH_HORIZONS[number];

/** Identifies a trade: the two key fields of a transaction row. */
export interface TradeKey {
  /** Accession number of the filing. */
  accession_number: string | null;
  /** Transaction id within the filing. */
  transaction_id: number | null;
}

/** One row of {@link Truth.table}: a group's expected excess return at a horizon. */
export interface TruthRow {
  /** What the group splits on. */
  dimension: "all" | "role" | "feed" | "size" | "skill";
  /** Group label (e.g. `ceo`, `feed 17`, `$1m+`, `skilled`). */
  group: string;
  /** `buy` (code P) or `sell` (code S). */
  side: "buy" | "sell";
  /** Horizon. */
  horizon: TruthHorizon;
  /** Trades in the group whose horizon has closed by the as-of date. */
  n: number;
  /** Mean expected excess return of those trades, percent. */
  expected_excess: number;
}

/** The effects the emulator built into its world (`createStub(...).truth`). */
export interface Truth {
  /** Seed of the world. */
  seed: number;
  /** Horizons covered. */
  horizons: readonly TruthHorizon[];
  /** The generator's parameters: price model and insider skill. */
  model: { prices: typeof PRICE_MODEL; skill: typeof INSIDER_SKILL };
  /**
   * Expected excess return (percent) of one trade at a horizon; `null` when
   * the trade is unknown or its horizon has not closed by the as-of date
   * (its `excess_returns_<h>` is null).
   */
  expected(key: TradeKey, horizon: TruthHorizon): number | null;
  /** Mean of {@link Truth.expected} over the rows whose horizon has closed; `null` if none. */
  mean(rows: Iterable<TradeKey>, horizon: TruthHorizon): number | null;
  /**
   * Expected excess return by role, feed, size and skill, for open-market
   * buys (P) and sales (S) that are not anomalous, at every horizon.
   */
  table(): TruthRow[];
}

/**
 * The truth of a generated world.
 *
 * @example
 * ```ts
 * import { createStub } from "../../mod.ts";
 * const stub = createStub({ seed: 3, scale: 0.1 });
 * const ceoBuys = stub.truth.table().find((r) =>
 *   r.dimension === "role" && r.group === "ceo" && r.side === "buy" && r.horizon === "1y"
 * );
 * console.log(ceoBuys?.expected_excess.toFixed(1)); // a few points a year
 * ```
 */
export function makeTruth(world: World, data: InsiderData): Truth {
  const cache = new Map<Trade, Float64Array>();
  const growth = TRUTH_HORIZONS.map((h) => world.expectedMarketGrowth(WINDOW_DAYS[h]));
  const perTrade = (t: Trade): Float64Array => {
    return cache.getOrInsertComputed(t, () =>
      Float64Array.from(TRUTH_HORIZONS, (h, i) => {
        const end = t.day + WINDOW_DAYS[h];
        return end > world.asOf ? NaN : 100 * growth[i] *
          (Math.exp(world.effect(t.company, end) - world.effect(t.company, t.day)) - 1);
      }));
  };
  const find = (k: TradeKey) => data.byKey.get(`${k.accession_number}/${k.transaction_id}`);
  const expected = (k: TradeKey, h: TruthHorizon): number | null => {
    const t = find(k);
    if (!t) return null;
    const x = perTrade(t)[TRUTH_HORIZONS.indexOf(h)];
    return Number.isNaN(x) ? null : x;
  };
  let table: TruthRow[] | undefined;
  return {
    seed: world.seed,
    horizons: TRUTH_HORIZONS,
    model: { prices: PRICE_MODEL, skill: INSIDER_SKILL },
    expected,
    mean(rows, h) {
      // summed in the rows' order, those without a value left out
      const xs = Array.from(rows, (k) => expected(k, h)).filter((x) => x !== null);
      return xs.length > 0 ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
    },
    table() {
      table ??= buildTable(data, perTrade);
      return table;
    },
  };
}

function roleOf(r: TransactionRow): string {
  if (r.is_ceo) return "ceo";
  if (r.is_cfo) return "cfo";
  if (r.is_coo || r.is_cto || r.is_officer) return "other officer";
  if (r.is_director) return "director";
  if (r.is_10_percent_owner) return "10% owner";
  return "other";
}

function sizeOf(v: number): string {
  return v >= 1_000_000 ? "$1m+" : v >= 100_000 ? "$100k-$1m" : "under $100k";
}

function buildTable(data: InsiderData, perTrade: (t: Trade) => Float64Array): TruthRow[] {
  // each trade in each of its groups, in the trades' order (so each group's sums are too)
  const members = data.trades.flatMap((t) => {
    const r = fieldsOf(t);
    if (t.dir === 0 || r.is_anomalous_transaction) return [];
    const groups: (readonly [TruthRow["dimension"], string])[] = [
      ["all", "all"],
      ["role", roleOf(r)],
      ...(r.is_director && !r.is_ceo ? [["role", "director (any)"] as const] : []),
      ...r.feed_ids.map((f) => ["feed", `feed ${f}`] as const),
      ["size", sizeOf(r.transaction_value ?? 0)],
      ["skill", data.insiders[t.insider].skill > 0 ? "skilled" : "unskilled"],
      ...(r.is_10b51 ? [["skill", "10b5-1"] as const] : []),
    ];
    const side: TruthRow["side"] = t.dir > 0 ? "buy" : "sell";
    return groups.map(([dimension, group]) => ({ dimension, group, side, v: perTrade(t) }));
  });
  const out: TruthRow[] = [];
  for (const ms of Map.groupBy(members, (m) => `${m.dimension}|${m.group}|${m.side}`).values()) {
    const { dimension, group, side } = ms[0];
    TRUTH_HORIZONS.forEach((horizon, i) => {
      const xs = ms.map((m) => m.v[i]).filter((x) => !Number.isNaN(x));
      const n = xs.length;
      if (n > 0) {
        const expected_excess = xs.reduce((sum, x) => sum + x, 0) / n;
        out.push({ dimension, group, side, horizon, n, expected_excess });
      }
    });
  }
  const dims = ["all", "role", "skill", "size", "feed"];
  return out.sort((x, y) =>
    dims.indexOf(x.dimension) - dims.indexOf(y.dimension) || x.group.localeCompare(y.group) ||
    x.side.localeCompare(y.side) ||
    TRUTH_HORIZONS.indexOf(x.horizon) - TRUTH_HORIZONS.indexOf(y.horizon)
  );
}
