/**
 * Reading a dataset's state files, `manifest.json` (what `sync` did) and
 * `_signalbook.json` (a dataset's partitions and sources), strictly: each
 * is opened only as a regular file with one link (see
 * `shared/regular_file.ts`), at most 4 MiB, and every field is checked.
 * Anything else is a {@link StateFileError} naming the file and the field:
 * text that is not JSON, `null` or `[]` where an object belongs, a missing
 * or null field, a foreign `format`, a month or date that is not one, a
 * `syncedTo` later than tomorrow (a hand edit; it would shrink the next
 * sync to nothing). Nothing is guessed or repaired.
 *
 * @module
 */
import { readSmallText } from "./_files.ts";
import { FILE, StateFileError } from "./errors.ts";
import { type DatasetSource, SOURCE_KINDS } from "./provenance.ts";
import { isIsoDate } from "../shared/schema.ts";

/** The format marker of `manifest.json`. */
export const MANIFEST_FORMAT = "signalbook-sync/1";
/** The format marker of `_signalbook.json`. */
export const META_FORMAT = "signalbook-hive-parquet/1";
/**
 * Partition dtypes a dataset may have (Polars' names), each with the DuckDB
 * type `query()` reads its folder values as.
 */
export const PARTITION_TYPES = {
  String: "VARCHAR",
  Utf8: "VARCHAR",
  Int8: "TINYINT",
  Int16: "SMALLINT",
  Int32: "INTEGER",
  Int64: "BIGINT",
  UInt8: "UTINYINT",
  UInt16: "USMALLINT",
  UInt32: "UINTEGER",
  UInt64: "UBIGINT",
  Bool: "BOOLEAN",
} as const;
/** The partition dtypes, in a list. */
export const PARTITION_DTYPES = Object.keys(PARTITION_TYPES) as (keyof typeof PARTITION_TYPES)[];
/** The datasets `sync` keeps. */
export const SYNC_DATASETS = ["insider_trades", "pitches"] as const;

/**
 * The parsed JSON of a state file, or undefined when it does not exist (a
 * file holding `null` is read as null); bad JSON is a
 * {@link StateFileError} (an unsafe file an `UnsafeFileError`).
 */
export async function readStateJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readSmallText(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new StateFileError(file, FILE, `is not valid JSON (${(e as Error).message})`, "", {
      cause: e,
    });
  }
}

/** Checks one state file's fields; each failure names the field. */
class Fields {
  constructor(readonly file: string) {}
  fail(field: string, problem: string): never {
    throw new StateFileError(this.file, field, problem);
  }
  object(v: unknown, field: string, what: string): Record<string, unknown> {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      this.fail(field, `is ${shown(v)}; expected ${what}`);
    }
    return v as Record<string, unknown>;
  }
  format(v: Record<string, unknown>, want: string): void {
    if (v.format !== want) {
      this.fail(
        "format",
        `is ${shown(v.format)}; expected ${JSON.stringify(want)} (a foreign or newer format ` +
          `is not read)`,
      );
    }
  }
  date(v: unknown, field: string): string {
    if (typeof v !== "string" || !isIsoDate(v)) {
      this.fail(field, `is ${shown(v)}; expected a YYYY-MM-DD date`);
    }
    return v;
  }
  timestamp(v: unknown, field: string): string {
    if (typeof v !== "string" || !/^\d{4}-\d\d-\d\dT/.test(v) || Number.isNaN(Date.parse(v))) {
      this.fail(field, `is ${shown(v)}; expected an ISO 8601 time`);
    }
    return v;
  }
  sources(v: unknown, field: string): DatasetSource[] | undefined {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) this.fail(field, `is ${shown(v)}; expected a list of sources`);
    return v.map((s, i) => {
      const f = `${field}[${i}]`;
      const o = this.object(s, f, "a source ({ kind, host, first, last })");
      if (!SOURCE_KINDS.includes(o.kind as never)) {
        this.fail(`${f}.kind`, `is ${shown(o.kind)}; expected "emulator" or "live"`);
      }
      if (o.host !== null && (typeof o.host !== "string" || o.host === "")) {
        this.fail(`${f}.host`, `is ${shown(o.host)}; expected a host or null`);
      }
      return {
        kind: o.kind as DatasetSource["kind"],
        host: o.host as string | null,
        first: this.timestamp(o.first, `${f}.first`),
        last: this.timestamp(o.last, `${f}.last`),
      };
    });
  }
}

/** `v` for a message: short JSON, `null`, `[]`, "missing". */
function shown(v: unknown): string {
  if (v === undefined) return "missing";
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** A dataset's `_signalbook.json`, checked. */
export interface MetaState {
  /** Format marker. */
  format: typeof META_FORMAT;
  /** Partition columns and their dtype names, outermost first. */
  partitions: { name: string; dtype: string }[];
  /** Where its rows came from (absent: written before sources were recorded). */
  sources?: DatasetSource[];
}

/** Checks the JSON of a `_signalbook.json` (see the module doc). */
export function checkMeta(file: string, v: unknown): MetaState {
  const f = new Fields(file);
  const o = f.object(v, FILE, 'an object with "format" and "partitions"');
  f.format(o, META_FORMAT);
  if (!Array.isArray(o.partitions) || o.partitions.length === 0) {
    f.fail("partitions", `is ${shown(o.partitions)}; expected a list of { name, dtype }`);
  }
  const partitions = (o.partitions as unknown[]).map((p, i) => {
    const po = f.object(p, `partitions[${i}]`, "{ name, dtype }");
    if (typeof po.name !== "string" || !/^[^/\\=]+$/.test(po.name)) {
      f.fail(`partitions[${i}].name`, `is ${shown(po.name)}; expected a column name`);
    }
    if (!PARTITION_DTYPES.includes(po.dtype as never)) {
      f.fail(
        `partitions[${i}].dtype`,
        `is ${shown(po.dtype)}; expected one of ${PARTITION_DTYPES.join(", ")}`,
      );
    }
    return { name: po.name as string, dtype: po.dtype as string };
  });
  const sources = f.sources(o.sources, "sources");
  return { format: META_FORMAT, partitions, ...(sources ? { sources } : {}) };
}

/** One dataset's entry in `manifest.json`. */
export interface ManifestEntry {
  /** Months done in the sync under way or the last one (`YYYY-MM` → rows). */
  done: Record<string, number>;
  /** Range of the sync under way or the last one. */
  run: { from: string; to: string };
  /** End date of the last completed sync. */
  syncedTo?: string;
  /** Where its rows came from (the same list as the dataset's `_signalbook.json`). */
  sources?: DatasetSource[];
}

/** `manifest.json`, checked. */
export interface ManifestState {
  /** Format marker. */
  format: typeof MANIFEST_FORMAT;
  /** Per dataset. */
  datasets: Partial<Record<(typeof SYNC_DATASETS)[number], ManifestEntry>>;
}

/** The latest `syncedTo` a manifest may hold: tomorrow (UTC), for clocks a day apart. */
function latestSyncedTo(now: number): string {
  return new Date(now + 86_400_000).toISOString().slice(0, 10);
}

/** Checks the JSON of a `manifest.json` (see the module doc); `now` is the clock (ms). */
export function checkManifest(file: string, v: unknown, now = Date.now()): ManifestState {
  const f = new Fields(file);
  const o = f.object(v, FILE, 'an object with "format" and "datasets"');
  f.format(o, MANIFEST_FORMAT);
  const ds = f.object(o.datasets, "datasets", "an object of datasets");
  const datasets: ManifestState["datasets"] = {};
  for (const [name, raw] of Object.entries(ds)) {
    const at = `datasets.${name}`;
    if (!SYNC_DATASETS.includes(name as never)) {
      f.fail(at, `is not a dataset sync keeps; expected ${SYNC_DATASETS.join(" or ")}`);
    }
    const e = f.object(raw, at, "an object with done, run and syncedTo");
    const doneObj = f.object(e.done, `${at}.done`, 'an object of months ("YYYY-MM": rows)');
    const done: Record<string, number> = {};
    for (const [month, rows] of Object.entries(doneObj)) {
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
        f.fail(`${at}.done`, `has the key ${JSON.stringify(month)}; expected YYYY-MM months`);
      }
      if (typeof rows !== "number" || !Number.isInteger(rows) || rows < 0) {
        f.fail(`${at}.done.${month}`, `is ${shown(rows)}; expected a row count`);
      }
      done[month] = rows as number;
    }
    const runObj = f.object(e.run, `${at}.run`, "an object { from, to }");
    const run = {
      from: f.date(runObj.from, `${at}.run.from`),
      to: f.date(runObj.to, `${at}.run.to`),
    };
    if (run.from > run.to) f.fail(`${at}.run`, `goes from ${run.from} back to ${run.to}`);
    const entry: ManifestEntry = { done, run };
    if (e.syncedTo !== undefined) {
      const syncedTo = f.date(e.syncedTo, `${at}.syncedTo`);
      const latest = latestSyncedTo(now);
      if (syncedTo > latest) {
        f.fail(
          `${at}.syncedTo`,
          `is ${
            JSON.stringify(syncedTo)
          }, in the future (the latest allowed is ${latest}); a sync ` +
            `never records a day it has not seen`,
        );
      }
      entry.syncedTo = syncedTo;
    }
    const sources = f.sources(e.sources, `${at}.sources`);
    if (sources) entry.sources = sources;
    datasets[name as (typeof SYNC_DATASETS)[number]] = entry;
  }
  return { format: MANIFEST_FORMAT, datasets };
}
