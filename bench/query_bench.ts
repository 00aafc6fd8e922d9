/**
 * Query benchmark (issue 12): two aggregates (count, sum, mean and
 * distinct issuers by year and transaction code; distinct filings by month)
 * over the `--scale 100` dataset (about
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
  which: "by-code" | "distinct",
): Promise<{ seconds: number[]; rssMb: number; groups: number; rows: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./query_child.ts", import.meta.url).pathname, engine, dir, which],
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
  const median = (s: number[]) => [...s].sort((a, b) => a - b)[Math.floor(s.length / 2)];
  const lines: (string | number)[][] = [];
  for (
    const [which, title] of [
      ["by-code", "count, sum, mean, distinct issuers by year × code"],
      ["distinct", "distinct filings (accession numbers) by month"],
    ] as const
  ) {
    const duck = await child("duckdb", dir, which);
    const polars = await child("polars", dir, which);
    if (duck.groups !== polars.groups || (which === "by-code" && duck.rows !== rows)) {
      throw new Error(`query bench: the engines disagree on ${which}`);
    }
    if (duck.rows !== polars.rows) throw new Error(`query bench: ${which} results differ`);
    const base = median(polars.seconds);
    lines.push(
      [
        `${title}: query() (DuckDB → parquet → Polars)`,
        duck.seconds[0],
        median(duck.seconds),
        median(duck.seconds) / base,
        duck.rssMb,
      ],
      [`${title}: Polars lazy (scanInsiderTrades)`, polars.seconds[0], base, 1, polars.rssMb],
    );
  }
  return table(
    `aggregates over ${
      rows.toLocaleString("en-US")
    } trades (scale 100), each run in its own process`,
    ["path", "first run s", "median of 3 s", "× Polars lazy", "peak RSS MiB"],
    lines,
  );
}

if (import.meta.main) console.log(await queryBench());
