/**
 * Intervals that know their limits (issue 24): minimum cluster counts, no t
 * from a zero or noise standard error, the two-way clustered interval
 * against an independent computation, and entry at filing.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { conclusion, eventStudy, statsTable } from "../../mod.ts";
import { twoWayClusterSe, usableSe } from "../../lib/backtest/_cluster_se.ts";
import { t975, tQuantile, Z975 } from "../../lib/backtest/_quantiles.ts";
import { fromFiling } from "../../lib/backtest/entry.ts";
import { Rng } from "../../lib/shared/random.ts";

type Hand = { month: string; issuer: string; x: number; grp?: string; delay?: number };

function frame(rows: Hand[]): pl.DataFrame {
  return pl.DataFrame({
    transaction_date: rows.map((r) => `${r.month}-15`),
    issuer_cik: rows.map((r) => r.issuer),
    acquired_disposed_code: rows.map(() => "A"),
    returns_1m: rows.map((r) => r.x + 1),
    excess_returns_1m: rows.map((r) => r.x),
    grp: rows.map((r) => r.grp ?? "all"),
  });
}

const month = (k: number) =>
  `${2015 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}`;

Deno.test("one issuer: thin with the reason, no t, no interval, and the conclusion claims nothing", () => {
  // the audit's case: 8 trades of one issuer, clustered by issuer
  const rows: Hand[] = [];
  for (let i = 0; i < 8; i++) rows.push({ month: month(i), issuer: "one", x: -10.6, grp: "CEO" });
  for (let i = 0; i < 60; i++) rows.push({ month: month(i), issuer: `c${i}`, x: (i % 9) - 4 });
  for (let i = 0; i < 8; i++) rows.push({ month: month(i), issuer: "one", x: -10.6 });
  const s = eventStudy(frame(rows), {
    groupBy: "grp",
    horizons: ["1m"],
    cluster: "issuer",
    baseline: "all",
    minN: 5,
  });
  const ceo = s.filter(pl.col("group").eq(pl.lit("CEO"))).toRecords()[0];
  assert.equal(ceo.thin, true);
  assert.equal(ceo.thin_reason, "1 issuers < minClusters 20");
  for (const c of ["t_stat", "t_cluster", "ci_low", "ci_high", "diff_ci_low", "diff_ci_high"]) {
    assert.equal(ceo[c], null, c);
  }
  const text = conclusion(s);
  assert.doesNotMatch(text, /excludes 0/);
  assert.match(
    text,
    /CEO trailed it by .* too thin for an interval \(1 issuers < minClusters 20\)/,
  );
  assert.match(String(statsTable(s)), /thin: 1 issuers < minClusters 20/);
});

Deno.test("a zero or rounding-noise standard error never becomes a t", () => {
  for (const noise of [0, 1e-15]) {
    const rows: Hand[] = Array.from({ length: 40 }, (_, i) => ({
      month: month(i),
      issuer: `c${i}`,
      x: 10.6 + (i % 2 ? noise : -noise),
    }));
    for (const cluster of ["two-way", "month", "issuer", "none"] as const) {
      const r = eventStudy(frame(rows), { horizons: ["1m"], cluster, samples: 50 }).toRecords()[0];
      assert.equal(r.thin, true, `${cluster} ${noise}`);
      assert.equal(r.thin_reason, "standard error is zero (one cluster or identical values)");
      assert.equal(r.t_stat, null);
      assert.equal(r.t_cluster, null);
      assert.equal(r.ci_low, null);
    }
  }
  assert.equal(usableSe(1e-14, 10.6), false);
  assert.equal(usableSe(0.5, 10.6), true);
  assert.equal(usableSe(NaN, 1), false);
});

Deno.test("t975 and the normal quantile are exact: Student's t table values from 1 to 1,000 df", () => {
  // 97.5 % quantiles as printed in tables (R's qt(0.975, df), 6 decimals)
  const table: [number, number][] = [
    [1, 12.706205],
    [2, 4.302653],
    [5, 2.570582],
    [10, 2.228139],
    [20, 2.085963],
    [30, 2.042272],
    [100, 1.983972],
    [1000, 1.962339],
  ];
  for (const [df, q] of table) {
    assert.ok(Math.abs(t975(df) - q) < 5e-7, `${df}: ${t975(df)} vs ${q}`);
  }
  // other tails: t(0.995, 2) = 9.924843, t(0.95, 5) = 2.015048
  assert.ok(Math.abs(tQuantile(0.995, 2) - 9.924843) < 5e-7);
  assert.ok(Math.abs(tQuantile(0.95, 5) - 2.015048) < 5e-7);
  assert.ok(Math.abs(Z975 - 1.959964) < 5e-7);
  // the old Cornish-Fisher approximation was 11 % too narrow at 1 df: 11.3 vs 12.7
  assert.ok(t975(1) > 12.7 && t975(2) > 4.3);
  assert.ok(Number.isNaN(t975(0)));
});

/** Cameron-Gelbach-Miller two-way variance of a linear combination of group means, by brute force. */
function cgm(rows: Hand[], w: Record<string, number>): { se: number; df: number } {
  const groups = Object.keys(w);
  const means: Record<string, number> = {};
  const counts: Record<string, number> = {};
  for (const g of groups) {
    const xs = rows.filter((r) => (r.grp ?? "all") === g).map((r) => r.x);
    counts[g] = xs.length;
    means[g] = xs.reduce((a, b) => a + b, 0) / xs.length;
  }
  const oneWay = (key: (r: Hand) => string) => {
    const keys = [...new Set(rows.filter((r) => (r.grp ?? "all") in w).map(key))];
    let v = 0;
    for (const k of keys) {
      let s = 0;
      for (const r of rows) {
        const g = r.grp ?? "all";
        if (g in w && key(r) === k) s += (w[g] * (r.x - means[g])) / counts[g];
      }
      v += s * s;
    }
    return { v: (keys.length / (keys.length - 1)) * v, G: keys.length };
  };
  const m = oneWay((r) => r.month);
  const i = oneWay((r) => r.issuer);
  const b = oneWay((r) => `${r.month}|${r.issuer}`);
  const v = m.v + i.v - b.v;
  return { se: Math.sqrt(v > 0 ? v : Math.max(m.v, i.v)), df: Math.min(m.G, i.G) - 1 };
}

Deno.test("two-way clustered interval (the default) matches a brute-force CGM computation", () => {
  const rng = new Rng(11);
  const rows: Hand[] = [];
  const shockM = Array.from({ length: 30 }, () => rng.normal() * 2);
  const shockI = Array.from({ length: 40 }, () => rng.normal() * 3);
  for (let t = 0; t < 400; t++) {
    const m = Math.floor(rng.next() * 30);
    const i = Math.floor(rng.next() * 40);
    const ceo = rng.chance(0.3);
    rows.push({
      month: month(m),
      issuer: `i${i}`,
      x: 1 + (ceo ? 2 : 0) + shockM[m] + shockI[i] + rng.normal() * 5,
      grp: ceo ? "CEO" : "other",
    });
  }
  const s = eventStudy(frame(rows), { groupBy: "grp", horizons: ["1m"], baseline: "other" });
  const recs = s.toRecords() as (Record<string, number> & { group: string })[];
  for (const r of recs) {
    const want = cgm(rows, { [r.group]: 1 });
    const half = (r.ci_high - r.ci_low) / 2;
    assert.ok(Math.abs(half - t975(want.df) * want.se) < 1e-9, `${r.group}: ${half}`);
    assert.ok(Math.abs(r.t_cluster - r.mean_excess / want.se) < 1e-9);
    assert.equal(r.n_clusters, want.df + 1);
  }
  const ceo = recs.find((r) => r.group === "CEO")!;
  const d = cgm(rows, { CEO: 1, other: -1 });
  const dHalf = (ceo.diff_ci_high - ceo.diff_ci_low) / 2;
  assert.ok(Math.abs(dHalf - t975(d.df) * d.se) < 1e-9, `diff: ${dHalf}`);
  assert.equal(s.getColumn("cluster").getIndex(0), "two-way");
  // groups that share trades (CEO buys ⊂ all buys): the shared part is accounted for
  const nested = rows.map((r) => ({ ...r, grp: "all" }));
  const both = [...rows.filter((r) => r.grp === "CEO"), ...nested];
  const direct = twoWayClusterSe(
    both.map((r, k) => ({
      value: r.x,
      group: k < rows.filter((x) => x.grp === "CEO").length ? 0 : 1,
      month: r.month,
      issuer: r.issuer,
    })),
    2,
  ).of([[0, 1], [1, -1]]);
  const brute = cgm(
    both.map((r, k) => ({ ...r, grp: k < rows.filter((x) => x.grp === "CEO").length ? "A" : "B" })),
    { A: 1, B: -1 },
  );
  assert.ok(Math.abs(direct.se - brute.se) < 1e-12);
});

Deno.test("entry at filing: the return before the filing is taken out of the trade-date return", () => {
  const row = {
    filing_delay_days: 2,
    returns_1w: 7,
    excess_returns_1w: 2, // market +5 % over the week
    returns_1m: 10,
    excess_returns_1m: 1, // market +9 %
  };
  const g2 = 1.07 ** (2 / 7);
  const m2 = 1.05 ** (2 / 7);
  const f = fromFiling(row, "1m")!;
  assert.ok(Math.abs(f.ret - (1.1 / g2 - 1) * 100) < 1e-12);
  assert.ok(Math.abs(f.excess - (1.1 / g2 - 1.09 / m2) * 100) < 1e-12);
  // filed on the trade date: the service's figures
  const same = fromFiling({ ...row, filing_delay_days: 0 }, "1m")!;
  assert.ok(Math.abs(same.ret - 10) < 1e-12 && Math.abs(same.excess - 1) < 1e-12);
  // between 1 week and 1 month: interpolated on the 1w–1m segment
  const late = fromFiling({ ...row, filing_delay_days: 14 }, "1m")!;
  const g14 = 1.07 * (1.1 / 1.07) ** (7 / 23);
  assert.ok(Math.abs(late.ret - (1.1 / g14 - 1) * 100) < 1e-12);
  // filed at or after the horizon's end, or no delay: no filing-entry return
  assert.equal(fromFiling({ ...row, filing_delay_days: 30 }, "1m"), null);
  assert.equal(fromFiling({ ...row, filing_delay_days: null }, "1m"), null);
});

Deno.test("eventStudy entry: filing uses the filing-entry returns and says so", () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({
    transaction_date: `${month(i)}-10`,
    issuer_cik: `c${i}`,
    filing_delay_days: i === 0 ? 40 : i % 5,
    returns_1w: (i % 7) - 3,
    excess_returns_1w: (i % 7) - 3.5,
    returns_1m: (i % 11) - 4,
    excess_returns_1m: (i % 11) - 5,
  }));
  const df = pl.DataFrame(rows);
  const r = eventStudy(df, { horizons: ["1m"], entry: "filing", minClusters: 5 }).toRecords()[0];
  const want = rows.map((x) => fromFiling(x, "1m")).filter((x) => x !== null);
  assert.equal(r.n, 29, "the trade filed 40 days later has no 1m filing-entry return");
  const m = want.reduce((a, b) => a + b!.excess, 0) / want.length;
  assert.ok(Math.abs((r.mean_excess as number) - m) < 1e-12);
  assert.equal(r.entry, "filing");
  const t = eventStudy(df, { horizons: ["1m"], minClusters: 5 }).toRecords()[0];
  assert.equal(t.entry, "trade");
  assert.equal(t.n, 30);
});

Deno.test("the event-study chart says which entry its returns run from", async () => {
  const { eventStudyChart } = await import("../../mod.ts");
  const rows = Array.from({ length: 30 }, (_, i) => ({
    transaction_date: `${month(i)}-10`,
    issuer_cik: `c${i}`,
    filing_delay_days: 2,
    returns_1w: 1,
    excess_returns_1w: 0.5,
    returns_1m: (i % 11) - 4,
    excess_returns_1m: (i % 11) - 5,
  }));
  const df = pl.DataFrame(rows);
  const opts = { horizons: ["1m"], minClusters: 5 } as const;
  assert.match(eventStudyChart(eventStudy(df, opts)).svg, /from the trade date/);
  assert.match(
    eventStudyChart(eventStudy(df, { ...opts, entry: "filing" })).svg,
    /from the filing date/,
  );
});
