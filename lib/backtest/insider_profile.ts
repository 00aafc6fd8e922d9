/**
 * One insider, from a name to a verdict: `insiderProfile(insider, "name")`
 * looks the name up, pulls every trade they filed, and studies what
 * happened after their buys and their sales (an {@link eventStudy} grouped
 * by side, month-clustered), next to the point-in-time win rate the service
 * knew at each filing.
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
import { eventStudy, type StudyHorizon } from "./event_study.ts";

/** Options of {@link insiderProfile}. */
export interface InsiderProfileOptions {
  /** Horizons studied (default `["3m", "1y"]`). */
  horizons?: StudyHorizon[];
  /** Realized trades needed before judging a side (default 10). */
  minN?: number;
}

/** What {@link insiderProfile} found. */
export interface InsiderProfile {
  /** The insider the name matched (the best hit). */
  insider: InsiderHit;
  /** Other hits for the same name, in case the first is not the one meant. */
  alternatives: InsiderHit[];
  /** Every trade they filed (default search filters), newest first. */
  trades: Frame;
  /** The event study by side (buy / sell) over `horizons`, month-clustered. */
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
  const realized = trades.height > 0;
  const study = realized
    ? eventStudy(trades, { groupBy: "side", horizons, cluster: "month", minN })
    : trades;
  const verdict = realized ? verdictOf(study, minN) : `${hit.name} has no trades on file.`;
  const caveats = [
    `${trades.height} trades by one person, in ${
      realized ? new Set(trades.getColumn("issuer_cik").toArray()).size : 0
    } issuer(s): few, and not independent (months are resampled together).`,
    "Returns run from the trade date; an investor could act only after the filing (up to two business days later).",
    "The win rate shown at each filing counts only earlier trades, but past hit rates of one insider are a weak guide.",
    "The sample is what the service covers today (survivorship).",
  ];
  return { insider: hit, alternatives, trades, study, verdict, caveats };
}

function verdictOf(study: Frame, minN: number): string {
  const rows = study.toRecords() as Record<string, unknown>[];
  const out: string[] = [];
  for (const side of ["buy", "sell"]) {
    const mine = rows.filter((r) => r.group === side);
    if (mine.length === 0) continue;
    // the longest horizon with realized trades says the most
    const r = [...mine].reverse().find((x) => (x.n as number) > 0);
    if (!r) {
      out.push(`No ${side} has a realized return yet.`);
      continue;
    }
    const n = r.n as number;
    const what = side === "buy" ? "buys" : "sales";
    const mean = r.mean_excess as number;
    if (n < minN) {
      out.push(
        `${n} ${what} with a ${r.horizon} return: too few to judge (mean excess ${pct(mean)}).`,
      );
      continue;
    }
    const lo = r.ci_low as number | null;
    const hi = r.ci_high as number | null;
    const interval = lo === null || hi === null ? "" : ` (95% interval ${pct(lo)} to ${pct(hi)})`;
    // a sale "works" when the stock then lags the market
    const good = side === "buy" ? lo !== null && lo > 0 : hi !== null && hi < 0;
    const bad = side === "buy" ? hi !== null && hi < 0 : lo !== null && lo > 0;
    const call = good
      ? "the stock beat the market after them: a record worth watching"
      : bad
      ? "the stock did worse than following them would suggest"
      : "no edge distinguishable from zero";
    out.push(
      `${n} ${what}, ${r.horizon} mean excess ${pct(mean)}${interval}, hit rate ${
        (r.hit_rate as number).toFixed(0)
      }%: ${call}.`,
    );
  }
  return out.join(" ") || "No buys or sales to judge.";
}
