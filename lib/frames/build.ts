/**
 * Column-wise DataFrame building: one pass over the rows fills a typed array
 * per numeric, date, timestamp and boolean column (`NaN` standing for null)
 * and encodes each text and list column (UTF-8 bytes, offsets); then the
 * columns, each already of its declared dtype with its nulls, become one
 * Arrow stream that Polars reads in one call (`_arrow.ts`). Polars never
 * infers, and its slow, date-mangling record path is never used.
 *
 * Extra keys in the rows that the specs do not name are kept by a stated
 * rule. Every row is checked, at the cost of one key count per row (about
 * 4–5 µs on a 174-key row, which V8 holds in dictionary mode: the build is
 * 1.2–1.3× what it was with every 64th row scanned; see
 * docs/ARCHITECTURE.md): a row
 * whose key count is not the declared columns present in it is scanned for
 * undeclared keys, and an extra column found in any row becomes a column
 * (null in the rows without it). Extra values are stored sparsely (memory in
 * proportion to the values present), and past {@link MAX_EXTRA_COLUMNS}
 * extra columns the rest are left out and counted. The rule: a column
 * that names a CIK (`isCikField`) whose values all read as CIKs is Utf8 of
 * ten digits, as a declared one; else a column whose
 * non-null values are all strings is Utf8, all booleans Bool, all finite
 * numbers Float64; numbers with literals a double would round (which come as
 * their text, `shared/json_numbers.ts`) Utf8 holding their digits; anything
 * else (objects, arrays, mixed kinds) becomes Utf8 holding the JSON text.
 *
 * Values are read by their column's grammar (`shared/values/`, chosen by
 * its value type: `GRAMMARS`; a CIK column by the CIK grammar:
 * `grammarOf`). The generated row loop (`_row_loop.ts`) takes canonical
 * values inline (a finite number, a safe integer, a boolean, text, ten
 * digits in a CIK column, a calendar-checked
 * `YYYY-MM-DD`, an ISO timestamp with a zone, a list of canonical items);
 * any other value sends its row to `#redo`, which reads each value by the
 * full grammar and counts the forms it read (`coerced`) and the values
 * outside the grammar (`unreadable`, now null). Declared columns absent
 * from the rows are counted too. All of it is reported once per pull (a
 * warning per kind of finding, a `frame` event on `httpEvents`, and the
 * frame's own `readReport`, which its notebook display summarises). A
 * column with values outside the grammar and none that reads fails the
 * build: an `InvalidResponseError` naming the column, one value
 * (described) and its row.
 *
 * @module
 */
import pl from "./_polars.ts";
import { Buffer } from "node:buffer";
import { type ColumnSpec, dtypeName } from "./dtypes.ts";
import {
  type ArrowColumn,
  arrowStream,
  type NumericType,
  PlainBuffer,
  type PlainType,
} from "./_arrow.ts";
import { compile, type Filler, isPlain, type Slot } from "./_row_loop.ts";
import { type FrameReport, mergeReports, reportLines, warnReport } from "./_report.ts";
import {
  cik,
  type Grammar,
  grammarOf,
  IGNORE,
  isCikField,
  type Note,
  ReadLog,
  readValue,
  UNREADABLE,
} from "../shared/values/mod.ts";
import { InvalidResponseError } from "../http/errors.ts";
import { declaredAs } from "../shared/field_keys.ts";

export { type FrameReport, mergeReports, reportLines, warnReport };

/**
 * Extra (undeclared) columns kept per frame; keys past it are left out and
 * counted in the report. 500 is well past any real view's extra columns,
 * and bounds a hostile answer (a row with 100,000 keys) to 500 series.
 */
export const MAX_EXTRA_COLUMNS = 500;

/** Options of {@link buildFrame}. */
export interface BuildOptions {
  /**
   * Report declared columns absent from the rows (default true). Off when
   * the caller chose the columns (a `fields=` selection).
   */
  reportMissing?: boolean;
  /**
   * Where the pull's report goes (default: printed as warnings once, and a
   * `frame` event). A caller merging several builders' reports (a sync's
   * months) takes them here and prints the merged one.
   */
  onReport?: (report: FrameReport) => void;
}

/**
 * Builds a DataFrame from rows with declared column dtypes, in one pass.
 *
 * @example
 * ```ts
 * import { buildFrame } from "./build.ts";
 * const df = buildFrame([{ name: "d", type: "date" }, { name: "v", type: "decimal" }], [
 *   { d: "2025-01-02", v: 1.5 },
 *   { d: null, v: null },
 * ]);
 * console.log(df.schema); // { d: Date, v: Float64 }
 * ```
 */
export function buildFrame(
  specs: readonly ColumnSpec[],
  rows: readonly Record<string, unknown>[],
  opts: BuildOptions = {},
): pl.DataFrame {
  const b = new FrameBuilder(specs, { ...opts, chunkRows: Math.max(rows.length, 1) });
  b.append(rows);
  return b.finish();
}

/** Something rows can be appended to, page by page, and that ends as one frame. */
export interface RowSink<Row> {
  /** Adds rows (their values are copied out; the rows can be dropped after). */
  append(rows: readonly Row[]): void;
  /** The frame of every row appended, in order. */
  finish(): pl.DataFrame;
  /** Native chunks built so far, when the sink builds in chunks. */
  readonly chunks?: number;
}

/** Options of {@link FrameBuilder}. */
export interface FrameBuilderOptions extends BuildOptions {
  /** Rows per native chunk (default {@link CHUNK_ROWS}). */
  chunkRows?: number;
}

/**
 * Rows per native chunk when a frame is built page by page: 8,192 rows of
 * the 174-column transactions schema fill about 10 MB of column buffers on
 * the JS side and become one Polars chunk of about 11 MB.
 */
export const CHUNK_ROWS = 8_192;

/** Rows the column buffers of a new {@link FrameBuilder} hold before they first grow. */
const FIRST_ROWS = 256;

/**
 * Builds a frame from rows that arrive in pieces (pages), in bounded memory.
 *
 * Each appended row is copied at once into column buffers (a `Float64Array`
 * per numeric, date, timestamp or boolean column; UTF-8 bytes and offsets
 * per text or list column, encoded page by page), so the parsed page, its
 * strings included, can be collected right away. Every `chunkRows` rows the
 * buffers become one native Polars chunk (one Arrow stream read in one call,
 * which leaves no intermediate Polars object behind), and
 * {@link FrameBuilder.finish} concatenates the chunks without copying them
 * again (`rechunk: false`): a 250k-row frame is 31 chunks, not 2,500.
 *
 * Why: building a small frame per page of 100 rows costs a fixed ~3 MB of
 * native memory per page (174 columns, each cast once), which V8 neither
 * sees nor collects in time, and the final `concat` with `rechunk` then holds
 * every page frame and the result at once; memory grew faster than the rows
 * (11.7 GB at 100k rows). See `bench/frame_scale.ts` for the curve.
 *
 * @example
 * ```ts
 * import { FrameBuilder } from "./build.ts";
 * const b = new FrameBuilder([{ name: "v", type: "integer" }], { chunkRows: 2 });
 * b.append([{ v: 1 }, { v: 2 }, { v: 3 }]);
 * b.append([{ v: null }]);
 * const df = b.finish();
 * console.log(df.height, df.getColumn("v").toArray()); // 4 [1n, 2n, 3n, null]
 * ```
 */
export class FrameBuilder implements RowSink<Record<string, unknown>> {
  readonly #specs: readonly ColumnSpec[];
  readonly #cap: number;
  readonly #known: Set<string>;
  readonly #numIdx: number[] = [];
  readonly #plainIdx: number[] = [];
  readonly #fill: Filler;
  readonly #log = new ReadLog();
  /** Rows lacking each declared column's key, by spec index. */
  readonly #miss: number[];
  /** Per column: its grammar and the note function of its name. */
  readonly #read: { grammar: Grammar<unknown>; note: Note }[];
  readonly #opts: FrameBuilderOptions;
  readonly #keys: string[];
  /** Per column: its buffer (numeric or plain, and which). */
  readonly #slots: Slot[];
  #num: Float64Array[] = [];
  /** Text and list values of the rows being appended, by chunk offset (see {@link FrameBuilder.append}). */
  #plain: unknown[][] = [];
  /** Text and list columns of the chunk being filled, encoded. */
  #encoded: PlainBuffer[] = [];
  /** Extra columns of the chunk being filled: offsets and values of the rows that have them. */
  #extras = new Map<string, { at: number[]; vals: unknown[] }>();
  readonly #extraTypes = new Map<string, string>();
  readonly #dropped = new Set<string>();
  #droppedCount = 0;
  #filled = 0;
  #rows = 0;
  readonly #chunks: pl.DataFrame[] = [];

  /** A builder for frames with these columns. */
  constructor(specs: readonly ColumnSpec[], opts: FrameBuilderOptions = {}) {
    this.#specs = specs;
    this.#cap = Math.max(1, Math.floor(opts.chunkRows ?? CHUNK_ROWS));
    this.#opts = opts;
    const keys = specs.map((s) => s.key ?? s.name);
    this.#known = new Set(keys);
    this.#miss = specs.map(() => 0);
    this.#read = specs.map((s) => ({
      grammar: grammarOf(s.type, s.name),
      note: this.#log.noteFor(s.name),
    }));
    this.#slots = specs.map((s, i) => {
      const num = !isPlain(s.type);
      return { num, c: (num ? this.#numIdx : this.#plainIdx).push(i) - 1 };
    });
    this.#fill = compile(specs, this.#slots);
    this.#keys = keys;
    this.#num = this.#numIdx.map(() => new Float64Array(0));
    this.#plain = this.#plainIdx.map(() => []);
    this.#encoded = this.#plainIdx.map((i) => new PlainBuffer(specs[i].type as PlainType));
  }

  /** Native chunks built so far (the rows of a chunk are no longer held by JS). */
  get chunks(): number {
    return this.#chunks.length;
  }

  #reset(): void {
    for (const e of this.#encoded) e.reset();
    this.#extras = new Map();
    this.#filled = 0;
  }

  /**
   * Makes room in the column buffers for `rows` rows of the chunk being
   * filled: they start at {@link FIRST_ROWS} and double, up to `chunkRows`.
   * Numeric buffers are reused from chunk to chunk (every row writes every
   * column, and the chunk's Arrow stream copies them into native memory),
   * so a long frame grows them once; a short one (a month of a sync, a page)
   * holds buffers of its own size, not 8,192 rows of every column.
   */
  #room(rows: number): void {
    const had = this.#num[0]?.length ?? this.#plain[0]?.length ?? 0;
    if (rows <= had) return;
    const size = Math.min(this.#cap, Math.max(rows, 2 * had, FIRST_ROWS));
    this.#num = this.#num.map((old) => {
      const a = new Float64Array(size);
      a.set(old);
      return a;
    });
    // the rows taken so far are encoded already: their text and list slots hold null
    this.#plain = this.#plain.map(() => new Array(size).fill(null));
  }

  /** Copies the rows' values into the column buffers; a full buffer becomes a chunk. */
  append(rows: readonly Record<string, unknown>[]): void {
    let from = 0;
    while (from < rows.length) {
      const take = Math.min(rows.length - from, this.#cap - this.#filled);
      this.#room(this.#filled + take);
      this.#fill(
        rows,
        from,
        from + take,
        this.#filled,
        this.#num,
        this.#plain,
        this.#redo,
        this.#scan,
      );
      // text and lists are encoded now, so the page's strings die young
      for (let c = 0; c < this.#plain.length; c++) {
        this.#encoded[c].add(this.#plain[c], this.#filled, this.#filled + take);
        this.#plain[c].fill(null, this.#filled, this.#filled + take);
      }
      this.#filled += take;
      this.#rows += take;
      from += take;
      if (this.#filled === this.#cap) this.#flush();
    }
  }

  /**
   * Called by the row loop for a row with a value it did not take as it
   * came (a missing key, or a value not in its canonical form): reads every
   * such value of that row by its column's grammar, counting the forms read
   * and the values outside the grammar (now null), then looks for
   * undeclared keys when the row has more keys than the declared ones it
   * carries.
   */
  readonly #redo = (row: Record<string, unknown>, o: number): void => {
    const keys = this.#keys;
    let missing = 0;
    for (let i = 0; i < keys.length; i++) {
      const v = row[keys[i]];
      if (v === null) continue;
      const slot = this.#slots[i];
      if (v === undefined) {
        this.#miss[i]++;
        missing++;
        continue;
      }
      // taken inline by the row loop: NaN in a numeric buffer is its null
      if (
        slot.num ? this.#num[slot.c][o] === this.#num[slot.c][o] : this.#plain[slot.c][o] !== null
      ) {
        continue;
      }
      const { grammar, note } = this.#read[i];
      const x = readValue(grammar, v, note);
      if (x === UNREADABLE) {
        this.#log.bad(this.#specs[i].name, v, this.#chunks.length * this.#cap + o);
        continue;
      }
      if (x === null) continue;
      if (slot.num) this.#num[slot.c][o] = typeof x === "boolean" ? (x ? 1 : 0) : x as number;
      else this.#plain[slot.c][o] = x;
    }
    if (Object.keys(row).length !== keys.length - missing) this.#scan(row, o);
  };

  /** Called by the row loop for a row whose key count says it has undeclared keys. */
  readonly #scan = (row: Record<string, unknown>, o: number): void => {
    for (const k of Object.keys(row)) {
      if (this.#known.has(k)) continue;
      let e = this.#extras.get(k);
      if (!e) {
        if (!this.#extraTypes.has(k) && this.#extraTypes.size >= MAX_EXTRA_COLUMNS) {
          this.#droppedCount += this.#dropped.has(k) ? 0 : 1;
          if (this.#dropped.size < 100_000) this.#dropped.add(k);
          continue;
        }
        this.#extras.set(k, e = { at: [], vals: [] });
        if (!this.#extraTypes.has(k)) this.#extraTypes.set(k, "");
      }
      const v = row[k];
      if (v !== null && v !== undefined) {
        e.at.push(o);
        e.vals.push(v);
      }
    }
  };

  /** The buffered rows as a chunk (called with rows buffered, or to make the one chunk of none). */
  #flush(): void {
    this.#chunks.push(this.#chunk());
    this.#reset();
  }

  /**
   * The buffered rows as one frame, every column already of its declared
   * type: one Arrow stream read by Polars in one call (see `_arrow.ts`).
   */
  #chunk(): pl.DataFrame {
    const n = this.#filled;
    const columns: ArrowColumn[] = this.#specs.map((s, i) => {
      const slot = this.#slots[i];
      return slot.num
        ? { name: s.name, type: s.type as NumericType, values: this.#num[slot.c] }
        : { name: s.name, type: s.type as PlainType, values: this.#encoded[slot.c] };
    });
    const bytes = arrowStream(columns, n);
    let df = pl.readIPCStream(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    if (this.#extras.size) {
      df = pl.DataFrame([
        ...df.getColumns(),
        ...[...this.#extras].map(([k, e]) => {
          const vals = new Array(n).fill(null);
          e.at.forEach((o, j) => vals[o] = e.vals[j]);
          const x = extraSeries(k, vals);
          this.#extraTypes.set(k, x.label);
          return x.series;
        }),
      ]);
    }
    return df;
  }

  /** What this builder's rows looked like (see {@link FrameReport}). */
  report(): FrameReport {
    const rows = this.#rows;
    // the declared columns whose count of rows lacking them is `lacking`
    const counted = (this.#opts.reportMissing ?? true) && rows > 0;
    const names = (lacking: (m: number) => boolean) =>
      counted ? this.#specs.filter((_, i) => lacking(this.#miss[i])).map((s) => s.name) : [];
    return {
      rows,
      missing: names((m) => m === rows),
      partlyMissing: names((m) => m > 0 && m < rows),
      extra: [...this.#extraTypes].map(([name, dtype]) => ({ name, dtype: dtype || "String" })),
      droppedExtra: { count: this.#droppedCount, names: [...this.#dropped].slice(0, 8) },
      coerced: this.#log.noted(),
      unreadable: this.#log.unreadable(),
    };
  }

  /**
   * The frame of every appended row. Chunks are joined without a copy; an
   * extra column seen only in some chunks is null in the others, and one
   * whose kind differs between chunks becomes Utf8 everywhere.
   */
  finish(): pl.DataFrame {
    if (this.#filled > 0 || this.#chunks.length === 0) this.#flush();
    const chunks = this.#chunks.splice(0);
    const report = this.report();
    const df = chunks.length === 1 ? chunks[0] : concatChunks(chunks);
    // a column with values outside its grammar and not one that reads: the
    // answer is not of this shape, which is an error, not a column of nulls
    for (const u of report.unreadable) {
      if (df.getColumn(u.column).nullCount() === df.height) {
        const { grammar: g } = this.#read[this.#specs.findIndex((s) => s.name === u.column)];
        throw InvalidResponseError.unreadable({
          field: u.column,
          expected: `${g.type} (${g.forms.join("; ")})`,
          got: u.example,
          row: u.row,
        });
      }
    }
    if (this.#opts.onReport) this.#opts.onReport(report);
    else warnReport(report, this.#specs.length);
    Object.defineProperty(df, "readReport", {
      value: report,
      enumerable: false,
      configurable: true,
    });
    return df;
  }
}

/** Joins chunks whose extra (uncatalogued) columns may differ. */
function concatChunks(chunks: pl.DataFrame[]): pl.DataFrame {
  // the same columns of the same dtypes in every chunk: joined as they are
  const shape = (c: pl.DataFrame) => `${c.columns.join("\u0000")}\u0001${c.dtypes.map(String)}`;
  const first = shape(chunks[0]);
  if (chunks.every((c) => shape(c) === first)) {
    return pl.concat(chunks, { how: "vertical", rechunk: false });
  }
  const typed = chunks.flatMap((c) => Object.entries(c.schema).map(([k, t]) => [k, String(t)]));
  const conflicting = [...Map.groupBy(typed, ([k]) => k)]
    .filter(([, ts]) => new Set(ts.map(([, t]) => t)).size > 1).map(([k]) => k);
  // as text written as JS writes it, as in a chunk of text (`1`, where Polars writes `1.0`)
  const asText = (c: pl.DataFrame, k: string) =>
    pl.Series(k, c.getColumn(k).toArray().map((v) => v === null ? null : String(v)), pl.Utf8);
  const aligned = chunks.map((c) =>
    conflicting.some((k) => c.columns.includes(k))
      ? c.withColumns(...conflicting.filter((k) => c.columns.includes(k)).map((k) => asText(c, k)))
      : c
  );
  return pl.concat(aligned, { how: "diagonal", rechunk: false });
}

/** A JSON number literal. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** An extra column's series by the rule in the module doc, and its dtype label. */
function extraSeries(name: string, vals: unknown[]): { series: pl.Series; label: string } {
  // an extra column that names a CIK is read as one (ten digits), when all its values read
  const ciks = isCikField(name) ? vals.map((v) => v === null ? v : cik.read(v, IGNORE)) : [];
  if (ciks.length && !ciks.includes(UNREADABLE)) {
    return { series: pl.Series(name, ciks, pl.Utf8), label: `${dtypeName(pl.Utf8)}, CIKs` };
  }
  const kinds = new Set(
    vals.filter((v) => v !== null).map((v) =>
      typeof v === "number" && Number.isFinite(v) ? "number" : typeof v
    ),
  );
  const dtype = kinds.size === 1 ? EXTRA_DTYPES[[...kinds][0]]?.() : undefined;
  if (dtype) return { series: pl.Series(name, vals, dtype), label: dtypeName(dtype) };
  // numbers and the literals a double would round, which come as their text (`shared/json_numbers.ts`)
  const digits = kinds.size === 2 && kinds.has("number") &&
    vals.every((v) => typeof v !== "string" || JSON_NUMBER.test(v));
  const json = vals.map((v) => v === null ? null : digits ? String(v) : JSON.stringify(v));
  const how = digits ? "numbers as their digits" : "JSON text";
  return { series: pl.Series(name, json, pl.Utf8), label: `${dtypeName(pl.Utf8)}, ${how}` };
}

/**
 * The dtype of an extra column whose values are all of one kind (other kinds:
 * JSON text); read when used, so importing signalbook does not evaluate
 * nodejs-polars (`./_polars.ts`).
 */
const EXTRA_DTYPES: Record<string, (() => pl.DataType) | undefined> = {
  string: () => pl.Utf8,
  boolean: () => pl.Bool,
  number: () => pl.Float64,
};

/** What a {@link rowSink} builds: the columns, build options, and a row mapping. */
export interface SinkPlan<Row> {
  /** Columns of the frame. */
  specs: readonly ColumnSpec[];
  /** Build options. */
  opts?: FrameBuilderOptions;
  /**
   * Turns an input row into the record the columns read (default: as is);
   * `index` counts the rows of every append (0 for the first row of all).
   * Every row of an append is mapped before any is copied.
   */
  map?: (row: Row, index: number) => Record<string, unknown>;
  /** An append whose rows are marked with this tag (`markDeclared`) is taken as it is, not mapped. */
  declared?: string;
}

/**
 * A {@link RowSink} whose columns are chosen from the first row (or from
 * `undefined` when no row comes): one code path for whole-list and
 * page-by-page builds.
 *
 * @example
 * ```ts
 * import { rowSink } from "./build.ts";
 * const sink = rowSink<{ x: number }>(() => ({ specs: [{ name: "x", type: "decimal" }] }));
 * sink.append([{ x: 1 }, { x: 2 }]);
 * console.log(sink.finish().height); // 2
 * ```
 */
export function rowSink<Row>(plan: (first: Row | undefined) => SinkPlan<Row>): RowSink<Row> {
  let b: FrameBuilder | undefined;
  let p: SinkPlan<Row> | undefined;
  let seen = 0;
  const start = (first: Row | undefined) => {
    p = plan(first);
    b = new FrameBuilder(p.specs, p.opts);
    return b;
  };
  return {
    append(rows) {
      if (rows.length === 0) return;
      const builder = b ?? start(rows[0]);
      const [m, at] = [p!.map, seen];
      const list = rows as readonly Record<string, unknown>[];
      const asIs = !m || (p!.declared !== undefined && declaredAs(list) === p!.declared);
      builder.append(asIs ? list : rows.map((r, i) => m(r, at + i)));
      seen += rows.length;
    },
    finish() {
      return (b ?? start(undefined)).finish();
    },
    get chunks() {
      return b?.chunks ?? 0;
    },
  };
}
