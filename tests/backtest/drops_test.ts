/**
 * Nothing dropped unsaid (issue 32): trades with non-finite values are
 * counted per row (`n_nonfinite`) and every figure of a row uses one set of
 * trades; trades without a cluster key are counted (`n_missing_cluster`)
 * with a notice, and `cluster` names the clustering really used.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { captureStderr } from "./_capture.ts";
import { createStub, eventStudy, portfolioBacktest, transactionsFrame } from "../../mod.ts";

/** 40 trades over 20 months and 20 issuers, with 1m values. */
function frame(ret: (number | null)[], ex: (number | null)[], cik?: (string | null)[]) {
  return pl.DataFrame([
    pl.Series(
      "transaction_date",
      ret.map((_, i) =>
        `${2021 + Math.floor((i % 20) / 12)}-${String((i % 12) + 1).padStart(2, "0")}-05`
      ),
    ),
    pl.Series("issuer_cik", cik ?? ret.map((_, i) => `c${i % 20}`), pl.Utf8),
    pl.Series("code", ret.map(() => "P")),
    pl.Series("returns_1m", ret, pl.Float64),
    pl.Series("excess_returns_1m", ex, pl.Float64),
  ]);
}

const base = Array.from({ length: 40 }, (_, i) => (i % 7) - 2.5);

Deno.test("non-finite values: counted per row, and mean_return and mean_excess use one set", () => {
  const ret = base.map((x) => x + 1) as (number | null)[];
  const ex = [...base] as (number | null)[];
  ex[3] = NaN; // excess NaN: the trade's return must leave too
  ret[5] = Infinity; // return infinite: the trade's excess must leave too
  ret[7] = null; // excess without its return
  ex[9] = null; // not realized: young, not counted
  ret[9] = null;
  const r = eventStudy(frame(ret, ex), { horizons: ["1m"], minClusters: 2 }).toRecords()[0];
  assert.equal(r.n, 36);
  assert.equal(r.n_nonfinite, 3);
  const keep = [...Array(40).keys()].filter((i) => ![3, 5, 7, 9].includes(i));
  const m = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(Math.abs((r.mean_excess as number) - m(keep.map((i) => base[i]))) < 1e-12);
  // one set: mean_return − mean_excess is the mean of (return − excess) over the same trades = 1
  assert.ok(Math.abs((r.mean_return as number) - (r.mean_excess as number) - 1) < 1e-12);
  const clean =
    eventStudy(frame(base.map((x) => x + 1), base), { horizons: ["1m"], minClusters: 2 })
      .toRecords()[0];
  assert.equal(clean.n_nonfinite, 0);
  assert.equal(clean.n_missing_cluster, 0);
});

Deno.test("missing cluster keys: counted with a notice; a dimension missing everywhere is named", () => {
  const ret = base.map((x) => x + 1);
  const cik: (string | null)[] = base.map((_, i) => `c${i % 20}`);
  cik[0] = null;
  cik[1] = null;
  const { value: some, said } = captureStderr(() =>
    eventStudy(frame(ret, base, cik), { horizons: ["1m"], minClusters: 2 }).toRecords()[0]
  );
  assert.equal(some.n_missing_cluster, 2);
  assert.equal(some.cluster, "two-way");
  assert.ok(said.some((m) => /2 trade-horizon rows lack a cluster key/.test(m)), said.join("\n"));
  // every issuer missing: two-way is month clustering, and the row says so
  const { value: none } = captureStderr(() =>
    eventStudy(frame(ret, base, base.map(() => null)), { horizons: ["1m"], minClusters: 2 })
      .toRecords()[0]
  );
  assert.equal(none.cluster, "month");
  assert.equal(none.n_missing_cluster, 40);
  // …with the interval of month clustering: the same as every trade at an issuer of its own
  const unique = eventStudy(frame(ret, base, base.map((_, i) => `u${i}`)), {
    horizons: ["1m"],
    minClusters: 2,
  }).toRecords()[0];
  assert.ok(Math.abs((none.ci_low as number) - (unique.ci_low as number)) < 1e-12);
  assert.equal(unique.n_missing_cluster, 0);
  // issuer clustering with no issuer at all is no clustering
  const { value: iss } = captureStderr(() =>
    eventStudy(frame(ret, base, base.map(() => null)), {
      horizons: ["1m"],
      minClusters: 2,
      cluster: "issuer",
      samples: 100,
    }).toRecords()[0]
  );
  assert.equal(iss.cluster, "none");
});

Deno.test("ungrouped trades: a null group key is left out with a count", () => {
  const { value: s, said } = captureStderr(() =>
    eventStudy(frame(base.map((x) => x + 1), base), {
      groupBy: (r) => (r.issuer_cik === "c0" ? null : "rest"),
      horizons: ["1m"],
      minClusters: 2,
    })
  );
  assert.equal(s.toRecords()[0].n, 38);
  assert.ok(said.some((m) => /2 of 40 trades have no group \(their group key is null\)/.test(m)));
});

Deno.test("a realized trade missing either value is counted, whichever it lacks", () => {
  const ret = base.map((x) => x + 1) as (number | null)[];
  const ex = [...base] as (number | null)[];
  ex[2] = null; // a return without its excess: realized, counted (was left out as young)
  ret[4] = null; // an excess without its return: counted
  ret[6] = null; // nothing at all: young, not counted
  ex[6] = null;
  const r = eventStudy(frame(ret, ex), { horizons: ["1m"], minClusters: 2 }).toRecords()[0];
  assert.equal(r.n, 37);
  assert.equal(r.n_nonfinite, 2);
  // with benchmark "none" only the return is needed: the excess-less trade counts in n
  const raw = eventStudy(frame(ret, ex), { horizons: ["1m"], minClusters: 2, benchmark: "none" })
    .toRecords()[0];
  assert.equal(raw.n, 38);
  assert.equal(raw.n_nonfinite, 1);
});

Deno.test("a NaN through transactionsFrame (a null there) is counted when a later window shows the trade realized", () => {
  const stub = createStub({ seed: 3, scale: 0.05 });
  const rows = stub.insider.trades.map((t) => t.row)
    .filter((r) => r.code === "P" && r.returns_3m !== null).slice(0, 30);
  const bad = rows.map((r, i) => (i < 3 ? { ...r, returns_1m: NaN, excess_returns_1m: NaN } : r));
  const f = transactionsFrame(bad);
  assert.equal(f.getColumn("returns_1m").nullCount(), 3, "the typed frame holds the NaN as null");
  const r = eventStudy(f, { horizons: ["1m"], minClusters: 2, minN: 2 }).toRecords()[0];
  assert.equal(r.n, 27);
  assert.equal(r.n_nonfinite, 3);
  // filing entry: the same trades are counted too
  const g = eventStudy(f, { horizons: ["1m"], minClusters: 2, minN: 2, entry: "filing" })
    .toRecords()[0];
  assert.ok((g.n_nonfinite as number) >= 3, `filing n_nonfinite ${g.n_nonfinite}`);
});

Deno.test("portfolio: a realized trade missing a value is counted in missingValueTrades, a young one is not", () => {
  const ret = base.map((x) => x + 1) as (number | null)[];
  const ex = [...base] as (number | null)[];
  ex[2] = null; // a return without its excess
  ret[4] = null; // an excess without its return
  ret[6] = NaN; // NaN: a value, not finite
  ret[8] = null; // young: nothing at the horizon
  ex[8] = null;
  const { stats } = portfolioBacktest(frame(ret, ex), { horizon: "1m" });
  assert.equal(stats.trades, 36);
  assert.equal(stats.droppedTrades, 4);
  assert.equal(stats.missingValueTrades, 3);
});
