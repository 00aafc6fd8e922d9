/**
 * A dataset is read and written only through its own parts, and every file
 * that cannot be is named: a stray parquet file beside `data.parquet` (a
 * file manager's `data (1).parquet`), a part whose column has another kind
 * of type, a part that is empty, cut short or not parquet, a folder that
 * cannot be written. Each is a `DatasetFileError` naming the file, from
 * `scan*`, `query()` and `writeDataset` alike, and nothing is written.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { DatasetFileError, query, scanDataset, writeDataset } from "../../mod.ts";
import { asWriteError } from "../../lib/store/disk.ts";

const frame = () =>
  pl.DataFrame({
    id: [1, 2, 3],
    transaction_value: [10.5, 20, 30],
    year: [2025, 2025, 2025],
    month: [1, 1, 2],
  }).withColumns(pl.col("year").cast(pl.Int64), pl.col("month").cast(pl.Int64));

/** A `query()` folder holding one dataset, `insider_trades`, of two parts. */
async function dataset(): Promise<{ dir: string; ds: string; jan: string; feb: string }> {
  const dir = await Deno.makeTempDir();
  const ds = join(dir, "insider_trades");
  await writeDataset(frame(), ds, { partitionBy: ["year", "month"] });
  return {
    dir,
    ds,
    jan: join(ds, "year=2025", "month=1", "data.parquet"),
    feb: join(ds, "year=2025", "month=2", "data.parquet"),
  };
}

/** Every file under `dir` with its bytes. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else out.push(`${p} ${(await Deno.readFile(p)).join(",")}`);
    }
  };
  await walk(dir);
  return out.sort();
}

/** Checks that every reader and writer refuses naming `file` (and `words`), writing nothing. */
async function allRefuse(dir: string, ds: string, file: string, words: RegExp) {
  const before = await snapshot(dir);
  const named = (e: unknown) =>
    e instanceof DatasetFileError && e.file === file && e.message.startsWith(file) &&
    words.test(e.message);
  await assert.rejects(() => scanDataset(ds), named, "scanDataset");
  await assert.rejects(() => query("select count(*) from insider_trades", { dir }), named, "query");
  await assert.rejects(() => query("select 1", { dir }), named, "query of no view");
  await assert.rejects(
    () => writeDataset(frame(), ds, { partitionBy: ["year", "month"], mode: "append" }),
    named,
    "writeDataset",
  );
  assert.deepEqual(await snapshot(dir), before, "nothing was written");
}

Deno.test("a stray part beside data.parquet is refused by scan, query and writeDataset, naming it", async () => {
  const { dir, ds, jan } = await dataset();
  const stray = join(ds, "year=2025", "month=1", "data (1).parquet");
  await Deno.copyFile(jan, stray);
  await allRefuse(dir, ds, stray, /is not a part this dataset wrote/);
  // the stray copy is never folded in nor removed by a replacing write either
  await assert.rejects(() => writeDataset(frame(), ds, { partitionBy: ["year", "month"] }));
  assert.ok(await Deno.stat(stray));
  await Deno.remove(stray);
  assert.equal((await scanDataset(ds)).collectSync().height, 3);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a part whose column is text beside numbers is refused naming the file and both types", async () => {
  const { dir, ds, jan, feb } = await dataset();
  pl.DataFrame({ id: [3], transaction_value: ["30"] }).writeParquet(feb);
  const e = await scanDataset(ds).catch((e) => e);
  assert.ok(e instanceof DatasetFileError, String(e));
  assert.equal(e.file, feb);
  assert.match(
    e.message,
    new RegExp(`holds column "transaction_value" as String, where ${jan} holds it as Float64`),
  );
  await allRefuse(dir, ds, feb, /"transaction_value" as String/);
  await Deno.remove(dir, { recursive: true });
});

for (
  const [name, spoil] of [
    ["empty", () => new Uint8Array()],
    ["cut short", (b: Uint8Array) => b.subarray(0, b.length - 20)],
    ["foreign", () => new TextEncoder().encode("id,transaction_value\n1,2\n")],
  ] as const
) {
  Deno.test(`a part that is ${name} is refused naming the file`, async () => {
    const { dir, ds, feb } = await dataset();
    await Deno.writeFile(feb, spoil(await Deno.readFile(feb)));
    await allRefuse(dir, ds, feb, /cannot be read as parquet \(/);
    await Deno.remove(dir, { recursive: true });
  });
}

Deno.test("a folder that cannot be written is a DatasetFileError naming it", async () => {
  // /sys refuses new folders even to root
  const dir = "/sys/signalbook-test/trades";
  const e = await writeDataset(frame(), dir, { partitionBy: ["year", "month"] }).catch((e) => e);
  assert.ok(e instanceof DatasetFileError, String(e));
  assert.equal(e.file, dir);
  assert.match(e.message, /^\/sys\/signalbook-test\/trades is not writable \(permission denied\)/);
  // a read-only file system, as the OS reports it
  const rofs = Object.assign(new Error("Read-only file system (os error 30)"), { code: "EROFS" });
  const mapped = await asWriteError(rofs, "writeDataset", "/mnt/ro/trades");
  assert.ok(mapped instanceof DatasetFileError);
  assert.match(
    mapped.message,
    /^\/mnt\/ro\/trades is on a read-only file system: writeDataset cannot write there/,
  );
  const other = new Error("something else");
  assert.equal(await asWriteError(other, "writeDataset", "/x"), other);
});
