/**
 * The one report per pull of what the frame builder found against the
 * declared columns: absent columns, kept extra columns, values read from a
 * form other than their type's canonical one (the grammars of
 * `shared/values/`), and values outside the grammar (now null). Printed
 * once per pull as warnings, announced as a `frame` event on `httpEvents`,
 * and kept on the frame (`readReport`), whose notebook display summarises it.
 *
 * @module
 */
import { httpEvents } from "../http/events.ts";
import { redactKnownKeys } from "../http/_redact.ts";
import { plural } from "../shared/plural.ts";

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
  /** Values read from a form other than their type's canonical one, per column and form. */
  coerced: { column: string; rows: number; from: string }[];
  /**
   * Values outside their column's grammar (now null), per column: how many,
   * one of them described (never printed) and its row.
   */
  unreadable: { column: string; rows: number; example: string; row: number }[];
}

/**
 * The notebook summary of a report: one line per column with values that
 * did not read, and one per form other than the canonical one.
 */
export function summaryLines(r: FrameReport): string[] {
  const out = r.unreadable.map((u) =>
    `${u.column}: ${
      plural(u.rows, "value")
    } outside the grammar, now null (e.g. ${u.example}, row ${u.row})`
  );
  for (const c of r.coerced) {
    out.push(`${c.column}: ${plural(c.rows, "value")} read from ${c.from}`);
  }
  return out.map(redactKnownKeys);
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
 * import { reportLines } from "./_report.ts";
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
  for (const [from, cols] of Map.groupBy(r.coerced, (c) => c.from)) {
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
          r.unreadable.map((u) =>
            `${u.column} (${plural(u.rows, "row")}, e.g. ${u.example} in row ${u.row})`
          ),
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
  // one entry per key (the first's fields), its rows summed
  const sum = <T extends { rows: number }>(xs: T[], key: (x: T) => string): T[] =>
    [...Map.groupBy(xs, key).values()].map((g) => ({
      ...g[0],
      rows: g.reduce((n, x) => n + x.rows, 0),
    }));
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
