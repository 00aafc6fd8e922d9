import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { eventStudy, transactionsFrame } from "../../mod.ts";
import { createStub } from "../../lib/stub/mod.ts";

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
    assert.ok(
      r.ci_low <= r.mean_excess + 1e-9 && r.mean_excess <= r.ci_high + 1e-9,
      "the interval brackets the mean",
    );
    assert.ok(r.hit_rate >= 0 && r.hit_rate <= 1);
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
  assert.ok(Math.abs(s.hit_rate - xs.filter((x) => x > 0).length / xs.length) < 1e-12);
});

Deno.test("the bootstrap is seeded: same seed same intervals, other seed different", () => {
  const a = eventStudy(buys, { groupBy: "cluster", samples: 200, seed: 1 });
  const b = eventStudy(buys, { groupBy: "cluster", samples: 200, seed: 1 });
  const c = eventStudy(buys, { groupBy: "cluster", samples: 200, seed: 2 });
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
  for (const g of ["role", "size", "winRate", "cluster", "10b5-1", "side"] as const) {
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
