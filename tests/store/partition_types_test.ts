/**
 * Partition columns have one integer type in every reader: `year` and
 * `month` of a synced dataset, and of a dataset written from
 * `withYearMonth`, are Int64 through `query()`, `scan*`, a nodejs-polars
 * hive scan and DuckDB's own hive reader, with the same values. A dataset
 * whose text partitions hold integers becomes integer-partitioned at its
 * next integer write, in the same folders.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  dtypeName,
  InsiderClient,
  query,
  readMeta,
  scanDataset,
  scanInsiderTrades,
  sync,
  transactionsFrame,
  withYearMonth,
  writeDataset,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 5, scale: 0.02 });
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://s/insider",
  fetch: stub.fetch,
});

/** `year`/`month` dtypes and the distinct (year, month) pairs of a frame, sorted. */
function yearMonth(df: pl.DataFrame): { dtypes: string[]; pairs: string[] } {
  const ym = df.select("year", "month");
  return {
    dtypes: ym.dtypes.map((t) => dtypeName(t)),
    pairs: [...new Set(ym.rows().map((r) => `${r[0]}-${r[1]}`))].sort(),
  };
}

/** DuckDB's own hive reader over the dataset's files (not signalbook's views). */
async function duckHive(ds: string): Promise<{ types: string[]; pairs: string[] }> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const db = await DuckDBInstance.create(":memory:");
  const con = await db.connect();
  const r = await con.runAndReadAll(
    `select distinct year, month from read_parquet('${ds}/**/data.parquet', hive_partitioning = true)`,
  );
  const types = r.columnTypes().map(String);
  const pairs = r.getRows().map((x) => `${x[0]}-${x[1]}`).sort();
  con.closeSync();
  db.closeSync();
  return { types, pairs };
}

Deno.test("a synced dataset's year and month are Int64 in every reader, with the same values", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await sync({ dir, from: "2025-08-15", to: "2025-10-31", insider, progress: false });
    const ds = join(dir, "insider_trades");
    assert.deepEqual((await readMeta(ds))!.partitions.map((p) => p.dtype), ["Int64", "Int64"]);
    const want = { dtypes: ["Int64", "Int64"], pairs: ["2025-10", "2025-8", "2025-9"] };
    assert.deepEqual(yearMonth(await query("select * from insider_trades", { dir })), want);
    assert.deepEqual(yearMonth((await scanInsiderTrades(dir)).collectSync()), want);
    const hive = pl.scanParquet(`${ds}/**/*.parquet`, { hivePartitioning: true } as never);
    assert.deepEqual(yearMonth(hive.collectSync()), want);
    assert.deepEqual(await duckHive(ds), { types: ["BIGINT", "BIGINT"], pairs: want.pairs });
    // folders hold the integer as hive readers read one (DuckDB takes month=08 for text)
    assert.ok(await Deno.stat(join(ds, "year=2025", "month=8", "data.parquet")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withYearMonth gives Int64 partitions: writeDataset, scanDataset and query() agree", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const trades = withYearMonth(await insider.search({}).frame({ maxRows: 300 }), "filed_at");
    assert.deepEqual(trades.select("year", "month").dtypes.map((t) => dtypeName(t)), [
      "Int64",
      "Int64",
    ]);
    const ds = join(dir, "insider_trades");
    await writeDataset(trades, ds, { partitionBy: ["year", "month"] });
    const want = yearMonth(trades);
    assert.deepEqual(yearMonth((await scanDataset(ds)).collectSync()), want);
    assert.deepEqual(yearMonth(await query("select * from insider_trades", { dir })), want);
    const hive = pl.scanParquet(`${ds}/**/*.parquet`, { hivePartitioning: true } as never);
    assert.deepEqual(yearMonth(hive.collectSync()), want);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a dataset with text year/month becomes Int64 at its next integer write, in the same folders", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const rows = transactionsFrame(stub.insider.trades.slice(0, 40).map((t) => t.row));
    const ints = withYearMonth(rows, "filed_at");
    const text = ints.withColumns(
      pl.col("year").cast(pl.Utf8),
      pl.col("month").cast(pl.Utf8).str.padStart(2, "0"),
    );
    await writeDataset(text, dir, { partitionBy: ["year", "month"] });
    const folders = async () => {
      const out: string[] = [];
      for await (const y of Deno.readDir(dir)) {
        if (!y.isDirectory) continue;
        for await (const m of Deno.readDir(join(dir, y.name))) out.push(`${y.name}/${m.name}`);
      }
      return out.sort();
    };
    const before = await folders();
    assert.ok(before.every((f) => /month=\d\d$/.test(f)), before.join());
    await writeDataset(ints, dir, { partitionBy: ["year", "month"] });
    assert.deepEqual((await readMeta(dir))!.partitions.map((p) => p.dtype), ["Int64", "Int64"]);
    assert.deepEqual(await folders(), before, "month 3 is the folder month=03");
    const back = (await scanDataset(dir)).collectSync();
    assert.equal(back.height, ints.height, "replaced, not doubled");
    assert.deepEqual(yearMonth(back), yearMonth(ints));
    // a text partition that is not an integer does not become one
    const other = join(dir, "..", "other");
    await writeDataset(text.withColumns(pl.lit("x").alias("month")), other, {
      partitionBy: ["year", "month"],
    });
    await assert.rejects(
      () => writeDataset(ints, other, { partitionBy: ["year", "month"] }),
      /is partitioned by year \(String\)\/month \(String\), not year \(Int64\)\/month \(Int64\)/,
    );
    await Deno.remove(other, { recursive: true });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a dataset synced with text year/month (month=08 folders) resyncs into the same folders, as Int64", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const range = { dir, from: "2025-08-15", to: "2025-09-30", insider, progress: false };
    await sync(range);
    const ds = join(dir, "insider_trades");
    const rows = (await scanInsiderTrades(dir)).collectSync().height;
    // as an earlier version left it: two-digit folders, text partitions
    for (const m of ["8", "9"]) {
      await Deno.rename(join(ds, "year=2025", `month=${m}`), join(ds, "year=2025", `month=0${m}`));
    }
    const metaFile = join(ds, "_signalbook.json");
    const meta = JSON.parse(await Deno.readTextFile(metaFile));
    meta.partitions = meta.partitions.map((p: object) => ({ ...p, dtype: "String" }));
    await Deno.writeTextFile(metaFile, JSON.stringify(meta));
    await sync({ ...range, from: undefined, overlapDays: 30 });
    assert.deepEqual((await readMeta(ds))!.partitions.map((p) => p.dtype), ["Int64", "Int64"]);
    const months = [...Deno.readDirSync(join(ds, "year=2025"))].map((e) => e.name).sort();
    assert.deepEqual(months, ["month=08", "month=09"]);
    const back = (await scanInsiderTrades(dir)).collectSync();
    assert.equal(back.height, rows, "re-read rows replaced, not doubled");
    assert.deepEqual(yearMonth(back).pairs, ["2025-8", "2025-9"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
