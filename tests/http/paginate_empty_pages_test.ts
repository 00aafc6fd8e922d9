/**
 * The empty-page rule (`MAX_EMPTY_PAGES` in `lib/http/paginate.ts`) counts
 * empty pages *in a row*: a page with rows starts the count again. A service
 * that filters after paging sends runs of empty pages between pages of rows;
 * pulled through the insider client (`take()` serially and with `parallel`),
 * every row comes, however many empty pages there are in all.
 */
import assert from "node:assert/strict";
import { InsiderClient, MAX_EMPTY_PAGES } from "../../mod.ts";

const FIRST = Date.UTC(2024, 11, 31);

/** A feeds service whose every walk sends `MAX_EMPTY_PAGES - 1` empty pages before each page of rows. */
function gappyFeeds(days: number, perDay: number) {
  const all = Array.from({ length: days * perDay }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: new Date(FIRST - Math.floor(i / perDay) * 86_400_000).toISOString().slice(0, 10) +
      "T15:00:00.000Z",
  }));
  const run = MAX_EMPTY_PAGES; // pages per run: the empty ones, then one with rows
  let empties = 0;
  const fetch = (input: Request | URL | string): Promise<Response> => {
    const q = new URL(input instanceof Request ? input.url : String(input)).searchParams;
    const from = q.get("from");
    const to = q.get("to");
    const limit = Number(q.get("limit") ?? 25);
    const k = Number((q.get("cursor") ?? "0").split("~").at(-1));
    const list = all.filter((r) => {
      const d = r.filed_at.slice(0, 10);
      return (!from || d >= from) && (!to || d <= to);
    });
    const at = Math.floor(k / run) * limit;
    const rows = k % run === run - 1 ? list.slice(at, at + limit) : [];
    if (rows.length === 0) empties++;
    const more = at + (k % run === run - 1 ? limit : 0) < list.length;
    return Promise.resolve(Response.json({
      data: rows,
      next_cursor: more ? `${from ?? ""}~${to ?? ""}~${k + 1}` : null,
    }));
  };
  const insider = new InsiderClient({
    apiKey: "sk-test-gappy-feeds",
    baseUrl: "http://gaps.test/insider",
    fetch,
  });
  return { insider, all, empties: () => empties };
}

Deno.test("a page with rows starts the empty-page count again: every row comes, serially and in parallel", async () => {
  for (const parallel of [1, 4]) {
    const svc = gappyFeeds(30, 10);
    const got = await svc.insider.feeds({ feedIds: [1], limit: 25 }, { parallel }).take(10_000);
    assert.deepEqual(got.map((r) => r.accession_number), svc.all.map((r) => r.accession_number));
    // far more empty pages in all than the rule allows in a row
    assert.ok(
      svc.empties() > 3 * MAX_EMPTY_PAGES,
      `${svc.empties()} empty pages (parallel ${parallel})`,
    );
  }
});
