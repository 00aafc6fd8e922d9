/**
 * The emulator's shared world: companies (the same issuers appear in both
 * services), a daily price path per ticker and a market index. Everything is
 * deterministic for a seed. The world is frozen at `asOf` (default
 * 2026-11-20): "today" for filing-date presets and the end of every return
 * window.
 *
 * @module
 */
import { list } from "./words.ts";
import { Rng } from "../shared/random.ts";
import { dayOf } from "./calendar.ts";

/** Default as-of date of the demo world. */
export const DEFAULT_AS_OF = "2026-11-20";
/** Years of trading history generated before `asOf`. */
export const HISTORY_YEARS = 5;
/** Days of price history before the first trade (for prior returns and SMAs). */
const LEAD_DAYS = 400;

/**
 * The price model's parameters (annual units). Each stock's daily log return
 * is `a + β·m + σᵢ·z + J`: the market's log return `m` (7 %/yr expected
 * simple return, 16 %/yr volatility), a beta drawn uniformly from
 * `betaLo`–`betaHi` (mean 1), idiosyncratic diffusion volatility drawn
 * uniformly from `volLo`–`volHi`, and Merton (1976) jumps `J` (about
 * `jumpsPerYear` a year, size N(`jumpMean`, `jumpSd`²)) that give daily
 * returns fat tails (excess kurtosis well above 0, as in Cont 2001, "Empirical
 * properties of asset returns: stylized facts", Quantitative Finance 1). With
 * the jumps, total idiosyncratic volatility spans about 27–57 %/yr, inside the
 * 25–60 % range of US common stocks reported by Campbell, Lettau, Malkiel &
 * Xu (2001), "Have individual stocks become more volatile?", Journal of
 * Finance 56. The drift `a` is compensated (see `compensatedDrift` in the
 * source) so a stock's expected simple return equals the market's: a random
 * trade's mean excess return is 0 and its median is slightly negative.
 */
export const PRICE_MODEL = {
  marketReturn: 0.07,
  marketVol: 0.16,
  betaLo: 0.7,
  betaHi: 1.3,
  volLo: 0.22,
  volHi: 0.54,
  jumpsPerYear: 4,
  jumpMean: 0,
  jumpSd: 0.08,
} as const;

const MARKET = {
  drift: Math.log(1 + PRICE_MODEL.marketReturn) / 365 - (PRICE_MODEL.marketVol ** 2 / 365) / 2,
  vol: PRICE_MODEL.marketVol / Math.sqrt(365),
};
const JUMP_P = PRICE_MODEL.jumpsPerYear / 365;

/** An industry: numeric id (insider service) and slug (catalog service). */
export interface Industry {
  /** Numeric industry id (`simple_industry_id`). */
  id: number;
  /** Catalog slug, e.g. `industry_software`. */
  slug: string;
  /** Display label. */
  label: string;
}

/** A sector from text: its label, then its industries one a line (id, slug and label). */
function sector(text: string) {
  const [label, ...lines] = text.split("\n");
  return {
    label,
    industries: lines.map((line) => {
      const [id, slug, ...words] = line.trim().split(" ");
      return { id: Number(id), slug, label: words.join(" ") };
    }),
  };
}

/** Sector table: insider slug → label and industries. */
export const SECTOR_TABLE: Record<string, { label: string; industries: Industry[] }> = {
  technology: sector(`Technology, Media & Telecom
    101 industry_software Software
    102 industry_semiconductors Semiconductors
    103 industry_media_telecom Media & Telecom`),
  biotech: sector(`Biotechnology
    201 industry_biotechnology Biotechnology
    202 industry_drug_discovery Drug Discovery`),
  healthcare: sector(`Health Care
    301 industry_medical_devices Medical Devices
    302 industry_health_services Health Services`),
  financials: sector(`Financials
    401 industry_banks Banks
    402 industry_insurance Insurance
    403 industry_asset_management Asset Management`),
  consumer: sector(`Consumer
    501 industry_retail Retail
    502 industry_restaurants Restaurants
    503 industry_consumer_brands Consumer Brands`),
  energy: sector(`Energy & Utilities
    601 industry_oil_gas Oil & Gas
    602 industry_utilities Utilities
    603 industry_renewables Renewables`),
  industrials: sector(`Industrials
    701 industry_aerospace Aerospace & Defense
    702 industry_machinery Machinery
    703 industry_transportation Transportation`),
  materials: sector(`Materials
    801 industry_chemicals Chemicals
    802 industry_metals_mining Metals & Mining`),
  realestate: sector(`Real Estate
    901 industry_reits REITs
    902 industry_real_estate_services Real Estate Services`),
};

/** Countries used by the catalog's `country_region` tags. */
export const COUNTRIES = [
  { slug: "country_us", label: "United States", weight: 0.8 },
  { slug: "country_canada", label: "Canada", weight: 0.07 },
  { slug: "country_uk", label: "United Kingdom", weight: 0.05 },
  { slug: "country_germany", label: "Germany", weight: 0.04 },
  { slug: "country_japan", label: "Japan", weight: 0.04 },
] as const;

/** A company (issuer) of the demo world. */
export interface Company {
  /** Index in `World.companies`. */
  idx: number;
  /** Catalog company id. */
  companyId: number;
  /** 10-digit zero-padded issuer CIK. */
  cik: string;
  /** Ticker symbol. */
  ticker: string;
  /** Legal name. */
  name: string;
  /** Alternate names (short name, former name). */
  alternateNames: string[];
  /** Insider-service sector slug. */
  sector: string;
  /** Industry. */
  industry: Industry;
  /** Catalog country slug. */
  country: string;
  /** Shares outstanding. */
  sharesOutstanding: number;
  /** Trading item id. */
  tradingItemId: number;
}

/** The demo world. */
export interface World {
  /** Seed it was generated from. */
  seed: number;
  /** Scale factor of the counts. */
  scale: number;
  /** Day number of the as-of date ("today"). */
  asOf: number;
  /** Day number of the first price. */
  start: number;
  /** Day number of the first trade or pitch. */
  firstDay: number;
  /** Companies. */
  companies: Company[];
  /** Close price of company `c` on `day` (clamped to the path). */
  price(c: number, day: number): number;
  /** Market index level on `day`. */
  market(day: number): number;
  /** Percent return of company `c` from day `d0` to `d1`. */
  ret(c: number, d0: number, d1: number): number;
  /** Percent return of the market from `d0` to `d1`. */
  marketRet(d0: number, d1: number): number;
  /** Simple moving average of `n` closes ending on `day`. */
  sma(c: number, day: number, n: number): number;
  /** Beta of company `c` against the market index. */
  beta(c: number): number;
  /** Idiosyncratic diffusion volatility of company `c` (annual, without jumps). */
  idioVol(c: number): number;
  /** Cumulative abnormal log return that insiders' signals put into company `c`'s path by `day`. */
  abnormal(c: number, day: number): number;
  /**
   * Every deterministic log effect in company `c`'s path by `day`: the
   * insiders' signals (`abnormal`) plus the ten-bagger landmark's re-rating
   * (see {@link TEN_BAGGER}). A stock's price is its compensated random
   * path times `e^effect`, so `stub.truth` is computed from this.
   */
  effect(c: number, day: number): number;
  /**
   * Puts an informed trade's signal into company `c`'s path: from the day
   * after `day` the log price gains `amount · signalProfile(days since)`.
   * The generator calls it before any price is read.
   */
  addSignal(c: number, day: number, amount: number): void;
  /** Expected gross market return over `days` days (E[market(d + days) / market(d)]). */
  expectedMarketGrowth(days: number): number;
}

const NAME_HEADS = list(`
  Acme, Apex, Aurora, Beacon, Blue Ridge, Boreal, Cascade, Cedar, Cobalt, Crescent, Delta, Ember,
  Evergreen, Falcon, Frontier, Granite, Harbor, Helix, Horizon, Ion, Juniper, Keystone, Lumen,
  Meridian, Nimbus, Northwind, Onyx, Orchid, Pinnacle, Quantum, Redwood, Sable, Sequoia, Sierra,
  Summit, Tidal, Titan, Umbra, Vanguard, Vertex, Willow, Zenith, Atlas, Bright, Copper,
  Driftwood, Eastgate, Fairview, Golden, Highland, Ironclad, Lakeshore, Maple, Oakmont, Prairie,
  Riverbend, Silverline, Stonebridge, Trident, Westfield,
`);
const NAME_TAILS: Record<string, string[]> = {
  technology: ["Software", "Systems", "Semiconductor", "Networks", "Digital", "Media"],
  biotech: ["Therapeutics", "Biosciences", "Genomics", "Pharma", "Bio"],
  healthcare: ["Medical", "Health", "Diagnostics", "Care"],
  financials: ["Bancorp", "Financial", "Capital", "Insurance", "Trust"],
  consumer: ["Brands", "Retail", "Foods", "Apparel", "Restaurants"],
  energy: ["Energy", "Petroleum", "Power", "Utilities", "Solar"],
  industrials: ["Industries", "Aerospace", "Logistics", "Machinery", "Rail"],
  materials: ["Materials", "Chemicals", "Mining", "Metals"],
  realestate: ["Realty", "Properties", "REIT", "Land"],
};
const SUFFIXES = ["Inc.", "Corp.", "Holdings, Inc.", "Group, Inc.", "Co.", "Ltd."];

/** Options of {@link generateWorld}. */
export interface WorldOptions {
  /** Seed (default 1). */
  seed?: number;
  /** Count multiplier (default 1). */
  scale?: number;
  /** As-of date `YYYY-MM-DD` (default {@link DEFAULT_AS_OF}). */
  asOf?: string;
}

/**
 * The stored form of a world: everything {@link assembleWorld} needs, as
 * plain arrays (what `world_cache.ts` writes to disk and reads back).
 */
export interface WorldParts
  extends Pick<World, "seed" | "scale" | "asOf" | "start" | "firstDay" | "companies"> {
  /** Market index level by path index. */
  market: Float64Array;
  /** Each company's compensated random path (the landmark re-rating included). */
  paths: Float64Array[];
  /** Betas by company. */
  betas: number[];
  /** Idiosyncratic volatilities by company. */
  vols: number[];
  /** The ten-bagger's company index (−1 when none). */
  landmark: number;
  /** Cumulative abnormal log return by company (absent: none), filled by `addSignal`. */
  abnormal: Map<number, Float64Array>;
}

/**
 * Draws a world's companies and price paths (deterministic for the seed):
 * about 400 × scale companies with five-plus years of prices.
 */
export function generateWorld(opts: WorldOptions = {}): WorldParts {
  const seed = opts.seed ?? 1;
  const scale = opts.scale ?? 1;
  const rng = new Rng(seed * 7919 + 1);
  const asOf = dayOf(opts.asOf ?? DEFAULT_AS_OF);
  const firstDay = asOf - Math.round(HISTORY_YEARS * 365.25);
  const start = firstDay - LEAD_DAYS;
  const n = asOf - start + 1;
  const nCompanies = Math.round(400 * scale);

  const market = new Float64Array(n);
  market[0] = 3000;
  for (let i = 1; i < n; i++) {
    market[i] = market[i - 1] * Math.exp(MARKET.drift + MARKET.vol * rng.normal());
  }
  const sectors = Object.keys(SECTOR_TABLE);
  const used = new Set<string>();
  const companies: Company[] = [];
  const paths: Float64Array[] = [];
  const betas: number[] = [];
  const vols: number[] = [];
  for (let c = 0; c < nCompanies; c++) {
    const sector = sectors[c % sectors.length];
    const table = SECTOR_TABLE[sector];
    const head = rng.pick(NAME_HEADS);
    const tail = rng.pick(NAME_TAILS[sector]);
    let base = `${head} ${tail}`;
    if (used.has(base)) base = `${head} ${tail} ${romanSuffix(c)}`;
    used.add(base);
    const name = `${base} ${rng.pick(SUFFIXES)}`;
    const ticker = makeTicker(base, used, rng);
    let w = rng.next();
    const country = COUNTRIES.find((k) => (w -= k.weight) < 0)?.slug ?? "country_us";
    companies.push({
      idx: c,
      companyId: 10_000 + c * 37,
      cik: String(1_000_000 + c * 1_013).padStart(10, "0"),
      ticker,
      name,
      alternateNames: [base, head],
      sector,
      industry: rng.pick(table.industries),
      country,
      sharesOutstanding: Math.round(Math.exp(16 + 2.2 * rng.next() + 0.8 * rng.normal())),
      tradingItemId: 20_000_000 + c * 11,
    });
    const beta = PRICE_MODEL.betaLo + (PRICE_MODEL.betaHi - PRICE_MODEL.betaLo) * rng.next();
    const annualVol = PRICE_MODEL.volLo + (PRICE_MODEL.volHi - PRICE_MODEL.volLo) * rng.next();
    const vol = annualVol / Math.sqrt(365);
    betas.push(beta);
    vols.push(annualVol);
    const drift = compensatedDrift(beta, vol);
    const p = new Float64Array(n);
    let level = 10 + 190 * rng.next();
    p[0] = level;
    for (let i = 1; i < n; i++) {
      const m = Math.log(market[i] / market[i - 1]);
      const jump = rng.chance(JUMP_P)
        ? PRICE_MODEL.jumpMean + PRICE_MODEL.jumpSd * rng.normal()
        : 0;
      level *= Math.exp(drift + beta * m + vol * rng.normal() + jump);
      p[i] = level;
    }
    paths.push(p);
  }
  const landmark = addLandmarks(companies, paths, vols, start, firstDay, asOf);
  return {
    seed,
    scale,
    asOf,
    start,
    firstDay,
    companies,
    market,
    paths,
    betas,
    vols,
    landmark,
    abnormal: new Map(),
  };
}

/**
 * The {@link World} over its parts. `addSignal` writes into `parts.abnormal`,
 * so the parts stay the world's full stored form.
 */
export function assembleWorld(parts: WorldParts): World {
  // prices are read through `parts` at each call: a world read from the cache loads them
  // only when a price is first asked for (insider answers need none)
  const { seed, scale, asOf, start, firstDay, companies, betas, vols } = parts;
  const n = asOf - start + 1;
  const landmark = landmarkLog(parts.landmark, start, asOf);
  const at = (day: number) => Math.min(n - 1, Math.max(0, day - start));
  const abn = (c: number, i: number) => parts.abnormal.get(c)?.[i] ?? 0;
  const px = (c: number, i: number) => parts.paths[c][i] * Math.exp(abn(c, i));
  const market = (i: number) => parts.market[i];
  const sums = new Map<number, Float64Array>();
  const prefix = (c: number) => {
    let s = sums.get(c);
    if (!s) {
      s = new Float64Array(n + 1);
      for (let i = 0; i < n; i++) s[i + 1] = s[i] + px(c, i);
      if (sums.size > 64) sums.clear();
      sums.set(c, s);
    }
    return s;
  };
  return {
    seed,
    scale,
    asOf,
    start,
    firstDay,
    companies,
    beta: (c) => betas[c],
    idioVol: (c) => vols[c],
    price: (c, day) => px(c, at(day)),
    market: (day) => market(at(day)),
    ret: (c, d0, d1) => (px(c, at(d1)) / px(c, at(d0)) - 1) * 100,
    marketRet: (d0, d1) => (market(at(d1)) / market(at(d0)) - 1) * 100,
    sma: (c, day, len) => {
      const s = prefix(c);
      const hi = at(day) + 1;
      const lo = Math.max(0, hi - len);
      return (s[hi] - s[lo]) / (hi - lo);
    },
    abnormal: (c, day) => abn(c, at(day)),
    effect: (c, day) => abn(c, at(day)) + (c === parts.landmark ? landmark(at(day)) : 0),
    addSignal: (c, day, amount) => {
      if (amount === 0) return;
      const a = parts.abnormal.getOrInsertComputed(c, () => new Float64Array(n));
      for (let i = at(day) + 1; i < n; i++) a[i] += amount * signalProfile(i - at(day));
      sums.delete(c);
    },
    expectedMarketGrowth: (days) => Math.exp((MARKET.drift + MARKET.vol ** 2 / 2) * days),
  };
}

/** Market cap, USD, the world's largest company has at least at every day of its history. */
export const MEGA_CAP_FLOOR = 2.2e11;
/** Price multiple of the world's ten-bagger run-up, and the days it takes. */
export const TEN_BAGGER = { multiple: 15, days: 100, daysBeforeAsOf: 900 } as const;

/**
 * Two landmarks every demo world has, whatever its seed, so that every
 * enumerated filter value of the catalog matches a pitch (a random world of
 * 400 companies has neither):
 * - a mega cap: the largest company (by market cap on the first trade day)
 *   has its share count raised so its market cap stays at or above
 *   {@link MEGA_CAP_FLOOR} (the `market_cap_mega` tag's $200B threshold);
 * - a ten-bagger: the biotech with the lowest idiosyncratic volatility (a
 *   parameter drawn before its path) re-rates {@link TEN_BAGGER}.multiple×
 *   over `days` days starting `daysBeforeAsOf` days before `asOf` (a drug
 *   approval), so 6-month, 1-year and 2-year returns of 900 %+ exist
 *   (`pitchReturn` floors up to `x10`; the steadiest biotech is the likeliest
 *   to keep its 2-year gain above 10×: a 2-year ×10 pitch exists in 29 of
 *   seeds 1–30 at scale 0.2, `tests/stub/filter_coverage_test.ts`, and in
 *   the default world). It is never picked on its path, so its price
 *   noise in every trade's window is mean-zero like any stock's: picking the
 *   smallest biotech on the run-up's first day (before world cache version
 *   8) chose a stock whose price had just fallen (−22 log points in the year
 *   before, z −6 over 120 worlds), which no truth holds.
 * Neither draws from the seeded generator, so the rest of the world is the
 * same as without them. Returns the re-rated company (−1 when none); its
 * log re-rating by path index ({@link landmarkLog}) is in `World.effect`
 * (and so `stub.truth`): the run-up is a deterministic effect, like an
 * insider's signal.
 */
function addLandmarks(
  companies: Company[],
  paths: Float64Array[],
  vols: number[],
  start: number,
  firstDay: number,
  asOf: number,
): number {
  if (companies.length === 0) return -1;
  const i0 = firstDay - start;
  const cap = (c: number, i: number) => paths[c][i] * companies[c].sharesOutstanding;
  let big = 0;
  for (let c = 1; c < companies.length; c++) if (cap(c, i0) > cap(big, i0)) big = c;
  let low = Infinity;
  for (let i = i0; i < paths[big].length; i++) low = Math.min(low, cap(big, i));
  if (low < MEGA_CAP_FLOOR) {
    companies[big].sharesOutstanding = Math.ceil(
      companies[big].sharesOutstanding * MEGA_CAP_FLOOR / low,
    );
  }
  const iD = asOf - TEN_BAGGER.daysBeforeAsOf - start;
  // picked on a parameter drawn before its path (the lowest idiosyncratic volatility), never
  // on the path: picking the smallest biotech by market value on the run-up's first day
  // selected a stock whose price had just fallen, noise that no truth contains (its
  // purchases before the run-up realized less than their truth)
  let small = -1;
  for (let c = 0; c < companies.length; c++) {
    if (companies[c].sector !== "biotech" || c === big) continue;
    if (small < 0 || vols[c] < vols[small]) small = c;
  }
  if (small < 0 || iD <= 0) return -1;
  const p = paths[small];
  const log = landmarkLog(small, start, asOf);
  for (let i = iD + 1; i < p.length; i++) p[i] *= Math.exp(log(i));
  return small;
}

/** The ten-bagger's log re-rating by path index (0 everywhere when `company` is −1). */
function landmarkLog(company: number, start: number, asOf: number): (i: number) => number {
  if (company < 0) return () => 0;
  const iD = asOf - TEN_BAGGER.daysBeforeAsOf - start;
  const rise = Math.log(TEN_BAGGER.multiple);
  return (i: number) => i <= iD ? 0 : rise * Math.min(1, (i - iD) / TEN_BAGGER.days);
}

/**
 * Share of a signal's abnormal log return realised `days` after the trade:
 * concave, 0 on the trade day, about 30 % after a month, 60 % after three
 * months and all of it after a year (insider-trade abnormal returns accrue
 * mostly in the first months: Jeng, Metrick & Zeckhauser 2003).
 */
export function signalProfile(days: number): number {
  if (days <= 0) return 0;
  if (days >= 365) return 1;
  return (1 - Math.exp(-days / SIGNAL_TAU)) / (1 - Math.exp(-365 / SIGNAL_TAU));
}

const SIGNAL_TAU = 90;

/**
 * The daily log drift that makes a stock's expected gross return equal the
 * market's, whatever its beta, volatility and jumps: with a daily market log
 * return m ~ N(μ, σ²), E[e^m] = E[e^(βm + a + σᵢz + J)] gives
 * a = μ + σ²/2 − βμ − β²σ²/2 − σᵢ²/2 − ln(1 − p + p·e^(μJ + σJ²/2)).
 * So a random trade's expected simple excess return is 0, its expected log
 * excess is negative (about −σᵢ²/2 a year) and its median excess is below 0.
 */
function compensatedDrift(beta: number, vol: number): number {
  const { drift: mu, vol: s } = MARKET;
  const jumpMgf = 1 - JUMP_P +
    JUMP_P * Math.exp(PRICE_MODEL.jumpMean + PRICE_MODEL.jumpSd ** 2 / 2);
  return mu + s * s / 2 - beta * mu - beta * beta * s * s / 2 - vol * vol / 2 - Math.log(jumpMgf);
}

function romanSuffix(i: number): string {
  return ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][i % 9];
}

function makeTicker(base: string, used: Set<string>, rng: Rng): string {
  const letters = base.toUpperCase().replace(/[^A-Z]/g, "");
  // whether `t` was free, taking it (tickers share the names' set, with a `$` in front)
  const claim = (t: string) => !used.has("$" + t) && used.add("$" + t).size > 0;
  for (let len = 3; len <= 5; len++) {
    const words = base.toUpperCase().split(/\s+/);
    const initials = words.map((w) => w[0]).join("");
    const candidate = (initials + letters.slice(1)).slice(0, len);
    if (claim(candidate)) return candidate;
  }
  for (;;) {
    const t = letters.slice(0, 2) + String.fromCharCode(65 + rng.int(0, 25)) +
      String.fromCharCode(65 + rng.int(0, 25));
    if (claim(t)) return t;
  }
}
