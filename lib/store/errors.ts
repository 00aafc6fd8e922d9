/**
 * The store's typed errors: a failed {@link QueryError query}, a state
 * file that cannot be read ({@link StateFileError}), and rows from two
 * kinds of source ({@link MixedSourcesError}).
 *
 * @module
 */
import type { DatasetSource } from "./provenance.ts";

/** A failed `query()`: the message says why; `sql` is the statement. */
export class QueryError extends Error {
  /** The SQL that failed ("" when the error was raised outside `query()`). */
  readonly sql: string;
  /** Creates the error. */
  constructor(message: string, sql: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "QueryError";
    this.sql = sql;
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
    this.name = "StateFileError";
    this.file = file;
    this.field = field;
  }
}

/** The `field` of a {@link StateFileError} about the whole file. */
export const FILE = "(file)";

/**
 * Rows from the offline emulator written into a dataset holding live rows,
 * or the reverse: refused before anything is written. The message names the
 * dataset and both sources.
 */
export class MixedSourcesError extends Error {
  /** The dataset folder. */
  readonly dir: string;
  /** The sources the dataset already holds. */
  readonly held: readonly DatasetSource[];
  /** The source of the refused rows. */
  readonly incoming: Pick<DatasetSource, "kind" | "host">;
  /** Creates the error; `caller` starts the message. */
  constructor(
    caller: string,
    dir: string,
    held: readonly DatasetSource[],
    incoming: Pick<DatasetSource, "kind" | "host">,
    describe: (s: Pick<DatasetSource, "kind" | "host">) => string,
  ) {
    const other = held.filter((s) => s.kind !== incoming.kind);
    super(
      `${caller}: ${dir} holds rows from ${
        other.map((s) =>
          `${describe(s)} (written ${s.first.slice(0, 10)} to ${s.last.slice(0, 10)})`
        )
          .join(" and ")
      }; these rows are from ${describe(incoming)}. Demo and live rows never share a dataset: ` +
        `nothing was written. Write into another folder, or remove ${dir} to start over`,
    );
    this.name = "MixedSourcesError";
    this.dir = dir;
    this.held = held;
    this.incoming = incoming;
  }
}
