/**
 * The store's typed errors: a failed {@link QueryError query} and a state
 * file that cannot be read ({@link StateFileError}). Rows from two kinds of
 * source: `MixedSourcesError` (`provenance.ts`).
 *
 * @module
 */
/** A failed `query()`: the message says why; `sql` is the statement. */
export class QueryError extends Error {
  /** The SQL that failed ("" when the error was raised outside `query()`). */
  readonly sql: string;
  /** Creates the error. */
  constructor(message: string, sql: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name; // each subclass by its own name
    this.sql = sql;
  }
}

/**
 * A `query()` stopped by one of its limits: `limit` names it (`timeoutMs`,
 * `memoryLimit`, `maxRows`) and `value` is its value; the message says
 * what to change. A {@link QueryError}.
 */
export class QueryLimitError extends QueryError {
  /** The option whose limit stopped the query. */
  readonly limit: "timeoutMs" | "memoryLimit" | "maxRows";
  /** Its value. */
  readonly value: number | string;
  /** Creates the error; `problem` follows `query: `, then the SQL. */
  constructor(
    limit: QueryLimitError["limit"],
    value: number | string,
    problem: string,
    sql: string,
  ) {
    super(`query: ${problem}\nSQL: ${sql}`, sql);
    this.limit = limit;
    this.value = value;
  }
}

/**
 * A dataset's state file (`manifest.json`, `_signalbook.json`) that cannot
 * be read: not JSON, a field missing, null or of the wrong type, a foreign
 * `format`, a `syncedTo` in the future. The message names the file and the
 * field; `file` and `field` hold them. `sync`, `writeDataset`, `scan*` and
 * `query()` all raise this one error for the same file; it is a
 * {@link QueryError}, so everything `query()` raises stays a `QueryError`.
 */
export class StateFileError extends QueryError {
  /** The state file. */
  readonly file: string;
  /** The field, as a path (`datasets.insider_trades.syncedTo`); `(file)` for the whole file. */
  readonly field: string;
  /** Creates the error; `sql` is the statement when `query()` raised it. */
  constructor(file: string, field: string, problem: string, sql = "", options?: ErrorOptions) {
    super(
      `${file}: ${field === FILE ? "" : `field ${field} `}${problem}; nothing was read from ` +
        `or written to the dataset (fix the file by hand, or restore it)`,
      sql,
      options,
    );
    this.file = file;
    this.field = field;
  }
}

/**
 * A file of a dataset that cannot be read or written as one of its parts:
 * a stray parquet file (`data (1).parquet` beside `data.parquet`), a part
 * that is not parquet (empty, cut short, foreign), a part whose column has
 * another type than in the other parts, a folder that cannot be written.
 * The message starts with the file; `file` holds it. A {@link QueryError},
 * so `query()` raises it as it is.
 */
export class DatasetFileError extends QueryError {
  /** The file (or folder). */
  readonly file: string;
  /** Creates the error: `file` and what is wrong with it. */
  constructor(file: string, problem: string, options?: ErrorOptions) {
    super(`${file} ${problem}; nothing was read from or written to the dataset`, "", options);
    this.file = file;
  }
}

/** The `field` of a {@link StateFileError} about the whole file. */
export const FILE = "(file)";
