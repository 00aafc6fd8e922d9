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
import { z } from "npm:@hono/zod-openapi@1.6.3";
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

/**
 * The zod params of a check whose failure reads `is <value>; expected
 * <what>` (the value as the file holds it, see {@link parseState}).
 */
const expected = (what: string) => ({ error: `; expected ${what}` });

/** A value that passes `ok`, else `is <value>; expected <what>`. */
const valid = <T>(ok: (v: unknown) => boolean, what: string) =>
  z.custom<T>((v) => ok(v), expected(what));

const isoDay = valid<string>((v) => typeof v === "string" && isIsoDate(v), "a YYYY-MM-DD date");
const isoTime = valid<string>(
  (v) => typeof v === "string" && /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v)),
  "an ISO 8601 time",
);
const format = <F extends string>(want: F) =>
  z.literal(want, expected(`${JSON.stringify(want)} (a foreign or newer format is not read)`));
const sourcesSchema = z.array(
  z.object({
    kind: z.enum(SOURCE_KINDS, expected('"emulator" or "live"')),
    host: valid<string | null>(
      (v) => v === null || (typeof v === "string" && v !== ""),
      "a host or null",
    ),
    first: isoTime,
    last: isoTime,
  }, expected("a source ({ kind, host, first, last })")),
  expected("a list of sources"),
).optional();

/**
 * `v` checked by `schema`, or a {@link StateFileError} naming `file` and
 * the field of the first problem: `is <value>; expected <what>`, or the
 * check's own sentence.
 */
function parseState<T>(schema: z.ZodType<T>, file: string, v: unknown): T {
  const got = schema.safeParse(v);
  if (got.success) return got.data;
  const issue = got.error.issues[0];
  // a key a record does not own is named as a field of its own; a bad key, by its record
  const path = issue.code === "unrecognized_keys"
    ? [...issue.path, issue.keys[0]]
    : issue.code === "invalid_key"
    ? issue.path.slice(0, -1)
    : issue.path;
  const field = path.map((k) => typeof k === "number" ? `[${k}]` : `.${String(k)}`).join("")
    .replace(/^\./, "");
  const value = path.reduce((o: unknown, k) => (o as Record<PropertyKey, unknown>)?.[k], v);
  const problem = /^[;,]/.test(issue.message)
    ? `is ${shown(value)}${issue.message}`
    : issue.message;
  throw new StateFileError(file, field || FILE, problem);
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

const META_SCHEMA = z.object({
  format: format(META_FORMAT),
  partitions: z.array(
    z.object({
      name: valid<string>((v) => typeof v === "string" && /^[^/\\=]+$/.test(v), "a column name"),
      dtype: z.enum(PARTITION_DTYPES, expected(`one of ${PARTITION_DTYPES.join(", ")}`)),
    }, expected("{ name, dtype }")),
    expected("a list of { name, dtype }"),
  ).min(1, expected("a list of { name, dtype }")),
  sources: sourcesSchema,
}, expected('an object with "format" and "partitions"'));

/** Checks the JSON of a `_signalbook.json` (see the module doc). */
export function checkMeta(file: string, v: unknown): MetaState {
  return parseState(META_SCHEMA, file, v);
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

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Checks the JSON of a `manifest.json` (see the module doc); `now` is the clock (ms). */
export function checkManifest(file: string, v: unknown, now = Date.now()): ManifestState {
  // the latest syncedTo a manifest may hold: tomorrow (UTC), for clocks a day apart
  const latest = new Date(now + 86_400_000).toISOString().slice(0, 10);
  const entry = z.object({
    done: z.record(
      z.string().regex(MONTH),
      valid<number>((n) => Number.isInteger(n) && n as number >= 0, "a row count"),
      {
        error: (i) =>
          i.code === "invalid_key"
            ? `has the key ${JSON.stringify(i.input)}; expected YYYY-MM months`
            : `; expected an object of months ("YYYY-MM": rows)`,
      },
    ),
    run: z.object({ from: isoDay, to: isoDay }, expected("an object { from, to }"))
      .refine((r) => r.from <= r.to, {
        error: (i) => {
          const r = i.input as { from: string; to: string };
          return `goes from ${r.from} back to ${r.to}`;
        },
      }),
    syncedTo: isoDay.refine((d) => d <= latest, {
      error:
        `, in the future (the latest allowed is ${latest}); a sync never records a day it has not seen`,
    }).optional(),
    sources: sourcesSchema,
  }, expected("an object with done, run and syncedTo"));
  const schema = z.object({
    format: format(MANIFEST_FORMAT),
    datasets: z.partialRecord(z.enum(SYNC_DATASETS), entry, {
      error: (i) =>
        (i.code as string) === "unrecognized_keys"
          ? `is not a dataset sync keeps; expected ${SYNC_DATASETS.join(" or ")}`
          : "; expected an object of datasets",
    }),
  }, expected('an object with "format" and "datasets"'));
  return parseState(schema, file, v);
}
