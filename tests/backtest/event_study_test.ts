import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { clusterBootstrap, eventStudy, transactionsFrame } from "../../mod.ts";
import { createStub } from "../../lib/stub/mod.ts";
import { Rng } from "../../lib/shared/random.ts";

const stub = createStub({ seed: 1, scale: 0.3 });
const buys = transactionsFrame(
  stub.insider.trades.filter((t) => t.row.code === "P").map((t) => t.row),
);

Deno.test("eventStudy: one row per group × horizon with the documented figures", () => {
  const s = eventStudy(buys, { groupBy: "role", horizons: ["1m", "3m"], samples: 300 });
  const groups = s.getColumn("group").unique().toArray().sort();
  assert.ok(groups.includes("CEO") && groups.includes("CFO"));
  assert.equal(s.height, groups.length * 2);
  for (
    const c of [
      "n",
      "mean_return",
      "median_return",
      "mean_excess",
      "median_excess",
      "hit_rate",
      "t_stat",
      "t_cluster",
      "n_clusters",
      "thin",
      "trimmed_mean_excess",
      "cluster",
      "ci_low",
      "ci_high",
      "baseline",
      "diff_vs_baseline",
      "diff_ci_low",
      "diff_ci_high",
    ]
  ) {
    assert.ok(s.columns.includes(c), c);
  }
  for (const r of s.toRecords() as Record<string, number>[]) {
    if (r.thin) {
      assert.equal(r.ci_low, null);
      assert.equal(r.t_stat, null);
    } else {
      assert.ok(
        r.ci_low <= r.mean_excess + 1e-9 && r.mean_excess <= r.ci_high + 1e-9,
        "the interval brackets the mean",
      );
    }
    assert.ok(r.hit_rate >= 0 && r.hit_rate <= 100);
  }
});

Deno.test("eventStudy figures match a hand computation", () => {
  const ceo = buys.filter(pl.col("is_ceo"));
  const xs = ceo.getColumn("excess_returns_3m").toArray().filter((v) => v !== null) as number[];
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  const s = eventStudy(buys, { groupBy: "role", horizons: ["3m"], samples: 200 }).filter(
    pl.col("group").eq(pl.lit("CEO")),
  ).toRecords()[0] as Record<string, number>;
  assert.equal(s.n, xs.length);
  assert.ok(Math.abs(s.mean_excess - mean) < 1e-9);
  assert.ok(Math.abs(s.t_stat - mean / (sd / Math.sqrt(xs.length))) < 1e-9);
  assert.ok(Math.abs(s.hit_rate - 100 * xs.filter((x) => x > 0).length / xs.length) < 1e-9);
  const sorted = [...xs].sort((a, b) => a - b);
  const k = Math.floor(0.1 * xs.length);
  const trimmed = sorted.slice(k, xs.length - k);
  assert.ok(
    Math.abs(s.trimmed_mean_excess - trimmed.reduce((a, b) => a + b, 0) / trimmed.length) < 1e-9,
  );
});

Deno.test("the bootstrap is seeded: same seed same intervals, other seed different", () => {
  const opts = { groupBy: "cluster", samples: 200, cluster: "month" } as const;
  const a = eventStudy(buys, { ...opts, seed: 1 });
  const b = eventStudy(buys, { ...opts, seed: 1 });
  const c = eventStudy(buys, { ...opts, seed: 2 });
  assert.ok(a.frameEqual(b, true));
  assert.ok(
    !a.getColumn("ci_low").toArray().every((v, i) => v === c.getColumn("ci_low").getIndex(i)),
  );
});

Deno.test("difference vs baseline: zero for the baseline row, own interval for others", () => {
  const s = eventStudy(buys, {
    groupBy: "10b5-1",
    baseline: "no plan",
    horizons: ["6m"],
    samples: 200,
  });
  const rows = s.toRecords() as Record<string, number | string | null>[];
  const base = rows.find((r) => r.group === "no plan")!;
  assert.equal(base.diff_vs_baseline, null);
  for (const r of rows.filter((r) => r.group !== "no plan")) {
    assert.ok(
      Math.abs(
        (r.diff_vs_baseline as number) - ((r.mean_excess as number) - (base.mean_excess as number)),
      ) < 1e-9,
    );
    assert.ok((r.diff_ci_low as number) <= (r.diff_ci_high as number));
  }
});

Deno.test("built-in groupings, a column, a function; bad input names the problem", () => {
  for (
    const g of ["role", "size", "winRate", "cluster", "10b5-1", "side", "acquiredDisposed"] as const
  ) {
    assert.ok(eventStudy(buys, { groupBy: g, samples: 50 }).height > 0, g);
  }
  const withFeed = buys.withColumns(pl.lit("ceo-trades").alias("feed"));
  assert.deepEqual(
    eventStudy(withFeed, { groupBy: "feed", samples: 50, horizons: ["1m"] }).getColumn("group")
      .toArray(),
    ["ceo-trades"],
  );
  const fn = eventStudy(buys, {
    groupBy: (r) => (r.transaction_value as number) > 500_000 ? "big" : "small",
    samples: 50,
    horizons: ["1m"],
  });
  assert.deepEqual(fn.getColumn("group").toArray().sort(), ["big", "small"]);
  assert.throws(
    () => eventStudy(buys, { horizons: ["2y" as "1y"] }),
    /horizon "2y" is not allowed; allowed: 1w, 1m, 3m, 6m, 1y/,
  );
  assert.throws(
    () => eventStudy(buys.drop("excess_returns_3m")),
    /lacks column "excess_returns_3m"/,
  );
  assert.throws(
    () => eventStudy(buys, { groupBy: "role", baseline: "Pope" }),
    /baseline "Pope" is not a group/,
  );
  assert.throws(() => eventStudy(buys.head(0)), /no trades/);
  assert.throws(
    () => eventStudy(buys, { cluster: "week" as "month" }),
    /cluster "week" is not allowed; allowed: two-way, month, issuer, none/,
  );
  assert.throws(() => eventStudy(buys, { minN: 0 }), /minN 0 is not allowed/);
  assert.throws(
    () => eventStudy(buys, { minClusters: 1 }),
    /minClusters 1 is not allowed; allowed: an integer >= 2/,
  );
  assert.throws(
    () => eventStudy(buys, { entry: "announcement" as "filing" }),
    /entry "announcement" is not allowed; allowed: trade, filing/,
  );
  assert.throws(
    () => eventStudy(buys.drop("transaction_date")),
    /lacks column "transaction_date", needed by cluster: "two-way" \(the default\); pass cluster: "none"/,
  );
  assert.throws(
    () => eventStudy(buys.drop("filing_delay_days"), { entry: "filing" }),
    /lacks column "filing_delay_days"/,
  );
  assert.ok(eventStudy(buys.drop("transaction_date"), { cluster: "none", samples: 20 }).height > 0);
  assert.throws(
    () => eventStudy(buys.drop("issuer_cik"), { cluster: "issuer" }),
    /lacks column "issuer_cik"/,
  );
});

Deno.test("the demo data carry signal: CEO buys beat other buys at 6 months", () => {
  const full = createStub({ seed: 1 });
  const all = transactionsFrame(
    full.insider.trades.filter((t) => t.row.code === "P").map((t) => t.row),
  );
  const s = eventStudy(all, {
    groupBy: (r) => r.is_ceo ? "CEO" : "others",
    baseline: "others",
    horizons: ["6m"],
    samples: 300,
  });
  const ceo = s.filter(pl.col("group").eq(pl.lit("CEO"))).toRecords()[0] as Record<string, number>;
  assert.ok(ceo.diff_ci_low > 0, JSON.stringify(ceo));
});

/** A hand-made trades frame: one row per [month, issuer, side, excess 1m] (A: a code-P buy, D: a code-S sale). */
function handFrame(rows: [string, string, "A" | "D", number][]): pl.DataFrame {
  return pl.DataFrame({
    transaction_date: rows.map((r) => `${r[0]}-15`),
    issuer_cik: rows.map((r) => r[1]),
    acquired_disposed_code: rows.map((r) => r[2]),
    code: rows.map((r) => (r[2] === "A" ? "P" : "S")),
    returns_1m: rows.map((r) => r[3] + 1),
    excess_returns_1m: rows.map((r) => r[3]),
    grp: rows.map((r) => (r[2] === "A" ? "buys" : "sales")),
  });
}

Deno.test("thin groups: flagged, still reported, with null t and intervals", () => {
  const rows: [string, string, "A" | "D", number][] = [];
  for (let i = 0; i < 30; i++) rows.push([`2024-0${1 + (i % 9)}`, `c${i}`, "A", (i % 7) - 2]);
  for (let i = 0; i < 4; i++) rows.push(["2024-02", `s${i}`, "D", -5 - i]);
  const s = eventStudy(handFrame(rows), {
    groupBy: "grp",
    horizons: ["1m"],
    baseline: "buys",
    samples: 200,
    minClusters: 5, // the buys span 9 months
  });
  const [buysRow, salesRow] = s.toRecords() as Record<string, unknown>[];
  assert.equal(buysRow.thin_reason, null);
  assert.equal(salesRow.thin_reason, "4 trades < minN 20");
  assert.equal(buysRow.group, "buys");
  assert.equal(buysRow.thin, false);
  assert.equal(typeof buysRow.t_stat, "number");
  assert.equal(typeof buysRow.ci_low, "number");
  assert.equal(salesRow.thin, true);
  assert.equal(salesRow.n, 4);
  for (const c of ["t_stat", "t_cluster", "ci_low", "ci_high", "diff_ci_low", "diff_ci_high"]) {
    assert.equal(salesRow[c], null, c);
  }
  assert.equal(typeof salesRow.diff_vs_baseline, "number");
  assert.ok(s.getColumn("thin").dtype.equals(pl.Bool));
  // every sale fell: a sale hits when its excess return is below 0 → 100 %
  assert.equal(salesRow.hit_rate, 100);
  // 4 sales in one month at 4 issuers: enough trades with minN 3, but 1 month
  const lowered = eventStudy(handFrame(rows), { groupBy: "grp", horizons: ["1m"], minN: 3 });
  const sales = lowered.filter(pl.col("group").eq(pl.lit("sales"))).toRecords()[0];
  assert.equal(sales.thin, true);
  assert.equal(sales.thin_reason, "1 months < minClusters 20");
  const none = eventStudy(handFrame(rows), {
    groupBy: "grp",
    horizons: ["1m"],
    minN: 3,
    minClusters: 3,
    cluster: "none",
  });
  assert.equal(
    none.filter(pl.col("group").eq(pl.lit("sales"))).getColumn("thin").getIndex(0),
    false,
  );
});

Deno.test("month clusters widen the interval when trades share a month's shock", () => {
  // 12 months × 10 trades; each month has a common shock, trades add small noise
  const rows: [string, string, "A" | "D", number][] = [];
  for (let m = 0; m < 12; m++) {
    const shock = ((m * 7) % 12) - 5.5;
    for (let i = 0; i < 10; i++) {
      rows.push([`2023-${String(m + 1).padStart(2, "0")}`, `i${i}`, "A", shock + (i % 3) * 0.1]);
    }
  }
  const width = (cluster: "month" | "issuer" | "none") => {
    const r = eventStudy(handFrame(rows), {
      horizons: ["1m"],
      cluster,
      samples: 500,
      minClusters: 5,
    }).toRecords()[0] as Record<string, number>;
    assert.equal(r.n, 120);
    return { w: r.ci_high - r.ci_low, k: r.n_clusters, t: r.t_cluster, tiid: r.t_stat };
  };
  const month = width("month");
  const none = width("none");
  const issuer = width("issuer");
  assert.equal(month.k, 12);
  assert.equal(none.k, 120);
  assert.equal(issuer.k, 10);
  assert.ok(month.w > 2 * none.w, JSON.stringify({ month, none }));
});

Deno.test("natural order: sizes ascending, roles fixed, horizons in time", () => {
  const s = eventStudy(buys, { groupBy: "size", horizons: ["6m", "1m", "3m"], samples: 50 });
  const groups = [...new Set(s.getColumn("group").toArray())];
  assert.deepEqual(groups, ["< $100k", "$100k–1m", "≥ $1m"].filter((g) => groups.includes(g)));
  assert.deepEqual(s.getColumn("horizon").toArray().slice(0, 3), ["1m", "3m", "6m"]);
  const r = eventStudy(buys, { groupBy: "role", horizons: ["1m"], samples: 50 });
  const order = ["CEO", "CFO", "Director", "10% owner", "Other officer", "Other"];
  const got = r.getColumn("group").toArray() as string[];
  assert.deepEqual(got, order.filter((g) => got.includes(g)));
  const custom = eventStudy(buys, {
    groupBy: "role",
    horizons: ["1m"],
    samples: 50,
    order: ["Director"],
  });
  assert.equal(custom.getColumn("group").get(0), "Director");
});

Deno.test("no baseline asked: no differences, baseline column null", () => {
  const s = eventStudy(buys, { groupBy: "role", horizons: ["1m"], samples: 50 });
  assert.ok(s.getColumn("baseline").toArray().every((v) => v === null));
  assert.ok(s.getColumn("diff_vs_baseline").toArray().every((v) => v === null));
});

Deno.test("clusterBootstrap: one cluster per observation is the i.i.d. bootstrap", () => {
  const obs = Array.from({ length: 50 }, (_, i) => ({ value: i, group: 0, cluster: `${i}` }));
  const { means, clusters } = clusterBootstrap(obs, 1, 400, 3);
  assert.equal(clusters[0], 50);
  const m = means[0].reduce((a, b) => a + b, 0) / 400;
  assert.ok(Math.abs(m - 24.5) < 1, String(m));
  const one = clusterBootstrap(obs.map((o) => ({ ...o, cluster: "x" })), 1, 50, 3);
  assert.ok(one.means[0].every((v) => v === 24.5), "one cluster: every replicate is the mean");
});

Deno.test("coverage: with month shocks, month-clustered intervals hold ~95%, i.i.d. ones do not", () => {
  // seeded simulation: true mean 0, a common shock per month (sd 3) plus noise (sd 8)
  const rng = new Rng(5);
  const R = 120;
  const cover = { month: 0, none: 0 };
  for (let rep = 0; rep < R; rep++) {
    const d: string[] = [];
    const x: number[] = [];
    for (let m = 0; m < 24; m++) {
      const shock = rng.normal() * 3;
      for (let i = 0; i < 20; i++) {
        d.push(`${2015 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}-10`);
        x.push(shock + rng.normal() * 8);
      }
    }
    const df = pl.DataFrame({ transaction_date: d, returns_1m: x, excess_returns_1m: x });
    for (const c of ["month", "none"] as const) {
      const r = eventStudy(df, { horizons: ["1m"], cluster: c, samples: 200, seed: rep })
        .toRecords()[0] as Record<string, number>;
      if (r.ci_low <= 0 && 0 <= r.ci_high) cover[c]++;
    }
  }
  assert.ok(cover.month / R >= 0.9, JSON.stringify(cover));
  assert.ok(cover.none / R < cover.month / R - 0.05, JSON.stringify(cover));
});

Deno.test('groupBy "cluster": the service\'s is_cluster_trade_30d flag, two or more insiders', () => {
  // the documented rule (docs/backtests.md): "cluster" when the trade is flagged
  // is_cluster_trade_30d, i.e. at least two different insiders of the issuer traded the same way
  // within 30 days (cluster_insider_count_30d ≥ 2); "no cluster" otherwise
  const count = Array.from({ length: 60 }, (_, i) => 1 + (i % 3)); // 1, 2, 3 insiders
  const df = pl.DataFrame({
    transaction_date: count.map((_, i) => `2021-${String((i % 12) + 1).padStart(2, "0")}-10`),
    code: count.map(() => "P"),
    issuer_cik: count.map((_, i) => String(100 + (i % 10))),
    cluster_insider_count_30d: count,
    is_cluster_trade_30d: count.map((c) => c >= 2),
    returns_1m: count.map((c, i) => c + (i % 5)),
    excess_returns_1m: count.map((c, i) => c + (i % 5) - 1),
  });
  const rows = eventStudy(df, { groupBy: "cluster", horizons: ["1m"], minN: 2, minClusters: 2 })
    .toRecords() as Record<string, unknown>[];
  const n = (g: string) => rows.find((r) => r.group === g)?.n;
  assert.deepEqual(rows.map((r) => r.group), ["no cluster", "cluster"]);
  assert.equal(n("cluster"), count.filter((c) => c >= 2).length); // 40: two insiders count
  assert.equal(n("no cluster"), count.filter((c) => c < 2).length);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const flagged = count.flatMap((c, i) => (c >= 2 ? [c + (i % 5) - 1] : []));
  assert.ok(Math.abs((rows[1].mean_excess as number) - mean(flagged)) < 1e-9);
});
