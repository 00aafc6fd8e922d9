/**
 * Child of the query benchmark: runs one aggregate ("by-code", "distinct"
 * or, with DuckDB only, "monthly") over a dataset (the scale-100 one) with `query()` (DuckDB) or with
 * Polars lazy (`scanInsiderTrades`) three times, and prints the times and this process's peak RSS as JSON.
 *
 * @module
 */
import pl from "nodejs-polars";
import { query, scanInsiderTrades } from "../mod.ts";
import { peakMb } from "./_peak.ts";

/** The aggregate, in SQL. */
export const AGG_SQL = `select year, code, count(*) as n, sum(transaction_value) as value,
  avg(win_rate_1y_wins) as mean_wins, count(distinct issuer_cik) as issuers
  from insider_trades group by year, code order by year, code`;

/** A heavier one: distinct filings (2.5M distinct accession numbers) per month. */
export const DISTINCT_SQL = `select year, month, count(distinct accession_number) as n
  from insider_trades group by year, month order by year, month`;

/** The monthly aggregate of the synced 10× world (`sync_bench.ts`): trades and value per month. */
export const MONTHLY_SQL = `select year, month, count(*) as n, sum(transaction_value) as value
  from insider_trades group by year, month order by year, month`;

/** The distinct-filings aggregate through Polars lazy. */
export async function polarsDistinct(dir: string): Promise<pl.DataFrame> {
  return (await scanInsiderTrades(dir)).groupBy(["year", "month"]).agg(
    pl.col("accession_number").nUnique().alias("n"),
  ).sort(["year", "month"]).collectSync();
}

/** The same aggregate through Polars lazy. */
export async function polarsAggregate(dir: string): Promise<pl.DataFrame> {
  return (await scanInsiderTrades(dir)).groupBy(["year", "code"]).agg(
    pl.len().alias("n"),
    pl.col("transaction_value").sum().alias("value"),
    pl.col("win_rate_1y_wins").mean().alias("mean_wins"),
    pl.col("issuer_cik").nUnique().alias("issuers"),
  ).sort(["year", "code"]).collectSync();
}

if (import.meta.main) {
  const [engine, dir, which = "by-code"] = Deno.args;
  const distinct = which === "distinct";
  if (which === "monthly" && engine !== "duckdb") throw new Error("monthly: duckdb only");
  const seconds: number[] = [];
  let df: pl.DataFrame | undefined;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    df = engine === "duckdb"
      ? await query(which === "monthly" ? MONTHLY_SQL : distinct ? DISTINCT_SQL : AGG_SQL, { dir })
      : distinct
      ? await polarsDistinct(dir)
      : await polarsAggregate(dir);
    seconds.push((performance.now() - t0) / 1000);
    await new Promise((r) => setTimeout(r, 0));
  }
  const hwm = peakMb();
  const n = df!.getColumn("n").toArray().reduce((a: number, b) => a + Number(b), 0);
  console.log(JSON.stringify({ seconds, rssMb: hwm, groups: df!.height, rows: n }));
}
