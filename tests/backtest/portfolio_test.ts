import assert from "node:assert/strict";
import fc from "fast-check";
import pl from "nodejs-polars";
import { alphaOf, monthlyPath, portfolioBacktest, transactionsFrame } from "../../mod.ts";
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
const H = { "1m": 1, "3m": 3, "6m": 6, "1y": 12 } as const;
const IDX = { "1m": 0, "3m": 1, "6m": 2, "1y": 3 } as const;

Deno.test("property: one trade held H months ends at 1 + returns_H/100 without costs; costs lower it", () => {
  fc.assert(
    fc.property(
      tradeArb,
      horizonArb,
      fc.double({ min: 0.5, max: 200, noNaN: true }),
      (t, h, bps) => {
        const one = frame([{ ...t, side: "A" }]);
        const { monthly, stats } = portfolioBacktest(one, { horizon: h });
        assert.equal(stats.months, H[h]);
        assert.equal(monthly.height, H[h]);
        const end = monthly.getColumn("equity").get(H[h] - 1) as number;
        const want = 1 + (t.r[IDX[h]] as number) / 100;
        assert.ok(Math.abs(end - want) < 1e-9 * Math.max(1, want), `${end} vs ${want}`);
        const costly = portfolioBacktest(one, { horizon: h, costBps: bps });
        const endC = costly.monthly.getColumn("equity").get(H[h] - 1) as number;
        assert.ok(endC < end, `${endC} < ${end}`);
        // one entry and one exit: total turnover 2
        const turnover = costly.monthly.getColumn("turnover").toArray() as number[];
        assert.ok(Math.abs(turnover.reduce((a, b) => a + b, 0) - 2) < 1e-9);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("property: Sharpe = mean/sd·√12 of monthly excess; max drawdown from the equity curve", () => {
  fc.assert(
    fc.property(
      fc.array(tradeArb, { minLength: 2, maxLength: 25 }),
      horizonArb,
      fc.constantFrom("equal" as const, "value" as const),
      fc.constantFrom("long" as const, "follow" as const),
      fc.double({ min: 0, max: 50, noNaN: true }),
      (trades, horizon, weighting, direction, costBps) => {
        const { monthly, stats } = portfolioBacktest(frame(trades), {
          horizon,
          weighting,
          direction,
          costBps,
        });
        const ex = monthly.getColumn("excess_return").toArray() as number[];
        const m = ex.reduce((a, b) => a + b, 0) / ex.length;
        const sd = Math.sqrt(ex.reduce((a, b) => a + (b - m) ** 2, 0) / (ex.length - 1));
        const sharpe = (m / sd) * Math.sqrt(12);
        if (Number.isFinite(sharpe)) {
          assert.ok(Math.abs(stats.sharpe - sharpe) < 1e-9 * Math.max(1, Math.abs(sharpe)));
        }
        const eq = monthly.getColumn("equity").toArray() as number[];
        let peak = 1;
        let mdd = 0;
        for (const e of eq) {
          peak = Math.max(peak, e);
          mdd = Math.min(mdd, (e / peak - 1) * 100);
        }
        assert.ok(Math.abs(stats.maxDrawdown - mdd) < 1e-9, `${stats.maxDrawdown} vs ${mdd}`);
        const rets = monthly.getColumn("return").toArray() as number[];
        const growth = rets.reduce((g, r) => g * (1 + r / 100), 1);
        assert.ok(Math.abs(eq[eq.length - 1] - growth) < 1e-9 * Math.max(1, growth));
        assert.equal(stats.months, monthly.height);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("monthly frame: columns, dtypes, calendar months with cash gaps", () => {
  const { monthly, stats } = portfolioBacktest(
    frame([
      { date: "2023-01-10", r: [2, 4, null, null], x: [1, 1, null, null] },
      { date: "2023-06-20", r: [-3, 1, null, null], x: [-2, 0, null, null] },
      { date: "2023-06-02", r: [null, null, null, null], x: [null, null, null, null] },
    ]),
    { horizon: "3m", spread: "geometric" },
  );
  assert.deepEqual(monthly.columns, [
    "month",
    "n_positions",
    "return",
    "excess_return",
    "turnover",
    "equity",
    "drawdown",
  ]);
  assert.ok(monthly.getColumn("month").dtype.equals(pl.Date));
  assert.equal(monthly.height, 8); // 2023-01 … 2023-08
  assert.deepEqual(monthly.getColumn("n_positions").toArray(), [1, 1, 1, 0, 0, 1, 1, 1]);
  assert.equal(
    (monthly.getColumn("month").getIndex(0) as Date).toISOString().slice(0, 10),
    "2023-01-01",
  );
  assert.equal(monthly.getColumn("return").get(3), 0);
  assert.equal(stats.trades, 2);
  assert.equal(stats.droppedTrades, 1);
  // month 1 of the first trade: its 1m return exactly; months 2–3 spread geometrically
  assert.ok(Math.abs((monthly.getColumn("return").get(0) as number) - 2) < 1e-12);
  const g = Math.sqrt(1.04 / 1.02) - 1;
  assert.ok(Math.abs((monthly.getColumn("return").get(1) as number) - g * 100) < 1e-9);
  // market 1m = return − excess = 1 %: excess of month 1 is 2 − 1
  assert.ok(Math.abs((monthly.getColumn("excess_return").get(0) as number) - 1) < 1e-12);
});

Deno.test("follow shorts sales, value weighting weights by trade value", () => {
  const sale = {
    date: "2024-03-05",
    r: [-10, null, null, null],
    x: [-8, null, null, null],
  } as Trade;
  const buy = { date: "2024-03-20", r: [4, null, null, null], x: [3, null, null, null] } as Trade;
  const f = frame([{ ...sale, side: "D", value: 3000 }, { ...buy, side: "A", value: 1000 }]);
  const long = portfolioBacktest(f, { horizon: "1m" }).monthly.getColumn("return").get(0);
  assert.ok(Math.abs((long as number) - (-10 + 4) / 2) < 1e-12);
  const follow = portfolioBacktest(f, { horizon: "1m", direction: "follow" }).monthly;
  assert.ok(Math.abs((follow.getColumn("return").get(0) as number) - (10 + 4) / 2) < 1e-12);
  assert.ok(Math.abs((follow.getColumn("excess_return").get(0) as number) - (8 + 3) / 2) < 1e-12);
  const value = portfolioBacktest(f, { horizon: "1m", weighting: "value" }).monthly;
  assert.ok(
    Math.abs((value.getColumn("return").get(0) as number) - (0.75 * -10 + 0.25 * 4)) < 1e-12,
  );
});

Deno.test("monthlyPath: geometric spreading reproduces every known point", () => {
  const p = monthlyPath([[1, 2], [3, 5], [6, -4], [12, 20]], 12, "geometric");
  let g = 1;
  const at: number[] = [];
  for (const r of p) at.push(g *= 1 + r);
  assert.ok(Math.abs(at[0] - 1.02) < 1e-12 && Math.abs(at[2] - 1.05) < 1e-12);
  assert.ok(Math.abs(at[5] - 0.96) < 1e-12 && Math.abs(at[11] - 1.2) < 1e-12);
  assert.ok(Math.abs(p[6] - p[11]) < 1e-12, "equal months inside a segment");
  // a missing intermediate point is skipped
  const q = monthlyPath([[3, 9.2727]], 3, "geometric");
  assert.ok(Math.abs(q[0] - q[2]) < 1e-12);
});

Deno.test("monthlyPath: step booking (the default) books each segment when it is observed", () => {
  const p = monthlyPath([[1, 2], [3, 5], [6, -4], [12, 20]], 12);
  let g = 1;
  const at: number[] = [];
  for (const r of p) at.push(g *= 1 + r);
  assert.ok(Math.abs(at[0] - 1.02) < 1e-12 && Math.abs(at[2] - 1.05) < 1e-12);
  assert.ok(Math.abs(at[5] - 0.96) < 1e-12 && Math.abs(at[11] - 1.2) < 1e-12);
  assert.deepEqual([p[1], p[3], p[4], p[6], p[10]], [0, 0, 0, 0, 0]);
  assert.ok(Math.abs(p[2] - (1.05 / 1.02 - 1)) < 1e-12);
});

Deno.test("portfolioBacktest: a bad spread names the value", () => {
  assert.throws(
    () => portfolioBacktest(pl.DataFrame({}), { spread: "linear" as never }),
    (e: Error) => /spread "linear"/.test(e.message) && /step, geometric/.test(e.message),
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
  assert.ok(Math.abs(((eq[eq.length - 1] ** (12 / stats.months)) - 1) * 100 - stats.cagr) < 1e-9);
  const r = monthly.getColumn("return").toArray() as number[];
  const m = r.reduce((a, b) => a + b, 0) / r.length;
  const vol = Math.sqrt(r.reduce((a, b) => a + (b - m) ** 2, 0) / (r.length - 1)) * Math.sqrt(12);
  assert.ok(Math.abs(vol - stats.vol) < 1e-9);
  assert.ok(stats.hitRate >= 0 && stats.hitRate <= 100);
  assert.ok(Number.isFinite(stats.alphaFit.tStat));
  assert.equal(typeof stats.alpha, "number");
  assert.equal(stats.alpha, stats.alphaFit.annualized);
});
