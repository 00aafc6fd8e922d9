/**
 * How `sync` pulls its months: each run of consecutive months still to do
 * is one date-ordered list over the run's whole range, pulled in parallel
 * date windows (`parallel` = sync's `concurrency`) by the same machinery as
 * `search(…, { parallel })` and `pitches(…, { parallel })`
 * (`http/windows.ts`), with the client's one request budget. Its rows
 * arrive in date order, so a month is complete, framed and handed to
 * `onMonth` as soon as the first row of the next month arrives. Each page's
 * rows go into the month's frame sink at once (`transactionsSink`,
 * `pitchesSink`: typed column buffers), so memory holds one month's
 * columns plus the windows' buffered pages, never a month of parsed rows
 * (4,000 trades of 174 keys, kept as objects until the month ended, were
 * the largest thing a sync of the 10× world held) and never the run.
 *
 * A month without a row between two months of the run that hold at least a
 * page each (100 trades, 50 pitches) is taken for a hole the service left
 * (an early end), not for a quiet month: it fails with a
 * `PaginationError` (`reason: "empty-month"`) and is not recorded as
 * synced, so the sync says so and its `syncedTo` stays. A rerun asks for
 * that month alone, and an empty answer then is believed.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import type { CatalogClient } from "../catalog/client.ts";
import type { InsiderClient, SearchRow } from "../insider/client.ts";
import type { PitchListRow } from "../catalog/types.ts";
import type { FramedList } from "../frames/list.ts";
import { transactionsFrame, transactionsSink } from "../insider/transaction_frames.ts";
import { pitchesFrame, pitchesSink } from "../catalog/pitch_frames.ts";
import type { RowSink } from "../frames/build.ts";
import { easternDate } from "../insider/_windows.ts";
import type { PoolFailure } from "../http/pool.ts";
import type { FrameReport } from "../frames/build.ts";
import { PaginationError } from "../http/errors.ts";
import { releaseNativeIfGrown } from "../frames/_release.ts";

/** A calendar month of a sync, with its first and last day inside the sync's range. */
export interface SyncMonth {
  /** `YYYY-MM`. */
  month: string;
  /** First day. */
  from: string;
  /** Last day. */
  to: string;
  /** Whether the month is pulled whole and has ended (only such a month is recorded as done). */
  ended: boolean;
}

/** The month after `m` (`YYYY-MM`). */
export function nextMonth(m: string): string {
  const [y, mo] = [+m.slice(0, 4), +m.slice(5, 7)];
  return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
}

/** Runs of consecutive months. */
function runsOf(months: readonly SyncMonth[]): SyncMonth[][] {
  const runs: SyncMonth[][] = [];
  for (const m of [...months].sort((a, b) => (a.month < b.month ? -1 : 1))) {
    const last = runs.at(-1)?.at(-1);
    if (last && nextMonth(last.month) === m.month) runs.at(-1)!.push(m);
    else runs.push([m]);
  }
  return runs;
}

/**
 * The error for month `run[i]`, empty, when the nearest months before and
 * after it in the run hold at least `page` rows each; else undefined.
 */
function emptyBetween(
  run: readonly SyncMonth[],
  i: number,
  counts: ReadonlyMap<string, number>,
  page: number,
): PaginationError | undefined {
  const near = (step: number) => {
    for (let j = i + step; j >= 0 && j < run.length; j += step) {
      const n = counts.get(run[j].month);
      if (n !== undefined) return { month: run[j].month, n };
    }
    return undefined;
  };
  const [before, after] = [near(-1), near(1)];
  if (!before || !after || before.n < page || after.n < page) return undefined;
  return new PaginationError(
    `sync: the service sent no rows for ${run[i].month}, between ${before.month} ` +
      `(${before.n} rows) and ${after.month} (${after.n} rows): taken for a hole, not ` +
      `recorded as synced (a rerun asks for ${run[i].month} alone and believes its answer)`,
    "empty-month",
    "",
  );
}

/**
 * Pulls `months` of a dataset and calls `onMonth` with each month's frame
 * (an empty frame for a month without rows), in the list's order. A failure
 * ends that run: the month it happened in and the rest of the run are
 * returned as failed (a rerun resumes there).
 *
 * After each page's rows are in the month's sink, `release` runs (default
 * `releaseNativeIfGrown`: one full collection once the RSS has grown by
 * `NATIVE_SLACK` since the last): the pages parsed meanwhile are garbage
 * that V8 collects lazily, and a check at each month's end only came after
 * a month of pages, or, at a sync's start, after the windows' first
 * buffered pages (the in-process emulator fills them before the reader
 * runs): the default world's sync peaked 345-370 MiB with the check per
 * month, 294-314 with the check per page (`deno run`, load 5-6).
 */
export async function pullMonths(
  ds: "insider_trades" | "pitches",
  client: InsiderClient | CatalogClient,
  months: readonly SyncMonth[],
  parallel: number,
  onReport: (r: FrameReport) => void,
  onPage: () => void,
  onMonth: (m: SyncMonth, frame: pl.DataFrame) => Promise<void>,
  release: () => Promise<unknown> = releaseNativeIfGrown,
): Promise<{ failed: PoolFailure<SyncMonth>[] }> {
  const failed: PoolFailure<SyncMonth>[] = [];
  for (const run of runsOf(months)) {
    const from = run[0].from;
    const to = run[run.length - 1].to;
    const byMonth = new Map(run.map((m) => [m.month, m]));
    const pending = new Set(run.map((m) => m.month));
    /** Rows of each month handed to `onMonth`. */
    const counts = new Map<string, number>();
    let current: string | undefined;
    /** The current month's rows so far, as typed columns (null: none yet). */
    let sink: RowSink<unknown> | null = null;
    let outOfOrder: Error | undefined;
    const sinkOf = () =>
      (ds === "insider_trades"
        ? transactionsSink({ onReport })
        : pitchesSink({ onReport })) as RowSink<unknown>;
    const emptyFrame = () =>
      ds === "insider_trades"
        ? transactionsFrame([], { onReport })
        : pitchesFrame([], { onReport });
    /** Rows `from`..`to` of a page into the current month's sink. */
    const add = (rows: readonly unknown[], from: number, to: number) => {
      if (from === to) return;
      sink ??= sinkOf();
      sink.append(from === 0 && to === rows.length ? rows : rows.slice(from, to));
    };
    const flush = async () => {
      if (current === undefined) return;
      const m = byMonth.get(current) ??
        { month: current, from: current + "-01", to: current, ended: false };
      // one frame per month (one native chunk): a frame per page multiplies native allocations
      const frame = sink ? sink.finish() : emptyFrame();
      sink = null;
      counts.set(current, frame.height);
      await onMonth(m, frame);
      // done only once written: a month whose write fails is reported as failed
      pending.delete(current);
    };
    try {
      const list: FramedList<SearchRow | PitchListRow> = ds === "insider_trades"
        ? (client as InsiderClient).search({
          excludeAnomalousTransactions: false,
          filingDatePreset: "custom",
          filingDateFrom: from,
          filingDateTo: to,
          sortBy: "filedAt",
          sortDirection: "asc",
        }, { pageSize: 100, parallel })
        : (client as CatalogClient).pitches({ addedOnFrom: from, addedOnTo: to, limit: 50 }, {
          parallel,
        });
      for await (const page of list.pages()) {
        onPage();
        const rows = page.rows as readonly unknown[];
        /** The first row of the page not yet in a sink. */
        let start = 0;
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i];
          const day = ds === "insider_trades"
            ? easternDate((r as SearchRow).filedAt)
            : (r as PitchListRow).added_on?.slice(0, 10);
          const month = day?.slice(0, 7) ?? current ?? run[0].month;
          if (month === current) continue;
          add(rows, start, i);
          start = i;
          if (current !== undefined && !pending.has(month) && byMonth.has(month)) {
            // a month already written comes back: the list is not in date order (the
            // list's own error, such as a repeated cursor, is thrown first if it has one)
            outOfOrder ??= new Error(
              `sync: ${ds} rows of ${month} came after ${current}: the list is not in date order`,
            );
            start = i + 1;
            continue;
          }
          await flush();
          current = month;
        }
        add(rows, start, rows.length);
        await release();
      }
      if (outOfOrder) throw outOfOrder;
      await flush();
      const page = ds === "insider_trades" ? 100 : 50;
      run.forEach((m, index) => {
        if (!pending.has(m.month)) return;
        const hole = emptyBetween(run, index, counts, page);
        if (hole) {
          pending.delete(m.month);
          failed.push({ index, item: m, error: hole });
        }
      });
      // months without a row: an empty frame (keeps what an earlier sync stored)
      for (const m of run) if (pending.has(m.month)) await onMonth(m, emptyFrame());
    } catch (error) {
      run.forEach((m, index) => {
        if (pending.has(m.month)) failed.push({ index, item: m, error });
      });
    }
  }
  return { failed };
}
