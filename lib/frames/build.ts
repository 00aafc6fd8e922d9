/**
 * Column-wise DataFrame building: one pass over the rows fills a typed array
 * (or a plain array for text and lists) per column, with `NaN` standing for
 * null in numeric, date, timestamp and boolean columns; then one `pl.Series`
 * per column and a single `withColumns` turns `NaN` into null and casts to the
 * declared dtype (`Int32 → Date`, `Int64 → Datetime("ms", "UTC")`). Polars
 * never infers, and its slow, date-mangling record path is never used.
 *
 * Extra keys in the rows that the specs do not name are kept by a stated
 * rule and reported once per process. They are looked for in the first row
 * and every 64th row (rows of one response share their shape), and once
 * seen their values are read from every row. The rule: a column whose non-null values are all
 * strings is Utf8, all booleans Bool, all finite numbers Float64; anything
 * else (objects, arrays, mixed kinds) becomes Utf8 holding the JSON text.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { type ColumnSpec, polarsType } from "./dtypes.ts";

const DAY_MS = 86_400_000;
const reported = new Set<string>();

function dateDays(v: unknown): number {
  if (typeof v !== "string" || v.length < 10) return NaN;
  const ms = Date.UTC(+v.slice(0, 4), +v.slice(5, 7) - 1, +v.slice(8, 10));
  return ms / DAY_MS;
}

/** Options of {@link buildFrame}. */
export interface BuildOptions {
  /** Keep keys the specs do not name (default true), by the rule in the module doc. */
  keepExtras?: boolean;
  /** Number of keys a complete row has; rows with another count are scanned for extras. */
  expectedKeys?: number;
}

/**
 * Builds a DataFrame from rows with declared column dtypes, in one pass.
 *
 * @example
 * ```ts
 * import { buildFrame } from "./build.ts";
 * const df = buildFrame([{ name: "d", dtype: "date" }, { name: "v", dtype: "f64" }], [
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
  const n = rows.length;
  const keys = specs.map((s) => s.key ?? s.name);
  const numIdx: number[] = [];
  const numKind: number[] = [];
  const numArr: Float64Array[] = [];
  const plainIdx: number[] = [];
  const plainArr: unknown[][] = [];
  specs.forEach((s, i) => {
    if (s.dtype === "utf8" || s.dtype === "list_utf8" || s.dtype === "list_i64") {
      plainIdx.push(i);
      plainArr.push(new Array(n));
    } else {
      numIdx.push(i);
      numKind.push(
        s.dtype === "date"
          ? DATE
          : s.dtype === "datetime"
          ? DATETIME
          : s.dtype === "bool"
          ? BOOL
          : NUM,
      );
      numArr.push(new Float64Array(n));
    }
  });
  const numKeys = numIdx.map((i) => keys[i]);
  const plainKeys = plainIdx.map((i) => keys[i]);
  const keepExtras = opts.keepExtras ?? true;
  const known = new Set(keys);
  const expected = opts.expectedKeys ?? keys.length;
  const extras = new Map<string, unknown[]>();
  const { fill, casts: exprs } = compile(specs, numIdx, numKind, numKeys, plainKeys);
  fill(rows, numArr, plainArr, dateDays);
  if (keepExtras) {
    for (let r = 0; r < n; r += 64) {
      const rowKeys = Object.keys(rows[r]);
      if (rowKeys.length !== expected || extras.size) scanExtras(rows, rowKeys, known, extras);
    }
  }
  const series: pl.Series[] = new Array(specs.length);
  numIdx.forEach((i, c) => {
    series[i] = pl.Series(specs[i].name, numArr[c]);
  });
  plainIdx.forEach((i, c) => {
    const s = specs[i];
    // nodejs-polars cannot build a List series that is empty or starts with null:
    // lead with one empty list and slice it off.
    series[i] = s.dtype === "utf8"
      ? pl.Series(s.name, plainArr[c], pl.Utf8)
      : pl.Series(s.name, [[], ...plainArr[c]], polarsType(s.dtype)).slice(1, n).cast(
        polarsType(s.dtype),
      );
  });
  let df = pl.DataFrame(series);
  if (exprs.length) df = df.withColumns(...exprs);
  if (extras.size) {
    df = pl.DataFrame([
      ...df.getColumns(),
      ...[...extras].map(([k, vals]) => extraSeries(k, vals)),
    ]);
  }
  return df;
}

type Filler = (
  rows: readonly Record<string, unknown>[],
  num: Float64Array[],
  plain: unknown[][],
  dateDays: (v: unknown) => number,
) => void;

/**
 * Compiled per column list, keyed by its content (name, dtype and key of
 * every column) so a caller passing a fresh but equal list each time still
 * hits the cache. Bounded; the oldest entry goes first.
 */
const compiled = new Map<string, { fill: Filler; casts: pl.Expr[] }>();
const MAX_COMPILED = 256;

function compile(
  specs: readonly ColumnSpec[],
  numIdx: number[],
  numKind: number[],
  numKeys: string[],
  plainKeys: string[],
): { fill: Filler; casts: pl.Expr[] } {
  const sig = specs.map((s) => `${s.name}\u0000${s.dtype}\u0000${s.key ?? ""}`).join("\u0001");
  let c = compiled.get(sig);
  if (!c) {
    c = { fill: filler(numKeys, numKind, plainKeys), casts: castExprs(specs, numIdx) };
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(sig, c);
  }
  return c;
}

/**
 * The row loop, generated once per column list: one pass over the rows with
 * every property read and conversion written out with a constant key, which
 * V8 compiles to monomorphic loads (about twice as fast as a generic loop
 * over 174 keys). Keys are embedded with `JSON.stringify`, so no column name
 * can inject code.
 */
function filler(numKeys: string[], numKind: number[], plainKeys: string[]): Filler {
  const lines: string[] = [];
  numKeys.forEach((k, c) => {
    const read = `v = row[${JSON.stringify(k)}];`;
    const conv = numKind[c] === NUM
      ? `typeof v === "number" ? v : NaN`
      : numKind[c] === BOOL
      ? `v === true ? 1 : v === false ? 0 : NaN`
      : numKind[c] === DATE
      ? `dateDays(v)`
      : `typeof v === "string" ? Date.parse(v) : NaN`;
    lines.push(`${read} n${c}[r] = ${conv};`);
  });
  plainKeys.forEach((k, c) =>
    lines.push(`v = row[${JSON.stringify(k)}]; p${c}[r] = v === undefined ? null : v;`)
  );
  const decl = [
    ...numKeys.map((_, c) => `const n${c} = num[${c}];`),
    ...plainKeys.map((_, c) => `const p${c} = plain[${c}];`),
  ].join("\n");
  const body = `${decl}\nfor (let r = 0; r < rows.length; r++) {\n const row = rows[r]; let v;\n ${
    lines.join("\n ")
  }\n}`;
  return new Function("rows", "num", "plain", "dateDays", body) as Filler;
}

/** The NaN → null and dtype casts of the numeric columns. */
function castExprs(specs: readonly ColumnSpec[], numIdx: number[]): pl.Expr[] {
  return numIdx.map((i) => {
    const s = specs[i];
    let e = pl.col(s.name).fillNan(null);
    if (s.dtype === "date") e = e.cast(pl.Int32).cast(pl.Date);
    else if (s.dtype === "datetime") e = e.cast(pl.Int64).cast(pl.Datetime("ms", "UTC"));
    else if (s.dtype !== "f64") e = e.cast(polarsType(s.dtype));
    return e;
  });
}

const NUM = 0;
const BOOL = 1;
const DATE = 2;
const DATETIME = 3;

/** Collects every row's values of keys the specs do not name (run once a sample shows any). */
function scanExtras(
  rows: readonly Record<string, unknown>[],
  sample: string[],
  known: Set<string>,
  extras: Map<string, unknown[]>,
): void {
  const unknown = sample.filter((k) => !known.has(k));
  if (unknown.length === 0 && extras.size === 0) return;
  for (const k of unknown) {
    if (extras.has(k)) continue;
    const vals = new Array(rows.length);
    for (let r = 0; r < rows.length; r++) vals[r] = rows[r][k] ?? null;
    extras.set(k, vals);
  }
}

function extraSeries(name: string, vals: unknown[]): pl.Series {
  const kinds = new Set(
    vals.filter((v) => v !== null).map((v) =>
      typeof v === "number" && Number.isFinite(v) ? "number" : typeof v
    ),
  );
  const kind = kinds.size === 1 ? [...kinds][0] : "json";
  const dtype = kind === "string"
    ? pl.Utf8
    : kind === "boolean"
    ? pl.Bool
    : kind === "number"
    ? pl.Float64
    : pl.Utf8;
  if (!reported.has(name)) {
    reported.add(name);
    console.warn(
      `signalbook: kept column "${name}" that is not in the field catalog, as ${dtype}${
        dtype === pl.Utf8 && kind !== "string" ? " (JSON text)" : ""
      }`,
    );
  }
  const data = kind === "string" || kind === "boolean" || kind === "number"
    ? vals
    : vals.map((v) => v === null ? null : JSON.stringify(v));
  return pl.Series(name, data, dtype);
}

/** An empty frame with the full schema. */
export function emptyFrame(specs: readonly ColumnSpec[]): pl.DataFrame {
  return buildFrame(specs, []);
}
