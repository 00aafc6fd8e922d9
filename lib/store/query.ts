/**
 * SQL over the local dataset: `query(sql, { dir })` runs DuckDB in process
 * over the hive-partitioned parquet that `sync` writes under `dir` and
 * returns a typed Polars frame.
 *
 * - Views: `insider_trades` (from `dir/insider_trades/`) and `pitches`
 *   (from `dir/pitches/`), whichever are present, each one `read_parquet`
 *   over its parts named one by one (never a glob: a folder named
 *   `data[12]`, `data*` or `data?` reads its own rows only; glob characters
 *   in a path are escaped as `[*]`, and a path holding both a backslash and
 *   a glob character, which DuckDB cannot escape, is refused), with the
 *   partition columns last, typed from the dataset's metadata (`year` and
 *   `month` stay the strings "2025" and "03"). A filter on a partition
 *   column skips the other parts' files; parts written with other columns
 *   are read by name (a column a part lacks is null there); a parent folder
 *   named `x=y` adds no column (see `viewSelect`).
 * - Provenance, by construction: a result is demo data (`isDemo`; see
 *   `provenance.ts`) when any dataset the query can read — any view
 *   present under `dir` — holds the offline emulator's rows, whatever the
 *   SQL says (`query_table('pit' || 'ches')` included). A folder of live
 *   datasets only gives unmarked results.
 * - Its own process: DuckDB runs in a child process (`_query_child.ts`),
 *   bounded from outside (`_query_process.ts`): killed when its resident
 *   memory passes `memoryLimit` plus {@link QUERY_MEMORY_MARGIN}, or when
 *   `timeoutMs` is up, so one huge value (a list of 200 million numbers, a
 *   1.5 GB string), which DuckDB's own limit does not bound, ends in a
 *   {@link QueryLimitError} naming the limit, within the time limit plus
 *   about a second; the caller's process never holds DuckDB's memory. A
 *   result larger than `memoryLimit` once read as columns is refused the
 *   same way before the caller reads it. Starting the process costs about
 *   0.2 s a query.
 * - Types: the result goes from DuckDB to Polars through a parquet file in
 *   a temporary folder (`COPY (…) TO … (FORMAT parquet)`, then
 *   `readParquet`, column by column), never through JS row objects, so BIGINT stays Int64,
 *   DOUBLE Float64, DATE Date, BOOLEAN Boolean, VARCHAR String, BIGINT[]
 *   List(Int64), and timestamps become Datetime("ms") (with time zone
 *   "UTC" when DuckDB's is TIMESTAMP WITH TIME ZONE). Choices: HUGEINT (what
 *   `sum()` of a BIGINT gives) is cast to BIGINT (Int64; an overflow is an
 *   error, never a silent wrap) and DECIMAL to DOUBLE (Float64).
 * - Out of core: DuckDB streams the parquet and reads only the columns and
 *   partitions the SQL needs; its memory is capped (`memoryLimit`, default
 *   "512MB") and it spills to the temporary folder beyond that.
 * - One statement, a query that returns rows (`SELECT`, `WITH`, `FROM`,
 *   `VALUES`, `DESCRIBE`…), and it reads only its dataset: the statement is
 *   prepared only inside `SELECT * FROM (…)`, so `EXPORT`, `COPY`, `ATTACH`,
 *   `SET` or `INSTALL` is refused by the parser before DuckDB binds it (binding
 *   `EXPORT DATABASE` alone creates its folder); DuckDB runs with
 *   `enable_external_access = false`, allowed only the view folders and its
 *   own scratch folder, and `lock_configuration` is set once the views exist
 *   (DuckDB 1.5.5 settings, checked against the pinned binary). Reading any
 *   other file, glob or URL is a `Permission Error` at bind time.
 * - Local files are not trusted either: a view folder that is a symlink, or
 *   anything under it that is not a real folder or a regular file with a
 *   single link (a symlink, inside or out; a FIFO; a device; a hard link),
 *   is a {@link QueryError} naming it before DuckDB starts, and the
 *   dataset's `_signalbook.json` is opened without following links, never
 *   blocking, at most 4 MiB; a bad one is a `StateFileError` (a
 *   `QueryError`) naming the file and the field, as `scan*` raises it.
 * - Bounded: `timeoutMs` (default {@link QUERY_TIMEOUT_MS}, 2 minutes)
 *   kills DuckDB's process and fails; a result over `maxRows` (default
 *   {@link QUERY_MAX_ROWS}) is an error, never a frame cut short (DuckDB
 *   writes at most `maxRows + 1` rows to tell); spilling is capped at
 *   {@link QUERY_MAX_SPILL} of disk.
 * - Errors are {@link QueryError}s: bad SQL carries DuckDB's
 *   message plus the SQL, an unknown view names the views present and the
 *   closest one, and a folder without a dataset says so before DuckDB starts.
 *
 * @module
 */
import pl from "../frames/_polars.ts";
import { join, resolve, sep as SEP } from "node:path";
import { partSchemas, readMeta } from "./dataset.ts";
import { PARTITION_TYPES, SYNC_DATASETS } from "./state.ts";
import { datasetParts, type PartFile } from "./_files.ts";
import { UnsafeFileError } from "../shared/regular_file.ts";
import { QueryError, QueryLimitError } from "./errors.ts";
import { QUERY_MEMORY_MARGIN, runBounded, sizeBytes } from "./_query_process.ts";
import { type QueryAnswer, type QueryJob, quoteId, quoteStr } from "./_query_child.ts";
import { formatBytes } from "./disk.ts";
import { intOption, optionProblem } from "../shared/options.ts";
import { holdsEmulatorRows } from "./provenance.ts";
import { withDisplay } from "../frames/display.ts";
import { releaseNativeNow } from "../frames/_release.ts";
import { didYouMean } from "../shared/suggest.ts";

/** Options of {@link query}. */
export interface QueryOptions {
  /** Root folder of the datasets (what `sync({ dir })` was given). */
  dir: string;
  /**
   * DuckDB's memory cap, e.g. "512MB" or "2GiB" (default "512MB"); beyond it
   * DuckDB spills to disk. Its process is killed past this plus
   * {@link QUERY_MEMORY_MARGIN}, and a larger result is refused
   * ({@link QueryLimitError}).
   */
  memoryLimit?: string;
  /** DuckDB worker threads (default: DuckDB's choice, the number of cores). */
  threads?: number;
  /**
   * Longest run, ms (default {@link QUERY_TIMEOUT_MS}, 2 minutes): DuckDB's
   * process is killed then and the call fails with a {@link QueryLimitError}.
   */
  timeoutMs?: number;
  /**
   * Most rows of the result (default {@link QUERY_MAX_ROWS}): a larger one
   * is a {@link QueryError} (aggregate, add a LIMIT or raise this), never
   * a frame cut short.
   */
  maxRows?: number;
}

/** Default `timeoutMs` of {@link query}: 2 minutes. */
export const QUERY_TIMEOUT_MS = 120_000;
/** Default `maxRows` of {@link query}: 5 million. */
export const QUERY_MAX_ROWS = 5_000_000;
/** Most disk DuckDB may spill to during one {@link query} (its `max_temp_directory_size`). */
export const QUERY_MAX_SPILL = "4GiB";

/** The views `query` knows and the sync dataset each reads. */
export const QUERY_VIEWS: readonly ["insider_trades", "pitches"] = SYNC_DATASETS;

/** A path DuckDB reads literally: its glob characters escaped (`[*]`, `[?]`, `[[]`, `[{]`, `[}]`). */
function literalPath(path: string, sql: string): string {
  if (!/[*?[{}]/.test(path)) return path;
  if (path.includes("\\")) {
    throw new QueryError(
      `query: ${path} holds both a backslash and a glob character, which DuckDB cannot read ` +
        `literally; rename the folder`,
      sql,
    );
  }
  return path.replace(/[*?[{}]/g, (c) => `[${c}]`);
}

/**
 * The SELECT a view runs over the parts of the dataset at `root`. One
 * `read_parquet` over the list of parts (each named, glob characters
 * escaped) with `hive_partitioning`: DuckDB reads the partition values from
 * the folder names (URL-decoded, `__HIVE_DEFAULT_PARTITION__` as null),
 * typed from the metadata, and leaves out before opening them the parts a
 * filter on a partition column excludes. The partition columns come last,
 * in the dataset's order. Parts whose columns differ (their footers' schemas
 * differ, see `partSchemas` in `dataset.ts`) are read with `union_by_name` (a column
 * a part lacks is null there); parts that agree are not, since
 * `union_by_name` opens every part to bind the view (about 25 MiB more and
 * twice the time over 61 months of trades). DuckDB takes every `x=y` folder
 * on a path for a partition, a parent folder's too (it would add a column,
 * or overwrite one of the same name), so where the dataset's own path holds
 * an `=` each part is read on its own, with its partition values as typed
 * literals, and the parts are joined with `UNION ALL BY NAME`. So they are
 * where a part's partition value is the text `NULL` in any case: DuckDB's
 * hive reader takes that folder name for a null.
 */
function viewSelect(
  root: string,
  parts: PartFile[],
  partitions: { name: string; dtype: string }[],
  sql: string,
): string {
  const typeOf = (p: { dtype: string }) =>
    PARTITION_TYPES[p.dtype as keyof typeof PARTITION_TYPES] ?? "VARCHAR";
  const path = (part: PartFile) => quoteStr(literalPath(part.path, sql));
  const names = partitions.map((p) => quoteId(p.name)).join(", ");
  // every footer read and every column of one type across the parts (else the file is named)
  const same = partSchemas(parts);
  const nullText = parts.some((p) => p.values.some((v) => v !== null && /^null$/i.test(v)));
  const from = !resolve(root).includes("=") && !nullText
    ? `read_parquet([${parts.map(path).join(", ")}], hive_partitioning = true, hive_types = {${
      partitions.map((p) => `${quoteStr(p.name)}: ${typeOf(p)}`).join(", ")
    }}, hive_types_autocast = false${same ? "" : ", union_by_name = true"})`
    : `(${
      parts.map((part) => {
        const cols = partitions.map((p, i) => {
          const v = part.values[i];
          return `CAST(${v === null ? "NULL" : quoteStr(v)} AS ${typeOf(p)}) AS ${quoteId(p.name)}`;
        });
        return `SELECT *, ${cols.join(", ")} FROM read_parquet(${
          path(part)
        }, hive_partitioning = false)`;
      }).join("\nUNION ALL BY NAME\n")
    })`;
  return `SELECT * EXCLUDE (${names}), ${names} FROM ${from}`;
}

/** A view's folder, its CREATE VIEW statement and whether it holds the emulator's rows. */
interface View {
  root: string;
  /** `root` as DuckDB reads it (glob characters escaped). */
  literal: string;
  create: string;
  demo: boolean;
}

/**
 * The views present under `dir`. Everything DuckDB will read under a view
 * folder is listed and checked first (see `_files.ts`): a symlink, FIFO,
 * device, socket or hard-linked file there is a {@link QueryError} naming
 * it, before DuckDB starts; a bad `_signalbook.json` a `StateFileError`.
 */
async function views(dir: string, sql: string): Promise<Map<string, View>> {
  const out = new Map<string, View>();
  for (const name of QUERY_VIEWS) {
    const root = join(dir, name);
    let meta;
    let parts: PartFile[];
    try {
      const top = await Deno.lstat(root).catch(() => null);
      if (!top) continue;
      if (top.isSymlink) throw new UnsafeFileError(root, "is a symlink");
      meta = await readMeta(root);
      // the tree is checked even without metadata: nothing unsafe sits in a view folder
      parts = await datasetParts(root, meta?.partitions ?? null);
    } catch (e) {
      // the store's own errors (a bad state file, a stray part) as they are, with the SQL
      if (e instanceof QueryError) throw Object.assign(e, { sql });
      throw new QueryError(
        `query: ${(e as Error)?.message ?? e}; query() reads only regular files inside the dataset`,
        sql,
        { cause: e },
      );
    }
    if (!meta || parts.length === 0) continue;
    out.set(name, {
      root,
      literal: literalPath(root, sql),
      create: `CREATE VIEW ${name} AS ${viewSelect(root, parts, meta.partitions, sql)}`,
      demo: holdsEmulatorRows(meta.sources),
    });
  }
  return out;
}

/**
 * The statements that shut DuckDB in before the user's SQL runs: it may
 * open the dataset's folders (`insider_trades/`, `pitches/`) and its own
 * scratch folder (the result file and spills) — `allowed_directories` — and
 * nothing else — `enable_external_access = false` refuses every other file,
 * glob, URL, extension install and attach at bind time, before anything
 * touches the disk; then the views are created and `lock_configuration`
 * stops the SQL from changing any setting back.
 */
function lockDown(scratch: string, present: Map<string, View>): string[] {
  // each view folder as itself and as DuckDB is handed it (glob characters escaped)
  const dirs = [scratch, ...[...present.values()].flatMap((v) => [v.root, v.literal])];
  return [
    `SET allowed_directories = [${[...new Set(dirs)].map((d) => quoteStr(d + SEP)).join(", ")}]`,
    "SET enable_external_access = false",
    ...[...present.values()].map((v) => v.create),
    "SET lock_configuration = true",
  ];
}

/**
 * Runs one SQL query over the local dataset under `dir` with DuckDB and
 * returns the result as a typed Polars frame (see the module doc).
 *
 * @example
 * ```ts
 * import { connect, query, sync } from "../../mod.ts";
 * const { insider, offlineToday } = await connect();
 * const dir = await Deno.makeTempDir();
 * await sync({ dir, from: "2025-01-01", to: offlineToday, insider, progress: false });
 * const df = await query(
 *   "select year, month, count(*) as trades, min(transaction_date) as first_day " +
 *     "from insider_trades group by all order by all",
 *   { dir },
 * );
 * console.log(df.dtypes.map(String)); // Int64, Int64, Int64, Date
 * ```
 */
export async function query(sql: string, opts: QueryOptions): Promise<pl.DataFrame> {
  const started = performance.now(); // timeoutMs counts from here, listing the parts included
  const refuse = (name: string, value: unknown, allowed: string) =>
    new QueryError(`query: ${optionProblem(name, value, allowed)}`, String(sql));
  if (typeof sql !== "string" || sql.trim() === "") throw refuse("sql", sql, "one SQL query");
  const dir = opts?.dir;
  if (typeof dir !== "string" || dir === "") throw refuse("dir", dir, "the folder sync wrote");
  const fail = (m: string) => new QueryError(`query: ${m}`, sql);
  const timeoutMs = intOption(
    "timeoutMs",
    opts.timeoutMs ?? QUERY_TIMEOUT_MS,
    1,
    2 ** 31 - 1,
    fail,
  );
  const maxRows = intOption("maxRows", opts.maxRows ?? QUERY_MAX_ROWS, 0, 2 ** 53 - 2, fail);
  const memoryLimit = opts.memoryLimit ?? "512MB";
  const memory = sizeBytes(memoryLimit);
  if (memory === null) throw refuse("memoryLimit", memoryLimit, 'a size such as "512MB" or "2GiB"');
  const present = await views(dir, sql);
  await releaseNativeNow(); // the parts' footers, read as empty frames: freed now, not later
  if (present.size === 0) {
    const exists = await Deno.stat(dir).then(() => true, () => false);
    throw new QueryError(
      `query: ${dir} ${exists ? "holds no dataset" : "does not exist"}: no parquet under ${
        QUERY_VIEWS.map((v) => join(dir, v)).join(" or ")
      }; run sync({ dir, insider, catalog }) (or deno task sync --dir) first`,
      sql,
    );
  }
  const stmt = sql.trim().replace(/;\s*$/, "");
  const tmp = await Deno.makeTempDir({ prefix: "signalbook-query-" });
  const config: Record<string, string> = {
    memory_limit: memoryLimit,
    temp_directory: join(tmp, "spill"),
    max_temp_directory_size: QUERY_MAX_SPILL,
  };
  if (opts.threads !== undefined) config.threads = String(opts.threads);
  try {
    const out = join(tmp, "result.parquet");
    const job: QueryJob = { config, setup: lockDown(tmp, present), stmt, out, limit: maxRows + 1 };
    const limits = {
      timeoutMs,
      leftMs: Math.max(1, timeoutMs - (performance.now() - started)),
      memoryLimit,
      rssBytes: memory + QUERY_MEMORY_MARGIN,
    };
    const answer = await runBounded(job, limits, sql);
    const names = [...present.keys()];
    if (!answer.ok) throw refused(answer, stmt, sql, dir, names);
    if (answer.height > maxRows) {
      throw new QueryLimitError(
        "maxRows",
        maxRows,
        `the result has more than ${maxRows} rows (maxRows); aggregate, add a LIMIT or raise maxRows`,
        sql,
      );
    }
    if (answer.bytes > memory) {
      throw new QueryLimitError(
        "memoryLimit",
        memoryLimit,
        `the result is ${
          formatBytes(answer.bytes)
        } once read, more than memoryLimit ${memoryLimit}; select fewer columns or rows, or raise memoryLimit`,
        sql,
      );
    }
    const df = pl.readParquet(out);
    const fixes = df.getColumns().flatMap((c) => {
      const m = /Datetime\((\w+),?\s*([^)]*)\)/.exec(String(c.dtype));
      if (!m || (m[1] === "ms" && m[2] === "UTC")) return [];
      const tz = m[2] && m[2] !== "null" && m[2] !== "None" ? m[2] : undefined;
      return [pl.col(c.name).cast(pl.Datetime("ms", tz))];
    });
    // demo data when any dataset the SQL could read holds the emulator's rows, whatever it says
    const demo = [...present.values()].some((v) => v.demo);
    return withDisplay(fixes.length ? df.withColumns(...fixes) : df, { demo });
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

/** The error for a job DuckDB refused or failed (see `_query_child.ts`'s stages). */
function refused(
  a: Extract<QueryAnswer, { ok: false }>,
  stmt: string,
  sql: string,
  dir: string,
  present: string[],
): QueryError {
  if (a.stage === "setup") {
    return new QueryError(`query: cannot open the dataset's views: ${a.message}\nSQL: ${sql}`, sql);
  }
  if (a.stage === "count") {
    return new QueryError(
      `query: ${a.count} statements given; allowed: one query that returns rows\nSQL: ${sql}`,
      sql,
    );
  }
  if (a.stage === "parse") {
    const word = /^[\s(]*([A-Za-z_]+)/.exec(
      stmt.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/))*/, ""),
    )?.[1];
    return new QueryError(
      `query: ${
        word
          ? `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word.toUpperCase()} statement`
          : "this statement"
      } is not allowed; allowed: one query that returns rows (SELECT, WITH, FROM, VALUES, ` +
        `TABLE, DESCRIBE, SUMMARIZE, SHOW)\nSQL: ${sql}`,
      sql,
    );
  }
  return explain(a.message, sql, dir, present);
}

function explain(msg: string, sql: string, dir: string, present: string[]): QueryError {
  const missing = /Table with name ([^\s]+) does not exist/.exec(msg);
  if (missing) {
    const name = missing[1].replace(/^"|"$/g, "");
    const absent = QUERY_VIEWS.filter((v) => !present.includes(v));
    const known = (QUERY_VIEWS as readonly string[]).includes(name);
    return new QueryError(
      `query: unknown view ${JSON.stringify(name)}; views in ${dir}: ${present.join(", ")}${
        known
          ? ` (${name} was not synced there: sync it with a ${
            name === "pitches" ? "catalog" : "insider"
          } client)`
          : didYouMean(name, QUERY_VIEWS) +
            (absent.length ? ` (${absent.join(", ")} not synced there)` : "")
      }\nSQL: ${sql}`,
      sql,
    );
  }
  if (/^Permission Error/.test(msg)) {
    return new QueryError(
      `query: ${msg}; query() reads only the dataset under ${dir} (its views ${
        present.join(", ")
      }): other files, folders, URLs and extensions are disabled\nSQL: ${sql}`,
      sql,
    );
  }
  return new QueryError(`query: ${msg}\nSQL: ${sql}`, sql);
}
