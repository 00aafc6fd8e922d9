/**
 * The process one `query()` runs DuckDB in (see `query.ts`): it reads one
 * job, a JSON file named by its argument ({@link QueryJob}), runs it, writes
 * the result to the job's parquet file and prints one line of JSON
 * ({@link QueryAnswer}) on stdout. The parent bounds it from outside: it
 * kills this process when its resident memory passes the query's memory
 * limit plus a margin, or when the query's time is up, so no value DuckDB
 * builds (a list of 200 million numbers, a 1.5 GB string) can grow the
 * caller's process or outlive `timeoutMs`. The end of stdin is the parent's
 * end: this process exits then.
 *
 * Nothing here decides what may be read: the parent hands the settings that
 * shut DuckDB in (`setup`, run before the user's SQL) and the SQL.
 *
 * @module
 */

/** What the parent asks. */
export interface QueryJob {
  /** DuckDB's configuration (`memory_limit`, `temp_directory`, …). */
  config: Record<string, string>;
  /** Statements run before the user's SQL: the sandbox's settings and the views. */
  setup: string[];
  /** The user's statement (one query that returns rows). */
  stmt: string;
  /** The parquet file the result goes to. */
  out: string;
  /** The most rows the result may have: `maxRows + 1` are written, to tell. */
  limit: number;
}

/** What this process answers: the result's shape, or where and why it failed. */
export type QueryAnswer =
  | { ok: true; names: string[]; types: string[]; height: number; bytes: number }
  | {
    ok: false;
    /** `setup`: the views; `count`: not one statement; `parse`: not a query; `run`: DuckDB's error. */
    stage: "setup" | "count" | "parse" | "run";
    message: string;
    count?: number;
  };

/** A DuckDB identifier, quoted. */
export const quoteId = (s: string): string => `"${s.replaceAll('"', '""')}"`;
/** A DuckDB text literal, quoted. */
export const quoteStr = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** The select-list expression that brings a DuckDB column to a type Polars keeps. */
function castFor(name: string, type: string): string {
  const id = quoteId(name);
  if (/^U?HUGEINT$/.test(type)) return `CAST(${id} AS BIGINT) AS ${id}`;
  if (/^DECIMAL/.test(type)) return `CAST(${id} AS DOUBLE) AS ${id}`;
  if (/^TIMESTAMP_(S|MS|NS)$/.test(type)) return `CAST(${id} AS TIMESTAMP) AS ${id}`;
  if (/^ENUM/.test(type)) return `CAST(${id} AS VARCHAR) AS ${id}`;
  return id;
}

/**
 * SQL for the bytes a column takes once read as a column (Arrow layout):
 * 8 a value, plus the bytes of text and blobs and 8 per item of a list
 * (nested values by their text).
 */
function sizeOf(id: string, type: string): string {
  const n = `count(*) * 8`;
  if (type === "VARCHAR") return `${n} + coalesce(sum(strlen(${id})), 0)`;
  if (type === "BLOB") return `${n} + coalesce(sum(octet_length(${id})), 0)`;
  if (/^[A-Z]+(\(\d+\))?\[\]$/.test(type)) return `${n} + 8 * coalesce(sum(len(${id})), 0)`;
  if (/[[(]/.test(type)) return `${n} + coalesce(sum(strlen(CAST(${id} AS VARCHAR))), 0)`;
  return n;
}

/** Runs one job (see the module doc). */
export async function runJob(job: QueryJob): Promise<QueryAnswer> {
  const { DuckDBInstance } = await import("npm:@duckdb/node-api@1.5.5-r.5");
  const db = await DuckDBInstance.create(":memory:", job.config);
  const con = await db.connect();
  // the step under way: a failure is answered with it ("prepare": a parse or a run error)
  let stage: "setup" | "prepare" | "run" = "setup";
  try {
    for (const s of job.setup) await con.run(s);
    stage = "run";
    const count = (await con.extractStatements(job.stmt)).count;
    if (count !== 1) return { ok: false, stage: "count", message: "", count };
    stage = "prepare";
    // only a query parses inside SELECT * FROM (…): EXPORT, COPY, ATTACH, SET are refused
    // before DuckDB binds them (binding EXPORT alone creates its folder)
    const p = await con.prepare(`SELECT * FROM (${job.stmt}\n) AS q`);
    const names = Array.from({ length: p.columnCount }, (_, i) => p.columnName(i));
    const types = names.map((_, i) => String(p.columnType(i)));
    p.destroySync?.();
    stage = "run";
    const list = names.map((n, i) => castFor(n, types[i])).join(", ");
    await con.run(
      `COPY (SELECT ${list} FROM (${job.stmt}\n) AS q LIMIT ${job.limit}) TO ${
        quoteStr(job.out)
      } (FORMAT parquet, COMPRESSION zstd)`,
    );
    // the result's rows and its size once read as columns, from the file written
    const sizes = names.map((n, i) => sizeOf(quoteId(n), types[i]));
    const meta = await con.runAndReadAll(
      `SELECT count(*), ${sizes.length ? sizes.join(" + ") : "0"} FROM read_parquet(${
        quoteStr(job.out)
      })`,
    );
    const [height, bytes] = meta.getRows()[0].map((v) => Number(v ?? 0));
    return { ok: true, names, types, height, bytes };
  } catch (e) {
    const m = String((e as Error)?.message ?? e);
    const parse = stage === "prepare" && /^Parser Error/.test(m);
    return { ok: false, stage: parse ? "parse" : stage === "prepare" ? "run" : stage, message: m };
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

if (import.meta.main) {
  // the parent's end (a kernel restarted, a script killed) is this process's end
  Deno.stdin.readable.pipeTo(new WritableStream()).finally(() => Deno.exit(1));
  const answer = await runJob(JSON.parse(await Deno.readTextFile(Deno.args[0])));
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(answer) + "\n"));
  Deno.exit(0);
}
