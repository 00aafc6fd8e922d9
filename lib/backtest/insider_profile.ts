/**
 * One insider, from a name to a verdict: `insiderProfile(insider, "name")`
 * looks the name up, pulls every trade they filed, and studies what
 * happened after their buys and their sales, next to the point-in-time win
 * rate the service knew at each filing. "Buys" are open-market purchases
 * and "sales" open-market sales, 10b5-1 plan sales included (`tradeClass`):
 * awards, option exercises, tax withholdings and gifts are in `trades` but
 * not in the study, since they are compensation events, not decisions.
 *
 * Intervals resample calendar months (one person's trades are nearly always
 * in one issuer, so issuer or two-way clustering has nothing to work with);
 * a side needs `minN` trades and `minClusters` months (default 20, as in
 * {@link eventStudy}) for an interval, and the verdict says which it lacks.
 *
 * The verdict is deliberately cautious: it is computed from the study's own
 * rows (never hard-coded), says "too few trades to judge" below `minN`
 * realized trades, and only calls a record good or bad when the cluster
 * interval excludes zero. Caveats always come with it: one person's trades
 * are few and cluster in a few stocks and months; returns run from the trade
 * date (an investor could act only after the filing); the sample is what the
 * service covers today.
 *
 * @module
 */
import type { InsiderClient, InsiderHit } from "../insider/client.ts";
import type { Frame } from "../frames/list.ts";
import { eventStudy, groupKey, type StudyHorizon } from "./event_study.ts";
import { sideOf } from "../families/side.ts";

/** Options of {@link insiderProfile}. */
export interface InsiderProfileOptions {
  /** Horizons studied (default `["3m", "1y"]`). */
  horizons?: StudyHorizon[];
  /** Realized trades needed before judging a side (default 10). */
  minN?: number;
  /** Distinct months needed for an interval (default 20, the `eventStudy` default). */
  minClusters?: number;
}

/** What {@link insiderProfile} found. */
export interface InsiderProfile {
  /** The insider the name matched (the best hit). */
  insider: InsiderHit;
  /** Other hits for the same name, in case the first is not the one meant. */
  alternatives: InsiderHit[];
  /** Every trade they filed (default search filters), newest first. */
  trades: Frame;
  /** The event study by side (buy = open-market purchases, code P; sell = sales, code S, 10b5-1 plan sales included) over `horizons`, month-clustered. */
  study: Frame;
  /** The verdict, one sentence per side, computed from `study`. */
  verdict: string;
  /** What the verdict cannot tell. */
  caveats: string[];
}

const pct = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}%`;

/**
 * Profiles one insider by name (or CIK) — see the module doc.
 *
 * @example
 * ```ts
 * import { connect, insiderProfile } from "../../mod.ts";
 * const { insider } = await connect();
 * const [someone] = await insider.insiders("a", { limit: 1 });
 * const profile = await insiderProfile(insider, someone.name);
 * console.log(profile.insider.name, profile.trades.height, profile.verdict);
 * ```
 */
export async function insiderProfile(
  client: InsiderClient,
  name: string,
  opts: InsiderProfileOptions = {},
): Promise<InsiderProfile> {
  const horizons = opts.horizons ?? ["3m", "1y"];
  const minN = opts.minN ?? 10;
  const hits = await client.insiders(name, { limit: 5 });
  if (hits.length === 0) {
    throw new RangeError(`insiderProfile: no insider matches ${JSON.stringify(name)}`);
  }
  const [hit, ...alternatives] = hits;
  const trades = await client.search({ reportingOwnerCik: hit.cik }).frame({ progress: false });
  const realized = trades.height > 0 &&
    trades.getColumn("code").toArray().some((code) => sideOf({ code }) !== 0);
  const study = realized
    ? eventStudy(trades, {
      // buy: an open-market purchase (code P); sell: a sale (code S), 10b5-1 plan sales included
      groupBy: groupKey("side"),
      order: ["buy", "sell"],
      horizons,
      cluster: "month",
      minN,
      minClusters: opts.minClusters,
    })
    : trades;
  const verdict = realized
    ? verdictOf(study, minN)
    : `${hit.name} has no open-market purchases or sales on file${
      trades.height ? ` (${trades.height} other transactions: awards, exercises and the like)` : ""
    }.`;
  const caveats = [
    `${trades.height} trades by one person, in ${
      realized ? new Set(trades.getColumn("issuer_cik").toArray()).size : 0
    } issuer(s): few, and not independent (months are resampled together).`,
    filingLagCaveat(trades),
    "The win rate shown at each filing counts only earlier trades, but past hit rates of one insider are a weak guide.",
    "The sample is what the service covers today (survivorship).",
  ];
  return { insider: hit, alternatives, trades, study, verdict, caveats };
}

/**
 * The filing-delay caveat, from this insider's own trades: the median days
 * from trade to filing and how many came more than 2 days later (Form 4 is
 * due within two business days, but late filings are common).
 */
function filingLagCaveat(trades: Frame): string {
  const head = "Returns run from the trade date; an investor could act only after the filing";
  if (!trades.height || !trades.columns.includes("filed_at")) return `${head}.`;
  const rows = trades.select("transaction_date", "filed_at").toRecords() as {
    transaction_date: Date | null;
    filed_at: Date | null;
  }[];
  const lags = rows.filter((r) => r.transaction_date && r.filed_at)
    .map((r) => Math.floor((r.filed_at!.getTime() - r.transaction_date!.getTime()) / 86_400_000))
    .sort((a, b) => a - b);
  if (!lags.length) return `${head}.`;
  const median = lags[Math.floor((lags.length - 1) / 2)];
  const late = lags.filter((d) => d > 2).length;
  return `${head}: their filings came a median ${median} day${
    median === 1 ? "" : "s"
  } after the trade, ${late} of ${lags.length} more than 2 days after.`;
}

function verdictOf(study: Frame, minN: number): string {
  const rows = study.toRecords() as Record<string, unknown>[];
  return ["buy", "sell"].filter((side) => rows.some((r) => r.group === side)).map((side) => {
    // the longest horizon with realized trades says the most
    const r = rows.findLast((x) => x.group === side && (x.n as number) > 0);
    if (!r) return `No ${side} has a realized return yet.`;
    const [n, mean] = [r.n as number, r.mean_excess as number];
    const lead = `${n} ${side === "buy" ? "buys" : "sales"}`;
    if (n < minN) {
      return `${lead} with a ${r.horizon} return: too few to judge (mean excess ${pct(mean)}).`;
    }
    if (r.thin) {
      return `${lead} with a ${r.horizon} return, mean excess ${
        pct(mean)
      }: too few to judge (${r.thin_reason}).`;
    }
    const [lo, hi] = [r.ci_low, r.ci_high] as (number | null)[];
    const interval = lo === null || hi === null ? "" : ` (95% interval ${pct(lo)} to ${pct(hi)})`;
    // a sale "works" when the stock then lags the market
    const [above, below] = [lo !== null && lo > 0, hi !== null && hi < 0];
    const call = (side === "buy" ? above : below)
      ? "the stock beat the market after them: a record worth watching"
      : (side === "buy" ? below : above)
      ? "the stock did worse than following them would suggest"
      : "no edge distinguishable from zero";
    return `${lead}, ${r.horizon} mean excess ${pct(mean)}${interval}, hit rate ${
      (r.hit_rate as number).toFixed(0)
    }%: ${call}.`;
  }).join(" ") || "No buys or sales to judge.";
}
