import assert from "node:assert/strict";
import fc from "fast-check";
import pl from "nodejs-polars";
import { alphaOf, portfolioBacktest, transactionsFrame } from "../../mod.ts";
import { createStub } from "../../lib/stub/mod.ts";

type Trade = {
  date: string;
  r: [number | null, number | null, number | null, number | null];
  x: [number | null, number | null, number | null, number | null];
  side?: "A" | "D";
  value?: number;
};

/** A hand-made trades frame with the columns a portfolio backtest reads. */
function frame(trades: Trade[]): pl.DataFrame {
  const w = ["1m", "3m", "6m", "1y"];
  const cols: Record<string, unknown[]> = {
    transaction_date: trades.map((t) => t.date),
    acquired_disposed_code: trades.map((t) => t.side ?? "A"),
    code: trades.map((t) => (t.side === "D" ? "S" : "P")),
    transaction_value: trades.map((t) => t.value ?? 1000),
  };
  w.forEach((h, i) => {
    cols[`returns_${h}`] = trades.map((t) => t.r[i]);
    cols[`excess_returns_${h}`] = trades.map((t) => t.x[i]);
  });
  return pl.DataFrame(
    Object.entries(cols).map(([k, v]) =>
      pl.Series(k, v, typeof v.find((e) => e !== null) === "string" ? pl.Utf8 : pl.Float64)
    ),
  ).withColumns(pl.col("transaction_date").str.strptime(pl.Date, "%Y-%m-%d"));
}

const ret = fc.double({ min: -60, max: 150, noNaN: true });
const exc = fc.double({ min: -20, max: 20, noNaN: true });
const tradeArb = fc.record({
  date: fc.tuple(
    fc.integer({ min: 2019, max: 2024 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
  )
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`),
  r: fc.tuple(ret, ret, ret, ret),
  x: fc.tuple(exc, exc, exc, exc),
  side: fc.constantFrom("A" as const, "D" as const),
  value: fc.double({ min: 1_000, max: 5_000_000, noNaN: true }),
});
const horizonArb = fc.constantFrom("1m" as const, "3m" as const, "6m" as const, "1y" as const);
const IDX = { "1m": 0, "3m": 1, "6m": 2, "1y": 3 } as const;

const DAYS = { "1m": 30, "3m": 91, "6m": 182, "1y": 365 } as const;
const dayNo = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const monthNo = (day: number) => {
  const d = new Date(day * 86_400_000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};

Deno.test("property: one trade held to its horizon ends at 1 + returns_H/100 without costs; costs lower it", () => {
  fc.assert(
    fc.property(
      tradeArb,
      horizonArb,
      fc.constantFrom("market" as const, "step" as const, "geometric" as const),
      fc.double({ min: 0.5, max: 200, noNaN: true }),
      (t, h, spread, bps) => {
        const one = frame([{ ...t, side: "A" }]);
        const { monthly, stats } = portfolioBacktest(one, { horizon: h, spread, edges: "keep" });
        // calendar months from the first close after the trade to the horizon's end
        const d = dayNo(t.date);
        const months = monthNo(d + DAYS[h]) - monthNo(d + 1) + 1;
        assert.equal(stats.months, months);
        assert.equal(monthly.height, months);
        const end = monthly.getColumn("equity").get(months - 1) as number;
        const want = 1 + (t.r[IDX[h]] as number) / 100;
        assert.ok(Math.abs(end - want) < 1e-9 * Math.max(1, want), `${end} vs ${want}`);
        const costly = portfolioBacktest(one, { horizon: h, costBps: bps, spread, edges: "keep" });
        const endC = costly.monthly.getColumn("equity").get(months - 1) as number;
        assert.ok(endC < end, `${endC} < ${end}`);
        // one entry and one exit: total turnover 2, and the totals add up
        const turnover = costly.monthly.getColumn("turnover").toArray() as number[];
        assert.ok(Math.abs(turnover.reduce((a, b) => a + b, 0) - 2) < 1e-9);
        assert.ok(Math.abs(costly.stats.turnover - 2) < 1e-9);
        const cost = costly.monthly.getColumn("cost").toArray() as number[];
        assert.ok(Math.abs(cost.reduce((a, b) => a + b, 0) - costly.stats.costPaid) < 1e-12);
        assert.ok(Math.abs(costly.stats.costPaid - 2 * bps / 100) < 1e-9);
        // trimmed (the default): only the entry month remains
        const trimmed = portfolioBacktest(one, { horizon: h, spread });
        assert.equal(trimmed.stats.months, 1);
        assert.equal(trimmed.stats.trimmedMonths, months - 1);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("property: Sharpe over the risk-free rate, information ratio over the market, drawdown from equity", () => {
  fc.assert(
    fc.property(
      fc.array(tradeArb, { minLength: 2, maxLength: 25 }),
      horizonArb,
      fc.constantFrom("equal" as const, "value" as const),
      fc.constantFrom("long" as const, "follow" as const),
      fc.double({ min: 0, max: 50, noNaN: true }),
      // percent a year; a value in (0, 1) looks like a fraction and is refused (tested below)
      fc.oneof(fc.constant(0), fc.double({ min: 1, max: 8, noNaN: true })),
      (trades, horizon, weighting, direction, costBps, riskFree) => {
        const { monthly, stats } = portfolioBacktest(frame(trades), {
          horizon,
          weighting,
          direction,
          costBps,
          riskFree,
          edges: "keep",
        });
        const ratio = (xs: number[]) => {
          const m = xs.reduce((a, b) => a + b, 0) / xs.length;
          const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
          return (m / sd) * Math.sqrt(12);
        };
        const close = (a: number, b: number) =>
          !Number.isFinite(b) || Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b));
        const rets = monthly.getColumn("return").toArray() as number[];
        const rf = ((1 + riskFree / 100) ** (1 / 12) - 1) * 100;
        // a series that does not vary (up to rounding) has no Sharpe ratio, with a reason
        if (stats.sharpe === null) assert.match(stats.nullReasons.sharpe!, /do not vary|month/);
        else assert.ok(close(stats.sharpe, ratio(rets.map((r) => r - rf))), "sharpe");
        const ex = monthly.getColumn("excess_return").toArray() as number[];
        if (stats.informationRatio === null) assert.ok(stats.nullReasons.informationRatio);
        else assert.ok(close(stats.informationRatio, ratio(ex)), "information ratio");
        // the excess is over the positions' own market signed like them; the market column is
        // the market itself, the same for a long book
        const mk = monthly.getColumn("market_return").toArray() as number[];
        const bm = monthly.getColumn("benchmark_return").toArray() as number[];
        rets.forEach((r, i) => assert.ok(Math.abs(r - bm[i] - ex[i]) < 1e-9));
        const shorts = monthly.getColumn("n_short").toArray() as number[];
        mk.forEach((m, i) => {
          if (!shorts[i]) assert.ok(Math.abs(m - bm[i]) < 1e-9, "long months: the same");
        });
        assert.equal(stats.riskFree, riskFree);
        const eq = monthly.getColumn("equity").toArray() as number[];
        let peak = 1;
        let mdd = 0;
        for (const e of eq) {
          peak = Math.max(peak, e);
          mdd = Math.min(mdd, (e / peak - 1) * 100);
        }
        assert.ok(Math.abs(stats.maxDrawdown - mdd) < 1e-9, `${stats.maxDrawdown} vs ${mdd}`);
        const growth = rets.reduce((g, r) => g * (1 + r / 100), 1);
        assert.ok(Math.abs(eq[eq.length - 1] - growth) < 1e-9 * Math.max(1, growth));
        assert.equal(stats.months, monthly.height);
        if (stats.sharpeInterval && stats.sharpe !== null) {
          assert.ok(
            stats.sharpeInterval[0] <= stats.sharpe && stats.sharpe <= stats.sharpeInterval[1],
          );
        } else assert.ok(stats.nullReasons.sharpeInterval, "a null interval has a reason");
        if (stats.alphaInterval && stats.alpha !== null) {
          assert.ok(stats.alphaInterval[0] <= stats.alpha && stats.alpha <= stats.alphaInterval[1]);
        } else assert.ok(stats.nullReasons.alphaInterval, "a null interval has a reason");
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("monthly frame: calendar months on day 1, a market column, cash gaps, the ramp-down trimmed", () => {
  const trades = [
    { date: "2023-01-10", r: [2, 4, null, null], x: [1, 1, null, null] },
    { date: "2023-06-20", r: [-3, 1, null, null], x: [-2, 0, null, null] },
    { date: "2023-06-02", r: [null, null, null, null], x: [null, null, null, null] },
  ] as Trade[];
  const kept = portfolioBacktest(frame(trades), {
    horizon: "3m",
    spread: "geometric",
    edges: "keep",
  });
  const { monthly, stats } = kept;
  assert.deepEqual(monthly.columns, [
    "month",
    "n_positions",
    "n_short",
    "return",
    "market_return",
    "benchmark_return",
    "excess_return",
    "turnover",
    "cost",
    "equity",
    "drawdown",
  ]);
  assert.ok(monthly.getColumn("month").dtype.equals(pl.Date));
  // Jan 10 + 91 days = Apr 11; Jun 20 + 91 = Sep 19: 2023-01 … 2023-09, May in cash
  assert.equal(monthly.height, 9);
  assert.deepEqual(monthly.getColumn("n_positions").toArray(), [1, 1, 1, 1, 0, 1, 1, 1, 1]);
  const months = (monthly.getColumn("month").toArray() as unknown as Date[]).map((d) =>
    d.toISOString().slice(0, 10)
  );
  assert.deepEqual(months.slice(0, 2), ["2023-01-01", "2023-02-01"]);
  assert.equal(monthly.getColumn("return").get(4), 0);
  assert.equal(stats.trades, 2);
  assert.equal(stats.droppedTrades, 1);
  // January: from the Jan 10 close to the Jan 31 close, 21 of the 30 days to the 1m point
  const jan = (1.02 ** (21 / 30) - 1) * 100;
  assert.ok(Math.abs((monthly.getColumn("return").get(0) as number) - jan) < 1e-9);
  // market 1m = return − excess = 1 %
  const janM = (1.01 ** (21 / 30) - 1) * 100;
  assert.ok(Math.abs((monthly.getColumn("market_return").get(0) as number) - janM) < 1e-9);
  assert.ok(Math.abs((monthly.getColumn("excess_return").get(0) as number) - (jan - janM)) < 1e-9);
  // the default trims the ramp-down: the sample ends in June, the last entry month
  const trimmed = portfolioBacktest(frame(trades), { horizon: "3m", spread: "geometric" });
  assert.equal(trimmed.stats.months, 6);
  assert.equal(trimmed.stats.trimmedMonths, 3);
  assert.equal(trimmed.stats.spread, "geometric");
});

Deno.test("follow shorts sales, value weighting weights by the insider's trade size", () => {
  const sale = {
    date: "2024-03-05",
    r: [-10, null, null, null],
    x: [-8, null, null, null],
  } as Trade;
  const buy = { date: "2024-03-20", r: [4, null, null, null], x: [3, null, null, null] } as Trade;
  const f = frame([{ ...sale, side: "D", value: 3000 }, { ...buy, side: "A", value: 1000 }]);
  // step booking: both 1m points (Apr 4, Apr 19) fall in April, booked there
  const opts = { horizon: "1m", spread: "step", edges: "keep" } as const;
  const april = (o: Parameters<typeof portfolioBacktest>[1]) =>
    portfolioBacktest(f, { ...opts, ...o }).monthly.toRecords()[1] as Record<string, number>;
  assert.equal(portfolioBacktest(f, opts).monthly.getColumn("return").get(0), 0);
  assert.ok(Math.abs(april({}).return - (-10 + 4) / 2) < 1e-12);
  const follow = april({ direction: "follow" });
  assert.ok(Math.abs(follow.return - (10 + 4) / 2) < 1e-12);
  assert.ok(Math.abs(follow.excess_return - (8 + 3) / 2) < 1e-12);
  assert.ok(Math.abs(april({ weighting: "value" }).return - (0.75 * -10 + 0.25 * 4)) < 1e-12);
});

Deno.test("portfolioBacktest: a bad spread names the value", () => {
  assert.throws(
    () => portfolioBacktest(pl.DataFrame({}), { spread: "linear" as never }),
    (e: Error) => /spread "linear"/.test(e.message) && /market, step, geometric/.test(e.message),
  );
});

Deno.test("alphaOf recovers intercept and slope; Newey-West t is finite", () => {
  const x = Array.from({ length: 60 }, (_, t) => Math.sin(t) * 4);
  const y = x.map((v, t) => 0.5 + 1.3 * v + (t % 2 ? 0.2 : -0.2));
  const a = alphaOf(y, x);
  assert.ok(Math.abs(a.monthly - 0.5) < 0.05, String(a.monthly));
  assert.ok(Math.abs(a.beta - 1.3) < 0.05);
  assert.ok(Number.isFinite(a.tStat) && a.tStat > 2);
  assert.equal(a.annualized, a.monthly * 12);
  assert.equal(a.lags, Math.floor(4 * (60 / 100) ** (2 / 9)));
});

Deno.test("bad options and frames name the bad value", () => {
  const f = frame([{ date: "2024-01-02", r: [1, 2, 3, 4], x: [1, 1, 1, 1] }]);
  assert.throws(
    () => portfolioBacktest(f, { horizon: "2y" as "1y" }),
    /horizon "2y" is not allowed; allowed: 1m, 3m, 6m, 1y/,
  );
  assert.throws(
    () => portfolioBacktest(f, { weighting: "cap" as "value" }),
    /weighting "cap" is not allowed; allowed: equal, value/,
  );
  assert.throws(
    () => portfolioBacktest(f, { direction: "short" as "long" }),
    /direction "short" is not allowed; allowed: long, follow/,
  );
  assert.throws(() => portfolioBacktest(f, { costBps: -1 }), /costBps -1 is not allowed/);
  assert.throws(
    () => portfolioBacktest(f.drop("excess_returns_3m"), { horizon: "3m" }),
    /lacks column "excess_returns_3m"/,
  );
  assert.throws(
    () =>
      portfolioBacktest(
        frame([{ date: "2024-01-02", r: [1, null, null, null], x: [1, null, null, null] }]),
        { horizon: "1y" },
      ),
    /no trade has a realized 1y return/,
  );
});

Deno.test("demo data: CEO buys as a 6-month portfolio; stats are consistent with the frame", () => {
  const stub = createStub({ seed: 1, scale: 0.3 });
  const ceo = transactionsFrame(
    stub.insider.trades.filter((t) => t.row.code === "P" && t.row.is_ceo).map((t) => t.row),
  );
  const { monthly, stats } = portfolioBacktest(ceo, { horizon: "6m", costBps: 10 });
  assert.ok(stats.months >= 12 && stats.trades > 20);
  assert.equal(stats.trades + stats.droppedTrades, ceo.height);
  const eq = monthly.getColumn("equity").toArray() as number[];
  assert.ok(Math.abs(((eq[eq.length - 1] ** (12 / stats.months)) - 1) * 100 - stats.cagr!) < 1e-9);
  const r = monthly.getColumn("return").toArray() as number[];
  const m = r.reduce((a, b) => a + b, 0) / r.length;
  const vol = Math.sqrt(r.reduce((a, b) => a + (b - m) ** 2, 0) / (r.length - 1)) * Math.sqrt(12);
  assert.ok(Math.abs(vol - stats.vol!) < 1e-9);
  assert.ok(stats.hitRate !== null && stats.hitRate >= 0 && stats.hitRate <= 100);
  assert.ok(Number.isFinite(stats.alphaFit!.tStat));
  assert.equal(typeof stats.alpha, "number");
  assert.equal(stats.alpha, stats.alphaFit!.annualized);
});

Deno.test("factors: a one-factor alpha equals alphaOf; risk-free frames; bad factor frames name the problem", () => {
  const stub = createStub({ seed: 2, scale: 0.3 });
  const buys = transactionsFrame(
    stub.insider.trades.filter((t) => t.row.code === "P").map((t) => t.row),
  );
  const base = portfolioBacktest(buys, { horizon: "3m" });
  const months = base.monthly.getColumn("month");
  const mkt = base.monthly.getColumn("market_return").toArray() as number[];
  const rets = base.monthly.getColumn("return").toArray() as number[];
  // a monthly risk-free frame and the market as the one factor (in excess of it)
  const rf = mkt.map((_, i) => 0.2 + 0.01 * (i % 5));
  const riskFree = pl.DataFrame({ month: months, rf });
  const factors = pl.DataFrame({ month: months, mkt_rf: mkt.map((m, i) => m - rf[i]) });
  const { stats } = portfolioBacktest(buys, { horizon: "3m", riskFree, factors });
  const want = alphaOf(rets.map((r, i) => r - rf[i]), mkt.map((m, i) => m - rf[i]));
  const fa = stats.factorAlpha!;
  assert.ok(
    Math.abs(fa.annualized - want.annualized) < 1e-9,
    `${fa.annualized} ${want.annualized}`,
  );
  assert.ok(Math.abs(fa.tStat - want.tStat) < 1e-9, `${fa.tStat} ${want.tStat}`);
  assert.ok(Math.abs(fa.betas.mkt_rf - want.beta) < 1e-9);
  assert.equal(fa.months, rets.length);
  assert.equal(fa.missingMonths, 0);
  assert.ok(fa.interval[0] < fa.annualized && fa.annualized < fa.interval[1]);
  const over = rets.map((r, i) => r - rf[i]);
  const m = over.reduce((a, b) => a + b, 0) / over.length;
  const sd = Math.sqrt(over.reduce((a, b) => a + (b - m) ** 2, 0) / (over.length - 1));
  assert.ok(Math.abs(stats.sharpe! - (m / sd) * Math.sqrt(12)) < 1e-9);
  // factor data for only part of the months: the rest are left out and counted
  const part = portfolioBacktest(buys, { horizon: "3m", factors: factors.head(30) });
  assert.equal(part.stats.factorAlpha!.months, 30);
  assert.equal(part.stats.factorAlpha!.missingMonths, rets.length - 30);
  assert.throws(
    () => portfolioBacktest(buys, { horizon: "3m", factors: pl.DataFrame({ month: months }) }),
    /factors has no factor column/,
  );
  assert.throws(
    () => portfolioBacktest(buys, { horizon: "3m", factors: pl.DataFrame({ m: [1], x: [1] }) }),
    /portfolioBacktest \(factors\): pass a frame with a month column and factor columns; got a frame[^]*lacks column "month"/,
  );
  assert.throws(
    () => portfolioBacktest(buys, { horizon: "3m", riskFree: riskFree.head(3) }),
    /riskFree has no rate for \d{4}-\d{2}/,
  );
  assert.throws(() => portfolioBacktest(buys, { riskFree: -200 }), /riskFree -200 is not allowed/);
});

Deno.test("entry at filing: positions open at the filing; trades filed after their horizon are dropped", () => {
  const f = frame([
    { date: "2024-01-29", r: [5, null, null, null], x: [1, null, null, null] },
    { date: "2024-01-03", r: [2, null, null, null], x: [0, null, null, null] },
  ]).withColumns(pl.Series("filing_delay_days", [5, 45], pl.Float64));
  const { monthly, stats } = portfolioBacktest(f, {
    horizon: "1m",
    entry: "filing",
    spread: "geometric",
    edges: "keep",
  });
  assert.equal(stats.trades, 1);
  assert.equal(stats.droppedTrades, 1);
  assert.equal(stats.entry, "filing");
  // filed Feb 3: the position runs Feb 3 → Feb 28 (trade date + 30 days), all in February
  assert.equal(monthly.height, 1);
  assert.equal(
    (monthly.getColumn("month").toArray()[0] as unknown as Date).toISOString().slice(0, 7),
    "2024-02",
  );
  const want = (1.05 / 1.05 ** (5 / 30) - 1) * 100;
  assert.ok(Math.abs((monthly.getColumn("return").get(0) as number) - want) < 1e-9);
  assert.throws(
    () => portfolioBacktest(f.drop("filing_delay_days"), { horizon: "1m", entry: "filing" }),
    /lacks column "filing_delay_days"/,
  );
  assert.throws(
    () => portfolioBacktest(f, { entry: "close" as "trade" }),
    /entry "close" is not allowed/,
  );
});
