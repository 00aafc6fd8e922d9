/** report.md states the truth next to each estimate when the data come from the emulator. */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { truthSection, writeReport } from "../../lib/backtest/report.ts";
import { eventStudy } from "../../lib/backtest/event_study.ts";
import { transactionsFrame } from "../../lib/insider/transaction_frames.ts";
import { createStub } from "../../lib/stub/mod.ts";

const stats = pl.DataFrame({
  group: ["CEO buys", "All purchases"],
  horizon: ["6m", "6m"],
  mean_excess: [5.1, 2.0],
  ci_low: [2.0, 1.0],
  ci_high: [8.2, 3.0],
  baseline: ["All purchases", "All purchases"],
  diff_vs_baseline: [3.1, 0],
  diff_ci_low: [0.5, 0],
  diff_ci_high: [5.5, 0],
});
const truth = {
  source: "the offline emulator (seed 1)",
  rows: [
    { group: "CEO buys", horizon: "6m", expected_excess: 5.59 },
    { group: "All purchases", horizon: "6m", expected_excess: 3.4 },
  ],
};

Deno.test("truthSection: each estimate and difference next to the truth, with coverage", () => {
  const md = truthSection(stats, truth);
  assert.ok(md.includes("the offline emulator (seed 1)"));
  assert.ok(md.includes("| CEO buys | 6m | 5.10 | 2 to 8.20 | 5.59 | yes |"), md);
  // 3.4 is outside [1, 3]
  assert.ok(md.includes("| All purchases | 6m | 2 | 1 to 3 | 3.40 | no |"), md);
  // the difference's truth is 5.59 − 3.4 = 2.19, inside [0.5, 5.5]
  assert.ok(
    md.includes("| CEO buys − All purchases | 6m | 3.10 | 0.50 to 5.50 | 2.19 | yes |"),
    md,
  );
  assert.ok(md.includes("2 of 3 intervals cover the truth"), md);
});

Deno.test("writeReport puts the truth section in report.md only when given", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeReport(dir, stats, {}, { title: "t", truth });
    const withTruth = await Deno.readTextFile(`${dir}/report.md`);
    assert.ok(withTruth.includes("## Estimate vs the truth"));
    assert.ok(withTruth.indexOf("## Conclusion") < withTruth.indexOf("## Estimate vs the truth"));
    await writeReport(dir, stats, {}, { title: "t" });
    assert.ok(!(await Deno.readTextFile(`${dir}/report.md`)).includes("the truth"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("truthSection over a real study: the truth comes from stub.truth for the same trades", () => {
  const stub = createStub({ seed: 4, scale: 0.2 });
  const rows = stub.insider.trades.map((t) => t.row).filter((r) =>
    r.code === "P" && r.is_anomalous_transaction === false
  );
  const frame = transactionsFrame(rows).withColumns(
    pl.when(pl.col("is_ceo")).then(pl.lit("CEO")).otherwise(pl.lit("Other")).alias("who"),
  );
  const study = eventStudy(frame, { groupBy: "who", horizons: ["3m"], baseline: "Other" });
  const t = ["CEO", "Other"].map((group) => ({
    group,
    horizon: "3m",
    expected_excess: stub.truth.mean(
      rows.filter((r) => (r.is_ceo ? "CEO" : "Other") === group),
      "3m",
    )!,
  }));
  const md = truthSection(study, { source: "the emulator (seed 4)", rows: t });
  assert.ok(t[0].expected_excess > t[1].expected_excess, "CEOs carry more built-in skill");
  assert.match(md, /\| CEO − Other \| 3m \|/);
  assert.match(md, /\d of 3 intervals cover the truth/);
});
