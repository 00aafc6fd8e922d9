/**
 * Single-file exports, each written to a temporary file beside the target
 * and renamed into place, so a crash never leaves a half-written file.
 *
 * - `writeParquet`: zstd-compressed (nodejs-polars defaults to none).
 * - `writeCsv`: list columns are written as JSON text (CSV has no lists);
 *   dates as `YYYY-MM-DD`, timestamps as ISO 8601; the emulator's data
 *   (`isDemo`) gains a last column `source` holding the demo label, as
 *   `writeReport`'s files do (unless the frame has a `source` of its own).
 * - `writeNdjson`: one JSON object per line; lists stay lists.
 *
 * A full disk is a `DiskFullError` naming the file and the free space.
 *
 * @module
 */
import pl from "../frames/_polars.ts";
import { writeAtomic, writeParquetAtomic } from "./disk.ts";
import { DEMO_LABEL, isDemo } from "../shared/demo.ts";

/**
 * Writes a frame as zstd parquet, atomically; returns the path.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { writeParquet } from "./write.ts";
 * await writeParquet(pl.DataFrame({ a: [1, 2] }), `${await Deno.makeTempDir()}/a.parquet`);
 * ```
 */
export function writeParquet(df: pl.DataFrame, path: string): Promise<string> {
  return writeParquetAtomic(path, "writeParquet", df);
}

/**
 * Writes a frame as CSV (lists as JSON text; demo data with a `source`
 * column), atomically; returns the path.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { writeCsv } from "./write.ts";
 * await writeCsv(pl.DataFrame({ a: [1, 2] }), `${await Deno.makeTempDir()}/a.csv`);
 * ```
 */
export function writeCsv(df: pl.DataFrame, path: string): Promise<string> {
  const lists = df.getColumns().filter((c) => String(c.dtype).includes("List"));
  const flat = lists.length
    ? df.withColumns(
      ...lists.map((c) =>
        pl.Series(
          c.name,
          c.toArray().map((v) =>
            v === null || v === undefined
              ? null
              : JSON.stringify(Array.from(v as Iterable<unknown>))
          ),
          pl.Utf8,
        )
      ),
    )
    : df;
  // a CSV keeps no property of the frame: the demo mark goes into the rows
  const marked = isDemo(df) && !df.columns.includes("source")
    ? flat.withColumns(pl.lit(DEMO_LABEL).alias("source"))
    : flat;
  return writeAtomic(path, "writeCsv", (tmp) => {
    marked.writeCSV(tmp);
  });
}

/**
 * Writes a frame as newline-delimited JSON, atomically; returns the path.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { writeNdjson } from "./write.ts";
 * await writeNdjson(pl.DataFrame({ a: [1, 2] }), `${await Deno.makeTempDir()}/a.ndjson`);
 * ```
 */
export function writeNdjson(df: pl.DataFrame, path: string): Promise<string> {
  return writeAtomic(path, "writeNdjson", (tmp) => {
    df.writeJSON(tmp, { format: "lines" });
  });
}
