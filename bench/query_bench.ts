/**
 * Query benchmark (issue 12): one aggregate (count, sum, mean and distinct
 * count by year and transaction code) over the `--scale 100` dataset (about
 * 2.5M trades, see `query_data.ts`), through `query()` (in-process DuckDB,
 * result to Polars through parquet) and through Polars lazy
 * (`scanInsiderTrades`), each in its own process: median of three runs and
 * the process's peak RSS. The first run pays opening the files.
 *
 * @module
 */
import { scale100Dataset } from "./query_data.ts";
import { table } from "./loopback.ts";

async function child(
  engine: "duckdb" | "polars",
  dir: string,
): Promise<{ seconds: number[]; rssMb: number; groups: number; rows: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./query_child.ts", import.meta.url).pathname, engine, dir],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`query bench child (${engine}) failed`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

/** Runs the query benchmark and returns the printed table. */
export async function queryBench(): Promise<string> {
  const { dir, rows } = await scale100Dataset();
  const duck = await child("duckdb", dir);
  const polars = await child("polars", dir);
  if (duck.rows !== rows || polars.rows !== rows || duck.groups !== polars.groups) {
    throw new Error(
      `query bench: the engines disagree (${duck.rows}/${polars.rows} rows of ${rows})`,
    );
  }
  const median = (s: number[]) => [...s].sort((a, b) => a - b)[Math.floor(s.length / 2)];
  const base = median(polars.seconds);
  return table(
    `aggregate by year × code over ${rows.toLocaleString("en-US")} trades (scale 100), ` +
      "each engine in its own process",
    ["path", "first run s", "median of 3 s", "× Polars lazy", "peak RSS MB"],
    [
      [
        "query() (DuckDB → parquet → Polars)",
        duck.seconds[0],
        median(duck.seconds),
        median(duck.seconds) / base,
        duck.rssMb,
      ],
      ["Polars lazy (scanInsiderTrades)", polars.seconds[0], base, 1, polars.rssMb],
    ],
  );
}

if (import.meta.main) console.log(await queryBench());
