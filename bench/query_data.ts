/**
 * The `--scale 100` dataset of the query benchmark (about 2.5M trades),
 * generated once and kept under `.cache/bench/query-scale-100/` (or
 * `$SIGNALBOOK_BENCH_DATA/query-scale-100/`), in the layout `sync` writes.
 *
 * How it is made: the emulator's world holds every row in memory, so a
 * scale-100 world (2.5M rows of 190 columns) does not fit. The generator
 * builds the scale-4 world (about 99,000 trades) and writes each month 25
 * times, each copy with its own accession numbers (`…-r07`) and values
 * scaled by 1 + copy/1000, month by month
 * through `writeDataset` — 25 × 4 = scale 100.
 *
 * Run as a script (`deno run -A bench/query_data.ts DIR`) it generates into
 * DIR; `scale100Dataset()` does that in a child process unless the data are
 * already there.
 *
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { transactionsFrame, withYearMonth, writeDataset } from "../mod.ts";
import { createStub } from "../lib/stub/mod.ts";

const WORLD_SCALE = 4;
const COPIES = 25;

/** The folder of the scale-100 dataset, generating it first when needed. */
export async function scale100Dataset(): Promise<{ dir: string; rows: number }> {
  const base = Deno.env.get("SIGNALBOOK_BENCH_DATA") ??
    new URL("../.cache/bench", import.meta.url).pathname;
  const dir = join(base, "query-scale-100");
  const done = join(dir, "complete.json");
  try {
    return { dir, rows: JSON.parse(await Deno.readTextFile(done)).rows };
  } catch {
    // not generated yet
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  console.error(`generating the scale-100 dataset under ${dir} (once)…`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, dir],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("generating the scale-100 dataset failed");
  return { dir, rows: JSON.parse(await Deno.readTextFile(done)).rows };
}

async function generate(dir: string): Promise<void> {
  const t0 = performance.now();
  const stub = createStub({ seed: 1, scale: WORLD_SCALE });
  const all = withYearMonth(transactionsFrame(stub.insider.trades.map((t) => t.row)), "filed_at");
  const months = all.select("year", "month").unique().sort(["year", "month"]).rows();
  let rows = 0;
  for (const [year, month] of months) {
    const one = all.filter(pl.col("year").eq(pl.lit(year)).and(pl.col("month").eq(pl.lit(month))));
    const copies = Array.from({ length: COPIES }, (_, r) =>
      one.withColumns(
        pl.concatString([pl.col("accession_number"), pl.lit(`-r${String(r).padStart(2, "0")}`)], "")
          .alias("accession_number"),
        // copies differ in value too, so the files do not compress to one copy
        pl.col("transaction_value").mul(pl.lit(1 + r / 1000)).alias("transaction_value"),
      ));
    const df = pl.concat(copies, { how: "vertical" });
    await writeDataset(df, join(dir, "insider_trades"), { partitionBy: ["year", "month"] });
    rows += df.height;
    await new Promise((r) => setTimeout(r, 0));
  }
  await Deno.writeTextFile(join(dir, "complete.json"), JSON.stringify({ rows }) + "\n");
  console.error(
    `generated ${rows.toLocaleString("en-US")} trades in ${
      ((performance.now() - t0) / 1000).toFixed(0)
    } s`,
  );
}

if (import.meta.main) await generate(Deno.args[0]);
