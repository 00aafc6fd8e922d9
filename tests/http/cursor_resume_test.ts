/**
 * Cursors that resume exactly: the page size a walk asked for travels with
 * the cursors it hands out (`sbp1.<size>.<cursor>`), so a resume at a
 * service whose cursor is a page number reads the same rows whatever other
 * walks ran before in the process.
 */
import assert from "node:assert/strict";
import { partialOf } from "../../mod.ts";
import { readSizedCursor, sizedCursor } from "../../lib/http/paginate.ts";
import { lyingFeeds } from "./_lies.ts";

const index = (r: { accession_number: string }) => Number(r.accession_number.slice(-6));

Deno.test("take(5), then a .frame() that fails at page 2, then a resume from its partial cursor: every row once", async () => {
  // 1,000 rows; the cursor is the page number, read under the request's page size
  const svc = lyingFeeds({ days: 40, perDay: 25, pageCursor: true, failOnce: 1 });
  const feeds = (cursor?: string) => svc.insider.feeds({ feedIds: [1] }, { cursor });
  assert.equal((await feeds().take(5)).length, 5); // a walk of 5-row pages, sent cursor "1"
  const e = await feeds().frame({ progress: false }).catch((e) => e);
  const partial = partialOf<{ height: number; getColumn(n: string): { toArray(): unknown[] } }>(e)!;
  assert.equal(partial.rows.height, 10);
  assert.equal(partial.cursor, "1"); // a walk of the service's default page size
  const rest = await feeds(partial.cursor!).frame({ progress: false });
  const all = [
    ...partial.rows.getColumn("accession_number").toArray(),
    ...rest.getColumn("accession_number").toArray(),
  ] as string[];
  console.log(`take(5), failed .frame(), resume: ${all.length} rows, ${new Set(all).size} unique`);
  assert.equal(all.length, 1000);
  assert.equal(new Set(all).size, 1000);
});

Deno.test("a cursor handed out by a small-page walk carries its page size past any other walk", async () => {
  const svc = lyingFeeds({ days: 40, perDay: 25, pageCursor: true });
  const feeds = (cursor?: string) => svc.insider.feeds({ feedIds: [1] }, { cursor });
  const walk = feeds().pages({ limit: 8 });
  const page = (await walk.next()).value!;
  await walk.return(undefined);
  assert.deepEqual(page.rows.map(index), [0, 1, 2, 3, 4, 5, 6, 7]);
  const partial = { cursor: page.next };
  assert.equal(partial.cursor, "sbp1.8.1");
  // other walks of other page sizes pass the same page-number cursors
  await feeds().frame({ progress: false });
  await feeds().take(3);
  await feeds("1").take(4);
  const resumed = await feeds(partial.cursor!).take(20);
  assert.deepEqual(resumed.map(index), Array.from({ length: 20 }, (_, i) => 8 + i));
  // iteration from it too; its pages hand out cursors of the same size
  const it = feeds(partial.cursor!).pages();
  const first = (await it.next()).value!;
  assert.deepEqual(first.rows.map(index), [8, 9, 10, 11, 12, 13, 14, 15]);
  assert.equal(first.next, "sbp1.8.2");
  await it.return(undefined);
  // a parallel list resumes such a cursor serially, at its size
  const par = svc.insider.feeds({ feedIds: [1] }, { cursor: partial.cursor!, parallel: 8 });
  assert.deepEqual((await par.take(8)).map(index), [8, 9, 10, 11, 12, 13, 14, 15]);
});

Deno.test("sized cursors: made and read back; a malformed one is refused, naming it", () => {
  assert.equal(sizedCursor("2", 10), "sbp1.10.2");
  assert.deepEqual(readSizedCursor("sbp1.10.2"), { cursor: "2", want: 10 });
  assert.deepEqual(readSizedCursor("sbp1.7.a.b"), { cursor: "a.b", want: 7 });
  assert.deepEqual(readSizedCursor("abc"), { cursor: "abc" });
  for (const bad of ["sbp1.x.2", "sbp1.0.2", "sbp1.10.", "sbp1."]) {
    assert.throws(
      () => readSizedCursor(bad),
      (e: Error) => e instanceof TypeError && e.message.includes(JSON.stringify(bad)),
    );
  }
});
