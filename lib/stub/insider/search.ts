/**
 * The emulator's trade-search engine: the filter's defaults and rules 1–6 of
 * `POST /api/v1/search`, applied to the demo trades.
 *
 * Choices where the spec is silent:
 * - Presets count back from the world's today (its `asOf`) in US Eastern
 *   Time: `Today` is that day; `N days` is the last N days including today;
 *   `N months`/`N years` go back N calendar months/years. `filingDateFrom`/
 *   `filingDateTo` then narrow the preset (with `custom`, they alone apply).
 * - `cikOrTicker` and `filingDatePreset` are ANDed like every other active
 *   constraint (rule 2): `{ cikOrTicker: "WPI", filingDatePreset: "1 year" }`
 *   returns WPI's trades filed in the last year. The default preset
 *   `All time` bounds nothing, so the whole issuer history is one
 *   `cikOrTicker` away.
 * - Insider-return series: `1M`→`insider_returns_1m`, `3M`→`_3m`,
 *   `6M`→`_6m`, `1Y`→`_1y`, `2Y`→`_2y`; `AllTime`, `1D` (as the spec says)
 *   and `1W` (which has no series of its own) use the 3M series; the type adds
 *   `_bullish`/`_bearish`.
 * - Trade-return series: `1W`…`1Y` → `returns_1w`…`returns_1y`; `latest`
 *   and `2Y` (the row has no 2-year forward field) → `returns_latest`.
 * - `excludeAnomalousTransactions` drops `is_anomalous_transaction`,
 *   `has_irregular_share_price` and 1-year value z-scores above 6.
 * - `sortBy: tradeReturn` uses the `tradeReturnPeriod` series, or
 *   `returns_latest` when no period is set; rows without the sort value come
 *   last in either direction; ties break by newest filing, then accession
 *   number and transaction id.
 * - A reporting-owner or issuer CIK matches with or without leading zeros.
 *
 * @module
 */
import type { z } from "npm:@hono/zod-openapi@1.6.3";
import type { TransactionRow } from "../../insider/fields.ts";
import {
  FILTER_DEFAULTS,
  type InsiderFilterSchema,
  parseAmount,
  parsePercent,
} from "../../insider/filter.ts";
import { dayOf } from "../calendar.ts";
import sortedLastIndexBy from "npm:lodash-es@4.17.21/sortedLastIndexBy.js";
import type { World } from "../world.ts";
import { newestFirst, roleField, type Trade } from "./insider_data.ts";
import { fieldsOf } from "./stored_trades.ts";

type Filter = z.output<typeof InsiderFilterSchema>;
/** A filter with the spec's defaults filled in ({@link withDefaults}). */
type Filled = Filter & Required<Pick<Filter, keyof typeof FILTER_DEFAULTS>>;
type Num = Record<string, number | null>;

/** Insider-return periods without a series of their own: they read the 3M series. */
const IR_ON_3M = ["1D", "1W", "AllTime"];
/** The forward-return field of a trade-return period (`returns_<period>`; 2Y: the latest). */
function trSeries(period: string): string {
  return period === "2Y" || period === "latest"
    ? "returns_latest"
    : `returns_${period.toLowerCase()}`;
}

/** The filter with the spec's defaults filled in. */
export function withDefaults(f: Filter | undefined): Filled {
  return { ...FILTER_DEFAULTS, ...f };
}

/** The insider-return field a filter's period and type select. */
export function insiderReturnField(f: Filled): string {
  const t = f.insiderReturnType;
  const p = f.insiderReturnPeriod;
  const series = IR_ON_3M.includes(p) ? "3m" : p.toLowerCase();
  return `insider_returns_${series}${t === "all" ? "" : "_" + t}`;
}

/** How far back each filing-date preset reaches: days (inclusive of today), or calendar months. */
const PRESETS: Record<string, { days: number } | { months: number }> = {
  "Today": { days: 0 },
  "3 days": { days: 2 },
  "7 days": { days: 6 },
  "1 month": { months: 1 },
  "3 months": { months: 3 },
  "6 months": { months: 6 },
  "1 year": { months: 12 },
  "2 years": { months: 24 },
  "5 years": { months: 60 },
  "10 years": { months: 120 },
};

/**
 * The first filing day a filing-date preset admits, for day number `today`
 * (undefined: no bound, for `All time` or a name that is no preset).
 *
 * @example
 * ```ts
 * import { presetStart } from "./search.ts";
 * console.log(presetStart("7 days", 100), presetStart("All time", 100)); // 94 undefined
 * ```
 */
export function presetStart(preset: string, today: number): number | undefined {
  if (!Object.hasOwn(PRESETS, preset)) return undefined;
  const back = PRESETS[preset];
  if ("days" in back) return today - back.days;
  const d = new Date(today * 86_400_000);
  d.setUTCMonth(d.getUTCMonth() - back.months);
  return Math.round(d.getTime() / 86_400_000);
}

/**
 * The test of a numeric range filter on `field`: its bounds' text parsed,
 * divided by `per` (the field's unit); undefined when neither bound is set
 * (or parses). A row without the value fails it.
 */
function range(
  field: string | undefined,
  [min, max]: (string | undefined)[],
  parse: (s: string) => number | undefined,
  per = 1,
): ((t: Trade, r: TransactionRow) => boolean) | undefined {
  const read = (s: string | undefined) => {
    const v = s === undefined ? undefined : parse(s);
    return v === undefined ? undefined : v / per;
  };
  const lo = read(min);
  const hi = read(max);
  if (field === undefined || (lo === undefined && hi === undefined)) return undefined;
  return (_, r) => {
    const v = (r as unknown as Num)[field];
    if (v === null || v === undefined || Number.isNaN(v)) return false;
    return (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
  };
}

function sameCik(a: string | null, b: string): boolean {
  return a !== null && a.replace(/^0+/, "") === b.replace(/^0+/, "");
}

/**
 * The trades filed on Eastern days `lo`…`hi` (either open), from trades in
 * the service's order (newest filing first): two binary searches, so a
 * date-window query does not scan the whole history.
 */
export function filedBetween(trades: readonly Trade[], lo?: number, hi?: number): readonly Trade[] {
  // first index whose day is below `day` (days fall along the array, so their negatives rise)
  const below = (day: number) => sortedLastIndexBy(trades, { etDay: day }, (t: Trade) => -t.etDay);
  const start = hi === undefined ? 0 : below(hi + 1);
  const end = lo === undefined ? trades.length : below(lo);
  return start === 0 && end === trades.length ? trades : trades.slice(start, end);
}

/** The test of a sector: an industry id (digits) or an insider-service sector slug. */
export function sectorTest(
  sector: string,
  world: World,
): (t: Trade, r: TransactionRow) => boolean {
  return /^\d+$/.test(sector)
    ? (_, r) => r.simple_industry_id === Number(sector)
    : (t) => world.companies[t.company].sector === sector;
}

/** Every trade matching a filter (its defaults filled in: {@link withDefaults}), sorted. */
export function searchTrades(all: readonly Trade[], f: Filled, world: World): Trade[] {
  const tests: ((t: Trade, r: TransactionRow) => boolean)[] = [];
  const id = f.cikOrTicker?.trim() ?? "";
  if (id !== "") {
    if (/^\d+$/.test(id)) tests.push((_, r) => sameCik(r.issuer_cik, id));
    else {
      const up = id.toUpperCase();
      tests.push((_, r) => r.ticker_symbol === up || r.filing_ticker_symbol === up);
    }
  }
  const sector = f.sector ?? "";
  if (sector !== "" && sector !== "all") tests.push(sectorTest(sector, world));
  if (f.reportingOwnerCik) {
    tests.push((_, r) => sameCik(r.reporting_owner_cik, f.reportingOwnerCik!));
  }
  for (const [k, on] of Object.entries(f.position ?? {})) {
    if (on) tests.push((_, r) => r[roleField(k)] === true);
  }
  if (f.tradeType === "purchase") tests.push((_, r) => r.acquired_disposed_code === "A");
  if (f.tradeType === "sale") tests.push((_, r) => r.acquired_disposed_code === "D");
  // market caps are in millions of dollars, percent changes fractions
  const ranges = [
    range("market_cap_at_filing", [f.marketCapMin, f.marketCapMax], parseAmount, 1e6),
    range(insiderReturnField(f), [f.insiderReturnMin, f.insiderReturnMax], parsePercent),
    range(
      f.tradeReturnPeriod && trSeries(f.tradeReturnPeriod),
      [f.tradeReturnMin, f.tradeReturnMax],
      parsePercent,
    ),
    range("transaction_value", [f.purchaseMin, f.purchaseMax], parseAmount),
    range("percent_change", [f.percentChangeMin, f.percentChangeMax], parsePercent, 100),
  ];
  for (const test of ranges) if (test) tests.push(test);
  // the exclude… and only… flags: each one, when set, the test a trade must pass
  const flags: [boolean | undefined, (t: Trade, r: TransactionRow) => boolean][] = [
    [f.excludeEspp, (_, r) => r.is_espp !== true],
    [f.exclude10b51, (_, r) => r.is_10b51 !== true],
    [f.excludeTaxRelated, (_, r) => r.is_for_taxes !== true],
    [f.excludePublicOffering, (_, r) => r.is_public_offering !== true],
    [f.excludeDividendReinvestment, (_, r) => r.is_dividend_reinvestment !== true],
    [f.excludeDerivative, (_, r) => r.is_derivative !== true],
    [
      f.excludeAnomalousTransactions,
      (_, r) =>
        !(r.is_anomalous_transaction === true || r.has_irregular_share_price === true ||
          Math.abs(r.transaction_value_zscore_1y ?? 0) > 6),
    ],
    [f.excludeLowSignalTransactions, (_, r) => r.is_high_signal === true],
    [f.onlyMarketTransactions, (_, r) => (r.price_per_share ?? 0) > 0],
    [
      f.onlyNewPositions,
      (_, r) =>
        r.number_of_shares !== null && r.shares_owned_following_transaction === r.number_of_shares,
    ],
    [f.onlyClusterTrades, (t) => t.cluster90],
    [f.onlyReversal, (_, r) => r.is_reversal === true],
    [f.onlyBuyingDip, (_, r) => r.is_buying_dip === true],
    [f.onlySellingRip, (_, r) => r.is_selling_rip === true],
  ];
  for (const [on, ok] of flags) if (on) tests.push(ok);
  let lo = presetStart(f.filingDatePreset, world.asOf);
  let hi: number | undefined;
  if (f.filingDateFrom) lo = Math.max(lo ?? -Infinity, dayOf(f.filingDateFrom));
  if (f.filingDateTo) hi = dayOf(f.filingDateTo);
  if (f.accessionNumber) tests.push((_, r) => r.accession_number === f.accessionNumber);
  const trades = filedBetween(all, lo, hi);

  const out = trades.filter((t) => tests.every((test) => test(t, fieldsOf(t))));
  const sign = f.sortDirection === "asc" ? 1 : -1;
  if (f.sortBy === "filedAt" && sign === -1) return out;
  const key = SORT_KEYS[f.sortBy](f);
  return out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) {
      if (ka !== kb) return ka === null ? 1 : -1;
    } else if (ka !== kb) return sign * (ka - kb);
    return a.filedMs !== b.filedMs ? b.filedMs - a.filedMs : newestFirst(keyed(a), keyed(b));
  });
}

/**
 * A trade whose `row` is its live view ({@link fieldsOf}), for breaking a
 * tie by its keys: a stored trade's own `row` would be built and kept for the
 * life of the process (a demo's sync sorted 12,800 of them into rows: about
 * 60 MB of heap held to the end).
 */
function keyed(t: Trade): Trade {
  return { filedMs: t.filedMs, row: fieldsOf(t) } as Trade;
}

/** A numeric field of a trade's row, by name. */
const numField = (field: string) => (t: Trade) => (fieldsOf(t) as unknown as Num)[field];

/** Per `sortBy`: the key a filter sorts by (a total map of the filter's sorts). */
const SORT_KEYS: Record<Filled["sortBy"], (f: Filled) => (t: Trade) => number | null> = {
  filedAt: () => (t) => t.filedMs,
  insiderReturn: (f) => numField(insiderReturnField(f)),
  tradeReturn: (f) =>
    numField(f.tradeReturnPeriod ? trSeries(f.tradeReturnPeriod) : "returns_latest"),
  percentChange: () => (t) => {
    const pc = fieldsOf(t).percent_change;
    return pc === null ? null : Math.abs(pc);
  },
  transactionValue: () => numField("transaction_value"),
};
