import { offline } from "../_util.ts";
import { DEMO_LABEL, isDemo } from "../../lib/shared/demo.ts";
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  dtypeName,
  partFiles,
  scanDataset,
  transactionsFrame,
  withYearMonth,
  writeCsv,
  writeDataset,
  writeNdjson,
  writeParquet,
} from "../../mod.ts";

const { stub, insider } = await offline();
const trades = transactionsFrame(stub.insider.trades.map((t) => t.row));

async function duck(
  sql: string,
): Promise<{ rows: Record<string, unknown>[]; types: Record<string, string> }> {
  const db = await DuckDBInstance.create(":memory:");
  const con = await db.connect();
  const r = await con.runAndReadAll(sql);
  const names = r.columnNames();
  const types = Object.fromEntries(names.map((n, i) => [n, String(r.columnTypes()[i])]));
  const rows = r.getRowObjects() as Record<string, unknown>[];
  con.closeSync();
  return { rows, types };
}

Deno.test("parquet (zstd) round trip keeps every dtype and value", async () => {
  const dir = await Deno.makeTempDir();
  const path = await writeParquet(trades, join(dir, "t.parquet"));
  const back = pl.readParquet(path);
  assert.deepEqual(back.dtypes.map(String), trades.dtypes.map(String));
  assert.ok(back.frameEqual(trades, true));
  const bytes = (await Deno.readFile(path)).slice(0, 4);
  assert.equal(new TextDecoder().decode(bytes), "PAR1");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("CSV and NDJSON exports: lists as JSON text in CSV, kept in NDJSON; no temp files left", async () => {
  const dir = await Deno.makeTempDir();
  const small = trades.head(50);
  const csv = await writeCsv(small, join(dir, "t.csv"));
  const text = await Deno.readTextFile(csv);
  assert.equal(text.trim().split("\n").length, 51);
  assert.match(text.split("\n")[0], /^accession_number,transaction_id,filed_at,/);
  const nd = await writeNdjson(small, join(dir, "t.ndjson"));
  const lines = (await Deno.readTextFile(nd)).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 50);
  assert.ok(Array.isArray(lines[0].feed_ids));
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(), [
    "t.csv",
    "t.ndjson",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a failed write leaves neither a half file nor a temp file", async () => {
  const dir = await Deno.makeTempDir();
  const bad = pl.DataFrame({ a: [1] });
  await writeParquet(bad, join(dir, "x.parquet"));
  const before = await Deno.readFile(join(dir, "x.parquet"));
  const broken = {
    writeParquet: () => {
      throw new Error("disk full");
    },
  } as unknown as pl.DataFrame;
  await assert.rejects(writeParquet(broken, join(dir, "x.parquet")), /disk full/);
  assert.deepEqual(await Deno.readFile(join(dir, "x.parquet")), before);
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["x.parquet"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("hive dataset: year=/month= layout, lazy scan restores partitions and prunes", async () => {
  const dir = await Deno.makeTempDir();
  const df = withYearMonth(trades, "filed_at");
  const files = await writeDataset(df, join(dir, "ds"), { partitionBy: ["year", "month"] });
  assert.ok(files.length > 12);
  assert.ok(files.every((f) => /\/year=\d{4}\/month=\d{1,2}\/data\.parquet$/.test(f)));
  const lf = await scanDataset(join(dir, "ds"));
  const all = lf.collectSync();
  assert.equal(all.height, df.height);
  assert.equal(dtypeName(all.getColumn("month").dtype), "Int64");
  const march = lf.filter(pl.col("year").eq(pl.lit(2025)).and(pl.col("month").eq(pl.lit(3))))
    .collectSync();
  const want = df.filter(pl.col("year").eq(pl.lit(2025)).and(pl.col("month").eq(pl.lit(3))));
  assert.equal(march.height, want.height);
  assert.ok(march.height > 0);
  const plan = lf.filter(pl.col("month").eq(pl.lit(3)).and(pl.col("transaction_value").gt(1e6)))
    .select("transaction_value").describeOptimizedPlan();
  const marchDirs = files.filter((f) => f.includes("/month=3/")).length;
  // one scan per part, named by its path (never a glob); the pruned ones scan nothing
  const scanned = [...plan.matchAll(/Parquet SCAN \[([^\]]*)\]/g)].map((m) => m[1]);
  assert.equal(scanned.length, files.length, plan.slice(0, 400));
  assert.deepEqual(
    scanned.filter((f) => f !== "").sort(),
    files.filter((f) => f.includes("/month=3/")).sort(),
    "only month=3 parts are scanned",
  );
  assert.ok(marchDirs > 0);
  assert.match(
    plan,
    /SELECTION: .*transaction_value/,
    "the value predicate is pushed into the scan",
  );
  assert.doesNotMatch(plan, /^FILTER/m);
  await assert.rejects(
    writeDataset(df, join(dir, "ds"), { partitionBy: ["year"] }),
    /partitioned by year \(Int64\)\/month \(Int64\), not year \(Int64\)/,
  );
  await assert.rejects(
    writeDataset(df, join(dir, "ds2"), { partitionBy: ["filed_at"] }),
    /"filed_at" is Datetime/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("writeCsv of the emulator's data carries the demo mark in a source column; live data none", async () => {
  const dir = await Deno.makeTempDir();
  const demo = await insider.search({}).frame({ maxRows: 20 });
  assert.ok(isDemo(demo));
  const lines = (await Deno.readTextFile(await writeCsv(demo, join(dir, "d.csv")))).trim().split(
    "\n",
  );
  assert.match(lines[0], /,source$/);
  assert.equal(lines.length, 21);
  for (const l of lines.slice(1)) assert.ok(l.endsWith(`,"${DEMO_LABEL}"`), l);
  assert.ok(!isDemo(trades));
  const plain = await Deno.readTextFile(await writeCsv(trades.head(5), join(dir, "p.csv")));
  assert.doesNotMatch(plain.split("\n")[0], /source/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cross-engine: DuckDB reads the files and the dataset with the right types and counts", async () => {
  const dir = await Deno.makeTempDir();
  const df = withYearMonth(
    await insider.search({ excludeAnomalousTransactions: false }).frame(),
    "filed_at",
  );
  const file = await writeParquet(df, join(dir, "t.parquet"));
  await writeDataset(df, join(dir, "ds"), { partitionBy: ["year", "month"] });
  const one = await duck(`select * from read_parquet('${file}') limit 1`);
  const want: Record<string, string> = {
    transaction_date: "DATE",
    filed_at: "TIMESTAMP WITH TIME ZONE",
    is_ceo: "BOOLEAN",
    transaction_value: "DOUBLE",
    issuer_cik: "VARCHAR",
    win_rate_1y_wins: "BIGINT",
    feed_ids: "BIGINT[]",
  };
  for (const [c, t] of Object.entries(want)) assert.equal(one.types[c], t, c);
  const count = await duck(`select count(*)::INTEGER as n from read_parquet('${file}')`);
  assert.equal(count.rows[0].n, df.height);
  const ds = await duck(
    `select count(*)::INTEGER as n, count(distinct year)::INTEGER as years from read_parquet('${
      join(dir, "ds")
    }/**/*.parquet', hive_partitioning = true)`,
  );
  assert.equal(ds.rows[0].n, df.height);
  assert.ok((ds.rows[0].years as number) >= 5);
  const parts = await partFiles(join(dir, "ds"));
  assert.ok(parts.length > 40);
  const slice = await duck(
    `select count(*)::INTEGER as n from read_parquet('${
      join(dir, "ds")
    }/**/*.parquet', hive_partitioning = true) where year = '2025' and month = '03'`,
  );
  assert.equal(
    slice.rows[0].n,
    df.filter(pl.col("year").eq(pl.lit(2025)).and(pl.col("month").eq(pl.lit(3)))).height,
  );
  await Deno.remove(dir, { recursive: true });
});
