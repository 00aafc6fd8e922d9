/**
 * Hive-partitioned parquet datasets: `writeDataset(df, dir, { partitionBy,
 * mode })` writes `dir/<col>=<value>/.../data.parquet` (zstd), one file per
 * partition, each swapped atomically (modes and crash safety: see
 * {@link writeDataset}); `scanDataset(dir)` returns a LazyFrame over every part with
 * the partition columns restored, and Polars pushes predicates down (partition
 * pruning from the paths, row-group statistics inside the files).
 *
 * Partition values are written URL-encoded; null is
 * `__HIVE_DEFAULT_PARTITION__`. Partition columns are not stored inside the
 * files (standard hive layout, which DuckDB and Spark read as is). The
 * dataset's root holds `_signalbook.json` with the partition columns and
 * their dtypes, so a scan restores them exactly (a text partition
 * `code=03` stays the string "03"; the integer partitions `year=2025`,
 * `month=03` are the Int64 2025 and 3, as a Polars or DuckDB hive scan
 * reads them), and the sources its rows came from (see `provenance.ts`):
 * a dataset never mixes the emulator's demo rows with live rows, and what
 * is read back from a demo dataset carries the demo mark.
 *
 * Paths are taken literally: a scan lists the dataset's parts itself and
 * hands Polars each file by name (never a glob), so a folder named
 * `data[12]`, `data*` or `data?` reads its own rows only, and the partition
 * values come from the folders under the dataset alone (a parent folder
 * named `x=y` adds no column). Every file read is a regular file with one
 * link (see `_files.ts`).
 *
 * `withYearMonth(df, column)` adds `year` (2025) and `month` (3) Int64
 * columns from a date or timestamp column, the usual partition keys. A
 * partition is known by its typed value: writing month 3 into a dataset
 * whose folder is `month=03` replaces (or appends to) that folder. A
 * dataset whose text partitions hold only integers (written when `year`
 * and `month` were text) becomes integer-partitioned at its next write of
 * integer partitions: the same folders, one type.
 *
 * @module
 */
import pl from "../frames/_polars.ts";
import { dirname, join, resolve, sep } from "node:path";
import { didYouMean } from "../shared/suggest.ts";
import { dtypeName } from "../frames/dtypes.ts";
import { checkColumns } from "../shared/wrong_input.ts";
import { datasetParts, filesUnder, NULL_PART, PART_NAME, type PartFile } from "./_files.ts";
import { checkPath } from "../shared/regular_file.ts";
import { DatasetFileError } from "./errors.ts";
import { lockDataset } from "./lock.ts";
import { asWriteError, writeJsonAtomic, writeParquetAtomic } from "./disk.ts";
import { withDisplay } from "../frames/display.ts";
import { releaseNativeNow } from "../frames/_release.ts";
import { checkMeta, META_FORMAT, type MetaState, PARTITION_TYPES, readStateJson } from "./state.ts";
import { addSource, frameSource, holdsEmulatorRows, type SourceOf } from "./provenance.ts";

/** How {@link writeDataset} treats an existing dataset. */
export type WriteMode = "error" | "overwrite" | "replace-partitions" | "append";

const MODES: readonly WriteMode[] = ["error", "overwrite", "replace-partitions", "append"];

/** Options of {@link writeDataset}. */
export interface DatasetOptions {
  /** Partition columns, outermost first (Utf8, integer or Boolean columns). */
  partitionBy: string[];
  /**
   * What to do with an existing dataset (default `"replace-partitions"`):
   * - `"error"`: refuse when `dir` already holds a dataset;
   * - `"overwrite"`: replace the whole dataset (partitions absent from the frame are removed);
   * - `"replace-partitions"`: replace only the partitions present in the frame, keep the rest;
   * - `"append"`: add the frame's rows to their partitions (a rerun duplicates them).
   */
  mode?: WriteMode;
  /**
   * Longest wait, ms, while another writer holds the dataset (default 60,000;
   * 0: fail at once with a `DatasetLockedError` naming the holder).
   */
  lockTimeoutMs?: number;
}

/** Metadata stored at the dataset root (`_signalbook.json`): partitions and sources. */
export type DatasetMeta = MetaState;

const META = "_signalbook.json";

/**
 * Adds `year` and `month` Int64 columns derived from a date/timestamp
 * column: partition columns of the one integer type every reader gives
 * them (`scan*`, `query()`, a Polars or DuckDB hive scan).
 *
 * @example
 * ```ts
 * import { transactionsFrame, withYearMonth } from "../../mod.ts";
 * const df = withYearMonth(transactionsFrame([]), "filed_at");
 * console.log(df.columns.slice(-2)); // ["year", "month"]
 * ```
 */
export function withYearMonth(df: pl.DataFrame, column: string): pl.DataFrame {
  checkColumns("withYearMonth", df, [column]);
  return df.withColumns(
    pl.col(column).dt.year().cast(pl.Int64).alias("year"),
    pl.col(column).dt.month().cast(pl.Int64).alias("month"),
  );
}

/**
 * Writes a hive-partitioned parquet dataset; returns the partition files
 * written (one per partition present in `df`).
 *
 * Layout: one zstd file per partition, `dir/<col>=<value>/.../data.parquet`,
 * the layout `sync` writes. Modes (`opts.mode`):
 * - `"replace-partitions"` (the default): the partitions present in `df` are
 *   replaced, all others kept;
 * - `"overwrite"`: the whole dataset is replaced (partitions absent from
 *   `df` are removed);
 * - `"append"`: the rows are added to their partitions;
 * - `"error"`: refuses when `dir` already holds a dataset.
 *
 * Why `"replace-partitions"` is the default: rerunning a cell or a script
 * gives the same dataset instead of duplicating rows (`"append"` was the old
 * behaviour, and the surprise), writing one more month leaves the other
 * months alone, and it is what `sync` does with the months it rewrites.
 * `"error"` would make every rerun of a notebook cell fail; ask for it when
 * a dataset must be written exactly once.
 *
 * Crash safety: every partition is swapped by writing its new file under a
 * temporary name beside it (`*.tmp`, which readers ignore) and renaming it
 * over `data.parquet`, atomic on POSIX. A writer killed at any moment leaves
 * each partition with either its old rows or its new rows, never half and
 * never both. `"append"` reads the partition, adds the rows and swaps the
 * file the same way. `"overwrite"` writes every new partition first, then
 * removes the others one file at a time. Only the dataset's own parts
 * are read or replaced: a parquet file named otherwise in a partition
 * (`data (1).parquet`, a file manager's copy) is a `DatasetFileError`
 * naming it, before anything is written (it is never folded in or removed).
 *
 * One writer at a time, enforced: the whole write holds the dataset's lock
 * (`dir/.signalbook.lock`, see `lock.ts`), so a second writer — another
 * process, or another call in this one — waits until the first is done
 * (at most `lockTimeoutMs`, default 60 s) and then sees its result: two
 * appends keep both frames' rows, and two replacing writers leave one
 * writer's version of every partition, never a mix. Past the wait it fails
 * with a `DatasetLockedError` naming the dataset and the holder (pid, host,
 * since when). A killed writer's lock is released by the kernel at once.
 *
 * A full disk fails with a `DiskFullError` naming the file being written
 * and the free space (see `disk.ts`); the partition keeps its old file.
 *
 * @example
 * ```ts
 * import { connect, scanDataset, withYearMonth, writeDataset } from "../../mod.ts";
 * const { insider } = await connect();
 * const df = withYearMonth(await insider.search({}).frame({ maxRows: 200 }), "filed_at");
 * const dir = `${await Deno.makeTempDir()}/trades`;
 * await writeDataset(df, dir, { partitionBy: ["year", "month"] });
 * await writeDataset(df, dir, { partitionBy: ["year", "month"] }); // a rerun: same rows
 * console.log((await scanDataset(dir)).collectSync().height === df.height); // true
 * ```
 */
export async function writeDataset(
  df: pl.DataFrame,
  dir: string,
  opts: DatasetOptions,
): Promise<string[]> {
  const mode = opts.mode ?? "replace-partitions";
  if (!MODES.includes(mode)) {
    throw new TypeError(
      `writeDataset: mode ${JSON.stringify(mode)} is not allowed; allowed: ${
        MODES.map((m) => JSON.stringify(m)).join(", ")
      }${didYouMean(String(mode), MODES)}`,
    );
  }
  const parts = opts.partitionBy;
  if (!Array.isArray(parts) || !parts.length) {
    throw new Error("writeDataset: partitionBy needs at least one column");
  }
  const lacking = parts.filter((p) => !df.columns.includes(p));
  if (lacking.length) throw new Error(lackingPartitions(df, lacking));
  const partitions = parts.map((p) => {
    const dtype = dtypeName(df.getColumn(p).dtype);
    if (!(dtype in PARTITION_TYPES)) {
      throw new Error(
        `writeDataset: partition column ${
          JSON.stringify(p)
        } is ${dtype}; allowed: text, integer or boolean columns`,
      );
    }
    return { name: p, dtype };
  });
  try {
    return await writeLocked(df, dir, partitions, mode, opts.lockTimeoutMs);
  } catch (e) {
    throw await asWriteError(e, "writeDataset", dir);
  }
}

/** Columns `withYearMonth` adds. */
const YEAR_MONTH = ["year", "month"];

/**
 * The error for partition columns the frame lacks: `year`/`month` point at
 * `withYearMonth` and the frame's date columns (the usual slip: partitioning
 * by them before adding them); any other name gets its close matches.
 */
function lackingPartitions(df: pl.DataFrame, lacking: string[]): string {
  const named = lacking.map((c) =>
    `${JSON.stringify(c)}${YEAR_MONTH.includes(c) ? "" : didYouMean(c, df.columns, 3)}`
  );
  let text = `writeDataset: the frame lacks partition column${lacking.length > 1 ? "s" : ""} ${
    named.join(", ")
  }`;
  if (lacking.some((c) => YEAR_MONTH.includes(c))) {
    const dates = df.columns.filter((c) =>
      /^(Date|Datetime)/.test(dtypeName(df.getColumn(c).dtype))
    );
    const pick = dates.includes("filed_at") ? "filed_at" : dates[0];
    text += `; withYearMonth(df, ${
      JSON.stringify(pick ?? "a date column")
    }) adds "year" and "month" from a date column${
      dates.length
        ? ` (date columns of this frame: ${dates.slice(0, 5).join(", ")}${
          dates.length > 5 ? ", …" : ""
        })`
        : "; this frame has none"
    }`;
  }
  return text;
}

async function writeLocked(
  df: pl.DataFrame,
  dir: string,
  partitions: DatasetMeta["partitions"],
  mode: WriteMode,
  lockTimeoutMs: number | undefined,
): Promise<string[]> {
  const parts = partitions.map((p) => p.name);
  // one writer at a time; the lock also clears temporary files left by killed writers
  await using _lock = await lockDataset([dir], {
    caller: "writeDataset",
    timeoutMs: lockTimeoutMs,
  });
  // the dataset's own parts only (the lock made `dir`): a stray parquet file is refused naming
  // it, never folded in
  const existing = await readMeta(dir);
  const held = await datasetParts(dir, existing?.partitions ?? null);
  if (mode === "error" && (existing || (await partFiles(dir)).length)) {
    throw new Error(
      `writeDataset: ${dir} already holds a dataset and mode is "error"; use mode ` +
        `"replace-partitions", "overwrite" or "append" to change it`,
    );
  }
  if (mode === "append") partSchemas(held); // parts that are read back: each one readable
  // the frame's source is checked against the dataset's before anything is written
  await ensureMeta(dir, partitions, "writeDataset", df.height > 0 ? frameSource(df) : null);
  const before = mode === "overwrite" ? held.map((p) => p.path) : [];
  const written: string[] = [];
  // a partition is known by its typed value: month 3 is the folder month=03 when that exists
  const typed = (values: unknown[]) =>
    JSON.stringify(
      values.map((v, i) =>
        v === null ? null : /Int/.test(partitions[i].dtype) ? String(Number(v)) : String(v)
      ),
    );
  const folders = new Map(held.map((p) => [typed(p.values), dirname(p.path)]));
  if (df.height > 0) {
    const keys = df.select(...parts).unique({ maintainOrder: true }).rows();
    for (const key of keys) {
      let pred = pl.lit(true);
      parts.forEach((p, i) => {
        pred = pred.and(key[i] === null ? pl.col(p).isNull() : pl.col(p).eq(pl.lit(key[i])));
      });
      const sub = folders.get(typed(key)) ?? join(
        dir,
        ...parts.map((p, i) =>
          `${p}=${key[i] === null ? NULL_PART : encodeURIComponent(String(key[i]))}`
        ),
      );
      written.push(await swapPartition(sub, df.filter(pred).drop(parts), mode === "append"));
      // let the event loop turn so Polars can release native memory between partitions
      await new Promise((r) => setTimeout(r, 0));
    }
  }
  for (const f of before) {
    if (written.some((w) => dirname(w) === dirname(f))) continue; // rewritten in place
    await Deno.remove(f);
    await removeEmptyDirs(dirname(f), dir);
  }
  return written;
}

/** Replaces (or, with `append`, extends) one partition's `data.parquet` atomically. */
async function swapPartition(sub: string, rows: pl.DataFrame, append: boolean): Promise<string> {
  const file = join(sub, PART_NAME);
  let out = rows;
  if (append && await Deno.lstat(file).then(() => true, () => false)) {
    await checkPath(file); // a regular file with one link, never a link to a file elsewhere
    try {
      out = pl.concat([pl.readParquet(file), rows], { how: "vertical" });
    } catch (e) {
      throw new Error(
        `writeDataset: cannot append to ${sub}: its columns or dtypes differ from the frame's (${
          (e as Error)?.message ?? e
        })`,
      );
    }
  }
  await Deno.mkdir(sub, { recursive: true });
  await writeParquetAtomic(file, "writeDataset", out);
  return file;
}

/** Removes `from` and its parents up to (not including) `root` while they are empty. */
async function removeEmptyDirs(from: string, root: string): Promise<void> {
  for (let d = from; d.length > root.length && d.startsWith(root); d = dirname(d)) {
    if (!await Deno.remove(d).then(() => true, () => false)) return; // not empty
  }
}

/**
 * Creates `dir` and its metadata, or checks that the existing metadata has
 * the same partitions; then records `source` (null: no rows are written)
 * among the dataset's sources — a `MixedSourcesError` when the dataset
 * holds the other kind, before anything is written. Errors name `caller`.
 * Returns the metadata as written.
 */
export async function ensureMeta(
  dir: string,
  partitions: DatasetMeta["partitions"],
  caller: string,
  source: SourceOf | null,
): Promise<DatasetMeta> {
  const existing = await readMeta(dir);
  const shown = (ps: DatasetMeta["partitions"]) =>
    ps.map((p) => `${p.name} (${p.dtype})`).join("/");
  let widened = false;
  if (existing && JSON.stringify(existing.partitions) !== JSON.stringify(partitions)) {
    // text partitions whose every value is an integer (a dataset written when year and month
    // were text) become the integer partitions asked for: the same folders, one type
    widened = await widensToIntegers(dir, existing.partitions, partitions);
    if (!widened) {
      throw new Error(
        `${caller}: ${dir} is partitioned by ${shown(existing.partitions)}, not ${
          shown(partitions)
        }`,
      );
    }
    existing.partitions = partitions;
  }
  const meta: DatasetMeta = existing ?? { format: META_FORMAT, partitions };
  if (source) meta.sources = addSource(caller, dir, existing?.sources, source);
  if (!existing || source || widened) {
    await Deno.mkdir(dir, { recursive: true });
    await writeJsonAtomic(join(dir, META), caller, meta);
  }
  return meta;
}

/** Whether text partitions `held` may become `wanted`: the same names, integers where text was, every value an integer. */
async function widensToIntegers(
  dir: string,
  held: DatasetMeta["partitions"],
  wanted: DatasetMeta["partitions"],
): Promise<boolean> {
  const text = (d: string) => d === "String" || d === "Utf8";
  const ok = held.length === wanted.length && held.every((p, i) =>
    p.name === wanted[i].name &&
    (p.dtype === wanted[i].dtype || (text(p.dtype) && /^U?Int/.test(wanted[i].dtype)))
  );
  if (!ok) return false;
  const parts = await datasetParts(dir, held);
  return parts.every((part) => part.values.every((v) => v === null || /^-?\d{1,18}$/.test(v)));
}

/**
 * The dataset metadata, or null when `dir` holds none. Read strictly (see
 * `state.ts`): a bad file is a `StateFileError` naming it and the field.
 */
export async function readMeta(dir: string): Promise<DatasetMeta | null> {
  const file = join(dir, META);
  const v = await readStateJson(file);
  return v === undefined ? null : checkMeta(file, v);
}

/** Number dtypes: two of them in one column across parts are no conflict. */
const NUMBER = /^(U?Int|Float)\d+$/;

/**
 * The columns of each part, read from its footer, checked against each
 * other: a part whose footer cannot be read (empty, cut short, not
 * parquet) is a `DatasetFileError` naming it and Polars' reason, and
 * so is a part whose column has another kind of type than the same column
 * in the parts before it (a `transaction_value` written as text beside
 * numbers), naming the column, both types and the other file. A column
 * absent from some parts, or all null there, is no conflict, nor are two
 * number types (integers beside floats are read as floats). Returns whether every
 * part has the same columns in the same order with the same types.
 */
export function partSchemas(parts: readonly PartFile[]): boolean {
  const seen = new Map<string, { dtype: string; file: string }>();
  let first: string | undefined;
  let same = true;
  for (const { path } of parts) {
    let schema: Record<string, unknown>;
    try {
      schema = pl.readParquet(path, { nRows: 0 }).schema;
    } catch (e) {
      throw new DatasetFileError(path, `cannot be read as parquet (${(e as Error)?.message ?? e})`);
    }
    const cols = Object.entries(schema).map(([name, t]) => [name, dtypeName(t as pl.DataType)]);
    const key = JSON.stringify(cols);
    first ??= key;
    same &&= key === first;
    for (const [name, dtype] of cols) {
      const had = seen.get(name);
      if (dtype === "Null") continue;
      if (!had) seen.set(name, { dtype, file: path });
      else if (had.dtype !== dtype && !(NUMBER.test(had.dtype) && NUMBER.test(dtype))) {
        throw new DatasetFileError(
          path,
          `holds column ${JSON.stringify(name)} as ${dtype}, where ${had.file} holds it as ` +
            `${had.dtype}; a dataset's column has one type (rewrite the part)`,
        );
      }
    }
  }
  return same;
}

/** The Polars type of a partition dtype name (`Bool`, `Int64`, `String`…). */
function plType(name: string): pl.DataType {
  return (pl as unknown as Record<string, pl.DataType>)[name === "String" ? "Utf8" : name] ??
    pl.Utf8;
}

/**
 * A LazyFrame over every part of a dataset, partition columns restored with
 * their dtypes. Each part is scanned by its own path (never a glob; see the
 * module doc); a filter on the partition columns skips whole files (unless
 * a folder above the dataset is named `name=value`: then it is applied to
 * rows), and filters on stored columns use the files' row-group statistics. A dataset holding the offline emulator's rows
 * gives a frame with the demo mark (`isDemo`), and so does everything
 * derived from it. A bad `_signalbook.json` is a `StateFileError`; a
 * symlink, FIFO or hard-linked file in the dataset an `UnsafeFileError`.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, scanDataset, withYearMonth, writeDataset } from "../../mod.ts";
 * const { insider } = await connect();
 * const dir = `${await Deno.makeTempDir()}/trades`;
 * const df = withYearMonth(await insider.search({}).frame({ maxRows: 300 }), "filed_at");
 * await writeDataset(df, dir, { partitionBy: ["year", "month"] });
 * const lf = await scanDataset(dir);
 * const march = lf.filter(pl.col("year").eq(pl.lit(2025)).and(pl.col("month").eq(pl.lit(3)))).collectSync();
 * ```
 */
export async function scanDataset(dir: string): Promise<pl.LazyDataFrame> {
  const meta = await readMeta(dir);
  if (!meta) throw new Error(`scanDataset: ${dir} is not a signalbook dataset (no ${META})`);
  const parts = await datasetParts(dir, meta.partitions);
  if (parts.length === 0) throw new Error(`scanDataset: ${dir} has no parquet parts yet`);
  partSchemas(parts); // every footer read, every column of one type: else the file is named
  await releaseNativeNow(); // the footers, read as empty frames: freed now, not later
  // Polars reads `name=value` from every folder of a file's path: the partition folders give
  // the partition columns and prune files under a filter on them. A folder above the dataset
  // named `x=y` would add a column, so then the values are given as literals instead (read
  // from the partition folders alone; filters on them no longer skip files)
  const hive = !resolve(dir).split(sep).some((c) => c.includes("="));
  const hiveSchema = Object.fromEntries(meta.partitions.map((p) => [p.name, plType(p.dtype)]));
  const scans = parts.map((part) =>
    hive
      ? pl.scanParquet(
        part.path,
        { glob: false, hivePartitioning: true, hiveSchema, tryParseHiveDates: false } as never,
      )
      : pl.scanParquet(part.path, { glob: false }).withColumns(
        ...meta.partitions.map((p, i) => partitionLiteral(part.values[i], p.dtype).alias(p.name)),
      )
  );
  const lf = scans.length === 1 ? scans[0] : pl.concat(scans, { how: "vertical" });
  return withDisplay(lf, { demo: holdsEmulatorRows(meta.sources) });
}

/** A partition value as a literal of its dtype. */
function partitionLiteral(value: string | null, dtype: string): pl.Expr {
  if (value === null) return pl.lit(null).cast(plType(dtype));
  if (dtype === "Bool") return pl.lit(value === "true");
  return pl.lit(value).cast(plType(dtype));
}

/** Every parquet part under `dir` (temporary files excluded). */
export function partFiles(dir: string): Promise<string[]> {
  return filesUnder(dir, (name) => name.endsWith(".parquet"));
}
