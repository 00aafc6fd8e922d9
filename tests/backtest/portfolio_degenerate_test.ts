/**
 * Degenerate portfolios and the risk-free rate as users pass it (issue 32):
 * no ±Infinity, no zero-width interval, no alpha from a few months, no NaN
 * ranked; `riskFree` as a number, a `"x%"` string, a frame (months as
 * dates or YYYY-MM) or a Series, with short errors; cash months earn it.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  MIN_INTERVAL_MONTHS,
  portfolioBacktest,
  portfolioFromPositions,
  type PortfolioPosition,
} from "../../lib/backtest/portfolio.ts";
import { alphaStats, mertensSe, sharpeStats } from "../../lib/backtest/_portfolio_stats.ts";
import { portfolioConclusion, portfolioTable } from "../../lib/backtest/report.ts";
import { displayBundle } from "../_util.ts";

const DAY = 86_400_000;
/** One position per month from January 2020, each with the given 1-month stock return (percent). */
function monthly(rets: number[], gapAfter = -1, gap = 0): PortfolioPosition[] {
  return rets.map((r, i) => {
    const k = i > gapAfter && gapAfter >= 0 ? i + gap : i;
    const start = Date.UTC(2020, k, 1) / DAY - 1; // the close of the previous month's last day
    const end = Date.UTC(2020, k + 1, 1) / DAY - 1;
    return {
      start,
      end,
      sign: 1,
      size: 1,
      stock: [[0, 1], [end - start, 1 + r / 100]],
      market: [[0, 1], [end - start, 1 + (r / 2 + (i % 3)) / 100]],
    };
  });
}

Deno.test("sharpe: a series that does not vary has no Sharpe and no interval, with a reason", () => {
  const flat = portfolioFromPositions(monthly(Array(30).fill(1)), { edges: "keep", riskFree: 4 });
  assert.equal(flat.stats.sharpe, null);
  assert.equal(flat.stats.sharpeInterval, null);
  assert.match(flat.stats.nullReasons.sharpe!, /do not vary/);
  const s = sharpeStats([5, 5, 8], 3);
  // Mertens' variance is not positive for this tiny skewed sample: no zero-width interval
  assert.equal(s.interval, null);
  assert.match(s.reason!, /not positive/);
  assert.ok(Number.isFinite(s.sharpe!));
  // "does not vary" is relative to the series' scale: at 1,000 % a month a spread of 1e-7 is
  // rounding noise (it would not be at 1 %)
  const noise = sharpeStats([1000, 1000 + 2e-7, 1000 - 1e-7, 1000 + 1e-7], 3);
  assert.equal(noise.sharpe, null);
  assert.match(noise.reason!, /do not vary/);
  assert.ok(sharpeStats([1, 1 + 2e-7, 1 - 1e-7, 1 + 1e-7], 3).sharpe !== null);
});

Deno.test("mertensSe: the skewness and kurtosis terms of Mertens (2002)", () => {
  // computed once in Python (statistics.stdev) from v = 1 + SR²/2 − skew·SR + (kurt − 3)/4·SR²,
  // skew and kurt the means of z³ and z⁴, z = (x − mean)/sd, and se = √(v/n)
  const xs = [1.2, -0.4, 2.1, 0.3, 1.8, -1.1, 0.7, 3.0, -2.2, 0.9];
  assert.ok(Math.abs(mertensSe(xs) - 0.33966537909940053) < 1e-14, String(mertensSe(xs)));
});

Deno.test(`alpha and both intervals need ${MIN_INTERVAL_MONTHS} months; below, null with a reason`, () => {
  const one = portfolioFromPositions(monthly([5]), { edges: "keep" });
  assert.equal(one.stats.months, 1);
  assert.equal(one.stats.alpha, null);
  assert.equal(one.stats.alphaInterval, null);
  assert.equal(one.stats.alphaFit, null);
  assert.equal(one.stats.sharpe, null);
  assert.match(one.stats.nullReasons.alpha!, /1 month < 24: no alpha/);
  const short = portfolioFromPositions(
    monthly([5, -2, 8, 1, 3, -4, 2, 6, -1, 0, 3, 1, 4, -2]),
    { edges: "keep" },
  );
  assert.equal(short.stats.sharpeInterval, null);
  assert.equal(short.stats.nullReasons.sharpeInterval, "14 months < 24: no Sharpe interval");
  assert.ok(Number.isFinite(short.stats.sharpe!));
  const rets = Array.from({ length: 30 }, (_, i) => ((i * 7) % 11) - 4);
  const long = portfolioFromPositions(monthly(rets), { edges: "keep" });
  assert.equal(long.stats.months, 30);
  assert.ok(long.stats.alphaInterval && long.stats.sharpeInterval);
  assert.deepEqual(long.stats.nullReasons, {});
  // the interval's SE is at least the classical OLS SE (never narrower than i.i.d. inference)
  const a = alphaStats([1, 2, 0, 3, 1, 2, 0, 4], [0, 1, 0, 2, 1, 1, 0, 3], 3);
  assert.ok(a.interval![0] < a.fit!.annualized && a.fit!.annualized < a.interval![1]);
});

Deno.test("portfolioConclusion ranks only finite Sharpe ratios", () => {
  const good = portfolioFromPositions(
    monthly(Array.from({ length: 30 }, (_, i) => ((i * 7) % 11) - 3)),
    { edges: "keep" },
  );
  const flat = portfolioFromPositions(monthly(Array(30).fill(1)), { edges: "keep" });
  const text = portfolioConclusion({ flat, good });
  assert.ok(text.startsWith("good —"), text);
  assert.ok(!text.includes("Best by Sharpe"), "one finite Sharpe: nothing to rank");
  assert.match(
    text,
    /flat — Sharpe – .*Not given: sharpe: monthly returns over the risk-free rate do not vary/,
  );
  const both = portfolioConclusion({ flat, good, again: good });
  assert.ok(both.startsWith("Best by Sharpe: good"), both);
});

Deno.test("riskFree: percent a year; a fraction-looking value gets a did-you-mean; strings with %", () => {
  const pos = monthly(Array.from({ length: 30 }, (_, i) => (i % 5) - 1));
  assert.throws(
    () => portfolioFromPositions(pos, { riskFree: 0.04 }),
    (e: Error) =>
      e instanceof RangeError &&
      e.message ===
        'portfolioBacktest: riskFree 0.04 looks like a fraction; riskFree is percent a year (did you mean 4?). For a rate under 1 % a year, pass "0.04%"',
  );
  const tiny = portfolioFromPositions(pos, { riskFree: "0.04%" });
  assert.equal(tiny.stats.riskFree, 0.04);
  assert.equal(portfolioFromPositions(pos, { riskFree: 4 }).stats.riskFree, 4);
  assert.throws(
    () => portfolioFromPositions(pos, { riskFree: "4" as "4%" }),
    /riskFree "4" is not allowed; as a string it is percent a year with a % sign/,
  );
  assert.throws(
    () => portfolioFromPositions(pos, { riskFree: 150 }),
    /riskFree 150 is not allowed/,
  );
});

Deno.test("riskFree: frames with months as dates or YYYY-MM, Series, short errors", () => {
  const pos = monthly(Array.from({ length: 30 }, (_, i) => (i % 5) - 1));
  const months = Array.from(
    { length: 30 },
    (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`,
  );
  const rf = months.map((_, i) => 0.1 + 0.01 * (i % 4));
  const ym = portfolioFromPositions(pos, { riskFree: pl.DataFrame({ month: months, rf }) });
  const dates = portfolioFromPositions(pos, {
    riskFree: pl.DataFrame({ month: months.map((m) => new Date(`${m}-01`)), rf }),
  });
  const series = portfolioFromPositions(pos, { riskFree: pl.Series("rf", rf) });
  assert.equal(ym.stats.sharpe, dates.stats.sharpe);
  assert.equal(ym.stats.sharpe, series.stats.sharpe);
  // stats.riskFree: the mean monthly rate compounded to a year
  const mean = rf.reduce((a, b) => a + b, 0) / rf.length;
  assert.ok(Math.abs(ym.stats.riskFree - ((1 + mean / 100) ** 12 - 1) * 100) < 1e-12);
  const short = (re: RegExp) => (e: Error) => e.message.length < 220 && re.test(e.message);
  assert.throws(
    () => portfolioFromPositions(pos, { riskFree: pl.Series("rf", rf.slice(1)) }),
    short(
      /Series has 29 rates and no months; give one rate per month of the backtest \(30, 2020-01 to 2022-06\)/,
    ),
  );
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        riskFree: pl.DataFrame({ month: months.slice(2), rf: rf.slice(2) }),
      }),
    short(
      /riskFree has no rate for 2020-01 and 1 more of the backtest's months \(2020-01 to 2022-06\); it covers 2020-03 to 2022-06/,
    ),
  );
  assert.throws(
    () => portfolioFromPositions(pos, { riskFree: pl.DataFrame({ when: months, rf }) }),
    short(/riskFree frame lacks "month"/),
  );
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        riskFree: pl.DataFrame({ month: ["2020-13", ...months.slice(1)], rf }),
      }),
    short(/riskFree month "2020-13" \(row 1\) is not a date or a month \(YYYY-MM/),
  );
  // a rate that is not a finite number is refused naming its month, from a frame or a Series
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        riskFree: pl.DataFrame({ month: months, rf: [null, ...rf.slice(1)] }),
      }),
    short(/riskFree rf for 2020-01 is null; give a number, percent a month/),
  );
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        riskFree: pl.Series("rf", [...rf.slice(0, 2), NaN, ...rf.slice(3)]),
      }),
    short(/riskFree rf for 2020-03 is NaN; give a number, percent a month/),
  );
  assert.throws(
    () => portfolioFromPositions(pos, { riskFree: [1, 2] as unknown as number }),
    short(/riskFree \[1,2\] is not allowed; give percent a year/),
  );
});

Deno.test("cash months earn the risk-free rate, so a higher rate does not punish idle months", () => {
  // 26 invested months, then a 12-month gap in cash, then 4 more
  const rets = Array.from({ length: 30 }, (_, i) => 1 + ((i * 7) % 5) - 2);
  const pos = monthly(rets, 25, 12);
  const at0 = portfolioFromPositions(pos, { edges: "keep" });
  const at4 = portfolioFromPositions(pos, { edges: "keep", riskFree: 4 });
  const cash = (r: typeof at4) =>
    (r.monthly.toRecords() as Record<string, number>[]).filter((m) => m.n_positions === 0);
  assert.equal(cash(at4).length, 12);
  const rfm = ((1.04) ** (1 / 12) - 1) * 100;
  for (const m of cash(at4)) {
    assert.ok(Math.abs(m.return - rfm) < 1e-12, `${m.return}`);
    assert.ok(Math.abs(m.excess_return) < 1e-12);
  }
  for (const m of cash(at0)) assert.equal(m.return, 0);
  // over the rate, a cash month is exactly 0: Sharpe from the invested months' (return − rf) and zeros
  const over = (at4.monthly.toRecords() as Record<string, number>[]).map((m) =>
    m.n_positions ? m.return - rfm : 0
  );
  const mu = over.reduce((x, y) => x + y, 0) / over.length;
  const sd = Math.sqrt(over.reduce((x, y) => x + (y - mu) ** 2, 0) / (over.length - 1));
  assert.ok(Math.abs(at4.stats.sharpe! - (mu / sd) * Math.sqrt(12)) < 1e-9);
});

Deno.test("portfolioBacktest on a frame: a short backtest has no alpha, with the reason", () => {
  const n = 5;
  const df = pl.DataFrame({
    transaction_date: Array.from({ length: n }, (_, i) => `2024-0${i + 1}-10`),
    code: Array(n).fill("P"),
    returns_1m: [3, -1, 2, 4, 0],
    excess_returns_1m: [1, -2, 1, 2, -1],
  });
  const { stats } = portfolioBacktest(df, { horizon: "1m" });
  assert.equal(stats.alpha, null);
  assert.match(stats.nullReasons.alpha!, /months < 24: no alpha/);
});

Deno.test("alpha: returns that leave no residual around the market fit get no interval and no t", () => {
  // every month +1 % on a flat market: alpha is exact, its standard error rounding noise
  const flat = monthly(Array(30).fill(1)).map((p) => ({
    ...p,
    market: [[0, 1], [p.end - p.start, 1]] as [number, number][],
  }));
  const r = portfolioFromPositions(flat, { spread: "step" });
  assert.equal(r.stats.alphaInterval, null);
  assert.ok(Number.isNaN(r.stats.alphaFit!.tStat), `t ${r.stats.alphaFit!.tStat}`);
  assert.match(r.stats.nullReasons.alphaInterval!, /no residual/);
  const text = portfolioConclusion({ flat: r });
  assert.doesNotMatch(text, /interval 12\.0 to 12\.0/);
  assert.match(text, /Newey-West t –/);
  // the same check at the function: a constant series on a varying market, and an exact fit
  const market = Array.from({ length: 30 }, (_, i) => (i % 5) - 2);
  assert.equal(alphaStats(market.map((m) => 0.5 + 1.2 * m), market).interval, null);
  assert.notEqual(
    alphaStats(market.map((m, i) => 0.5 + 1.2 * m + (i % 3) * 0.1), market).interval,
    null,
  );
});

Deno.test("a NaN or infinite return at an earlier window is counted, never interpolated around", async () => {
  const { eventStudy } = await import("../../lib/backtest/event_study.ts");
  const base = {
    code: "P",
    acquired_disposed_code: "A",
    is_ceo: true,
    filing_delay_days: 2,
    returns_1w: 2,
    excess_returns_1w: 1,
    returns_1m: 4,
    excess_returns_1m: 2,
    returns_3m: 6,
    excess_returns_3m: 3,
  };
  const rows = Array.from({ length: 40 }, (_, i) => ({
    ...base,
    issuer_cik: String(1000 + (i % 20)),
    transaction_date: new Date(Date.UTC(2022, i % 24, 3)),
    returns_3m: 6 + (i % 7),
  }));
  rows[0].returns_1w = Infinity;
  rows[1].excess_returns_1m = NaN;
  const df = pl.DataFrame(rows);
  // filing entry interpolates through 1w and 1m: both rows are counted as non-finite
  const filing = eventStudy(df, { horizons: ["3m"], entry: "filing", minClusters: 2 });
  assert.equal(filing.getColumn("n_nonfinite").toArray()[0], 2);
  assert.equal(filing.getColumn("n").toArray()[0], 38);
  // trade entry reads only the 3-month value: nothing to count
  const trade = eventStudy(df, { horizons: ["3m"], minClusters: 2 });
  assert.equal(trade.getColumn("n_nonfinite").toArray()[0], 0);
  // a portfolio leaves both out and counts them
  const p = portfolioBacktest(df, { horizon: "3m" });
  assert.equal(p.stats.droppedTrades, 2);
  assert.equal(p.stats.trades, 38);
});

Deno.test("follow with no trade of either side says so, not 'no realized return'", () => {
  const df = pl.DataFrame({
    code: ["A", "M"],
    acquired_disposed_code: ["A", "A"],
    transaction_date: [new Date(Date.UTC(2022, 0, 3)), new Date(Date.UTC(2022, 1, 3))],
    returns_1m: [2, 3],
    excess_returns_1m: [1, 1],
    returns_3m: [5, 6],
    excess_returns_3m: [1, 2],
  });
  assert.throws(
    () => portfolioBacktest(df, { horizon: "3m", direction: "follow" }),
    /direction "follow" needs trades with a side, and none of the 2 rows has one \(code P or S\)/,
  );
});

Deno.test("riskFree: a month twice, or monthly rates that are percent a year, are refused naming them", () => {
  const rets = Array.from({ length: 30 }, (_, i) => 1 + (i % 4) / 2);
  const months = Array.from(
    { length: 32 },
    (_, i) => `${2020 + Math.floor(i / 12)}-${String(i % 12 + 1).padStart(2, "0")}`,
  );
  const twice = pl.DataFrame({
    month: [...months, "2020-03"],
    rf: [...months.map(() => 0.3), 0.4],
  });
  assert.throws(
    () => portfolioFromPositions(monthly(rets), { riskFree: twice }),
    /riskFree has month 2020-03 twice \(rows 3 and 33\)/,
  );
  const yearly = pl.DataFrame({ month: months, rf: months.map(() => 4) });
  assert.throws(
    () => portfolioFromPositions(monthly(rets), { riskFree: yearly }),
    /frame rates average 4 % a month \(60 % a year\); monthly rates are percent a month: divide rates in percent a year by 12/,
  );
  // just over the bound: 2.01 % a month is 27 % a year
  assert.throws(
    () => portfolioFromPositions(monthly(rets), { riskFree: pl.Series(rets.map(() => 2.01)) }),
    /Series rates average 2\.01 % a month \(27 % a year\)/,
  );
  // 2 % a month is still taken
  assert.ok(portfolioFromPositions(monthly(rets), { riskFree: pl.Series(rets.map(() => 2)) }));
});

Deno.test("annualized figures from fewer than 12 months: one rule, each null with its reason", () => {
  const r = portfolioFromPositions(monthly([2]), { edges: "keep" });
  assert.equal(r.stats.months, 1);
  assert.match(r.stats.nullReasons.alpha!, /^1 month < 24: no alpha$/);
  // never NaN, never annualized from one month: CAGR, vol, Sharpe and IR are null, each with its reason
  assert.equal(
    r.stats.nullReasons.informationRatio,
    "1 month < 12: an information ratio a year would extrapolate it (the excess_return column has each month)",
  );
  assert.equal(
    r.stats.nullReasons.vol,
    "1 month < 12: a volatility a year would extrapolate it (the return column has each month)",
  );
  assert.match(
    r.stats.nullReasons.cagr!,
    /^1 month < 12: a growth rate a year would extrapolate it/,
  );
  for (const [k, v] of Object.entries(r.stats)) {
    assert.ok(typeof v !== "number" || Number.isFinite(v), `${k} ${v}`);
  }
  // the table shows dashes, and the conclusion says why
  assert.match(portfolioConclusion({ one: r }), /cagr: 1 month < 12/);
  // the table (text and HTML) and the result's notebook display name each dash's reason under it
  const table = portfolioTable({ one: r });
  const reason = "vol: 1 month < 12: a volatility a year would extrapolate it";
  for (const out of [String(table), table.toHtml(), ...Object.values(displayBundle(r))]) {
    assert.ok(out.includes(`– withheld: `) && out.replaceAll("&lt;", "<").includes(reason), out);
  }
  assert.ok(String(table).includes(`one: ${reason}`));
  const annual = ["cagr", "vol", "sharpe", "informationRatio"] as const;
  const varied = (n: number) => Array.from({ length: n }, (_, i) => 2 + ((i * 5) % 7) - 3);
  // 2 and 11 months: every annualized figure withheld, with "N months < 12" as its reason
  for (const n of [2, 11]) {
    const s = portfolioFromPositions(monthly(varied(n)), { edges: "keep" }).stats;
    for (const k of annual) {
      assert.equal(s[k], null, `${n} months: ${k}`);
      assert.match(s.nullReasons[k]!, new RegExp(`^${n} months < 12: `), `${n} months: ${k}`);
    }
    assert.match(s.nullReasons.sharpeInterval!, new RegExp(`^${n} months < 12: `));
    assert.equal(typeof s.maxDrawdown, "number"); // not annualized: given
    assert.equal(typeof s.hitRate, "number");
  }
  // 12 months: every one given, from the months
  const twelve = portfolioFromPositions(monthly(varied(12)), { edges: "keep" });
  const rets = twelve.monthly.getColumn("return").toArray() as number[];
  const mean = rets.reduce((a, b) => a + b, 0) / 12;
  const sd = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / 11);
  for (const k of annual) {
    assert.equal(typeof twelve.stats[k], "number", k);
    assert.equal(twelve.stats.nullReasons[k], undefined, k);
  }
  assert.ok(Math.abs(twelve.stats.vol! - sd * Math.sqrt(12)) < 1e-9);
  assert.ok(Math.abs(twelve.stats.sharpe! - (mean / sd) * Math.sqrt(12)) < 1e-9);
  const equity = twelve.monthly.getColumn("equity").toArray() as number[];
  assert.ok(Math.abs(twelve.stats.cagr! - (equity[11] - 1) * 100) < 1e-9);
});

Deno.test("factor alpha needs 24 months of factor data too; below, absent with the reason", () => {
  const rets = Array.from({ length: 30 }, (_, i) => 1 + (i % 4) / 2 - (i % 3) / 3);
  const r = portfolioFromPositions(monthly(rets), { edges: "keep" });
  const months = r.monthly.getColumn("month");
  const mkt = r.monthly.getColumn("market_return").toArray() as number[];
  const factors = pl.DataFrame({ month: months, mkt, smb: mkt.map((m, i) => (i % 5) - m / 3) });
  const full = portfolioFromPositions(monthly(rets), { edges: "keep", factors });
  assert.ok(full.stats.factorAlpha, JSON.stringify(full.stats.nullReasons));
  const short = portfolioFromPositions(monthly(rets), { edges: "keep", factors: factors.head(6) });
  assert.equal(short.stats.factorAlpha, undefined);
  assert.match(
    short.stats.nullReasons.factorAlpha!,
    /^factors cover 6 months of the backtest's \d+ \(2020-01 to 20\d\d-\d\d\); a factor alpha needs 24$/,
  );
});

Deno.test("a month whose factors are not all numbers is left out of the factor fit, as a month without factors", () => {
  const rets = Array.from({ length: 30 }, (_, i) => 1 + (i % 4) / 2 - (i % 3) / 3);
  const r = portfolioFromPositions(monthly(rets), { edges: "keep" });
  const months = r.monthly.getColumn("month").toArray() as string[];
  const mkt = r.monthly.getColumn("market_return").toArray() as number[];
  const smb = mkt.map((m, i) => (i % 5) - m / 3);
  const holed = pl.DataFrame({ month: months, mkt, smb: smb.map((x, i) => i === 3 ? null : x) });
  const without = pl.DataFrame({
    month: months.filter((_, i) => i !== 3),
    mkt: mkt.filter((_, i) => i !== 3),
    smb: smb.filter((_, i) => i !== 3),
  });
  const a = portfolioFromPositions(monthly(rets), { edges: "keep", factors: holed }).stats;
  const b = portfolioFromPositions(monthly(rets), { edges: "keep", factors: without }).stats;
  assert.ok(b.factorAlpha, JSON.stringify(b.nullReasons));
  assert.deepEqual(a.factorAlpha, b.factorAlpha);
});

Deno.test("alpha exactly 0 keeps its interval and a t of 0; an exact factor fit has no factor alpha", () => {
  // residuals orthogonal to the market and summing to 0: alpha is exactly 0, not degenerate
  const market = Array.from({ length: 24 }, (_, i) => (i % 2 ? 1 : -1) * (1 + (i % 3)));
  const e = Array.from({ length: 24 }, (_, i) => [1, -1, -1, 1][i % 4] * 0.5);
  const mx = market.reduce((a, b) => a + b, 0) / 24;
  const ex = e.reduce((a, b, i) => a + b * (market[i] - mx), 0);
  assert.equal(ex, 0, "the residuals are orthogonal to the market");
  const s = alphaStats(market.map((m, i) => m + e[i]), market);
  assert.ok(s.interval, s.reason ?? "");
  assert.ok(s.interval[0] < 0 && s.interval[1] > 0);
  // an exact fit on a factor: no factor alpha, with the reason
  const rets = Array.from({ length: 30 }, (_, i) => 1 + (i % 4) / 2 - (i % 3) / 3);
  const base = portfolioFromPositions(monthly(rets), { edges: "keep", spread: "step" });
  const r = base.monthly.getColumn("return").toArray() as number[];
  const factors = pl.DataFrame({
    month: base.monthly.getColumn("month"),
    f: r.map((x) => (x - 0.5) / 1.2),
  });
  const exact = portfolioFromPositions(monthly(rets), { edges: "keep", spread: "step", factors });
  assert.equal(exact.stats.factorAlpha, undefined);
  assert.match(exact.stats.nullReasons.factorAlpha!, /no residual around the factor fit/);
});

Deno.test("filing entry without a benchmark reads only the stock's returns; an empty frame says so", async () => {
  const { eventStudy } = await import("../../lib/backtest/event_study.ts");
  const rows = Array.from({ length: 30 }, (_, i) => ({
    code: "P",
    issuer_cik: String(1000 + (i % 15)),
    transaction_date: new Date(Date.UTC(2022, i % 24, 3)),
    filing_delay_days: 2,
    returns_1w: 2,
    excess_returns_1w: i === 0 ? NaN : 1,
    returns_1m: 4 + (i % 5),
    excess_returns_1m: 2,
  }));
  const df = pl.DataFrame(rows);
  const none = eventStudy(df, {
    horizons: ["1m"],
    entry: "filing",
    benchmark: "none",
    minClusters: 2,
  });
  assert.equal(none.getColumn("n_nonfinite").toArray()[0], 0);
  assert.equal(none.getColumn("n").toArray()[0], 30);
  const market = eventStudy(df, { horizons: ["1m"], entry: "filing", minClusters: 2 });
  assert.equal(market.getColumn("n_nonfinite").toArray()[0], 1);
  assert.throws(
    () => portfolioBacktest(df.head(0), { horizon: "1m" }),
    /no trade has a realized 1m return \(0 rows given\)/,
  );
  const allBad = df.withColumns(pl.lit(Infinity).alias("returns_1w"));
  assert.throws(
    () => portfolioBacktest(allBad, { horizon: "1m" }),
    /or it lacks a value the booking needs or holds a NaN or infinite one \(30 rows\) \(30 rows given\)/,
  );
});

Deno.test("alpha and factor alpha: 95% interval = 12 · (intercept ± t(df) · SE), df = months − regressors", async () => {
  const { factorAlphaOf } = await import("../../lib/backtest/_portfolio_stats.ts");
  const { olsNeweyWest } = await import("../../lib/backtest/_ols.ts");
  const { tQuantile } = await import("../../lib/backtest/_quantiles.ts");
  const market = Array.from({ length: 30 }, (_, i) => 3 * Math.sin(i));
  const rets = market.map((m, i) => 0.4 + 1.1 * m + Math.cos(1.7 * i));
  const n = rets.length;
  const close = (got: number[] | null, want: number[]) =>
    got!.forEach((g, i) => assert.ok(Math.abs(g - want[i]) < 1e-9, `${got} vs ${want}`));
  // market alpha: the larger of the Newey-West SE (n/(n − 2) factor) and the classical one, t on n − 2
  const ols = olsNeweyWest(rets, market.map((v) => [1, v]));
  const se = Math.max(
    ols.se[0] * Math.sqrt(n / (n - 2)),
    Math.sqrt((ols.ssr / (n - 2)) * ols.inv[0][0]),
  );
  const t = tQuantile(0.975, n - 2);
  close(alphaStats(rets, market).interval, [
    12 * (ols.coef[0] - t * se),
    12 * (ols.coef[0] + t * se),
  ]);
  // factor alpha: the Newey-West SE, t on months − factors − 1
  const months = market.map((_, i) =>
    `${2020 + Math.floor(i / 12)}-${String(i % 12 + 1).padStart(2, "0")}`
  );
  const f2 = market.map((_, i) => Math.cos(0.9 * i));
  const factors = pl.DataFrame({ month: months, mkt: market, f2 });
  const fa = factorAlphaOf(months, rets, factors);
  assert.ok(typeof fa !== "string", String(fa));
  const fit = olsNeweyWest(rets, market.map((v, i) => [1, v, f2[i]]));
  const tf = tQuantile(0.975, n - 3);
  close(fa.interval, [12 * (fit.coef[0] - tf * fit.se[0]), 12 * (fit.coef[0] + tf * fit.se[0])]);
});
