/**
 * `take(n)` for fewer rows than the service's default page asks for `n`
 * rows a page (search `pageSize`, feeds and pitches `limit`), so a peek at
 * 10 rows does not pay for a page of 100; the caller's own page size, and
 * takes of a default page or more, are sent as before.
 */
import assert from "node:assert/strict";
import { offline } from "../_util.ts";
import { pageSizeFor, Paginated, partialOf } from "../../lib/http/paginate.ts";

/** The emulator behind a fetch that records each request's page size. */
async function recorded() {
  const sizes: (number | string | undefined)[] = [];
  const env = await offline({ seed: 1, scale: 0.1 }, (f) => async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (req.method === "POST") {
      sizes.push((await req.clone().json()).pagination?.pageSize);
    } else sizes.push(url.searchParams.get("limit") ?? undefined);
    return f(req);
  });
  return { ...env, sizes };
}

Deno.test("take(n): a search asks for n rows a page when n is under the default 100", async () => {
  const { insider, sizes } = await recorded();
  const ten = await insider.search({}).take(10);
  assert.equal(ten.length, 10);
  assert.equal(ten.truncated, true);
  assert.deepEqual(sizes, [10]);
  // the same rows as the first 10 of a default page
  const page = await insider.search({}).firstPage();
  assert.deepEqual([...ten], page.rows.slice(0, 10));
  assert.equal(sizes.at(-1), undefined, "firstPage() keeps the service's default");
});

Deno.test("take(n): the caller's pageSize wins; n at or over the default asks for the default", async () => {
  const { insider, sizes } = await recorded();
  await insider.search({}, { pageSize: 40 }).take(10);
  assert.deepEqual(sizes, [40]);
  sizes.length = 0;
  const many = await insider.search({}).take(150);
  assert.equal(many.length, 150);
  assert.deepEqual(sizes, [undefined, undefined]);
});

Deno.test("take(n): the rows of a small take are the first n of the serial pull", async () => {
  const { insider, sizes } = await recorded();
  const seven = await insider.search({ tradeType: "purchase" }).take(7);
  const first = await insider.search({ tradeType: "purchase" }).take(100);
  assert.deepEqual([...seven], first.slice(0, 7));
  assert.equal(seven.truncated, true);
  assert.deepEqual(sizes, [7, undefined]);
});

Deno.test("take(n): feeds and pitches ask for n rows under their defaults (10 and 20)", async () => {
  const { insider, catalog, sizes } = await recorded();
  const f = await insider.feeds({ feedIds: [1] }).take(4);
  assert.equal(f.length, 4);
  assert.deepEqual(sizes, ["4"]);
  sizes.length = 0;
  await insider.feeds({ feedIds: [1], limit: 25 }).take(4);
  assert.deepEqual(sizes, ["25"]);
  sizes.length = 0;
  const p = await catalog.pitches().take(5);
  assert.equal(p.length, 5);
  assert.deepEqual(sizes, ["5"]);
  sizes.length = 0;
  await catalog.pitches().take(30);
  assert.deepEqual(sizes, [undefined, undefined]);
});

Deno.test("pageSizeFor: the caller's size, else a smaller want, else the service's default", () => {
  assert.equal(pageSizeFor(undefined, 10, 100), 10);
  assert.equal(pageSizeFor(50, 10, 100), 50);
  assert.equal(pageSizeFor(undefined, 100, 100), undefined);
  assert.equal(pageSizeFor(undefined, 500, 100), undefined);
  assert.equal(pageSizeFor(undefined, undefined, 100), undefined);
  assert.equal(pageSizeFor(undefined, 0, 100), undefined);
});

Deno.test("take(n) from a cursor keeps the service's page size (page-number cursors stay right)", async () => {
  const { insider, sizes } = await recorded();
  const next = (await insider.search({}).firstPage()).next!;
  sizes.length = 0;
  const resumed = await insider.search({}, { cursor: next }).take(10);
  assert.equal(resumed.length, 10);
  assert.deepEqual(sizes, [undefined]);
  // a service whose cursor is a page number, read under the request's page size
  const all = Array.from({ length: 300 }, (_, i) => i);
  const asked: (number | undefined)[] = [];
  const list = (start?: string) =>
    new Paginated<number>((cursor, _signal, want) => {
      const size = pageSizeFor(undefined, want, 100) ?? 100;
      asked.push(want);
      const page = Number(cursor ?? "0");
      const rows = all.slice(page * size, (page + 1) * size);
      return Promise.resolve({
        rows,
        next: (page + 1) * size < all.length ? String(page + 1) : null,
        raw: null,
      });
    }, { cursor: start });
  // a pull of 150 stopped after its first page: its cursor is page 1 of 100 rows
  const cursor = (await list().firstPage()).next!;
  assert.deepEqual([...await list(cursor).take(50)], all.slice(100, 150));
  assert.deepEqual(asked, [undefined, undefined]);
});

Deno.test("take(n): a cursor left by a failed small take resumes at that take's page size", async () => {
  // a page-number lister that drops some rows of its first page and fails its second once
  const all = Array.from({ length: 300 }, (_, i) => i);
  let failed = false;
  const list = (start?: string) =>
    new Paginated<number>((cursor, _signal, want) => {
      const size = pageSizeFor(undefined, want, 100) ?? 100;
      const page = Number(cursor ?? "0");
      if (page === 1 && !failed) {
        failed = true;
        return Promise.reject(new Error("a page that failed"));
      }
      const rows = all.slice(page * size, (page + 1) * size).filter((x) => page > 0 || x % 2 === 0);
      const next = (page + 1) * size < all.length ? String(page + 1) : null;
      return Promise.resolve({ rows, next, raw: null });
    }, { cursor: start });
  const e = await list().take(30).catch((e) => e);
  const partial = partialOf<number[]>(e)!;
  assert.deepEqual([...partial.rows], all.slice(0, 30).filter((x) => x % 2 === 0));
  assert.equal(partial.cursor, "sbp1.30.1");
  // the walk that made cursor "1" asked for 30 rows a page: the resumed one does too
  assert.deepEqual([...await list(partial.cursor!).take(15)], all.slice(30, 45));
});
