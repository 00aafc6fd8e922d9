/**
 * A local dataset kept in sync with the services: insider trades (from
 * `search`) and pitches, as hive-partitioned parquet under `dir`:
 *
 * ```
 * dir/insider_trades/year=2025/month=3/data.parquet
 * dir/pitches/year=2025/month=3/data.parquet
 * dir/manifest.json
 * ```
 *
 * How it works (documented filters only):
 * - The history is kept in calendar months of the filing date (Eastern
 *   Time) or of `added_on`. The months still to do are pulled as one
 *   date-ordered list per run of consecutive months (`filingDatePreset:
 *   "custom"` with `filingDateFrom`/`filingDateTo`, or
 *   `addedOnFrom`/`addedOnTo`), in parallel date windows (`concurrency`,
 *   default 4) by the same machinery as `search(…, { parallel })`
 *   (`_sync_pull.ts`, `http/windows.ts`), within the client's one request
 *   budget.
 * - Rows arrive in date order, so each month becomes one frame and one file
 *   as soon as the next month starts: memory holds one month of rows plus
 *   the windows' buffered pages, never the whole history.
 * - Each month is written to a temporary file and renamed over its
 *   `data.parquet` (atomic on POSIX), then the manifest — itself written
 *   atomically — records the month as done. A sync killed at any moment
 *   leaves every `data.parquet` whole; rerunning it skips the months the
 *   manifest holds and ends with exactly the rows of an uninterrupted sync.
 * - One writer at a time: a sync holds the lock of `dir` (its manifest) and
 *   of each dataset folder it writes for its whole run (see `lock.ts`); a
 *   second sync, or a `writeDataset` into one of those folders, waits for it
 *   (at most `lockTimeoutMs`) or fails with a `DatasetLockedError` naming
 *   the holder. It removes only stale temporary files, never another live
 *   writer's.
 * - A full disk stops the sync at the first month that cannot be written,
 *   with a `DiskFullError` naming the file and the free space; rerun once
 *   there is room, and it resumes.
 * - Incremental: a later sync asks only from the last sync's end minus an
 *   overlap window (default 7 days, for late filings and corrections). A
 *   `from` applies to a first sync only: an earlier one given to a later
 *   sync is said once on stderr, not taken as a backfill.
 *   Re-fetched rows replace stored rows with the same key —
 *   `(accession_number, transaction_id)` for trades, `pitch_id` for
 *   pitches — and every month is de-duplicated on its key. Rows deleted by
 *   the service are not removed.
 * - All trades are kept (`excludeAnomalousTransactions: false`); filter when
 *   you read.
 * - Provenance: each dataset records the source its rows came from
 *   (emulator or live, the service's host, when) in its `_signalbook.json`
 *   and in the manifest (`sources`, see `provenance.ts`). A live client
 *   syncing into a dataset holding the emulator's rows, or the reverse, is
 *   a `MixedSourcesError` naming both, before any row is written and with
 *   the manifest untouched; a client of a non-loopback host or of the
 *   in-process emulator is refused before its first request.
 * - State files are read strictly (`state.ts`): a hand-edited manifest
 *   that is not JSON, misses a field or holds a `syncedTo` in the future is
 *   a `StateFileError` naming the file and the field.
 * - Days to come: a `to` after today (UTC) is clamped to today (the
 *   report's `to` says so; a `from` after it is a `RangeError` naming
 *   both), so nothing is asked for days no service has seen and `syncedTo`
 *   never records one. Only a month that has ended and was pulled whole is
 *   recorded as done: the month holding today, and one cut by `from` or
 *   `to` (a `to` before its end, such as the emulator's today), is written
 *   but pulled again by the next sync, or by a rerun of an interrupted one.
 * - Memory: parsed pages are short-lived garbage, and on a large machine V8
 *   collects it lazily, so a long sync's RSS can climb well past what is
 *   live. `deno task sync` (and `deno task demo`) run with
 *   `--v8-flags=--max-old-space-size=512`, which keeps a 250,000-trade sync
 *   under 1 GiB; pass the same flag to your own long-running scripts.
 *
 * @module
 */
import pl from "../frames/_polars.ts";
import { join } from "node:path";
import type { CatalogClient } from "../catalog/client.ts";
import type { InsiderClient } from "../insider/client.ts";
import { nextMonth, pullMonths, type SyncMonth } from "./_sync_pull.ts";
import { type FrameReport, mergeReports, warnReport } from "../frames/build.ts";
import { releaseNativeIfGrown } from "../frames/_release.ts";
import { AuthenticationError, PermissionDeniedError } from "../http/errors.ts";
import { Progress } from "../http/progress_hook.ts";
import { isIsoDate } from "../shared/schema.ts";
import { dayText, isoDay } from "../shared/values/mod.ts";
import { ensureMeta, readMeta, scanDataset } from "./dataset.ts";
import { lockDataset } from "./lock.ts";
import { DiskFullError, writeJsonAtomic, writeParquetAtomic } from "./disk.ts";
import { StateFileError } from "./errors.ts";
import { addSource, clientSource, MixedSourcesError } from "./provenance.ts";
import { checkManifest, MANIFEST_FORMAT, type ManifestState, readStateJson } from "./state.ts";
import { checkPath, UnsafeFileError } from "../shared/regular_file.ts";
import { intOption } from "../shared/options.ts";

/** The datasets a sync can keep. */
export type SyncDataset = "insider_trades" | "pitches";

/** Options of {@link sync}. */
export interface SyncOptions {
  /** Root folder of the datasets. */
  dir: string;
  /** First day to keep, `YYYY-MM-DD` (first sync only; default five years before `to`). */
  from?: string;
  /** Last day, `YYYY-MM-DD` (default today, UTC; a later day is clamped to today). */
  to?: string;
  /** Insider client (for `insider_trades`). */
  insider?: InsiderClient;
  /** Catalog client (for `pitches`). */
  catalog?: CatalogClient;
  /** Which datasets (default: those whose client is given). */
  datasets?: SyncDataset[];
  /** Date windows pulled at once (default 4), by the machinery of `parallel` lists (`_sync_pull.ts`). */
  concurrency?: number;
  /** Days re-read before the last sync's end (default 7). */
  overlapDays?: number;
  /** Live progress (default true: notebook or terminal only). */
  progress?: boolean;
  /**
   * Longest wait, ms, while another writer holds `dir` or one of its datasets
   * (default 60,000; 0: fail at once with a `DatasetLockedError` naming the holder).
   */
  lockTimeoutMs?: number;
}

/** What a sync did, per dataset. */
export interface SyncReport {
  /** Per dataset: months pulled, months skipped as already done, rows written, requests. */
  datasets: Record<
    string,
    { months: number; skipped: number; rows: number; requests: number; from: string; to: string }
  >;
  /** Seconds taken. */
  seconds: number;
}

/** The manifest kept at the dataset root (per dataset: months done, run, syncedTo, sources). */
export type Manifest = ManifestState;

/** The partitions of a synced dataset: integer years and months. */
const PARTITIONS = [{ name: "year", dtype: "Int64" }, { name: "month", dtype: "Int64" }];

const KEYS: Record<SyncDataset, string[]> = {
  insider_trades: ["accession_number", "transaction_id"],
  pitches: ["pitch_id"],
};

/**
 * The calendar months from `from` to `to`, each with its first and last day
 * inside that range (the first month starts at `from`, not on the 1st), and
 * whether it is pulled whole and has ended by `today`: only such a month is
 * recorded as done, so the month holding `today`, and a month cut by `from`
 * or `to`, is pulled again by the next sync.
 *
 * @example
 * ```ts
 * import { syncMonths } from "./sync.ts";
 * syncMonths("2026-10-15", "2026-12-07", "2026-12-07").map((m) => [m.from, m.to, m.ended]);
 * // [["2026-10-15", "2026-10-31", false], ["2026-11-01", "2026-11-30", true],
 * //  ["2026-12-01", "2026-12-07", false]]
 * ```
 */
export function syncMonths(from: string, to: string, today: string): SyncMonth[] {
  const out: SyncMonth[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = nextMonth(m)) {
    const last = new Date(Date.UTC(+m.slice(0, 4), +m.slice(5, 7), 0)).toISOString().slice(0, 10);
    const first = m + "-01" < from ? from : m + "-01";
    // done only when pulled whole and ended: a month cut by from or to (the emulator's today before
    // the month's end) would be skipped by the next sync and its other days never pulled
    const whole = first === m + "-01" && last <= to;
    out.push({ month: m, from: first, to: last > to ? to : last, ended: whole && last < today });
  }
  return out;
}

/**
 * Reads the manifest (an empty one when there is none), strictly: a bad
 * file is a `StateFileError` naming it and the field (see `state.ts`); one
 * that is a symlink, FIFO or hard link an `UnsafeFileError`.
 *
 * @example
 * ```ts
 * import { readManifest } from "./sync.ts";
 * const m = await readManifest(await Deno.makeTempDir());
 * console.log(m.datasets); // {}
 * ```
 */
export async function readManifest(dir: string): Promise<Manifest> {
  const file = join(dir, "manifest.json");
  const v = await readStateJson(file);
  return v === undefined ? { format: MANIFEST_FORMAT, datasets: {} } : checkManifest(file, v);
}

/**
 * Brings the local datasets up to date; see the module doc for how.
 *
 * @example
 * ```ts
 * import { connect, scanInsiderTrades, sync } from "../../mod.ts";
 * const { insider, catalog, offlineToday } = await connect();
 * const dir = await Deno.makeTempDir();
 * const report = await sync({ dir, from: "2025-06-01", to: offlineToday, insider, catalog });
 * const trades = (await scanInsiderTrades(dir)).collectSync();
 * ```
 */
export async function sync(opts: SyncOptions): Promise<SyncReport> {
  const t0 = performance.now();
  const today = new Date().toISOString().slice(0, 10);
  for (const [name, v] of [["from", opts.from], ["to", opts.to]] as const) {
    if (v !== undefined && !isIsoDate(v)) {
      throw new RangeError(`sync: ${name} ${JSON.stringify(v)} is not a YYYY-MM-DD date`);
    }
  }
  // a day to come is clamped to today: no request for days no service has seen
  const to = opts.to === undefined || opts.to > today ? today : opts.to;
  if (opts.from !== undefined && opts.from > to) {
    throw new RangeError(
      `sync: from ${opts.from} is after ${opts.to === to ? "to" : "today"} ${to}; ` +
        `give a from on or before it`,
    );
  }
  const fail = (m: string) => new RangeError(`sync: ${m}`);
  const concurrency = intOption("concurrency", opts.concurrency ?? 4, 1, 32, fail);
  const datasets = opts.datasets ?? [
    ...(opts.insider ? ["insider_trades" as const] : []),
    ...(opts.catalog ? ["pitches" as const] : []),
  ];
  if (datasets.length === 0) {
    throw new Error("sync: give an insider client, a catalog client, or both");
  }
  // one writer at a time: the root (manifest) and every dataset folder this sync writes;
  // taking a lock also clears the temporary files killed writers left there
  const timeoutMs = opts.lockTimeoutMs;
  await using _root = await lockDataset([opts.dir], { caller: "sync", timeoutMs, temps: "top" });
  await using _data = await lockDataset(datasets.map((ds) => join(opts.dir, ds)), {
    caller: "sync",
    timeoutMs,
  });
  const manifest = await readManifest(opts.dir);
  // every write of it is awaited before the next (months are handed over one at a time)
  const saveManifest = () => writeJsonAtomic(join(opts.dir, "manifest.json"), "sync", manifest);
  const report: SyncReport = { datasets: {}, seconds: 0 };
  for (const ds of datasets) {
    const client = ds === "insider_trades" ? opts.insider : opts.catalog;
    if (!client) {
      throw new Error(
        `sync: ${ds} needs ${ds === "insider_trades" ? "an insider" : "a catalog"} client`,
      );
    }
    const root = join(opts.dir, ds);
    // demo and live rows never mix: refused before the first request when the client's
    // source is known already (the in-process emulator, a non-loopback host)
    const held = (await readMeta(root))?.sources;
    const known = clientSource(client);
    if (known) addSource("sync", root, held, known);
    const state = manifest.datasets[ds];
    let from: string;
    // days counted on the one calendar of the date grammar (day numbers)
    if (state?.syncedTo) from = dayText(isoDay(state.syncedTo) - (opts.overlapDays ?? 7));
    else from = opts.from ?? dayText(isoDay(to) - Math.round(5 * 365.25));
    // a later sync continues where the last ended: an earlier `from` is not a backfill, said so
    if (state?.syncedTo && opts.from !== undefined && opts.from < from) {
      console.warn(
        `signalbook: sync: ${ds} was synced up to ${state.syncedTo} and continues from ${from}; ` +
          `from ${opts.from} applies to a first sync only (sync into a new folder for earlier days)`,
      );
    }
    if (from > to) from = to;
    // resume an interrupted run over the same range; otherwise start a new run
    const resuming = state !== undefined && state.syncedTo !== state.run.to &&
      state.run.from === from && state.run.to === to;
    const entry: NonNullable<Manifest["datasets"][SyncDataset]> = {
      done: resuming ? state!.done : {},
      run: { from, to },
      syncedTo: state?.syncedTo,
      sources: state?.sources,
    };
    // the run starts on disk with its first month (or at its end when there is none): a sync
    // refused for its source leaves the manifest and the dataset as they were
    let started = false;
    const start = async () => {
      if (started) return;
      started = true;
      const meta = await ensureMeta(root, PARTITIONS, "sync", clientSource(client, requests > 0));
      entry.sources = meta.sources;
      manifest.datasets[ds] = entry;
      await saveManifest();
    };
    const windows = syncMonths(from, to, today);
    const todo = windows.filter((w) => !(w.month in entry.done));
    const progress = opts.progress === false ? null : new Progress(`sync ${ds.replace("_", " ")}`);
    let rows = 0;
    let requests = 0;
    // one report of missing fields, coercions and extras for the whole dataset, not one per month
    let found: FrameReport | undefined;
    const onReport = (r: FrameReport) => void (found = found ? mergeReports(found, r) : r);
    const { failed } = await pullMonths(ds, client, todo, concurrency, onReport, () => {
      requests++;
      progress?.update({ pages: requests });
    }, async (w, got) => {
      await start();
      const written = await writeMonth(root, ds, w, got);
      // the month's frame, its merge and its parquet buffers are garbage now: free their
      // native memory once it has grown, not at V8's next collection (issue 34: sync's peak)
      await releaseNativeIfGrown();
      rows += got.height;
      progress?.update({ rows });
      // a month not yet ended is written but not done: the next sync pulls it again
      if (w.ended) entry.done[w.month] = written;
      await saveManifest();
    });
    // a rejected key (401), lapsed access (403), a full disk, rows from the other kind of
    // source or a file the store refuses fails every month alike
    const fatal = failed.map((f) => f.error).find((e) =>
      e instanceof AuthenticationError || e instanceof PermissionDeniedError ||
      e instanceof DiskFullError || e instanceof MixedSourcesError ||
      e instanceof StateFileError || e instanceof UnsafeFileError
    );
    progress?.done();
    if (found) warnReport(found);
    if (failed.length && started) await saveManifest();
    if (fatal) throw fatal;
    if (failed.length) {
      // a run of months ends at its first failure: each distinct error once
      throw new AggregateError(
        [...new Set(failed.map((f) => f.error))],
        `sync: ${failed.length} of ${todo.length} months of ${ds} failed (${
          failed.map((f) => f.item.month).join(", ")
        }); rerun to resume`,
      );
    }
    await start();
    entry.syncedTo = to; // never after today (clamped above)
    await saveManifest();
    report.datasets[ds] = {
      months: todo.length,
      skipped: windows.length - todo.length,
      rows,
      requests,
      from,
      to,
    };
  }
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}

/** Merges fresh rows into a month's file by key and replaces it atomically; returns its row count. */
async function writeMonth(
  root: string,
  ds: SyncDataset,
  w: { month: string },
  fresh: pl.DataFrame,
): Promise<number> {
  // month=8, as hive readers read an integer (DuckDB takes month=08 for text); a dataset
  // synced before keeps its month=08 folders
  const year = join(root, `year=${w.month.slice(0, 4)}`);
  const padded = join(year, `month=${w.month.slice(5, 7)}`);
  const dir = await Deno.lstat(padded).then(
    () => padded,
    () => join(year, `month=${+w.month.slice(5, 7)}`),
  );
  const file = join(dir, "data.parquet");
  const keys = KEYS[ds];
  let merged = fresh;
  try {
    await checkPath(file); // a regular file with one link, never a link to a file elsewhere
    const old = pl.readParquet(file);
    merged = pl.concat([old.join(fresh.select(...keys), { on: keys, how: "anti" }), fresh], {
      how: "vertical",
    });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e; // else a new month
  }
  // a copy of the month's columns only when a key repeats (a row the service sent twice)
  if (merged.select(...keys).isDuplicated().any()) {
    merged = merged.unique({ subset: keys, keep: "last", maintainOrder: true });
  }
  if (merged.height === 0) return 0;
  await Deno.mkdir(dir, { recursive: true });
  await writeParquetAtomic(file, "sync", merged);
  return merged.height;
}

/**
 * A LazyFrame over the synced insider trades (with `year`/`month`).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, scanInsiderTrades, sync } from "../../mod.ts";
 * const { insider, offlineToday } = await connect();
 * const dir = await Deno.makeTempDir();
 * await sync({ dir, from: "2025-06-01", to: offlineToday, insider, progress: false });
 * const ceoBuys = (await scanInsiderTrades(dir)).filter(pl.col("is_ceo").and(pl.col("code").eq(pl.lit("P")))).collectSync();
 * ```
 */
export function scanInsiderTrades(dir: string): Promise<pl.LazyDataFrame> {
  return scanDataset(join(dir, "insider_trades"));
}

/**
 * A LazyFrame over the synced pitches (with `year`/`month`).
 *
 * @example
 * ```ts
 * import { connect, scanPitches, sync } from "../../mod.ts";
 * const { catalog, offlineToday } = await connect();
 * const dir = await Deno.makeTempDir();
 * await sync({ dir, from: "2025-06-01", to: offlineToday, catalog, progress: false });
 * const pitches = (await scanPitches(dir)).collectSync();
 * ```
 */
export function scanPitches(dir: string): Promise<pl.LazyDataFrame> {
  return scanDataset(join(dir, "pitches"));
}
