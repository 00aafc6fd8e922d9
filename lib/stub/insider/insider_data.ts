/**
 * Demo insider trades: about 2,000 × scale insiders at the world's issuers
 * file about 25,000 × scale transactions over five years. Every derived field
 * is computed from the trades and the price paths, so the data are internally
 * consistent:
 *
 * - value = shares · price; `acquired_disposed_code` agrees with `code`
 *   (P, A, M acquire; S, F, G dispose);
 * - forward/prior returns come from the ticker's price path, excess returns
 *   subtract the market index over the same window (percent units);
 * - no look-ahead: every field that describes the past uses only trades filed
 *   before this trade's filing. Win-rate and insider-return families use the
 *   insider's earlier-filed open-market trades (P buys are bullish, S sales
 *   bearish) whose window had ended by this trade's transaction date; a win
 *   is a direction-adjusted return above zero, and pct = 100·wins/total (null
 *   when total is 0). Z-scores and medians use earlier-filed trade values
 *   transacted within the window up to this trade's date; streaks and
 *   reversals follow the earlier filings in filing order. Cluster fields count
 *   open-market trades in the same direction at the same issuer, transacted
 *   within the 30 days up to the trade and filed no later than it;
 * - feed membership follows documented rules (see {@link feedIdsOf}) over
 *   those fields, so it is point-in-time too.
 *
 * Some insiders have skill: their discretionary trades move the price after
 * the trade by a known amount ({@link INSIDER_SKILL}); the emulator's
 * `truth` reports the expected excess return this builds in.
 *
 * @module
 */
import { list } from "../words.ts";
import {
  FORWARD_WINDOWS,
  INSIDER_RETURN_DIRECTIONS,
  INSIDER_RETURN_WINDOWS,
  PRIOR_WINDOWS,
  TRANSACTION_FIELD_NAMES,
  type TransactionRow,
  VALUE_WINDOWS,
  WIN_RATE_KINDS,
  WIN_RATE_SCOPES,
  WIN_RATE_WINDOWS,
  WINDOW_DAYS,
} from "../../insider/fields.ts";
import { easternDayOf, easternToUtcMs, isoOf, weekday } from "../calendar.ts";
import { Rng } from "../../shared/random.ts";
import type { World } from "../world.ts";

/** A reporting owner of the demo world. */
export interface Insider {
  /** 10-digit CIK. */
  cik: string;
  /** Name as filed ("LAST FIRST M"). */
  name: string;
  /** Issuer index. */
  company: number;
  /** Officer title or role text. */
  title: string;
  /** Role flags. */
  roles: Record<
    "ceo" | "cfo" | "cto" | "coo" | "officer" | "director" | "owner" | "other",
    boolean
  >;
  /**
   * Size of the news (abnormal log return over a year) this insider trades
   * ahead of; 0 = no skill (see {@link INSIDER_SKILL}).
   */
  skill: number;
}

/**
 * The insider-skill model, sized to the literature. Insider purchases earn a
 * few points a year of abnormal return and sales much less (Jeng, Metrick &
 * Zeckhauser 2003, "Estimating the returns to insider trading", Review of
 * Economics and Statistics 85: about 6 %/yr for purchases, sales
 * insignificant); opportunistic trades carry the signal and routine,
 * pre-planned ones about none (Cohen, Malloy & Pomorski 2012, "Decoding
 * inside information", Journal of Finance 67); top executives' trades are
 * the more informative (Seyhun 1986, "Insiders' profits, costs of trading,
 * and market efficiency", Journal of Financial Economics 16).
 *
 * A skilled insider (probability `skilledShare` by role) has a skill `a`
 * drawn uniformly from `skillLo`–`skillHi`. Each of their open-market
 * decisions is an informed event: news worth `±a` in log price (equally
 * likely good or bad, so the news has mean 0 and a random trade's expected
 * excess return stays 0) arrives over the following year (`signalProfile`).
 * On good news they buy (code P); on bad news they sell with probability
 * `informedSaleShare` and otherwise stay out of the market, so purchases are
 * more informative than sales. Informed trades are never under a 10b5-1
 * plan and are larger (log shares +`informedSizeBoost`), so size is
 * informative too. Awards, option exercises, tax withholding, gifts, 10b5-1
 * trades and every trade of an unskilled insider carry no information.
 */
export const INSIDER_SKILL = {
  skilledShare: { ceo: 0.6, cfo: 0.4, other: 0.15 },
  skillLo: 0.06,
  skillHi: 0.14,
  informedSaleShare: 1 / 3,
  informedSizeBoost: 0.8,
} as const;

/** A transaction plus the indexes the emulator filters on. */
export interface Trade {
  /** The row as the service sends it. */
  row: TransactionRow;
  /** Transaction day number. */
  day: number;
  /** Filing instant, epoch ms. */
  filedMs: number;
  /** Filing day in US Eastern Time. */
  etDay: number;
  /** Issuer index. */
  company: number;
  /** Insider index. */
  insider: number;
  /** +1 open-market buy, −1 open-market sale, 0 otherwise. */
  dir: number;
  /** Abnormal log return this trade's information puts into the issuer's price (0 = none). */
  signal: number;
  /** Part of a 90-day cluster (two or more insiders, same direction, same issuer). */
  cluster90: boolean;
}

/** One filing of the schedule (before prices). */
interface Event {
  insider: number;
  day: number;
  code: string;
  delay: number;
  filedDay: number;
  minutes: number;
  tenb51: boolean;
  signal: number;
  shares: Lot[];
}

/** One transaction's shares and the holdings before and after it. */
interface Lot {
  shares: number;
  before: number;
  holdings: number;
}

/** The insider dataset. */
export interface InsiderData {
  /** Reporting owners. */
  insiders: Insider[];
  /** Trades sorted by filing time, newest first. */
  trades: Trade[];
  /** Lookup by `accession_number/transaction_id`. */
  byKey: Map<string, Trade>;
}

const FIRST = list(`
  James, Mary, Robert, Patricia, John, Jennifer, Michael, Linda, David, Elizabeth, William,
  Barbara, Richard, Susan, Joseph, Jessica, Thomas, Sarah, Charles, Karen, Daniel, Lisa, Matthew,
  Nancy, Anthony, Sandra, Mark, Ashley, Steven, Emily, Paul, Donna, Andrew, Michelle, Joshua,
  Carol, Kevin, Amanda, Brian, Melissa, George, Deborah, Timothy, Laura, Ronald, Rebecca, Jason,
  Sharon, Edward, Cynthia, Ryan, Kathleen, Jacob, Amy, Gary, Angela, Nicholas, Helen, Eric, Anna,
`);
const LAST = list(`
  Smith, Johnson, Williams, Brown, Jones, Garcia, Miller, Davis, Rodriguez, Martinez, Hernandez,
  Lopez, Gonzalez, Wilson, Anderson, Thomas, Taylor, Moore, Jackson, Martin, Lee, Perez,
  Thompson, White, Harris, Sanchez, Clark, Ramirez, Lewis, Robinson, Walker, Young, Allen, King,
  Wright, Scott, Torres, Nguyen, Hill, Flores, Green, Adams, Nelson, Baker, Hall, Rivera,
  Campbell, Mitchell, Carter, Roberts, Chen, Patel, Kim, Okafor, Novak, Schmidt, Rossi, Silva,
  Kowalski, Larsen,
`);
/** Share of uninformed sales and purchases made under a 10b5-1 plan (other codes: none). */
const PLAN_SHARES: Record<string, number> = { S: 0.35, P: 0.02 };
const FILER_AGENTS = ["0001209191", "0000899243", "0001127602", "0001225208", "0001437749"];

// the history fields' names by scope (all, bullish, bearish) and window, made once (a name built
// per trade and field cost more than the rest of the point-in-time pass)
const WR_KEYS = WIN_RATE_SCOPES.map((s) =>
  WIN_RATE_WINDOWS.map((w) => WIN_RATE_KINDS.map((k) => `win_rate_${s}${w}_${k}`))
);
const IR_KEYS = INSIDER_RETURN_DIRECTIONS.map((s) =>
  INSIDER_RETURN_WINDOWS.map((w) => `insider_returns_${w}${s}`)
);

const TEMPLATE = Object.fromEntries(
  TRANSACTION_FIELD_NAMES.map((n) => [n, null]),
) as unknown as TransactionRow;

/**
 * Generates the insider dataset for a world: its insiders and trades (the
 * lookup by key is made where the trades are served, `stored_trades.ts`).
 */
export function makeInsiderData(world: World): Omit<InsiderData, "byKey"> {
  const rng = new Rng(world.seed * 104_729 + 17);
  const insiders = makeInsiders(world, rng);
  const trades: Trade[] = [];
  const seq = new Map<string, number>();
  const accession = (filedDay: number) => {
    const agent = rng.pick(FILER_AGENTS);
    const yy = isoOf(filedDay).slice(2, 4);
    const k = `${agent}-${yy}`;
    const n = (seq.get(k) ?? 0) + 1;
    seq.set(k, n);
    return `${k}-${String(n).padStart(6, "0")}`;
  };

  // 1. The schedule: who trades what and when (no prices needed yet).
  const events: Event[] = [];
  insiders.forEach((ins, ii) => {
    const nEvents = rng.int(2, 17);
    const days: number[] = [];
    for (let k = 0; k < nEvents; k++) {
      let d = rng.int(world.firstDay, world.asOf - 1);
      if (weekday(d) === 0) d -= 2;
      if (weekday(d) === 6) d -= 1;
      days.push(d);
    }
    days.sort((a, b) => a - b);
    let holdings = rng.chance(0.3) ? 0 : Math.round(Math.exp(9 + 2 * rng.next()));
    for (const day of days) {
      const u = rng.next();
      let code: string;
      let signal = 0;
      if (u < 0.72 && ins.skill > 0) {
        // an informed event: news of known size comes; a skilled insider trades ahead of it
        if (rng.chance(0.5)) {
          code = "P";
          signal = ins.skill;
        } else if (holdings >= 100 && rng.chance(INSIDER_SKILL.informedSaleShare)) {
          code = "S";
          signal = -ins.skill;
        } else {
          // stays out of the market; the bad news comes all the same
          world.addSignal(ins.company, day, -ins.skill);
          continue;
        }
      } else code = pickCode(u, rng, holdings);
      const nTx = rng.chance(0.75) ? 1 : rng.chance(0.7) ? 2 : 3;
      const delay = rng.chance(0.8)
        ? rng.int(0, 2)
        : rng.chance(0.75)
        ? rng.int(3, 5)
        : rng.int(6, 40);
      let filedDay = day + delay;
      if ((weekday(filedDay) === 0 || weekday(filedDay) === 6) && rng.chance(0.6)) {
        filedDay += weekday(filedDay) === 6 ? 2 : 1;
      }
      if (filedDay > world.asOf) filedDay = world.asOf;
      const minutes = rng.chance(0.8)
        ? rng.int(16 * 60, 21 * 60 + 59)
        : rng.int(6 * 60, 15 * 60 + 59);
      // informed trades are never under a plan
      const planShare = signal !== 0 ? 0 : PLAN_SHARES[code] ?? 0;
      const tenb51 = planShare > 0 && rng.chance(planShare);
      const acquire = code === "P" || code === "A" || code === "M";
      const shares: Lot[] = [];
      for (let t = 1; t <= nTx; t++) {
        // informed trades are larger: size carries information, as in the literature
        let n = Math.max(
          10,
          Math.round(
            Math.exp(
              7.5 + (signal !== 0 ? INSIDER_SKILL.informedSizeBoost : 0) + 1.4 * rng.normal(),
            ),
          ),
        );
        if (!acquire) n = Math.min(n, holdings);
        if (!acquire && n === 0) break;
        const before = holdings;
        holdings = acquire ? holdings + n : holdings - n;
        shares.push({ shares: n, before, holdings });
      }
      if (shares.length === 0) continue;
      events.push({ insider: ii, day, code, delay, filedDay, minutes, tenb51, signal, shares });
    }
  });

  // 2. Informed trades move the price after the trade day (the built-in truth).
  for (const e of events) world.addSignal(insiders[e.insider].company, e.day, e.signal);

  // 3. The rows, priced on the final paths.
  for (const e of events) {
    const ins = insiders[e.insider];
    const c = ins.company;
    const company = world.companies[c];
    const { code, day, delay, filedDay } = e;
    const filedMs = easternToUtcMs(filedDay, e.minutes);
    const acc = accession(filedDay);
    const direct = rng.chance(0.85);
    e.shares.forEach(({ shares, before, holdings }, i) => {
      const t = i + 1;
      const px = world.price(c, day);
      const irregularPrice = rng.chance(0.005);
      let pps = code === "A" || code === "G"
        ? 0
        : code === "M"
        ? Math.round(px * (0.3 + 0.5 * rng.next()) * 100) / 100
        : Math.round(px * (1 + 0.01 * rng.normal()) * 100) / 100;
      if (irregularPrice && pps > 0) pps = Math.round(pps * 1.4 * 100) / 100;
      const acquire = code === "P" || code === "A" || code === "M";
      const row: TransactionRow = { ...TEMPLATE, feed_ids: [] };
      const value = Math.round(shares * pps * 100) / 100;
      const mcap = px * company.sharesOutstanding / 1e6;
      const irregularDate = delay > 30;
      Object.assign(row, {
        accession_number: acc,
        transaction_id: t,
        filed_at: new Date(filedMs).toISOString(),
        code,
        period_of_report: isoOf(day),
        issuer_cik: company.cik,
        issuer_name: company.name,
        filing_ticker_symbol: company.ticker,
        reporting_owner_cik: ins.cik,
        reporting_owner_name: ins.name,
        officer_title: ins.title,
        security_title: code === "M" ? "Stock Option (Right to Buy)" : "Common Stock",
        underlying_security_title: code === "M" ? "Common Stock" : null,
        transaction_date: isoOf(day),
        nature_of_ownership: direct ? null : rng.pick(["By Trust", "By Spouse", "By LLC"]),
        expiration_date: code === "M" ? isoOf(day + rng.int(365, 3650)) : null,
        exercise_date: code === "M" ? isoOf(day) : null,
        acquired_disposed_code: acquire ? "A" : "D",
        created_at: new Date(filedMs + rng.int(60, 900) * 1000).toISOString(),
        ticker_symbol: company.ticker,
        company_name: company.name,
        is_aggregated: false,
        is_synthetic: false,
        ...Object.fromEntries(Object.entries(ins.roles).map(([k, on]) => [roleField(k), on])),
        is_direct_ownership: direct,
        equity_swap_involved: rng.chance(0.003),
        is_derivative: code === "M",
        is_espp: code === "A" && rng.chance(0.3),
        is_purchase_agreement: code === "P" && rng.chance(0.02),
        is_public_offering: code === "S" && rng.chance(0.01),
        is_private_placement: code === "P" && rng.chance(0.02),
        is_dividend_reinvestment: code === "A" && rng.chance(0.05),
        is_10b51: e.tenb51,
        is_for_taxes: code === "F",
        has_irregular_transaction_date: irregularDate,
        has_mismatched_codes: false,
        has_irregular_share_price: irregularPrice && pps > 0,
        is_weekend_filing: weekday(easternDayOf(filedMs)) % 6 === 0,
        conversion_or_exercise_price: code === "M" ? pps : null,
        shares_owned_following_transaction: holdings,
        underlying_security_shares: code === "M" ? shares : null,
        percent_change: before > 0 ? (acquire ? shares : -shares) / before : null,
        transaction_value: value,
        number_of_shares: shares,
        price_per_share: pps,
        trading_item_id: company.tradingItemId,
        simple_industry_id: company.industry.id,
        filing_delay_days: filedDay - day,
        market_cap_at_filing: round(mcap, 2),
        price_at_transaction: round(px, 4),
        price_1d_ago: round(world.price(c, day - 1), 4),
        transaction_value_market_cap_pct: mcap > 0 ? round(value / (mcap * 1e6) * 100, 6) : null,
        notes: rng.chance(0.02) ? "Footnote: shares held in a family trust." : null,
      });
      row.updated_at = rng.chance(0.1)
        ? new Date(filedMs + rng.int(1, 30) * 86_400_000).toISOString()
        : row.created_at;
      row.is_anomalous_transaction = row.has_irregular_share_price === true || irregularDate ||
        rng.chance(0.004);
      fillReturns(row, world, c, day);
      trades.push({
        row,
        day,
        filedMs,
        etDay: easternDayOf(filedMs),
        company: c,
        insider: e.insider,
        signal: e.signal,
        dir: code === "P" ? 1 : code === "S" ? -1 : 0,
        cluster90: false,
      });
    });
  }

  pointInTime(trades, world);
  clusters(trades);
  for (const t of trades) t.row.feed_ids = feedIdsOf(t.row);
  trades.sort(newestFirst);
  return { insiders, trades };
}

/** A role's (or position's) flag in a row: `is_<role>`, the owner's `is_10_percent_owner`. */
export function roleField(role: string): keyof TransactionRow {
  return role === "owner" ? "is_10_percent_owner" : `is_${role}` as keyof TransactionRow;
}

/** Newest filing first, then accession number and transaction id: the service's default order. */
export function newestFirst(a: Trade, b: Trade): number {
  return b.filedMs - a.filedMs || cmp(a.row.accession_number, b.row.accession_number) ||
    (a.row.transaction_id ?? 0) - (b.row.transaction_id ?? 0);
}

function cmp(a: string | null, b: string | null): number {
  return (a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0;
}

/** `x` rounded to `digits` decimals (half up, as `Math.round`): the demo data's one rounding. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A title per role, in the order they name an insider; an officer's title is drawn. */
const TITLES: [keyof Insider["roles"], string][] = [
  ["ceo", "Chief Executive Officer"],
  ["cfo", "Chief Financial Officer"],
  ["coo", "Chief Operating Officer"],
  ["cto", "Chief Technology Officer"],
  ["officer", ""],
  ["owner", "10% Owner"],
  ["director", "Director"],
];
const OFFICER_TITLES = [
  "EVP, Operations",
  "SVP, Sales",
  "General Counsel",
  "Chief Accounting Officer",
];

function makeInsiders(world: World, rng: Rng): Insider[] {
  const n = Math.round(2000 * world.scale);
  const nc = world.companies.length;
  const names = new Set<string>();
  const out: Insider[] = [];
  for (let i = 0; i < n; i++) {
    const company = i % nc;
    const slot = Math.floor(i / nc);
    const roles = {
      ceo: slot === 0,
      cfo: slot === 1,
      coo: slot === 2 && rng.chance(0.5),
      cto: slot === 3 && rng.chance(0.5),
      officer: slot <= 3 || (slot === 4 && rng.chance(0.5)),
      director: slot === 0 ? rng.chance(0.6) : slot >= 4 && rng.chance(0.7),
      owner: slot >= 4 && rng.chance(0.15),
      other: false,
    };
    if (!roles.officer && !roles.director && !roles.owner) roles.other = true;
    // the first role held names the title (an officer's is drawn from OFFICER_TITLES)
    const [role, named] = TITLES.find(([r]) => roles[r]) ?? ["other", "Other"];
    const title = role === "officer" ? rng.pick(OFFICER_TITLES) : named;
    let name: string;
    do {
      name = `${rng.pick(LAST).toUpperCase()} ${rng.pick(FIRST).toUpperCase()} ${
        String.fromCharCode(65 + rng.int(0, 25))
      }`;
    } while (names.has(name));
    names.add(name);
    const share = INSIDER_SKILL.skilledShare;
    const skilled = rng.chance(roles.ceo ? share.ceo : roles.cfo ? share.cfo : share.other);
    out.push({
      cik: String(1_500_000 + i * 97).padStart(10, "0"),
      name,
      company,
      title,
      roles,
      skill: skilled
        ? INSIDER_SKILL.skillLo + (INSIDER_SKILL.skillHi - INSIDER_SKILL.skillLo) * rng.next()
        : 0,
    });
  }
  return out;
}

function pickCode(u: number, rng: Rng, holdings: number): string {
  if (u < 0.72) return rng.chance(0.45) || holdings < 100 ? "P" : "S";
  if (u < 0.82) return "A";
  if (u < 0.9) return "M";
  if (holdings < 100) return "A";
  return u < 0.96 ? "F" : "G";
}

function fillReturns(row: TransactionRow, world: World, c: number, day: number): void {
  const r = row as unknown as Record<string, number | null>;
  for (const w of FORWARD_WINDOWS) {
    const end = day + WINDOW_DAYS[w];
    if (end <= world.asOf) {
      const ret = world.ret(c, day, end);
      r[`returns_${w}`] = round(ret, 4);
      r[`excess_returns_${w}`] = round(ret - world.marketRet(day, end), 4);
    }
  }
  r.returns_latest = round(world.ret(c, day, world.asOf), 4);
  for (const w of PRIOR_WINDOWS) {
    r[`returns_${w}_ago`] = round(world.ret(c, day - WINDOW_DAYS[w], day), 4);
  }
  const p = world.price(c, day);
  const p5 = world.price(c, day - 5);
  for (const n of [20, 50, 100, 200]) {
    (row as unknown as Record<string, boolean>)[`has_${n}d_sma_crossover`] =
      Math.sign(p - world.sma(c, day, n)) !== Math.sign(p5 - world.sma(c, day - 5, n));
  }
  const ago1m = r.returns_1m_ago ?? 0;
  (row as unknown as Record<string, boolean>).is_buying_dip = row.code === "P" && ago1m < -10;
  (row as unknown as Record<string, boolean>).is_selling_rip = row.code === "S" && ago1m > 10;
}

interface Past {
  day: number;
  dir: number;
  value: number;
  /** Per win-rate window (WIN_RATE_WINDOWS order): 1 when the direction-adjusted return is above 0. */
  win: number[];
  /** Per insider-return window (INSIDER_RETURN_WINDOWS order): the direction-adjusted return. */
  ret: number[];
  /** Per insider-return window: the direction-adjusted excess return. */
  ex: number[];
}

/** Point-in-time order of one insider's trades: filing instant, accession, transaction id. */
function filingOrder(a: Trade, b: Trade): number {
  return a.filedMs - b.filedMs || newestFirst(a, b);
}

/**
 * The insider-history fields. A trade sees only the insider's trades filed
 * strictly before its own filing instant; of those, win rates and insider
 * returns use the ones whose window had closed by this trade's transaction
 * date (so by its filing), and value medians and z-scores the ones
 * transacted within the window up to this trade's transaction date.
 */
function pointInTime(trades: Trade[], world: World): void {
  for (const list of Map.groupBy(trades, (t) => t.insider).values()) {
    list.sort(filingOrder);
    const past: Past[] = [];
    const dirs: number[] = [];
    let pending: Trade[] = [];
    for (const t of list) {
      if (pending.length > 0 && pending[0].filedMs < t.filedMs) {
        for (const p of pending) {
          // each past trade's returns once, not once per later trade (the same values and
          // the same order of sums as before: the generated data are unchanged)
          // the direction-adjusted return over a window (none for a trade without direction)
          const adj = (w: string) => p.dir * world.ret(p.company, p.day, p.day + WINDOW_DAYS[w]);
          const ret = p.dir !== 0 ? INSIDER_RETURN_WINDOWS.map(adj) : [];
          past.push({
            day: p.day,
            dir: p.dir,
            value: p.row.transaction_value ?? 0,
            win: p.dir !== 0 ? WIN_RATE_WINDOWS.map((w) => adj(w) > 0 ? 1 : 0) : [],
            ret,
            ex: ret.map((x, k) => {
              const end = p.day + WINDOW_DAYS[INSIDER_RETURN_WINDOWS[k]];
              return x - p.dir * world.marketRet(p.day, end);
            }),
          });
          if (p.dir !== 0) dirs.push(p.dir);
        }
        pending = [];
      }
      pending.push(t);
      const r = t.row as unknown as Record<string, number | string | boolean | null>;
      // per scope (all, bullish, bearish: the past trade's direction) and window: the sums over
      // the past trades whose window had closed, each in the order of `past`
      // (the insider-return windows are the win-rate windows but 1w: `ii` −1 there)
      for (const [wi, w] of WIN_RATE_WINDOWS.entries()) {
        const ii = (INSIDER_RETURN_WINDOWS as readonly string[]).indexOf(w);
        // per scope: wins, returns, excess returns, trades
        const sums = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
        for (const p of past) {
          if (p.dir === 0 || p.day + WINDOW_DAYS[w] > t.day) continue;
          for (const k of [0, p.dir > 0 ? 1 : 2]) {
            sums[k][0] += p.win[wi];
            if (ii >= 0) sums[k][1] += p.ret[ii];
            if (ii >= 0) sums[k][2] += p.ex[ii];
            sums[k][3] += 1;
          }
        }
        INSIDER_RETURN_DIRECTIONS.forEach((s, k) => {
          const [wins, ret, ex, n] = sums[k];
          const [kPct, kWins, kTotal] = WR_KEYS[k][wi];
          r[kWins] = wins;
          r[kTotal] = n;
          r[kPct] = n > 0 ? (100 * wins) / n : null;
          if (ii >= 0) r[IR_KEYS[k][ii]] = n > 0 ? round(ret / n, 4) : null;
          if (w === "3m" || (w === "1y" && s === "")) {
            r[`insider_excess_returns_${w}${s}`] = n > 0 ? round(ex / n, 4) : null;
          }
        });
      }
      for (const w of VALUE_WINDOWS) {
        const n = WINDOW_DAYS[w];
        const vals = past.filter((p) => p.value > 0 && p.day >= t.day - n && p.day <= t.day)
          .map((p) => p.value);
        if (vals.length > 0) {
          vals.sort((a, b) => a - b);
          const mid = vals.length >> 1;
          r[`transaction_value_median_${w}`] = vals.length % 2
            ? vals[mid]
            : round((vals[mid - 1] + vals[mid]) / 2, 2);
        }
        if (vals.length >= 3) {
          const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
          const sd = Math.sqrt(vals.reduce((a, b) => a + (b - mean) ** 2, 0) / (vals.length - 1));
          const v = t.row.transaction_value ?? 0;
          if (sd > 0 && v > 0) r[`transaction_value_zscore_${w}`] = round((v - mean) / sd, 4);
        }
      }
      if (t.dir !== 0) {
        // the run of this direction ends before `end`; the previous run before its own start
        const end = dirs.findLastIndex((d) => d !== t.dir);
        const prevDir = end >= 0 ? dirs[end] : 0;
        const streak = dirs.length - end;
        const prev = end - dirs.findLastIndex((d, k) => k < end && d !== prevDir);
        r.streak_length = streak;
        r.previous_streak_length = prevDir ? prev : null;
        r.previous_streak_direction = prevDir > 0 ? "buy" : prevDir < 0 ? "sell" : null;
        r.is_reversal = streak === 1 && prev >= 2;
      } else {
        r.is_reversal = false;
      }
      const v = t.row.transaction_value ?? 0;
      r.is_high_signal = !t.row.is_10b51 &&
        ((t.dir > 0 && (t.row.is_officer || t.row.is_director) === true && v >= 50_000) ||
          (t.dir < 0 && (t.row.is_ceo || t.row.is_cfo) === true && v >= 1_000_000));
    }
  }
}

/**
 * Cluster fields: open-market trades in the same direction at the same
 * issuer, transacted within 30 (or 90) days up to this trade's transaction
 * date and filed at or before this trade's filing instant.
 */
function clusters(trades: Trade[]): void {
  for (const t of trades) if (t.dir === 0) t.row.is_cluster_trade_30d = false;
  const byIssuer = Map.groupBy(trades.filter((t) => t.dir !== 0), (t) => t.company);
  for (const list of byIssuer.values()) {
    list.sort((a, b) => a.day - b.day);
    for (const t of list) {
      const same = list.filter((o) =>
        o.dir === t.dir && o.day <= t.day && o.day >= t.day - 90 && o.filedMs <= t.filedMs
      );
      const in30 = same.filter((o) => o.day >= t.day - 30);
      t.row.cluster_num_trades_30d = in30.length;
      t.row.cluster_insider_count_30d = new Set(in30.map((o) => o.insider)).size;
      t.row.is_cluster_trade_30d = t.row.cluster_insider_count_30d >= 2;
      t.cluster90 = new Set(same.map((o) => o.insider)).size >= 2;
    }
  }
}

/**
 * The curated feeds a trade belongs to. Only open-market trades (code P for
 * the buy id, S for the sell id) that are not anomalous enter a feed:
 * Top Trades — high-signal and at least $250k; CEO Trades — by a CEO;
 * Unusual 10B5-1 — under a 10b5-1 plan with a 1-year value z-score of at
 * least 1 or a value of at least $1m; Abnormally Large — 1-year z-score of at
 * least 2; Reversals — `is_reversal`; Weekend Filings — `is_weekend_filing`;
 * Momentum — a 50-day SMA crossover; Top Insiders — 1-year win rate of at
 * least 60 % over at least 4 trades; Large trades — at least $1m.
 */
export function feedIdsOf(r: TransactionRow): number[] {
  if (r.is_anomalous_transaction || (r.code !== "P" && r.code !== "S")) return [];
  const buy = r.code === "P";
  const v = r.transaction_value ?? 0;
  const z = r.transaction_value_zscore_1y ?? 0;
  const rules: [boolean, number, number][] = [
    [r.is_10b51 === true && (z >= 1 || v >= 1_000_000), 1, 2],
    [z >= 2, 3, 4],
    [r.is_reversal === true, 5, 6],
    [r.is_weekend_filing === true, 7, 8],
    [r.has_50d_sma_crossover === true, 9, 10],
    [(r.win_rate_1y_pct ?? 0) >= 60 && (r.win_rate_1y_total ?? 0) >= 4, 11, 12],
    [v >= 1_000_000, 13, 14],
    [r.is_high_signal === true && v >= 250_000, 15, 16],
    [r.is_ceo === true, 17, 18],
  ];
  return rules.filter(([ok]) => ok).map(([, b, s]) => buy ? b : s);
}
