/**
 * The row limit's probe that finds the service reading dates otherwise
 * (`_window_pull.ts` rowsAfter): when the rows handed out reach the limit at
 * a window's last page, one probe of one row over the windows not started
 * says whether rows follow. A probe answered with a row outside the range it
 * asked for means the service reads the date filter otherwise: the pull
 * falls back to the list's own walk (`serialRest`), and the last page's
 * `next` is where that walk has its first row not handed out. Resuming there
 * reads exactly the rest; a null `next` would claim the list ended.
 */
import assert from "node:assert/strict";
import type { Page } from "../../lib/http/paginate.ts";
import type { DayRange, WindowSource } from "../../lib/http/windows.ts";
import { WindowedList } from "../../lib/frames/windowed_list.ts";
import { captureWarnings } from "../_warnings.ts";

type Row = { day: string; id: number };

const day = (n: number) =>
  new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** 120 days of one row but every 7th (quiet), newest first, paged by offset; `lie`: a one-row request with a range gets the newest row. */
function service(lie: boolean) {
  const sorted: Row[] = [];
  for (let d = 119; d >= 0; d--) if (d % 7) sorted.push({ day: day(d), id: sorted.length });
  const seen = { lies: 0 };
  const fetch = (range: DayRange, cursor: string | null, signal: AbortSignal, size?: number) => {
    if (signal.aborted) return Promise.reject(signal.reason);
    const ranged = range.from !== undefined || range.to !== undefined;
    if (lie && size === 1 && ranged && cursor === null) {
      const outside = sorted.find((r) =>
        (range.from !== undefined && r.day < range.from) ||
        (range.to !== undefined && r.day > range.to)
      );
      if (outside) {
        seen.lies++;
        return Promise.resolve<Page<Row>>({ rows: [outside], next: "x:1", raw: null });
      }
    }
    const all = sorted.filter((r) =>
      (range.from === undefined || r.day >= range.from) &&
      (range.to === undefined || r.day <= range.to)
    );
    const at = Number(cursor?.split(":").pop() ?? 0);
    const n = size ?? 10;
    return Promise.resolve<Page<Row>>({
      rows: all.slice(at, at + n),
      next: at + n < all.length ? `${range.from ?? ""}..${range.to ?? ""}:${at + n}` : null,
      raw: null,
    });
  };
  const source: WindowSource<Row> = {
    pageSize: 10,
    day: (r) => r.day,
    key: (r) => String(r.id),
    fetch,
  };
  return { sorted, source, seen };
}

function list(src: WindowSource<Row>, parallel: number, cursor?: string) {
  return new WindowedList<Row>(
    (c, signal) => src.fetch({}, c, signal),
    src,
    {
      sink: () => {
        throw new Error("no frame in this test");
      },
    },
    { parallel, cursor },
  );
}

const ids = (rows: readonly Row[]) => rows.map((r) => r.id);

Deno.test("row limit: a probe answered outside its range falls back to the list's walk; next resumes the rest", async () => {
  let exercised = 0;
  using warned = captureWarnings();
  for (const parallel of [4, 8]) {
    for (let limit = 40; limit <= 90; limit++) {
      const lying = service(true);
      const got: Row[] = [];
      let next: string | null = null;
      for await (const page of list(lying.source, parallel).pages({ limit })) {
        got.push(...page.rows);
        next = page.next;
      }
      if (lying.seen.lies === 0) continue;
      const at = `parallel ${parallel}, limit ${limit}`;
      assert.deepEqual(ids(got), ids(lying.sorted.slice(0, got.length)), `${at}: the prefix`);
      if (got.length === lying.sorted.length) {
        assert.equal(next, null, `${at}: every row came`);
        continue;
      }
      exercised++;
      const left = lying.sorted.length - got.length;
      assert.ok(next !== null, `${at}: next is null with ${left} rows to come`);
      const rest = await list(service(false).source, 2, next).take(1e9);
      assert.deepEqual([...ids(got), ...ids(rest)], ids(lying.sorted), `${at}: resumed`);
    }
  }
  assert.ok(exercised > 0, "no limit reached the probe");
  // each fallback says so (a warning naming the probe's finding)
  assert.ok(warned.lines.some((w) => /row outside the date range a probe asked for/.test(w)));
});
