import assert from "node:assert/strict";
import { mapPool, Paginated } from "../../mod.ts";

function pager(pages: number, size: number) {
  const log: string[] = [];
  const aborted: number[] = [];
  const fetcher = async (cursor: string | null, signal: AbortSignal) => {
    const n = cursor === null ? 0 : Number(cursor);
    log.push(`start ${n}`);
    await new Promise((r) => setTimeout(r, 5));
    if (signal.aborted) aborted.push(n);
    log.push(`end ${n}`);
    return {
      rows: Array.from({ length: size }, (_, i) => n * size + i),
      next: n + 1 < pages ? String(n + 1) : null,
      raw: null,
    };
  };
  return { log, aborted, fetcher };
}

Deno.test("prefetch: the next page is requested before the caller finishes the current one", async () => {
  const p = pager(3, 2);
  const seen: string[] = [];
  for await (const page of new Paginated(p.fetcher).pages()) {
    seen.push(`got ${page.rows[0] / 2}`);
    await new Promise((r) => setTimeout(r, 10));
    p.log.push(`consumed ${page.rows[0] / 2}`);
  }
  assert.ok(p.log.indexOf("start 1") < p.log.indexOf("consumed 0"));
  assert.ok(p.log.indexOf("start 2") < p.log.indexOf("consumed 1"));
  assert.deepEqual(seen, ["got 0", "got 1", "got 2"]);
});

Deno.test("prefetch: false fetches strictly one page at a time", async () => {
  const p = pager(3, 2);
  for await (const page of new Paginated(p.fetcher, { prefetch: false }).pages()) {
    p.log.push(`consumed ${page.rows[0] / 2}`);
  }
  assert.deepEqual(p.log, [
    "start 0",
    "end 0",
    "consumed 0",
    "start 1",
    "end 1",
    "consumed 1",
    "start 2",
    "end 2",
    "consumed 2",
  ]);
});

Deno.test("stopping early aborts the prefetch and fetches nothing more", async () => {
  const p = pager(100, 10);
  let rows = 0;
  for await (const _ of new Paginated(p.fetcher)) if (++rows === 15) break;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(p.log.filter((l) => l.startsWith("start")).length, 3);
  assert.deepEqual(p.aborted, [2]);
});

Deno.test("take(n): exact count, truncated flag, shorter lists, bad n", async () => {
  const t = await new Paginated(pager(3, 4).fetcher).take(6);
  assert.deepEqual([...t], [0, 1, 2, 3, 4, 5]);
  assert.equal(t.truncated, true);
  const exact = await new Paginated(pager(2, 4).fetcher).take(8);
  assert.equal(exact.length, 8);
  assert.equal(exact.truncated, false);
  const edge = await new Paginated(pager(3, 4).fetcher).take(8);
  assert.equal(edge.truncated, true);
  const all = await new Paginated(pager(2, 4).fetcher).take(100);
  assert.equal(all.length, 8);
  assert.equal(all.truncated, false);
  await assert.rejects(new Paginated(pager(1, 1).fetcher).take(-1), /take\(-1\)/);
});

Deno.test("mapPool keeps order and never exceeds its bound", async () => {
  let inFlight = 0;
  let peak = 0;
  const { results, failed } = await mapPool(
    Array.from({ length: 50 }, (_, i) => i),
    7,
    async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, (i * 7) % 5));
      inFlight--;
      if (i % 10 === 3) throw new Error(`boom ${i}`);
      return i * 2;
    },
  );
  assert.equal(peak, 7);
  assert.deepEqual(failed.map((f) => f.index), [3, 13, 23, 33, 43]);
  assert.equal(results[4], 8);
  assert.equal(results[3], undefined);
});

// Issue: a page that still fails after every retry lost every row already
// read. Now the error carries them, with the cursor to resume from.
Deno.test("partial results: take() and .frame() attach rows so far and the resume cursor", async () => {
  const { InsiderClient, partialOf } = await import("../../mod.ts");
  const { createStub, DEMO_KEYS } = await import("../../lib/stub/mod.ts");
  const stub = createStub({ seed: 1, scale: 0.2 });
  let searches = 0;
  const flaky = (input: Request | URL | string, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith("/search") && ++searches === 3) {
      return Promise.resolve(
        new Response(
          JSON.stringify({ type: "invalid-request", title: "Bad", status: 400, detail: "boom" }),
          { status: 400, headers: { "content-type": "application/problem+json" } },
        ),
      );
    }
    return stub.fetch(input, init);
  };
  const client = (fetch: typeof stub.fetch) =>
    new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://s/insider", fetch });
  const clean = await client(stub.fetch).search({}, { pageSize: 100 }).take(500);

  // take(): 2 pages read, page 3 failed
  let err: unknown;
  try {
    await client(flaky).search({}, { pageSize: 100, prefetch: false }).take(500);
  } catch (e) {
    err = e;
  }
  const p = partialOf<unknown[]>(err);
  assert.ok(p, `no partial on ${err}`);
  assert.equal(p.rows.length, 200);
  assert.equal(typeof p.cursor, "string");
  const rest = await client(stub.fetch).search({}, { pageSize: 100, cursor: p.cursor! }).take(300);
  assert.deepEqual(
    [...p.rows, ...rest].map((r) => (r as { accessionNumber: string }).accessionNumber),
    clean.map((r) => r.accessionNumber),
  );

  // .frame(): the frame so far, marked truncated, and the same cursor rule
  searches = 0;
  let ferr: unknown;
  try {
    await client(flaky).search({}, { pageSize: 100, prefetch: false }).frame({ progress: false });
  } catch (e) {
    ferr = e;
  }
  const fp = partialOf<import("../../mod.ts").Frame>(ferr);
  assert.ok(fp);
  assert.equal(fp.rows.height, 200);
  assert.equal(fp.rows.truncated, true);
  assert.equal(fp.rows.width, 174);
  const restFrame = await client(stub.fetch).search({}, { pageSize: 100, cursor: fp.cursor! })
    .frame({ maxRows: 300, progress: false });
  assert.deepEqual(
    [
      ...fp.rows.getColumn("accession_number").toArray(),
      ...restFrame.getColumn("accession_number").toArray(),
    ],
    clean.map((r) => r.accessionNumber),
  );
});

Deno.test("partial results: a failing first page gives cursor null (start over)", async () => {
  const { Paginated, partialOf } = await import("../../mod.ts");
  const list = new Paginated<number>(() => Promise.reject(new Error("down")));
  const e = await list.take(5).catch((x) => x);
  const p = partialOf<number[]>(e);
  assert.equal(p?.cursor, null);
  assert.equal(p?.rows.length, 0);
});
