/**
 * Hive-partitioned parquet datasets: `writeDataset(df, dir, { partitionBy })`
 * writes `dir/<col>=<value>/.../part-<uuid>.parquet` (zstd), each file
 * atomically; `scanDataset(dir)` returns a LazyFrame over every part with
 * the partition columns restored, and Polars pushes predicates down (partition
 * pruning from the paths, row-group statistics inside the files).
 *
 * Partition values are written URL-encoded; null is
 * `__HIVE_DEFAULT_PARTITION__`. Partition columns are not stored inside the
 * files (standard hive layout, which DuckDB and Spark read as is). The
 * dataset's root holds `_signalbook.json` with the partition columns and
 * their dtypes, so a scan restores them exactly (e.g. `month=03` stays the
 * string "03").
 *
 * `withYearMonth(df, column)` adds `year` ("2025") and `month` ("03") string
 * columns from a date or timestamp column, the usual partition keys.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { join } from "node:path";
import { dtypeName } from "../frames/dtypes.ts";
import { atomic } from "./write.ts";
import { requireColumns } from "../frames/columns.ts";

/** Options of {@link writeDataset}. */
export interface DatasetOptions {
  /** Partition columns, outermost first (Utf8, integer or Boolean columns). */
  partitionBy: string[];
}

/** Metadata stored at the dataset root. */
export interface DatasetMeta {
  /** Format marker. */
  format: "signalbook-hive-parquet/1";
  /** Partition columns and their dtype names. */
  partitions: { name: string; dtype: string }[];
}

const META = "_signalbook.json";
const NULL_PART = "__HIVE_DEFAULT_PARTITION__";
const ALLOWED = new Set([
  "String",
  "Utf8",
  "Int8",
  "Int16",
  "Int32",
  "Int64",
  "UInt8",
  "UInt16",
  "UInt32",
  "UInt64",
  "Bool",
]);

/**
 * Adds `year` and `month` string columns derived from a date/timestamp column.
 *
 * @example
 * ```ts
 * import { transactionsFrame, withYearMonth } from "../../mod.ts";
 * const df = withYearMonth(transactionsFrame([]), "filed_at");
 * console.log(df.columns.slice(-2)); // ["year", "month"]
 * ```
 */
export function withYearMonth(df: pl.DataFrame, column: string): pl.DataFrame {
  requireColumns("withYearMonth", df, [column]);
  return df.withColumns(
    pl.col(column).dt.year().cast(pl.Utf8).alias("year"),
    pl.col(column).dt.month().cast(pl.Utf8).str.padStart(2, "0").alias("month"),
  );
}

/**
 * Writes a hive-partitioned parquet dataset; returns the files written.
 * Existing parts are kept (the dataset grows by parts); see `lib/store/sync`
 * for replacing partitions.
 *
 * @example
 * ```ts
 * import { connect, withYearMonth, writeDataset } from "../../mod.ts";
 * const { insider } = await connect();
 * const df = withYearMonth(await insider.search({}).frame({ maxRows: 500 }), "filed_at");
 * await writeDataset(df, "out/trades", { partitionBy: ["year", "month"] });
 * ```
 */
export async function writeDataset(
  df: pl.DataFrame,
  dir: string,
  opts: DatasetOptions,
): Promise<string[]> {
  const parts = opts.partitionBy;
  if (!parts.length) throw new Error("writeDataset: partitionBy needs at least one column");
  const meta: DatasetMeta = { format: "signalbook-hive-parquet/1", partitions: [] };
  for (const p of parts) {
    if (!df.columns.includes(p)) {
      throw new Error(`writeDataset: the frame lacks partition column ${JSON.stringify(p)}`);
    }
    const dtype = dtypeName(df.getColumn(p).dtype);
    if (!ALLOWED.has(dtype)) {
      throw new Error(
        `writeDataset: partition column ${
          JSON.stringify(p)
        } is ${dtype}; allowed: text, integer or boolean columns`,
      );
    }
    meta.partitions.push({ name: p, dtype });
  }
  await ensureMeta(dir, meta.partitions, "writeDataset");
  const written: string[] = [];
  if (df.height === 0) return written;
  const keys = df.select(...parts).unique({ maintainOrder: true }).rows();
  for (const key of keys) {
    let pred = pl.lit(true);
    parts.forEach((p, i) => {
      pred = pred.and(key[i] === null ? pl.col(p).isNull() : pl.col(p).eq(pl.lit(key[i])));
    });
    const slice = df.filter(pred).drop(parts);
    const sub = join(
      dir,
      ...parts.map((p, i) =>
        `${p}=${key[i] === null ? NULL_PART : encodeURIComponent(String(key[i]))}`
      ),
    );
    await Deno.mkdir(sub, { recursive: true });
    const file = join(sub, `part-${crypto.randomUUID()}.parquet`);
    await atomic(file, (tmp) => {
      slice.writeParquet(tmp, { compression: "zstd" });
    });
    written.push(file);
  }
  return written;
}

/**
 * Creates `dir` and its metadata, or checks that the existing metadata has
 * the same partitions; the error names `caller`.
 */
export async function ensureMeta(
  dir: string,
  partitions: DatasetMeta["partitions"],
  caller: string,
): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const existing = await readMeta(dir);
  if (existing && JSON.stringify(existing.partitions) !== JSON.stringify(partitions)) {
    throw new Error(
      `${caller}: ${dir} is partitioned by ${
        existing.partitions.map((p) => p.name).join("/")
      }, not ${partitions.map((p) => p.name).join("/")}`,
    );
  }
  if (!existing) {
    const meta: DatasetMeta = { format: "signalbook-hive-parquet/1", partitions };
    await atomic(
      join(dir, META),
      (tmp) => Deno.writeTextFile(tmp, JSON.stringify(meta, null, 2) + "\n"),
    );
  }
}

/** The dataset metadata, or null when `dir` holds none. */
export async function readMeta(dir: string): Promise<DatasetMeta | null> {
  try {
    return JSON.parse(await Deno.readTextFile(join(dir, META)));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

function plType(name: string): pl.DataType {
  const table: Record<string, pl.DataType> = {
    String: pl.Utf8,
    Utf8: pl.Utf8,
    Int8: pl.Int8,
    Int16: pl.Int16,
    Int32: pl.Int32,
    Int64: pl.Int64,
    UInt8: pl.UInt8,
    UInt16: pl.UInt16,
    UInt32: pl.UInt32,
    UInt64: pl.UInt64,
    Bool: pl.Bool,
  };
  return table[name] ?? pl.Utf8;
}

/**
 * A LazyFrame over every part of a dataset, partition columns restored with
 * their dtypes; filters on them prune whole directories.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { scanDataset } from "./dataset.ts";
 * const lf = await scanDataset("out/trades");
 * const march = lf.filter(pl.col("year").eq(pl.lit("2025")).and(pl.col("month").eq(pl.lit("03")))).collectSync();
 * ```
 */
export async function scanDataset(dir: string): Promise<pl.LazyDataFrame> {
  const meta = await readMeta(dir);
  if (!meta) throw new Error(`scanDataset: ${dir} is not a signalbook dataset (no ${META})`);
  const hiveSchema = Object.fromEntries(meta.partitions.map((p) => [p.name, plType(p.dtype)]));
  const files = await partFiles(dir);
  if (files.length === 0) throw new Error(`scanDataset: ${dir} has no parquet parts yet`);
  return pl.scanParquet(
    join(dir, "**", "*.parquet"),
    { hivePartitioning: true, hiveSchema, tryParseHiveDates: false } as never,
  );
}

/** Every file under `dir` (recursively) whose name passes `keep`, sorted; none when `dir` is missing. */
export async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else if (keep(e.name)) out.push(p);
    }
  };
  try {
    await walk(dir);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort();
}

/** Every parquet part under `dir` (temporary files excluded). */
export function partFiles(dir: string): Promise<string[]> {
  return filesUnder(dir, (name) => name.endsWith(".parquet"));
}
