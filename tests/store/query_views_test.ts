/**
 * How `query()`'s views read a dataset's parts: a filter on a partition
 * column never opens the other parts' files; parts written with other
 * columns are read by name; the partition columns come last, typed from the
 * metadata; a dataset under a parent folder named `x=y` (read part by part)
 * gives the same frame as one elsewhere (read by one `read_parquet`).
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { query, QueryError, writeDataset } from "../../mod.ts";
import { partSchemas } from "../../lib/store/dataset.ts";
import { DatasetFileError } from "../../lib/store/errors.ts";

/** Zeroes a part's data pages and keeps its footer: reading its rows fails, its schema does not. */
async function spoilRows(file: string): Promise<void> {
  const b = await Deno.readFile(file);
  const footer = new DataView(b.buffer).getUint32(b.length - 8, true);
  b.fill(0, 4, b.length - 8 - footer);
  await Deno.writeFile(file, b);
}

const rows = () =>
  pl.DataFrame({
    id: [1, 2, 3, 4],
    name: ["a", "b", "c", "d"],
    year: ["2024", "2024", "2025", "2025"],
    month: ["01", "02", "01", "01"],
  });

for (const parent of ["plain", "x=y"]) {
  Deno.test(`query (${parent}): a filter on year or month never opens the other parts`, async () => {
    const base = await Deno.makeTempDir();
    const dir = join(base, parent, "ds");
    await writeDataset(rows(), join(dir, "insider_trades"), { partitionBy: ["year", "month"] });
    await spoilRows(join(dir, "insider_trades", "year=2024", "month=02", "data.parquet"));
    const ids = async (sql: string) =>
      (await query(sql, { dir })).getColumn("id").toArray().map(Number);
    assert.deepEqual(
      await ids("select id from insider_trades where year = '2025' order by id"),
      [3, 4],
    );
    assert.deepEqual(
      await ids("select id from insider_trades where month = '01' order by id"),
      [1, 3, 4],
    );
    // without the filter the spoilt part is read, and fails
    await assert.rejects(query("select id from insider_trades", { dir }), QueryError);
    await Deno.remove(base, { recursive: true });
  });
}

Deno.test("query: parts with other columns are read by name, partition columns last; a parent x=y changes nothing", async () => {
  const base = await Deno.makeTempDir();
  const got: pl.DataFrame[] = [];
  for (const parent of ["plain", "x=y"]) {
    const dir = join(base, parent, "ds");
    const ds = join(dir, "insider_trades");
    // the first months hold a column named x (as the parent folder's key) and an integer v
    await writeDataset(
      pl.DataFrame({ id: [1, 2], v: [10, 20], x: ["col", "col"], year: ["2024", "2024"] })
        .withColumns(pl.col("v").cast(pl.Int64), pl.lit("01").alias("month")),
      ds,
      { partitionBy: ["year", "month"] },
    );
    // a later month lacks x, holds v as a float and adds a flag
    await writeDataset(
      pl.DataFrame({ id: [3], v: [2.5], flag: [true], year: ["2025"], month: ["01"] }),
      ds,
      { partitionBy: ["year", "month"] },
    );
    const df = await query("select * from insider_trades order by id", { dir });
    assert.deepEqual(df.columns, ["id", "v", "x", "flag", "year", "month"], parent);
    assert.deepEqual(
      df.dtypes.map(String),
      ["Float64", "Float64", "String", "Bool", "String", "String"].map((t) =>
        String(pl[t as "String"])
      ),
      parent,
    );
    assert.deepEqual(df.getColumn("x").toArray(), ["col", "col", null], parent);
    assert.deepEqual(df.getColumn("v").toArray(), [10, 20, 2.5], parent);
    assert.deepEqual(df.getColumn("flag").toArray(), [null, null, true], parent);
    assert.deepEqual(df.getColumn("year").toArray(), ["2024", "2024", "2025"], parent);
    got.push(df);
  }
  assert.ok(got[0].frameEqual(got[1], true));
  await Deno.remove(base, { recursive: true });
});

Deno.test("query: integer, boolean, null and URL-encoded partition values read alike with and without a parent x=y", async () => {
  const base = await Deno.makeTempDir();
  const got: pl.DataFrame[] = [];
  for (const parent of ["plain", "x=y"]) {
    const dir = join(base, parent, "ds");
    await writeDataset(
      pl.DataFrame({
        id: [1, 2, 3, 4],
        n: [7, 7, -1, null],
        b: [true, false, true, null],
        s: ["a b", "x/y=z", "ü%", null],
      }).withColumns(pl.col("n").cast(pl.Int32)),
      join(dir, "pitches"),
      { partitionBy: ["n", "b", "s"] },
    );
    const df = await query("select * from pitches order by id", { dir });
    assert.deepEqual(df.columns, ["id", "n", "b", "s"], parent);
    assert.deepEqual(df.dtypes.map(String).slice(1), [
      String(pl.Int32),
      String(pl.Bool),
      String(pl.String),
    ]);
    assert.deepEqual(df.getColumn("n").toArray(), [7, 7, -1, null], parent);
    assert.deepEqual(df.getColumn("b").toArray(), [true, false, true, null], parent);
    assert.deepEqual(df.getColumn("s").toArray(), ["a b", "x/y=z", "ü%", null], parent);
    const one = await query("select id from pitches where s = 'x/y=z' and n = 7", { dir });
    assert.deepEqual(one.getColumn("id").toArray().map(Number), [2], parent);
    got.push(df);
  }
  assert.ok(got[0].frameEqual(got[1], true));
  await Deno.remove(base, { recursive: true });
});

Deno.test("partSchemas: equal columns agree whatever the rows; another column or order does not; another type or an unreadable file is an error naming the file", async () => {
  const base = await Deno.makeTempDir();
  const write = (name: string, df: pl.DataFrame) => {
    const f = join(base, `${name}.parquet`);
    df.writeParquet(f, { compression: "zstd" });
    return { path: f, values: [] };
  };
  const a = write("a", pl.DataFrame({ a: [1, 2], b: ["x", null] }));
  const a2 = write("a2", pl.DataFrame({ a: [7, 8, 9], b: ["a longer text", "q", "r"] }));
  assert.equal(partSchemas([a, a2]), true);
  assert.equal(partSchemas([a]), true);
  const others = {
    lacks: pl.DataFrame({ a: [1] }),
    extra: pl.DataFrame({ a: [1], b: ["x"], c: [true] }),
    order: pl.DataFrame({ b: ["x"], a: [1] }),
    renamed: pl.DataFrame({ a: [1], c: ["x"] }),
    // two number types: read as floats, not a conflict
    typed: pl.DataFrame({ a: [1], b: ["x"] }).withColumns(pl.col("a").cast(pl.Int64)),
  };
  for (const [name, df] of Object.entries(others)) {
    assert.equal(partSchemas([a, write(name, df)]), false, name);
  }
  const conflicts = {
    text: [pl.DataFrame({ a: ["1.5"], b: ["x"] }), "a", "String", "Float64"],
    list: [pl.DataFrame({ a: [1], b: [["x"]] }), "b", "List(String)", "String"],
  } as const;
  for (const [name, [df, col, got, had]] of Object.entries(conflicts)) {
    const part = write(name, df);
    assert.throws(
      () => partSchemas([a, part]),
      (e: Error) =>
        e instanceof DatasetFileError && e.file === part.path &&
        e.message.startsWith(
          `${part.path} holds column "${col}" as ${got}, where ${a.path} holds it as ${had}`,
        ),
    );
  }
  const junk = join(base, "junk.parquet");
  await Deno.writeTextFile(junk, "not a parquet file, only text");
  for (const path of [junk, join(base, "missing.parquet")]) {
    assert.throws(
      () => partSchemas([a, { path, values: [] }]),
      (e: Error) =>
        e instanceof DatasetFileError &&
        e.message.startsWith(`${path} cannot be read as parquet (`),
    );
  }
  await Deno.remove(base, { recursive: true });
});

Deno.test("query: a text partition value NULL or null is that text, not a null (DuckDB's hive reader takes it for one)", async () => {
  const base = await Deno.makeTempDir();
  for (const parent of ["plain", "x=y"]) {
    const dir = join(base, parent, "ds");
    await writeDataset(
      pl.DataFrame({ id: [1, 2, 3, 4], s: ["NULL", "null", "Null", null] }),
      join(dir, "pitches"),
      { partitionBy: ["s"] },
    );
    const df = await query("select * from pitches order by id", { dir });
    assert.deepEqual(df.getColumn("s").toArray(), ["NULL", "null", "Null", null], parent);
    const one = await query("select id from pitches where s = 'NULL'", { dir });
    assert.deepEqual(one.getColumn("id").toArray().map(Number), [1], parent);
  }
  await Deno.remove(base, { recursive: true });
});
