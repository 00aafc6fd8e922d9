/**
 * Lenient values, counted (issue 21): what the frame builder does with a
 * value whose JSON type is not its column's, and the one report per pull of
 * everything it did.
 *
 * - Numbers sent as numeric text (`"412.5"`, `" -3e2 "`) become numbers;
 *   booleans sent as `"true"`/`"false"` (any case) or `1`/`0` become
 *   booleans; numbers and booleans in text columns become their text;
 *   objects in text columns become JSON text; a list sent as JSON text
 *   becomes the list. Each is counted as a coercion, by column.
 * - `""` (or blanks) in a non-text column becomes null, counted apart.
 * - Anything else that cannot be read as the column's type (a word in a
 *   number column, a date that does not parse, an object in a number
 *   column) becomes null and is counted as unreadable, with one example.
 * - Nothing here throws: one odd value never fails a pull.
 *
 * The common path never comes here: the builder's row loop handles values
 * of the right type and null inline, and calls {@link ValueLog.odd} only
 * for the rest.
 *
 * @module
 */
import { httpEvents } from "../http/events.ts";
import { redactKnownKeys } from "../http/_redact.ts";
import { plural } from "../shared/plural.ts";

/** Value kinds the row loop distinguishes. */
export const NUM = 0;
/** Boolean column. */
export const BOOL = 1;
/** Date column. */
export const DATE = 2;
/** Timestamp column. */
export const DATETIME = 3;
/** Text column. */
export const TEXT = 4;
/** List column. */
export const LIST = 5;

/**
 * What one pull's rows looked like against the declared columns: reported
 * once per pull (a warning per kind of finding, and a `frame` event on
 * `httpEvents`).
 */
export interface FrameReport {
  /** Rows read. */
  rows: number;
  /** Declared columns absent from every row (they are null). */
  missing: string[];
  /** Declared columns absent from some rows only (null there). */
  partlyMissing: string[];
  /** Columns not declared that were kept, with their dtype. */
  extra: { name: string; dtype: string }[];
  /** Undeclared keys left out past the cap on extra columns: how many, and the first few. */
  droppedExtra: { count: number; names: string[] };
  /** Values converted to their column's type, per column and source kind. */
  coerced: { column: string; rows: number; from: string }[];
  /** Values that could not be read (now null), per column, with the kind of one of them (never the value). */
  unreadable: { column: string; rows: number; example: string }[];
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * What an unreadable value was, without the value: its kind and size
 * (`text of 9 characters`, `an object`, …). A warning never prints a
 * column's value — a row can hold anything, a key included.
 */
function example(v: unknown): string {
  if (typeof v === "string") return `text of ${v.length} character${v.length === 1 ? "" : "s"}`;
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (v === null) return "null";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

/** Counts per column of what the row loop could not take as it came. */
export class ValueLog {
  /** Declared column names, by spec index. */
  readonly names: readonly string[];
  /** Rows lacking each declared column's key, by spec index. */
  readonly miss: number[];
  readonly #coerced = new Map<string, number>(); // `${i}\u0000${from}` → rows
  readonly #unreadable = new Map<number, { rows: number; example: string }>();

  /** A log for these columns. */
  constructor(names: readonly string[]) {
    this.names = names;
    this.miss = names.map(() => 0);
  }

  #coerce(i: number, from: string): void {
    const k = `${i}\u0000${from}`;
    this.#coerced.set(k, (this.#coerced.get(k) ?? 0) + 1);
  }

  #bad(i: number, v: unknown): void {
    const u = this.#unreadable.get(i);
    if (u) u.rows++;
    else this.#unreadable.set(i, { rows: 1, example: example(v) });
  }

  /**
   * The value of `v` for column `i` of kind `kind`, when `v` is neither of
   * the column's type nor null/undefined: a number (NaN for null) for
   * numeric, boolean, date and timestamp kinds; the value for text and lists.
   */
  readonly odd = (v: unknown, i: number, kind: number): unknown => {
    if (typeof v === "string" && v.trim() === "" && kind !== TEXT) {
      this.#coerce(i, "empty text (now null)");
      return kind === LIST ? null : NaN;
    }
    switch (kind) {
      case NUM:
        if (typeof v === "string" && NUMERIC.test(v.trim())) {
          this.#coerce(i, "text");
          return Number(v);
        }
        break;
      case BOOL:
        if (typeof v === "string") {
          const t = v.trim().toLowerCase();
          if (t === "true" || t === "false") {
            this.#coerce(i, "text");
            return t === "true" ? 1 : 0;
          }
        } else if (v === 1 || v === 0) {
          this.#coerce(i, "number");
          return v;
        }
        break;
      case TEXT:
        if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") {
          this.#coerce(i, typeof v);
          return String(v);
        }
        if (typeof v === "object") {
          this.#coerce(i, "JSON");
          return JSON.stringify(v);
        }
        break;
      case LIST:
        if (typeof v === "string" && v.trim().startsWith("[")) {
          try {
            const parsed = JSON.parse(v);
            if (Array.isArray(parsed)) {
              this.#coerce(i, "text");
              return parsed;
            }
          } catch {
            // unreadable, below
          }
        }
        this.#bad(i, v);
        return null;
    }
    this.#bad(i, v);
    return kind === TEXT ? null : NaN;
  };

  /**
   * A list column's values with every element of the list's item type:
   * numeric text becomes a number, numbers and booleans in text lists their
   * text; any other element becomes null, and the row is counted.
   */
  cleanLists(i: number, vals: unknown[], numeric: boolean): unknown[] {
    return vals.map((list) => {
      if (!Array.isArray(list)) return list;
      let odd = false;
      const out = list.map((x) => {
        if (x === null || (numeric ? typeof x === "number" : typeof x === "string")) return x;
        odd = true;
        if (numeric && typeof x === "string" && NUMERIC.test(x.trim())) return Number(x);
        if (!numeric && (typeof x === "number" || typeof x === "boolean")) return String(x);
        return undefined;
      });
      if (!odd) return list;
      if (out.includes(undefined)) {
        this.#bad(i, list);
        return out.map((x) => x === undefined ? null : x);
      }
      this.#coerce(i, numeric ? "text in lists" : "numbers in lists");
      return out;
    });
  }

  /** The findings as a report (see {@link FrameReport}); `missing` only when asked. */
  report(
    rows: number,
    reportMissing: boolean,
    extra: FrameReport["extra"],
    dropped: FrameReport["droppedExtra"],
  ): FrameReport {
    const missing: string[] = [];
    const partly: string[] = [];
    if (reportMissing && rows > 0) {
      this.miss.forEach((m, i) => {
        if (m === rows) missing.push(this.names[i]);
        else if (m > 0) partly.push(this.names[i]);
      });
    }
    return {
      rows,
      missing,
      partlyMissing: partly,
      extra,
      droppedExtra: dropped,
      coerced: [...this.#coerced].map(([k, n]) => {
        const [i, from] = k.split("\u0000");
        return { column: this.names[+i], rows: n, from };
      }),
      unreadable: [...this.#unreadable].map(([i, u]) => ({ column: this.names[i], ...u })),
    };
  }
}

const firstFew = (names: string[], n = 6) =>
  names.slice(0, n).join(", ") + (names.length > n ? `, … (${names.length - n} more)` : "");

/** Extra column names already reported in this process (they are reported once). */
const reportedExtra = new Set<string>();

/**
 * The warning lines of a report (nothing when all was as declared).
 *
 * @example
 * ```ts
 * import { reportLines } from "./_lenient.ts";
 * reportLines({ rows: 412, missing: [], partlyMissing: [], extra: [], droppedExtra: { count: 0, names: [] },
 *   coerced: [{ column: "transaction_value", rows: 412, from: "text" }], unreadable: [] });
 * // ["signalbook: 1 column coerced from text: transaction_value (412 rows)"]
 * ```
 */
export function reportLines(r: FrameReport, declared?: number): string[] {
  const out: string[] = [];
  if (r.missing.length) {
    out.push(
      `signalbook: ${r.missing.length}${
        declared ? ` of ${declared}` : ""
      } declared columns are absent from all ${r.rows} rows, so they are null: ${
        firstFew(r.missing)
      } (the service spells them otherwise or left them out)`,
    );
  }
  if (r.partlyMissing.length) {
    out.push(
      `signalbook: ${
        plural(r.partlyMissing.length, "declared column")
      } absent from some rows (null there): ${firstFew(r.partlyMissing)}`,
    );
  }
  const fresh = r.extra.filter((e) => !reportedExtra.has(e.name));
  for (const e of fresh) if (reportedExtra.size < 10_000) reportedExtra.add(e.name);
  if (fresh.length) {
    out.push(
      `signalbook: kept ${plural(fresh.length, "column")} not in the field catalog: ${
        firstFew(fresh.map((e) => `"${e.name}" (${e.dtype})`), 12)
      }`,
    );
  }
  if (r.droppedExtra.count) {
    out.push(
      `signalbook: left out ${
        plural(r.droppedExtra.count, "more key")
      } not in the field catalog, past the cap on extra columns: ${
        firstFew(r.droppedExtra.names.map((n) => JSON.stringify(n)))
      }`,
    );
  }
  const byFrom = new Map<string, { column: string; rows: number }[]>();
  for (const c of r.coerced) (byFrom.get(c.from) ?? byFrom.set(c.from, []).get(c.from)!).push(c);
  for (const [from, cols] of byFrom) {
    cols.sort((a, b) => b.rows - a.rows);
    const what = from.startsWith("empty") ? "read as null from empty text" : `coerced from ${from}`;
    out.push(
      `signalbook: ${plural(cols.length, "column")} ${what}: ${
        firstFew(cols.map((c) => `${c.column} (${plural(c.rows, "row")})`))
      }`,
    );
  }
  if (r.unreadable.length) {
    out.push(
      `signalbook: ${plural(r.unreadable.length, "column")} had unreadable values, now null: ${
        firstFew(
          r.unreadable.map((u) => `${u.column} (${plural(u.rows, "row")}, e.g. ${u.example})`),
        )
      }`,
    );
  }
  // column names come from the server: a key in one is redacted
  return out.map(redactKnownKeys);
}

/** Prints a report's warnings (once per pull) and announces it as a `frame` event. */
export function warnReport(r: FrameReport, declared?: number): void {
  // column names come from the server: any key in one is redacted
  for (const line of reportLines(r, declared)) console.warn(line);
  httpEvents.dispatchEvent(new CustomEvent<FrameReport>("frame", { detail: r }));
}

/** One report for several pulls of the same columns (e.g. the months of a sync). */
export function mergeReports(a: FrameReport, b: FrameReport): FrameReport {
  const sum = <T extends { rows: number }>(xs: T[], key: (x: T) => string): T[] => {
    const m = new Map<string, T>();
    for (const x of xs) {
      const k = key(x);
      const had = m.get(k);
      m.set(k, had ? { ...had, rows: had.rows + x.rows } : { ...x });
    }
    return [...m.values()];
  };
  if (a.rows === 0 || b.rows === 0) {
    const [full, empty] = a.rows === 0 ? [b, a] : [a, b];
    return {
      ...full,
      extra: [...new Map([...full.extra, ...empty.extra].map((e) => [e.name, e])).values()],
    };
  }
  const allMissing = a.missing.filter((x) => b.missing.includes(x));
  const partly = new Set([...a.partlyMissing, ...b.partlyMissing, ...a.missing, ...b.missing]);
  for (const x of allMissing) partly.delete(x);
  return {
    rows: a.rows + b.rows,
    missing: allMissing,
    partlyMissing: [...partly],
    extra: [...new Map([...a.extra, ...b.extra].map((e) => [e.name, e])).values()],
    droppedExtra: {
      count: a.droppedExtra.count + b.droppedExtra.count,
      names: [...new Set([...a.droppedExtra.names, ...b.droppedExtra.names])].slice(0, 8),
    },
    coerced: sum([...a.coerced, ...b.coerced], (c) => `${c.column}\u0000${c.from}`),
    unreadable: sum([...a.unreadable, ...b.unreadable], (u) => u.column),
  };
}
