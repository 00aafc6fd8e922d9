/**
 * The event study's joint (Bonferroni) intervals, its thin rule at exactly
 * `minN` and at exactly `minClusters`, the one option check (`choice`) and the entry comparison
 * of the same trades at both entries.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  conclusion,
  entryComparison,
  eventStudy,
  show,
  statsTable,
  writeReport,
} from "../../mod.ts";
import { entryPairs } from "../../lib/backtest/event_study.ts";
import { t975, tQuantile } from "../../lib/backtest/_quantiles.ts";
import { Rng } from "../../lib/shared/random.ts";
import { choice } from "../../lib/shared/options.ts";

/** `n` purchases over `months` calendar months of 2021–2024 and `issuers` issuers, two groups. */
function trades(n: number, months: number, issuers = n, seed = 3) {
  const rng = new Rng(seed);
  const day = (i: number) => {
    const m = Math.floor(i / 2) % months;
    return `${2021 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}-10`;
  };
  const x = Array.from({ length: n }, (_, i) => (i % 2 ? 1 : 0) + 4 * (rng.next() - 0.5));
  const week = Array.from({ length: n }, () => 2 * (rng.next() - 0.5));
  return pl.DataFrame({
    group: Array.from({ length: n }, (_, i) => (i % 2 ? "odd" : "even")),
    code: Array(n).fill("P"),
    transaction_date: Array.from({ length: n }, (_, i) => day(i)),
    issuer_cik: Array.from({ length: n }, (_, i) => String(1000 + (i % issuers))),
    returns_1w: week.map((w) => w + 0.2),
    excess_returns_1w: week,
    returns_1m: x.map((v) => v + 0.5),
    excess_returns_1m: x,
    returns_3m: x.map((v) => 2 * v + 0.5),
    excess_returns_3m: x.map((v) => 2 * v),
    filing_delay_days: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? 100 : 2 + (i % 3))),
  });
}

type Row = Record<string, number | null>;

Deno.test("thin rule: a group with exactly minClusters clusters is not thin; one fewer is", () => {
  // two-way: the cluster count is the smaller of months and issuers (here the months)
  const at = (months: number) =>
    eventStudy(trades(60, months), { horizons: ["1m"], minN: 2, minClusters: 20 })
      .toRecords()[0] as Record<string, unknown>;
  const exact = at(20);
  assert.equal(exact.n_clusters, 20);
  assert.equal(exact.thin, false);
  assert.equal(typeof exact.ci_low, "number");
  const fewer = at(19);
  assert.equal(fewer.n_clusters, 19);
  assert.equal(fewer.thin, true);
  assert.equal(fewer.thin_reason, "19 months < minClusters 20");
  // the bootstrap reads the same rule
  const boot = eventStudy(trades(60, 20), {
    horizons: ["1m"],
    minN: 2,
    minClusters: 20,
    cluster: "month",
    samples: 50,
  }).toRecords()[0] as Record<string, unknown>;
  assert.equal(boot.n_clusters, 20);
  assert.equal(boot.thin, false);
});

Deno.test("thin rule: a group with exactly minN trades is not thin; one fewer trade than minN is", () => {
  const first = (minN: number) =>
    eventStudy(trades(60, 24), { horizons: ["1m"], minN, minClusters: 2 })
      .toRecords()[0] as Record<string, unknown>;
  const exact = first(60);
  assert.equal(exact.n, 60);
  assert.equal(exact.thin, false);
  assert.equal(typeof exact.ci_low, "number");
  const short = first(61);
  assert.equal(short.n, 60);
  assert.equal(short.thin, true);
  assert.equal(short.thin_reason, "60 trades < minN 61");
});

Deno.test("adjust bonferroni: joint intervals over every interval of the study, family size given", () => {
  const df = trades(240, 36);
  const opts = { groupBy: "group", horizons: ["1m", "3m"] as const, baseline: "even" };
  const plain = eventStudy(df, opts);
  assert.ok(!plain.columns.includes("ci_low_adj"), "adjust none (default): no joint columns");
  const adj = eventStudy(df, { ...opts, adjust: "bonferroni" });
  const rows = adj.toRecords() as Row[];
  // 2 groups × 2 horizons of means, and the odd group's difference at 2 horizons
  const family = rows.filter((r) => r.ci_low !== null).length +
    rows.filter((r) => r.diff_ci_low !== null).length;
  assert.equal(family, 6);
  for (const r of rows) {
    assert.equal(r.n_comparisons, 6);
    // two-way: the t quantile at 1 − 0.025/6 on the same standard error and degrees of freedom
    const df = (r.n_clusters as number) - 1;
    const half = ((r.ci_high as number) - (r.ci_low as number)) / 2;
    const se = half / t975(df);
    const q = tQuantile(1 - 0.025 / 6, df);
    assert.ok(Math.abs((r.ci_low_adj as number) - ((r.mean_excess as number) - q * se)) < 1e-9);
    assert.ok(Math.abs((r.ci_high_adj as number) - ((r.mean_excess as number) + q * se)) < 1e-9);
    assert.ok((r.ci_high_adj as number) - (r.ci_low_adj as number) > 2 * half);
    if (r.diff_ci_low !== null) {
      assert.ok((r.diff_ci_low_adj as number) < (r.diff_ci_low as number));
      assert.ok((r.diff_ci_high_adj as number) > (r.diff_ci_high as number));
    } else assert.equal(r.diff_ci_low_adj, null);
  }
  // the unadjusted columns are the same as without adjust
  assert.deepEqual(adj.getColumn("ci_low").toArray(), plain.getColumn("ci_low").toArray());
  // one interval alone: the family is 1 and the joint interval is the interval
  const one = eventStudy(df, { horizons: ["1m"], adjust: "bonferroni" }).toRecords()[0] as Row;
  assert.equal(one.n_comparisons, 1);
  assert.ok(Math.abs((one.ci_low_adj as number) - (one.ci_low as number)) < 1e-12);
  assert.throws(
    () => eventStudy(df, { adjust: "bonferonni" as "bonferroni" }),
    /eventStudy: adjust "bonferonni" is not allowed; allowed: none, bonferroni \(did you mean "bonferroni"\?\)/,
  );
});

Deno.test("statsTable of an adjusted study shows the joint intervals and the family size", async () => {
  const opts = { groupBy: "group", horizons: ["1m", "3m"] as const, baseline: "even" };
  const adj = eventStudy(trades(240, 36), { ...opts, adjust: "bonferroni" });
  const odd3m = adj.toRecords().find((r) => r.group === "odd" && r.horizon === "3m") as Row;
  const ci = `[${(odd3m.ci_low_adj as number).toFixed(2)}, ${
    (odd3m.ci_high_adj as number).toFixed(2)
  }]`;
  const dci = `[${(odd3m.diff_ci_low_adj as number).toFixed(2)}, ${
    (odd3m.diff_ci_high_adj as number).toFixed(2)
  }]`;
  const table = statsTable(adj);
  const html = table.toHtml();
  // text, HTML and the notebook display (show() of the table: its HTML and text bundle)
  for (const out of [String(table), html, show(table).toString()]) {
    assert.ok(out.includes(ci) && out.includes(dci), out);
    assert.match(out, /joint 95% CI of mean/);
    assert.match(out, /family size 6/);
  }
  // and report.md's table
  const dir = await Deno.makeTempDir();
  const md = await Deno.readTextFile((await writeReport(dir, adj, {}, { title: "T" })).report);
  assert.ok(md.includes(ci) && md.includes("family size 6"), md);
  await Deno.remove(dir, { recursive: true });
  // not adjusted: no joint column, no family size
  const plain = String(statsTable(eventStudy(trades(240, 36), opts)));
  assert.doesNotMatch(plain, /joint|family size/);
});

Deno.test("conclusion: counts its comparisons and says whether each holds after adjustment", () => {
  const df = trades(240, 36);
  const opts = { groupBy: "group", horizons: ["1m", "3m"] as const, baseline: "even" };
  const plain = conclusion(eventStudy(df, opts));
  assert.match(plain, /This paragraph makes 1 comparison; the study reports 6 intervals/);
  assert.match(plain, /adjust: "bonferroni"/);
  const adj = conclusion(eventStudy(df, { ...opts, adjust: "bonferroni" }));
  assert.match(adj, /after a Bonferroni adjustment over the study's 6 intervals/);
  assert.match(adj, /(still excludes 0|no longer excludes 0|includes 0 too)/);
});

Deno.test("entryComparison: the same trades at both entries, with the interval of the difference", () => {
  const df = trades(240, 36);
  const study = eventStudy(df, { groupBy: "group", horizons: ["1m", "3m"] });
  const { diff, trade } = entryPairs(study);
  const d = diff as Row[];
  // trades filed after the horizon's end (every 7th: 100 days) have no filing-entry value: left out
  const filedLate = (g: string) =>
    (df.toRecords() as Record<string, unknown>[]).filter((r, i) => r.group === g && i % 7 === 0)
      .length;
  const one = d.find((r) => (r.group as unknown) === "odd" && (r.horizon as unknown) === "1m")!;
  assert.equal(one.n, 120 - filedLate("odd"));
  // by hand: each paired trade's filing-date excess minus its trade-date excess
  const study1m = eventStudy(df.filter(pl.col("group").eq(pl.lit("odd"))), {
    horizons: ["1m"],
    entry: "filing",
  }).toRecords()[0] as Row;
  const tradeSide = trade.find((r) => r.group === "odd" && r.horizon === "1m") as Row;
  assert.equal(tradeSide.n, one.n);
  assert.ok(
    Math.abs(
      (study1m.mean_excess as number) - (tradeSide.mean_excess as number) -
        (one.mean_excess as number),
    ) <
      1e-9,
  );
  // the interval is the difference's (much narrower than either mean's here)
  assert.ok(
    (one.ci_high as number) - (one.ci_low as number) <
      (study1m.ci_high as number) - (study1m.ci_low as number),
  );
  assert.ok(
    (one.ci_low as number) <= (one.mean_excess as number) &&
      (one.mean_excess as number) <= (one.ci_high as number),
  );
  // the table: n paired, both means, the difference and its interval
  const table = entryComparison(study);
  assert.deepEqual(table.head.slice(2), [
    "n paired",
    "mean excess, trade date",
    "mean excess, filing date",
    "filing − trade (pp)",
    "95% CI of filing − trade",
  ]);
  const frame = table.frame.toRecords() as Row[];
  const f = frame.find((r) => (r.group as unknown) === "odd" && (r.horizon as unknown) === "1m")!;
  assert.equal(f.n_paired, one.n);
  assert.equal(f.diff, one.mean_excess);
  assert.equal(f.diff_low, one.ci_low);
  assert.equal(f.diff_high, one.ci_high);
  assert.throws(
    () => entryComparison(study.filter(pl.col("horizon").eq(pl.lit("1m")))),
    /entryComparison: give the frame eventStudy .* returned/,
  );
});

Deno.test("choice: the default when not given, the value when allowed, else an error with close matches", () => {
  assert.equal(choice("f", "x", undefined, ["a", "b"], "a"), "a");
  assert.equal(choice("f", "x", "b", ["a", "b"], "a"), "b");
  assert.throws(
    () => choice("f", "entry", "filng", ["trade", "filing"], "trade"),
    {
      name: "RangeError",
      message: 'f: entry "filng" is not allowed; allowed: trade, filing (did you mean "filing"?)',
    },
  );
});
