/**
 * Cross-engine check: `deno task demo` writes the trades dataset (hive
 * parquet) and the headline study's stats; DuckDB SQL recomputes n, mean,
 * median, t and the sign-aware hit rate of the study's groups from the
 * dataset, independently of signalbook's code, and they must match to 1e-9.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { demoRun } from "../_demo_run.ts";

Deno.test({
  name: "DuckDB SQL over the demo's parquet reproduces the headline study's n, mean, median, t",
  sanitizeResources: false,
  fn: async () => {
    const { out, code, stderr } = await demoRun(); // shared with tests/cli/cli_test.ts
    assert.equal(code, 0, stderr);
    const stats = pl.readParquet(join(out, "stats.parquet")).toRecords() as Record<
      string,
      unknown
    >[];
    const glob = `${join(out, "data", "insider_trades")}/**/*.parquet`;
    const groups: Record<string, string> = {
      "CEO buys": "code = 'P' and is_ceo",
      "All purchases": "code = 'P'",
      "10b5-1 sales": "code = 'S' and is_10b51",
    };
    const db = await DuckDBInstance.create(":memory:");
    const con = await db.connect();
    let checked = 0;
    for (const [group, where] of Object.entries(groups)) {
      for (const h of ["1m", "3m", "6m", "1y"]) {
        const x = `excess_returns_${h}`;
        const sql = `
          select count(${x})::DOUBLE as n,
                 avg(${x}) as mean,
                 median(${x}) as median,
                 avg(${x}) / (stddev_samp(${x}) / sqrt(count(${x}))) as t,
                 100.0 * count(*) filter (where (code = 'S' and ${x} < 0)
                   or (code = 'P' and ${x} > 0)) / count(${x}) as hit
          from read_parquet('${glob}', hive_partitioning = true)
          where not is_anomalous_transaction and ${where} and ${x} is not null`;
        const [want] = (await con.runAndReadAll(sql)).getRowObjects() as Record<string, number>[];
        const got = stats.find((r) => r.group === group && r.horizon === h)!;
        assert.ok(got, `${group} ${h} in stats.parquet`);
        assert.equal(got.n, want.n, `${group} ${h} n`);
        for (
          const [k, c] of [["mean", "mean_excess"], ["median", "median_excess"], ["t", "t_stat"], [
            "hit",
            "hit_rate",
          ]]
        ) {
          const d = Math.abs((got[c] as number) - want[k]);
          assert.ok(d < 1e-9, `${group} ${h} ${c}: ${got[c]} vs DuckDB ${want[k]} (|Δ| ${d})`);
        }
        checked++;
      }
    }
    assert.equal(checked, 12);
    con.closeSync();
  },
});
