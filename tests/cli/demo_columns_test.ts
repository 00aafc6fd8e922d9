import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import { demoRun } from "../_demo_run.ts";
import { DEMO_COLUMNS, demoTrades } from "../../lib/cli/demo.ts";
import { scanInsiderTrades } from "../../lib/store/sync.ts";
import { headlinePortfolios, headlineStudy } from "../../lib/backtest/headline.ts";
import { forwardReturnsChart } from "../../lib/charts/returns.ts";
import { standaloneSvg } from "../../lib/charts/chart.ts";

const records = (df: pl.DataFrame) => JSON.stringify(df.toRecords());

const portfolios = (trades: pl.DataFrame, entry?: "filing") =>
  JSON.stringify(
    Object.entries(headlinePortfolios(trades, { horizon: "6m", costBps: 10, entry })).map((
      [name, p],
    ) => [name, p.monthly.toRecords(), p.stats]),
  );

const market = (trades: pl.DataFrame) =>
  trades.filter(
    pl.col("code").eq(pl.lit("P")).or(pl.col("code").eq(pl.lit("S"))).and(
      pl.col("is_anomalous_transaction").eq(pl.lit(false)),
    ),
  );

Deno.test({
  name: "the demo reads only the columns its steps use, with the same results as from all 174",
  sanitizeResources: false,
  fn: async () => {
    const r = await demoRun(); // one run, shared with tests/cli/cli_test.ts
    assert.equal(r.code, 0, r.stderr);
    const dir = join(r.out, "data");
    const part = await demoTrades(dir);
    assert.deepEqual(part.columns, [...DEMO_COLUMNS]);
    assert.equal(DEMO_COLUMNS.length, 29);
    const full = (await scanInsiderTrades(dir)).collectSync();
    assert.ok(full.width >= 174, `all columns: ${full.width}`);
    assert.equal(part.height, full.height);

    assert.equal(records(headlineStudy(part)), records(headlineStudy(full)), "study, trade date");
    const filing = { entry: "filing" } as const;
    assert.equal(
      records(headlineStudy(part, undefined, filing)),
      records(headlineStudy(full, undefined, filing)),
      "study, filing date",
    );
    assert.equal(portfolios(part), portfolios(full), "portfolios, trade date");
    assert.equal(portfolios(part, "filing"), portfolios(full, "filing"), "portfolios, filing date");
    const chart = (t: pl.DataFrame) =>
      standaloneSvg(forwardReturnsChart(market(t), { title: "x" }));
    assert.equal(chart(part), chart(full), "forward-returns chart");
  },
});
