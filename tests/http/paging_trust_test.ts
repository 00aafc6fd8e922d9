/**
 * Paging that does not trust the server (issue 21, Deliver 3 and 9): repeated
 * cursors and runs of empty pages end with a typed error carrying the rows so
 * far; `take(n)` and `.frame({ maxRows })` never request a page whose rows
 * would be thrown away.
 */
import assert from "node:assert/strict";
import {
  FramedList,
  InsiderClient,
  MAX_EMPTY_PAGES,
  Paginated,
  PaginationError,
  partialOf,
} from "../../mod.ts";
import { rowSink } from "../../lib/frames/build.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch } from "../_util.ts";

type Script = Record<string, { rows: number[]; next: string | null }>;

/** A page fetcher from a script keyed by cursor ("" = first page), counting requests. */
function scripted(script: Script) {
  const asked: (string | null)[] = [];
  const fetcher = (cursor: string | null) => {
    asked.push(cursor);
    const p = script[cursor ?? ""];
    if (!p) throw new Error(`no page at ${cursor}`);
    return Promise.resolve({ rows: p.rows, next: p.next, raw: null });
  };
  return { asked, fetcher };
}

const frameOf = {
  sink: () =>
    rowSink<number>(() => ({ specs: [{ name: "v", type: "integer" }], map: (v) => ({ v }) })),
};

Deno.test("a cursor sent again (A→A) ends with PaginationError, rows of each page once", async () => {
  const s = scripted({ "": { rows: [1, 2], next: "A" }, A: { rows: [3, 4], next: "A" } });
  const e = await new Paginated(s.fetcher).take(1000).catch((e) => e);
  assert.ok(e instanceof PaginationError, String(e));
  assert.equal(e.reason, "repeated-cursor");
  assert.match(e.message, /cursor "A" again after 2 pages \(4 rows\)/);
  assert.deepEqual([...partialOf<number[]>(e)!.rows], [1, 2, 3, 4]);
  // the cursor to resume at carries the walk's page size (take(1000) wants 1000 rows)
  assert.equal(partialOf(e)!.cursor, "sbp1.1000.A");
  assert.equal(e.cursor, "A");
  assert.deepEqual(s.asked, [null, "A"]);
});

Deno.test("A→B→A: iteration, take and .frame() all stop with the partial rows", async () => {
  const script: Script = {
    "": { rows: [1], next: "A" },
    A: { rows: [2], next: "B" },
    B: { rows: [3], next: "A" },
  };
  const it: number[] = [];
  const s1 = scripted(script);
  await assert.rejects(
    (async () => {
      for await (const r of new Paginated(s1.fetcher)) it.push(r);
    })(),
    PaginationError,
  );
  assert.deepEqual(it, [1, 2, 3]);
  assert.deepEqual(s1.asked, [null, "A", "B"]);
  const s2 = scripted(script);
  const e = await new FramedList(s2.fetcher, frameOf).frame({ progress: false }).catch((e) => e);
  assert.ok(e instanceof PaginationError);
  const part = partialOf<{ height: number }>(e)!;
  assert.equal(part.rows.height, 3);
  assert.equal(s2.asked.length, 3);
});

Deno.test("a resumed pull counts its start cursor as seen", async () => {
  const s = scripted({ A: { rows: [2], next: "A" } });
  await assert.rejects(new Paginated(s.fetcher, { cursor: "A" }).take(10), PaginationError);
  assert.deepEqual(s.asked, ["A"]);
});

Deno.test(`${MAX_EMPTY_PAGES} empty pages in a row that claim more end the pull`, async () => {
  const script: Script = { "": { rows: [1], next: "e0" } };
  for (let i = 0; i < 20; i++) script[`e${i}`] = { rows: [], next: `e${i + 1}` };
  const s = scripted(script);
  const e = await new Paginated(s.fetcher).take(100).catch((e) => e);
  assert.ok(e instanceof PaginationError);
  assert.equal(e.reason, "empty-pages");
  assert.deepEqual([...partialOf<number[]>(e)!.rows], [1]);
  assert.equal(s.asked.length, 1 + MAX_EMPTY_PAGES);
  // a few empty pages then rows again are fine
  const ok = scripted({
    "": { rows: [], next: "a" },
    a: { rows: [], next: "b" },
    b: { rows: [7], next: null },
  });
  assert.deepEqual([...await new Paginated(ok.fetcher).take(5)], [7]);
});

Deno.test("take(n) on a page boundary makes no request beyond the n rows; truncated stays exact", async () => {
  const script: Script = {
    "": { rows: [1, 2], next: "A" },
    A: { rows: [3, 4], next: "B" },
    B: { rows: [5, 6], next: null },
  };
  for (const prefetch of [true, false]) {
    const s = scripted(script);
    const t = await new Paginated(s.fetcher, { prefetch }).take(4);
    assert.deepEqual([...t], [1, 2, 3, 4]);
    assert.equal(t.truncated, true, "the page said more exist");
    assert.deepEqual(s.asked, [null, "A"], `prefetch ${prefetch}`);
    const within = scripted(script);
    const t1 = await new Paginated(within.fetcher, { prefetch }).take(1);
    assert.equal(t1.truncated, true);
    assert.deepEqual(within.asked, [null]);
  }
  const last = scripted(script);
  const all = await new Paginated(last.fetcher).take(6);
  assert.equal(all.truncated, false);
  assert.deepEqual(last.asked, [null, "A", "B"]);
});

Deno.test(".frame({ maxRows }) on a page boundary makes no request beyond it", async () => {
  const s = scripted({
    "": { rows: [1, 2], next: "A" },
    A: { rows: [3, 4], next: null },
    B: { rows: [5], next: null },
  });
  const df = await new FramedList(s.fetcher, frameOf).frame({ maxRows: 2, progress: false });
  assert.equal(df.height, 2);
  assert.equal(df.truncated, true);
  assert.deepEqual(s.asked, [null]);
  const end = scripted({ "": { rows: [1, 2], next: null } });
  const whole = await new FramedList(end.fetcher, frameOf).frame({ maxRows: 2, progress: false });
  assert.equal(whole.truncated, false);
});

Deno.test("a cache rerun of take(n) and .frame({ maxRows }) on a page boundary makes 0 requests", async () => {
  const stub = createStub({ seed: 3, scale: 0.1 });
  const dir = await Deno.makeTempDir();
  const counted = countingFetch(stub);
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: counted.fetch,
    cache: { dir },
  });
  const cell = async () => {
    const rows = await insider.feed("ceo-trades", "buy", { limit: 10 }).take(30);
    const df = await insider.search({}, { pageSize: 25 }).frame({ maxRows: 50, progress: false });
    return [rows.length, rows.truncated, df.height, df.truncated];
  };
  const first = await cell();
  assert.deepEqual(first, [30, true, 50, true]);
  assert.equal(counted.count.n, 3 + 2, "3 feed pages and 2 search pages, nothing more");
  counted.count.n = 0;
  assert.deepEqual(await cell(), first);
  assert.equal(counted.count.n, 0);
  await Deno.remove(dir, { recursive: true });
});
