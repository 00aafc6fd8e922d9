import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  conclusion,
  eventStudy,
  eventStudyChart,
  portfolioBacktest,
  portfolioConclusion,
  portfolioTable,
  statsTable,
  writeReport,
} from "../../mod.ts";

/** A hand-made trades frame: per group, a list of 1m excess returns (one trade a month). */
function trades(groups: Record<string, { side: "A" | "D"; xs: number[] }>): pl.DataFrame {
  const rows = Object.entries(groups).flatMap(([g, { side, xs }]) =>
    xs.map((x, i) => ({
      grp: g,
      side,
      date: `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-15`,
      x,
    }))
  );
  return pl.DataFrame({
    grp: rows.map((r) => r.grp),
    acquired_disposed_code: rows.map((r) => r.side),
    code: rows.map((r) => (r.side === "D" ? "S" : "P")),
    transaction_date: rows.map((r) => r.date),
    issuer_cik: rows.map((_, i) => `c${i % 17}`),
    returns_1m: rows.map((r) => r.x + 0.5),
    excess_returns_1m: rows.map((r) => r.x),
  });
}

const wave = (n: number, shift: number, amp = 1) =>
  Array.from({ length: n }, (_, i) => shift + amp * Math.sin(i * 1.7));

Deno.test("conclusion: who beats the baseline, by how much, with the interval; sales explained", () => {
  const s = eventStudy(
    trades({
      winners: { side: "A", xs: wave(48, 3) },
      all: { side: "A", xs: wave(60, 0.2) },
      sales: { side: "D", xs: wave(40, -2) },
    }),
    { groupBy: "grp", horizons: ["1m"], baseline: "all", samples: 300, cluster: "month" },
  );
  const text = conclusion(s);
  const rows = s.toRecords() as Record<string, number>[];
  const win = rows.find((r) => (r.group as unknown) === "winners")!;
  assert.match(text, /^1m after the trade, all \(the baseline\) averaged/);
  assert.ok(
    text.includes(`winners beat it by ${win.diff_vs_baseline.toFixed(2)} percentage points`),
    text,
  );
  assert.ok(text.includes(`+${win.diff_ci_low.toFixed(2)} to +${win.diff_ci_high.toFixed(2)} pp`));
  assert.match(text, /the interval excludes 0/);
  // sales are spoken of as sales: no "beat" or "trailed" about them
  assert.match(
    text,
    /After sales the stock did [\d.]+ percentage points worse against the market than after the baseline \(all\), on the mean.*\(these are sales: a lower excess return after them means the sellers timed them well\)/,
  );
  // against a baseline of purchases no timing is compared; against sales it is
  assert.doesNotMatch(text, /so these sellers/);
  const both = conclusion(eventStudy(
    trades({ plan: { side: "D", xs: wave(48, -1, 2) }, open: { side: "D", xs: wave(40, -3) } }),
    { groupBy: "grp", horizons: ["1m"], baseline: "open", samples: 300, cluster: "month" },
  ));
  assert.match(both, /^1m after the sale, open \(the baseline\)/);
  assert.match(
    both,
    /After plan sales the stock did 1\.98 percentage points better against the market than after the baseline \(open\).* so these sellers timed theirs worse than the baseline's/,
  );
  assert.doesNotMatch(text, /sales (beat|trailed)/);
  assert.match(text, /resamples whole calendar months/);
  assert.deepEqual(s.getColumn("side").toArray(), ["buy", "buy", "sell"]);
});

Deno.test("conclusion: thin evidence, mean vs median, no baseline", () => {
  const skewed = [...Array.from({ length: 30 }, () => -0.5), 40, 45, 50];
  const s = eventStudy(
    trades({ skew: { side: "A", xs: skewed }, tiny: { side: "A", xs: [5, 6, 7] } }),
    { groupBy: "grp", horizons: ["1m"], samples: 200, cluster: "month" },
  );
  const text = conclusion(s);
  assert.match(text, /the highest mean excess return was skew's/);
  assert.match(text, /No baseline was chosen/);
  assert.match(
    text,
    /For skew \(mean [\d.]+%, median -0\.50%\) the mean is positive while the median is not/,
  );
  assert.match(text, /too thin .* for tiny \(1m: 3 trades < minN 20\)/);
  // a mean that prints as 0.00 % is not called positive
  // mean +0.0048 %, median −0.10 %
  const flat = [...Array.from({ length: 20 }, () => -0.1), 2.1];
  const tiny = conclusion(
    eventStudy(trades({ flat: { side: "A", xs: flat } }), {
      groupBy: "grp",
      horizons: ["1m"],
      samples: 200,
      cluster: "month",
      minClusters: 2,
    }),
  );
  assert.match(tiny, /flat's 0\.00%/);
  assert.doesNotMatch(tiny, /mean is positive/);
  const table = String(statsTable(s));
  assert.match(table, /median\s+trimmed mean/);
  assert.match(table, /tiny .* thin: 3 trades < minN 20/);
});

Deno.test("writeReport: conclusion, table with medians, hit-rate note, portfolios, caveats, files", async () => {
  const t = trades({ a: { side: "A", xs: wave(36, 1) }, b: { side: "A", xs: wave(36, 0) } });
  const s = eventStudy(t, { groupBy: "grp", horizons: ["1m"], baseline: "b", samples: 100 });
  const pa = portfolioBacktest(t.filter(pl.col("grp").eq(pl.lit("a"))), { horizon: "1m" });
  const pb = portfolioBacktest(t.filter(pl.col("grp").eq(pl.lit("b"))), { horizon: "1m" });
  const dir = await Deno.makeTempDir();
  const files = await writeReport(dir, s, { "event-study": eventStudyChart(s) }, {
    title: "T",
    portfolios: { "A book": pa, "B book": pb },
  });
  const md = await Deno.readTextFile(files.report);
  for (
    const h of ["## Conclusion", "## Calendar-time portfolios", "## Caveats", "| median |"]
  ) assert.ok(md.includes(h), h);
  assert.match(md, /a sale hits when its excess return is below 0/);
  assert.match(md, /Purchases are open-market purchases \(Form 4 code P\) and sales are code S/);
  assert.match(md, /Newey-West t/);
  assert.match(md, /\| A book \| trade \| 36 \| 36 \|/);
  assert.match(md, /vol, max drawdown, hit rate and IR are estimates/i);
  // the information ratio is marked as an estimate with its measured bias, like the others
  assert.match(md, /\+15\.7 ± 2\.0 to \+52\.1 ± 2\.7 % at 1 year/);
  assert.match(md, /Jensen's alpha/);
  assert.match(String(portfolioTable({ "A book": pa })), /IR\*/);
  assert.match(
    String(portfolioTable({ "A book": pa })),
    /IR reads high from 3-month holdings on: \+4\.2 ± 1\.3 to \+12\.8 ± 1\.3 % at 3 months/,
  );
  assert.match(
    portfolioConclusion({ "A book": pa }),
    /information ratio \S+ against the positions' own market \(an estimate: its measured bias is in the note/,
  );
  assert.ok((await Deno.stat(join(dir, "portfolio-a-book.csv"))).isFile);
  assert.deepEqual(files.portfolios.length, 4);
  assert.match(String(portfolioTable({ "A book": pa })), /A book\s+trade\s+36\s+36/);
  assert.match(String(portfolioTable({ "A book": pa })), /Sharpe over a risk-free rate of 0%/);
  assert.match(portfolioConclusion({ "A book": pa }), /over a risk-free rate of 0% a year/);
  assert.match(portfolioConclusion({ "A book": pa, "B book": pb }), /^Best by Sharpe: /);
  const only = await writeReport(join(dir, "p"), null, {}, { title: "P", portfolios: { x: pa } });
  assert.equal(only.parquet, "");
  assert.doesNotMatch(await Deno.readTextFile(only.report), /## Conclusion/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("statsTable: the hit rate is a whole percent, the study's hit_rate rounded", () => {
  const s = eventStudy(
    trades({ winners: { side: "A", xs: wave(48, 3) }, all: { side: "A", xs: wave(60, 0.2) } }),
    { groupBy: "grp", horizons: ["1m"], baseline: "all", samples: 100, cluster: "month" },
  );
  const table = statsTable(s);
  const col = table.head.indexOf("hit rate");
  assert.ok(col >= 0, table.head.join(", "));
  const hits = (s.toRecords() as Record<string, number>[]).map((r) => r.hit_rate);
  assert.ok(hits.some((h) => h !== Math.round(h)), "a hit rate with a fraction");
  assert.deepEqual(table.rows.map((r) => r[col]), hits.map((h) => `${Math.round(h)}%`));
});
