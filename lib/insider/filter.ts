/**
 * The insider trade-search filter: its TypeScript type, its defaults, and the
 * zod schema that checks it (shared by the emulator and the client), plus the
 * parsers of human amounts (`10k`, `2.5m`, `$1,200`) and percent strings.
 *
 * Choices where the spec is silent:
 * - Amounts are USD; suffixes `k`, `m`, `b`, `t` multiply by 10^3…10^12;
 *   `marketCapMin`/`Max` are divided by 10^6 to compare with
 *   `market_cap_at_filing` (millions).
 * - Percent strings are numbers with an optional `%` (`"10"`, `"-5.5%"`).
 *   Return fields are percent, so return bounds compare as given;
 *   `percentChange*` is divided by 100 (the field is a fraction), as the spec says.
 * - Unknown filter fields are rejected (`400`), including the in-app-only
 *   ones of rule 6 (`issuerCik`, `tradingItemId`, `pageSize`, `cursor`).
 *
 * @module
 */
import { z } from "npm:@hono/zod-openapi@1.6.3";
import { INSIDER_SECTORS } from "./feeds.ts";
import { SECTOR_CHECK } from "./params.ts";
import { intIn, isoDate, oneOf, ordered, type SameKeys, showValue } from "../shared/schema.ts";

/** Insider-return periods. */
export const INSIDER_RETURN_PERIODS = [
  "1D",
  "1W",
  "1M",
  "3M",
  "6M",
  "1Y",
  "2Y",
  "AllTime",
] as const;
/** An insider-return period. */
export type InsiderReturnPeriod = typeof INSIDER_RETURN_PERIODS[number];
/** Insider-return types. */
export const INSIDER_RETURN_TYPES = ["all", "bullish", "bearish"] as const;
/** An insider-return type. */
export type InsiderReturnType = typeof INSIDER_RETURN_TYPES[number];
/** Trade types ("" and "all" mean no constraint). */
export const TRADE_TYPES = ["", "all", "purchase", "sale"] as const;
/** A trade type. */
export type TradeType = typeof TRADE_TYPES[number];
/** Trade-return periods ("" disables return filtering). */
export const TRADE_RETURN_PERIODS = ["", "1W", "1M", "3M", "6M", "1Y", "2Y", "latest"] as const;
/** A trade-return period. */
export type TradeReturnPeriod = typeof TRADE_RETURN_PERIODS[number];
/** Filing-date presets (counted back from today in US Eastern Time). */
export const FILING_DATE_PRESETS = [
  "Today",
  "3 days",
  "7 days",
  "1 month",
  "3 months",
  "6 months",
  "1 year",
  "2 years",
  "5 years",
  "10 years",
  "All time",
  "custom",
] as const;
/** A filing-date preset. */
export type FilingDatePreset = typeof FILING_DATE_PRESETS[number];
/** Sort keys. */
export const SORT_BYS = [
  "filedAt",
  "insiderReturn",
  "tradeReturn",
  "percentChange",
  "transactionValue",
] as const;
/** A sort key. */
export type SortBy = typeof SORT_BYS[number];
/** Sort directions. */
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
/** A sort direction. */
export type SortDirection = typeof SORT_DIRECTIONS[number];
/** Position flags; those set to true must all match. */
export const POSITION_FLAGS = ["officer", "director", "owner", "ceo", "cfo", "cto", "coo"] as const;
/** A position flag. */
export type PositionFlag = typeof POSITION_FLAGS[number];
/** Exclude flags. */
export const EXCLUDE_FLAGS = [
  "excludeEspp",
  "exclude10b51",
  "excludeTaxRelated",
  "excludePublicOffering",
  "excludeDividendReinvestment",
  "excludeDerivative",
  "excludeAnomalousTransactions",
  "excludeLowSignalTransactions",
] as const;
/** Only flags. */
export const ONLY_FLAGS = [
  "onlyMarketTransactions",
  "onlyNewPositions",
  "onlyClusterTrades",
  "onlyReversal",
  "onlyBuyingDip",
  "onlySellingRip",
] as const;

/** A human amount in USD such as `"250k"`, `"2.5m"` or `"$1,200"`. */
export type Amount = string;
/** A percent string such as `"10"` or `"-5.5%"`. */
export type Percent = string;

/** The trade-search filter; every field is optional and defaults as the spec says. */
export interface InsiderFilter {
  /** Issuer CIK (digits) or ticker (case-insensitive). */
  cikOrTicker?: string;
  /** Sector slug, industry id, `""` or `all`. */
  sector?: typeof INSIDER_SECTORS[number] | "" | "all" | `${number}`;
  /** Minimum market cap at filing, USD amount. */
  marketCapMin?: Amount;
  /** Maximum market cap at filing, USD amount. */
  marketCapMax?: Amount;
  /** Exact reporting-owner CIK. */
  reportingOwnerCik?: string;
  /** Required position flags. */
  position?: Partial<Record<PositionFlag, boolean>>;
  /** Period of the insider-return series (default `3M`). */
  insiderReturnPeriod?: InsiderReturnPeriod;
  /** Direction of the insider-return series (default `all`). */
  insiderReturnType?: InsiderReturnType;
  /** Insider return lower bound, percent. */
  insiderReturnMin?: Percent;
  /** Insider return upper bound, percent. */
  insiderReturnMax?: Percent;
  /**
   * The service's `purchase` (acquired, code `A`: option exercises and awards
   * included) or `sale` (disposed, code `D`) — not signalbook's buy and sell,
   * which are trade classes (code `P` / `S`; see `tradeClass`).
   */
  tradeType?: TradeType;
  /** Forward-return period; `""` disables return filtering. */
  tradeReturnPeriod?: TradeReturnPeriod;
  /** Forward return lower bound, percent; needs `tradeReturnPeriod`. */
  tradeReturnMin?: Percent;
  /** Forward return upper bound, percent; needs `tradeReturnPeriod`. */
  tradeReturnMax?: Percent;
  /** Minimum transaction value, USD amount. */
  purchaseMin?: Amount;
  /** Maximum transaction value, USD amount. */
  purchaseMax?: Amount;
  /** Minimum holdings change, percent. */
  percentChangeMin?: Percent;
  /** Maximum holdings change, percent. */
  percentChangeMax?: Percent;
  /** Drop ESPP trades. */
  excludeEspp?: boolean;
  /** Drop Rule 10b5-1 trades. */
  exclude10b51?: boolean;
  /** Drop tax-related trades. */
  excludeTaxRelated?: boolean;
  /** Drop public offerings. */
  excludePublicOffering?: boolean;
  /** Drop dividend reinvestment. */
  excludeDividendReinvestment?: boolean;
  /** Drop derivatives. */
  excludeDerivative?: boolean;
  /** Drop anomalous trades and outliers (default true). */
  excludeAnomalousTransactions?: boolean;
  /** Keep only high-signal trades. */
  excludeLowSignalTransactions?: boolean;
  /** Require a positive price per share. */
  onlyMarketTransactions?: boolean;
  /** Require a new position. */
  onlyNewPositions?: boolean;
  /** Only trades in a 90-day cluster. */
  onlyClusterTrades?: boolean;
  /** Only reversals. */
  onlyReversal?: boolean;
  /** Only buying-the-dip trades. */
  onlyBuyingDip?: boolean;
  /** Only selling-the-rip trades. */
  onlySellingRip?: boolean;
  /** Filing-date preset (default `All time`). */
  filingDatePreset?: FilingDatePreset;
  /** Inclusive ET filing date lower bound. */
  filingDateFrom?: string | null;
  /** Inclusive ET filing date upper bound. */
  filingDateTo?: string | null;
  /** Exact accession number. */
  accessionNumber?: string;
  /** Sort key (default `filedAt`). */
  sortBy?: SortBy;
  /** Sort direction (default `desc`). */
  sortDirection?: SortDirection;
}

const AMOUNT = /^\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*([kmbt])?\s*$/i;
const MULT: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, t: 1e12 };

/**
 * Parses a human amount in USD; `undefined` for an empty string, `NaN` when
 * it does not parse.
 *
 * @example
 * ```ts
 * import { parseAmount } from "./filter.ts";
 * parseAmount("2.5m"); // 2500000
 * parseAmount("$1,200"); // 1200
 * ```
 */
export function parseAmount(s: string): number | undefined {
  if (s.trim() === "") return undefined;
  const m = AMOUNT.exec(s);
  if (!m) return NaN;
  const n = Number(m[1].replaceAll(",", "") + (m[2] ?? ""));
  return n * (m[3] ? MULT[m[3].toLowerCase()] : 1);
}

const PERCENT = /^\s*([-+]?\d+(?:\.\d+)?)\s*%?\s*$/;

/**
 * Parses a percent string to a number of percent; `undefined` for an empty
 * string, `NaN` when it does not parse.
 *
 * @example
 * ```ts
 * import { parsePercent } from "./filter.ts";
 * parsePercent("-5.5%"); // -5.5
 * ```
 */
export function parsePercent(s: string): number | undefined {
  if (s.trim() === "") return undefined;
  const m = PERCENT.exec(s);
  return m ? Number(m[1]) : NaN;
}

const amount = () =>
  z.string().refine((s) => !Number.isNaN(parseAmount(s)), {
    error: (i) =>
      `${showValue(i.input)} is not an amount; allowed: a USD amount like 250000, 250k, 2.5m, 1b`,
  });
const percent = () =>
  z.string().refine((s) => !Number.isNaN(parsePercent(s)), {
    error: (i) => `${showValue(i.input)} is not a percent; allowed: a number like 10, -5.5 or 25%`,
  });
const flag = () =>
  z.boolean({ error: (i) => `${showValue(i.input)} is not allowed; allowed: true, false` })
    .optional();
type Flags<K extends readonly string[]> = { [P in K[number]]: ReturnType<typeof flag> };
function flags<const K extends readonly string[]>(keys: K): Flags<K> {
  return Object.fromEntries(keys.map((k) => [k, flag()])) as Flags<K>;
}

const SECTOR_ALLOWED = `${INSIDER_SECTORS.join(", ")}, an industry id, "" or all`;

/** zod schema of the filter (unknown fields rejected). */
export const InsiderFilterSchema = z.object({
  cikOrTicker: z.string().regex(/^[A-Za-z0-9.\-]{0,20}$/, {
    error: (i) =>
      `${showValue(i.input)} is not allowed; allowed: an issuer CIK (digits) or a ticker`,
  }).optional(),
  sector: z.string().refine((s) => s === "" || s === "all" || SECTOR_CHECK(s), {
    error: (i) => `${showValue(i.input)} is not allowed; allowed: ${SECTOR_ALLOWED}`,
  }).optional(),
  marketCapMin: amount().optional(),
  marketCapMax: amount().optional(),
  reportingOwnerCik: z.string().regex(/^\d{0,10}$/, {
    error: (i) => `${showValue(i.input)} is not allowed; allowed: a CIK of up to 10 digits`,
  }).optional(),
  position: z.object(flags(POSITION_FLAGS)).strict().optional(),
  insiderReturnPeriod: oneOf(INSIDER_RETURN_PERIODS).optional(),
  insiderReturnType: oneOf(INSIDER_RETURN_TYPES).optional(),
  insiderReturnMin: percent().optional(),
  insiderReturnMax: percent().optional(),
  tradeType: oneOf(TRADE_TYPES, `"", all, purchase, sale`).optional(),
  tradeReturnPeriod: oneOf(TRADE_RETURN_PERIODS, `"", 1W, 1M, 3M, 6M, 1Y, 2Y, latest`).optional(),
  tradeReturnMin: percent().optional(),
  tradeReturnMax: percent().optional(),
  purchaseMin: amount().optional(),
  purchaseMax: amount().optional(),
  percentChangeMin: percent().optional(),
  percentChangeMax: percent().optional(),
  ...flags(EXCLUDE_FLAGS),
  ...flags(ONLY_FLAGS),
  filingDatePreset: oneOf(FILING_DATE_PRESETS).optional(),
  filingDateFrom: isoDate().nullable().optional(),
  filingDateTo: isoDate().nullable().optional(),
  accessionNumber: z.string().max(40, { error: (i) => `${showValue(i.input)} is too long` })
    .optional(),
  sortBy: oneOf(SORT_BYS).optional(),
  sortDirection: oneOf(SORT_DIRECTIONS).optional(),
}).strict().superRefine(ordered("filingDateFrom", "filingDateTo")).openapi("InsiderFilter");

// One shape, two forms: the interface (narrow literal and template types for
// editors) and the schema (run-time checks) must name the same fields.
const _filterShape: SameKeys<InsiderFilter, z.input<typeof InsiderFilterSchema>> = true;
// and every value the interface allows is one the schema accepts as input
const _filterAssignable: InsiderFilter extends z.input<typeof InsiderFilterSchema> ? true
  : false = true;

/** Search rows a page when the request sets no `pageSize` (the spec's default). */
export const SEARCH_PAGE_SIZE = 100;

/** zod schema of the search body. */
export const InsiderSearchBody = z.object({
  filter: InsiderFilterSchema.optional(),
  pagination: z.object({
    cursor: z.string().nullable().optional(),
    pageSize: intIn(1, 100).optional().openapi({
      description: `1 to 100, default ${SEARCH_PAGE_SIZE}`,
    }),
  }).strict().optional(),
}).strict();

/** The spec's filter defaults. */
export const FILTER_DEFAULTS = {
  excludeAnomalousTransactions: true,
  filingDatePreset: "All time",
  insiderReturnPeriod: "3M",
  insiderReturnType: "all",
  sortBy: "filedAt",
  sortDirection: "desc",
} as const satisfies InsiderFilter;
