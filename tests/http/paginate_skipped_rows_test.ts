/**
 * Rows sent again out of place (`WalkCheck` in `lib/http/paginate.ts`): a
 * row sent again is kept once only inside an overlap that repeats, in
 * order, the rows received just before it; any other repeat means the
 * pages are not consecutive slices of one list, so rows between them may
 * never come, and the pull stops with a `PaginationError` (`"skipped-rows"`)
 * carrying the rows read and a cursor — serially and in parallel.
 */
import assert from "node:assert/strict";
import { PaginationError, partialOf } from "../../mod.ts";
import { WalkCheck } from "../../lib/http/paginate.ts";
import { lyingFeeds } from "./_lies.ts";

const warn = console.warn;

Deno.test("a service that serves every other page from the opposite end: a typed error with the rows read and a cursor, at parallel 1, 2, 8 and 16", async () => {
  console.warn = () => {};
  try {
    for (const parallel of [1, 2, 8, 16]) {
      const svc = lyingFeeds({ days: 42, perDay: 10, flipOdd: true }); // 420 rows, pages of 25
      const error = await svc.insider.feeds({ feedIds: [1], limit: 25 }, { parallel }).take(1_000)
        .then(() => undefined, (e) => e);
      assert.ok(error instanceof PaginationError, `parallel ${parallel}: ${error}`);
      assert.equal(error.reason, "skipped-rows");
      const partial = partialOf<{ accession_number: string }[]>(error)!;
      assert.ok(partial.rows.length > 0 && partial.rows.length < 420, String(partial.rows.length));
      const ids = partial.rows.map((r) => r.accession_number);
      assert.equal(new Set(ids).size, ids.length, "a row handed out twice");
      assert.equal(typeof partial.cursor, "string");
    }
  } finally {
    console.warn = warn;
  }
});

/** The keys a walk hands out of `pages` (rows are their keys), or the reason it stopped. */
function walk(pages: string[][]): string[] | string {
  const check = new WalkCheck();
  const out: string[] = [];
  try {
    pages.forEach((page, i) =>
      out.push(...check.rows(page, page, `p${i}`, i === pages.length - 1))
    );
  } catch (e) {
    return (e as PaginationError).reason;
  }
  return out;
}

Deno.test("overlaps kept once: a row twice in a row, a page starting with the last rows of the page before", () => {
  assert.deepEqual(walk([["a", "b", "b", "c"], ["d"]]), ["a", "b", "c", "d"]);
  assert.deepEqual(walk([["a", "b", "c"], ["b", "c", "d"], ["d", "e"]]), ["a", "b", "c", "d", "e"]);
  // both at once, and rows without a key (never sent again, no part of an overlap)
  assert.deepEqual(walk([["a", "b", "b"], ["b", "", "c"]]), ["a", "b", "", "c"]);
});

Deno.test("any other repeat is skipped-rows: a row from two pages back, an overlap that stops short, one at the walk's end", () => {
  assert.equal(walk([["a", "b"], ["c", "d"], ["a", "e"]]), "skipped-rows");
  // repeats the start of the page before, then new rows: the rows between were skipped
  assert.equal(walk([["a", "b", "c"], ["a", "x"]]), "skipped-rows");
  // out of order
  assert.equal(walk([["a", "b", "c"], ["c", "b", "x"]]), "skipped-rows");
  // the last page ends inside an overlap that has not reached the rows just before it
  assert.equal(walk([["a", "b", "c"], ["d", "a"]]), "skipped-rows");
  // a page all sent before is a loop
  assert.equal(walk([["a", "b"], ["a", "b"]]), "repeated-rows");
});
