/**
 * The winner's curse of author rankings against the emulator's truth, for
 * one world: `authorWinRates` (1-year absolute return, `minPitches` 5)
 * through the catalog client, each author's true win rate from the world,
 * and how far the top of the ranking overstates it, ranked by the raw rate
 * and by the shrunk rate.
 *
 * The truth (1-year absolute return ≥ 0): the emulator writes a pitch as
 * neutral with probability 0.12 (a neutral pitch counts as long), else an
 * author with skill s > 0.5 calls the stock's 1-year direction right with
 * probability s, and an author without skill is bullish with probability
 * 0.7 (lib/stub/catalog/catalog_data.ts). With u the probability that a
 * stock picked as the emulator picks them (any company, any day whose year
 * has ended by the as-of day) rose over the year, the true win rate is
 * 0.12·u + 0.88·s for a skilled author and 0.12·u + 0.88·(0.7·u + 0.3·(1 − u))
 * for the others. u is counted exactly over every company and day.
 *
 * @module
 */
import { authorWinRates, CatalogClient } from "../mod.ts";
import { createStub, DEMO_KEYS, type Stub } from "../lib/stub/mod.ts";
import { PERIOD_DAYS } from "../lib/families/author_win_rates.ts";

/** One world's figures: for each top size, the mean overstatement (points) by ranking. */
export interface ShrinkageCheck {
  seed: number;
  authors: number;
  /** Prior strength α + β (pitches). */
  strength: number;
  /** Mean of win_rate − truth over all the authors (points): the truth's calibration, ≈ 0. */
  allOver: number;
  /** By top size ("3", "20"): raw and shrunk overstatement, truth of the picks, Wilson coverage. */
  top: Record<string, {
    rawOver: number;
    shrunkOver: number;
    rawTruth: number;
    shrunkTruth: number;
    wilsonCover: number;
  }>;
}

/** Each author's true 1-year absolute win rate in `stub`'s world, by username, as of `asOfDay`. */
export function trueWinRates(stub: Stub, asOfDay: number): Map<string, number> {
  const w = stub.world;
  const last = asOfDay - PERIOD_DAYS["1y"];
  let up = 0, all = 0;
  for (let c = 0; c < w.companies.length; c++) {
    for (let d = w.firstDay; d <= last; d++) {
      if (w.ret(c, d, d + PERIOD_DAYS["1y"]) > 0) up++;
      all++;
    }
  }
  const u = up / all;
  const out = new Map<string, number>();
  for (const a of stub.catalog.authors) {
    const call = a.skill > 0.5 ? a.skill : 0.7 * u + 0.3 * (1 - u);
    out.set(a.username, 0.12 * u + 0.88 * call);
  }
  return out;
}

type Row = {
  author_username: string;
  pitches: number;
  wins: number;
  win_rate: number;
  win_rate_low: number;
  win_rate_high: number;
  win_rate_shrunk: number;
};

/** The figures of one world (see the module doc). */
export async function shrinkageCheck(
  seed: number,
  scale: number,
  tops = [3, 20],
): Promise<ShrinkageCheck> {
  const stub = createStub({ seed, scale });
  const catalog = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch: stub.fetch,
  });
  const result = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 5 });
  const asOfDay = Date.parse(`${result.asOf}T00:00:00Z`) / 86_400_000;
  const truth = trueWinRates(stub, asOfDay);
  const shrunk = result.frame.toRecords() as unknown as Row[];
  const raw = [...shrunk].sort((a, b) => b.win_rate - a.win_rate || b.pitches - a.pitches);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const top: ShrinkageCheck["top"] = {};
  for (const k of tops) {
    const r = raw.slice(0, k), s = shrunk.slice(0, k);
    const t = (x: Row) => truth.get(x.author_username)!;
    top[k] = {
      rawOver: 100 * mean(r.map((x) => x.win_rate - t(x))),
      shrunkOver: 100 * mean(s.map((x) => x.win_rate_shrunk - t(x))),
      rawTruth: 100 * mean(r.map(t)),
      shrunkTruth: 100 * mean(s.map(t)),
      wilsonCover: 100 *
        mean(r.map((x) => x.win_rate_low <= t(x) && t(x) <= x.win_rate_high ? 1 : 0)),
    };
  }
  const allOver = 100 * mean(shrunk.map((x) => x.win_rate - truth.get(x.author_username)!));
  return { seed, authors: shrunk.length, strength: result.prior.strength, allOver, top };
}
