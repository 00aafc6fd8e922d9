/**
 * The reader of a parallel pull lets the event loop turn once after a slice
 * of its own work (`READER_SLICE_MS` in `lib/http/windows.ts`), so what came
 * meanwhile (the windows' answers, a timer) runs between its pages instead of
 * after every ready page is handed out. No timing is asserted: a consumer
 * whose work per page is longer than the slice sees a timer set before its
 * first page fire within the next few pages.
 */
import assert from "node:assert/strict";
import type { Page } from "../../lib/http/paginate.ts";
import { type DayRange, windowedPages, type WindowSource } from "../../lib/http/windows.ts";

type Row = { day: string; id: number };
const dayOf = (n: number) =>
  new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

Deno.test("a parallel pull's reader lets the loop turn between pages when the consumer's work is long", async () => {
  const rows: Row[] = [];
  for (let d = 0; d < 120; d++) {
    for (let i = 0; i < 5; i++) rows.push({ day: dayOf(200 - d), id: rows.length });
  }
  // every answer is ready at once (no timer of its own): only the reader's turn lets a timer in
  const fetch = (range: DayRange, cursor: string | null, _s: AbortSignal, size?: number) => {
    const all = rows.filter((r) =>
      (range.from === undefined || r.day >= range.from) &&
      (range.to === undefined || r.day <= range.to)
    );
    const at = cursor === null ? 0 : Number(cursor);
    const n = size ?? 10;
    return Promise.resolve<Page<Row>>({
      rows: all.slice(at, at + n),
      next: at + n < all.length ? String(at + n) : null,
      raw: null,
    });
  };
  const src: WindowSource<Row> = {
    pageSize: 10,
    order: "desc",
    day: (r) => r.day,
    key: (r) => String(r.id),
    fetch,
  };
  let pages = 0;
  let firedAt: number | undefined;
  const seen = new Set<number>();
  for await (const page of windowedPages(src, { parallel: 4 })) {
    if (pages === 0) setTimeout(() => firedAt = pages, 0);
    pages++;
    for (const r of page.rows) seen.add(r.id);
    const until = performance.now() + 8; // the consumer's own work: past the reader's slice
    while (performance.now() < until) { /* busy */ }
  }
  assert.equal(seen.size, rows.length, "every row once");
  assert.ok(pages > 20, `${pages} pages`);
  assert.ok(
    firedAt !== undefined && firedAt <= 3,
    `the timer ran after page ${firedAt} of ${pages}`,
  );
});
