/**
 * Undoing a split (`unsplit` in `lib/http/_window_pull.ts`): when the rows a
 * window read past its new end are not the next windows' first rows, the
 * window reads the rest of its requests' range itself, so every window
 * inside that range — one that starts on its last day included — is
 * dropped. Checked through `take()` with `parallel` against generated
 * services that date some rows otherwise than the client reads them: the
 * rows are the serial prefix, and none is read by two windows (which the
 * pull would report as "sent again").
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Page } from "../../lib/http/paginate.ts";
import type { DayRange, WindowSource } from "../../lib/http/windows.ts";
import { WindowedList } from "../../lib/frames/windowed_list.ts";

type Row = { day: string; id: number };
/** Day `n` from 2024-01-01, and back. */
const dayIndex = (d: string) => Date.parse(d) / 86_400_000 - 19_723;
const day = (n: number) =>
  new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** Newest first, paged by offset; the client reads the day of row `id` as `dayOf`. */
function source(rows: Row[], pageSize: number, dayOf: (r: Row) => string): WindowSource<Row> {
  return {
    pageSize,
    order: "desc",
    day: dayOf,
    key: (r) => String(r.id),
    fetch: (range: DayRange, cursor: string | null, _s: AbortSignal, size?: number) => {
      const all = rows.filter((r) =>
        (range.from === undefined || r.day >= range.from) &&
        (range.to === undefined || r.day <= range.to)
      );
      const at = Number(cursor?.split(":").pop() ?? 0);
      const n = size ?? pageSize;
      const next = at + n < all.length ? `${range.from ?? ""}..${range.to ?? ""}:${at + n}` : null;
      return Promise.resolve<Page<Row>>({ rows: all.slice(at, at + n), next, raw: null });
    },
  };
}

/** Rows a day of a list where a window starting on the undone window's last day once got past. */
const STARTS_ON_LAST_DAY = (
  "16 5 0 19 21 13 20 29 5 21 29 15 3 8 7 17 21 1 28 2 18 4 13 1 25 0 25 22 27 13 27 17 19 15 21 6 28"
).split(" ").map(Number);

Deno.test("an undone split drops every window inside its range, the one starting on its last day too: serial rows, none read twice", async () => {
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (m: string) => void warnings.push(m);
  let undone = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 20, maxLength: 200 }),
        fc.integer({ min: 3, max: 25 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.option(fc.integer({ min: 1, max: 3_000 }), { nil: undefined }),
        async (perDay, pageSize, parallel, every, limit) => {
          const rows: Row[] = [];
          perDay.forEach((n, d) => {
            for (let i = 0; i < n; i++) rows.push({ day: day(400 - d), id: rows.length });
          });
          // the client reads the last row of some days as the day before
          const last = new Set(rows.filter((r, i) => rows[i + 1]?.day !== r.day).map((r) => r.id));
          const dayOf = (r: Row) =>
            last.has(r.id) && r.id % every === 0 ? day(dayIndex(r.day) - 1) : r.day;
          warnings.length = 0;
          const list = new WindowedList<Row>(
            () => {
              throw new Error("unused");
            },
            source(rows, pageSize, dayOf),
            {
              sink: () => {
                throw new Error("no frame here");
              },
            },
            { parallel },
          );
          const got = await list.take(limit ?? rows.length + 1);
          assert.deepEqual(
            got.map((r) => r.id),
            rows.slice(0, limit ?? rows.length).map((r) => r.id),
          );
          if (warnings.some((m) => m.includes("are not the next window's first rows"))) undone++;
          assert.ok(!warnings.some((m) => m.includes("again under a key")), warnings.join("\n"));
        },
      ),
      {
        numRuns: 300,
        examples: [[STARTS_ON_LAST_DAY, 17, 8, 4, undefined]],
      },
    );
  } finally {
    console.warn = warn;
  }
  assert.ok(undone > 10, `only ${undone} splits undone`);
});
