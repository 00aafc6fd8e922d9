/**
 * One reader of days and months for the backtests (`lib/backtest/_month.ts`,
 * on the value grammar): the trades' `transaction_date` (portfolio
 * positions, event-study month clusters) and the `month` column of a
 * risk-free or a factor frame accept the same forms, and a value none of
 * them reads is an error naming the column, the row and the value. Side
 * codes are read by the code grammar.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { eventStudy, portfolioBacktest } from "../../mod.ts";
import { monthText, readDay, readMonth } from "../../lib/backtest/_month.ts";
import { sideOf } from "../../lib/families/side.ts";
import { UNREADABLE } from "../../lib/shared/values/mod.ts";
import { portfolioFromPositions } from "../../lib/backtest/portfolio.ts";

const DAY = 86_400_000;
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY;

Deno.test("readDay and readMonth: the date grammar's forms, a Date, YYYY-MM for months; the rest refused", () => {
  const days: [unknown, number | null | typeof UNREADABLE][] = [
    ["2024-02-29", day(2024, 2, 29)],
    [new Date(Date.UTC(2024, 1, 29)), day(2024, 2, 29)],
    [new Date(Date.UTC(2024, 1, 29, 15, 30)), day(2024, 2, 29)], // a Datetime value: its UTC day
    ["20240229", day(2024, 2, 29)],
    ["2024/02/29", day(2024, 2, 29)],
    ["2024-02-29T00:00:00Z", day(2024, 2, 29)],
    [Date.UTC(2024, 1, 29), day(2024, 2, 29)], // epoch ms at UTC midnight
    [[2024, 2, 29], day(2024, 2, 29)],
    [null, null],
    [undefined, null],
    ["  ", null],
    ["2024-02-30", UNREADABLE],
    ["2023-02-29", UNREADABLE],
    ["2024-13-01", UNREADABLE],
    ["2024-02-29T10:00:00", UNREADABLE], // a time of day: which day depends on a zone
    ["01/02/2024", UNREADABLE],
    ["2024-02", UNREADABLE], // a month is no day
    [19782, UNREADABLE], // days since the epoch: not a form of the grammar
    [new Date(NaN), UNREADABLE],
    [true, UNREADABLE],
  ];
  for (const [v, want] of days) assert.equal(readDay(v), want, `readDay(${String(v)})`);
  const months: [unknown, string | null | typeof UNREADABLE][] = [
    ["2024-02", "2024-02"],
    [" 2024-02 ", "2024-02"],
    ["2024-02-29", "2024-02"],
    [new Date(Date.UTC(2024, 1, 1)), "2024-02"],
    [null, null],
    ["2024-13", UNREADABLE],
    ["2024-00", UNREADABLE],
    ["2024-2", UNREADABLE],
    ["Feb 2024", UNREADABLE],
    ["2024-02-30", UNREADABLE],
  ];
  for (const [v, want] of months) {
    const got = readMonth(v);
    assert.equal(
      typeof got === "number" ? monthText(got) : got,
      want,
      `readMonth(${String(v)})`,
    );
  }
});

/** Trades: one purchase a month, 30 months, all realized at 1m. */
function trades(dates: string[]): pl.DataFrame {
  return pl.DataFrame({
    transaction_date: dates,
    issuer_cik: dates.map((_, i) => `c${i % 7}`),
    code: dates.map(() => "P"),
    returns_1m: dates.map((_, i) => 1 + (i % 3)),
    excess_returns_1m: dates.map((_, i) => (i % 3) - 0.5),
  });
}
const DATES = Array.from(
  { length: 30 },
  (_, i) => `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-10`,
);

Deno.test("transaction_date as text: read by the grammar; a date it refuses is an error naming it and its row", () => {
  const good = eventStudy(trades(DATES), { horizons: ["1m"], minClusters: 2 });
  assert.equal(good.height, 1);
  const basic = eventStudy(trades(DATES.map((d) => d.replaceAll("-", ""))), {
    horizons: ["1m"],
    minClusters: 2,
  });
  assert.equal(basic.getColumn("n_clusters").get(0), good.getColumn("n_clusters").get(0));
  const bad = [...DATES];
  bad[4] = "2020-13-10";
  assert.throws(
    () => eventStudy(trades(bad), { horizons: ["1m"], minClusters: 2 }),
    /^RangeError: eventStudy: transaction_date "2020-13-10" \(row 5\) is not a date/,
  );
  bad[4] = "2020-02-30";
  assert.throws(
    () => portfolioBacktest(trades(bad), { horizon: "1m" }),
    /^RangeError: portfolioBacktest: transaction_date "2020-02-30" \(row 5\) is not a date/,
  );
  // text that is not shaped like a date is described, never printed
  bad[4] = "sk-live-not-a-date";
  assert.throws(
    () => portfolioBacktest(trades(bad), { horizon: "1m" }),
    (e: Error) =>
      /transaction_date text of 18 characters shaped "aa-aaaa-aaa-a-aaaa" \(row 5\)/.test(
        e.message,
      ) && !e.message.includes("sk-live"),
  );
  // a missing date is no error: the trade is dropped and counted, as before
  bad[4] = null as unknown as string;
  assert.equal(portfolioBacktest(trades(bad), { horizon: "1m" }).stats.missingValueTrades, 1);
});

Deno.test("riskFree and factors frames: months in any form the reader takes; a bad one named with its row", () => {
  const pos = Array.from({ length: 30 }, (_, i) => ({
    start: day(2020, 1, 15) + 30.4 * i,
    end: day(2020, 1, 15) + 30.4 * i + 20,
    sign: 1 as const,
    size: 1,
    stock: [[0, 1], [20, 1 + (i % 4) / 100]] as [number, number][],
    market: [[0, 1], [20, 1.005]] as [number, number][],
  }));
  const base = portfolioFromPositions(pos, { edges: "keep" });
  const months = (base.monthly.getColumn("month").toArray() as unknown as Date[]).map((d) =>
    d.toISOString().slice(0, 7)
  );
  const rf = months.map(() => 0.2);
  const asText = portfolioFromPositions(pos, {
    edges: "keep",
    riskFree: pl.DataFrame({ month: months, rf }),
  });
  const asBasic = portfolioFromPositions(pos, {
    edges: "keep",
    riskFree: pl.DataFrame({ month: months.map((m) => `${m.replace("-", "")}01`), rf }),
  });
  assert.equal(asText.stats.sharpe, asBasic.stats.sharpe);
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        edges: "keep",
        riskFree: pl.DataFrame({
          month: [...months.slice(0, 3), "2020-00", ...months.slice(4)],
          rf,
        }),
      }),
    /riskFree month "2020-00" \(row 4\) is not a date or a month/,
  );
  const mkt = months.map((_, i) => (i % 5) - 2);
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        edges: "keep",
        factors: pl.DataFrame({ month: ["2020-01", "2020-1", ...months.slice(2)], mkt }),
      }),
    /^RangeError: portfolioBacktest: factors month "2020-1" \(row 2\) is not a date or a month/,
  );
  // one reader for both frames: a factor month given twice is refused too, naming both rows
  assert.throws(
    () =>
      portfolioFromPositions(pos, {
        edges: "keep",
        factors: pl.DataFrame({ month: [months[0], ...months.slice(0, -1)], mkt }),
      }),
    /^RangeError: portfolioBacktest: factors has month 2020-01 twice \(rows 1 and 2\)/,
  );
});

Deno.test("sideOf: codes read by the code grammar, exactly as sent; a structure is refused naming it", () => {
  assert.equal(sideOf({ code: "P" }), 1);
  assert.equal(sideOf({ code: "S" }), -1);
  assert.equal(sideOf({ code: "p" }), 0, "no case change");
  assert.equal(sideOf({ code: " P" }), 0, "no trimming");
  assert.equal(sideOf({ code: null }), 0);
  assert.equal(sideOf({ acquired_disposed_code: "D" }, "acquiredDisposed"), -1);
  assert.throws(
    () => sideOf({ code: { c: "P" } }),
    /^RangeError: sideOf: code is an object of 1 key, not a code/,
  );
  assert.throws(
    () => sideOf({ acquired_disposed_code: true }, "acquiredDisposed"),
    /^RangeError: sideOf: acquired_disposed_code is the boolean true, not a code/,
  );
});
