/**
 * The insider client against spec-legal answers the emulator does not give
 * by default (issue 21, Deliver 1–3): other camelCase families, other
 * containers, no has-more flag, bare lookup lists with other field names,
 * repeated cursors; unknown forms are loud.
 */
import assert from "node:assert/strict";
import {
  httpEvents,
  InsiderClient,
  InvalidResponseError,
  PaginationError,
  partialOf,
  type ShapeInfo,
  sync,
} from "../../mod.ts";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { offline } from "../_util.ts";
import { lodashCamel, rekey, type Rewrite, rewriting, snake } from "../_rewrite.ts";

const { stub, insider: plain } = await offline();
function client(rewrite: Rewrite) {
  const r = rewriting(stub, rewrite);
  const c = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: r.fetch,
  });
  return { client: c, count: r.count };
}
const obj = (b: unknown) => b as Record<string, unknown>;
const filter = { tradeType: "purchase" as const };

function shapes<T>(f: () => Promise<T>): Promise<{ value: T; seen: ShapeInfo[] }> {
  const seen: ShapeInfo[] = [];
  const on = (e: Event) => seen.push((e as CustomEvent<ShapeInfo>).detail);
  httpEvents.addEventListener("shape", on);
  return f().then((value) => ({ value, seen })).finally(() =>
    httpEvents.removeEventListener("shape", on)
  );
}

for (const [name, recase] of [["lodash camelCase", lodashCamel], ["snake_case", snake]] as const) {
  Deno.test(`search rows in ${name}: the same frame and the same typed rows as the default`, async () => {
    const { client: c } = client((path, b) =>
      path === "/search" ? { ...obj(b), data: rekey(obj(b).data, recase) } : b
    );
    const want = await plain.search(filter, { pageSize: 40 }).frame({
      maxRows: 100,
      progress: false,
    });
    const { value: got, seen } = await shapes(() =>
      c.search(filter, { pageSize: 40 }).frame({ maxRows: 100, progress: false })
    );
    assert.deepEqual(got.columns, want.columns);
    assert.ok(got.frameEqual(want, true), "identical frames");
    assert.ok(want.getColumn("returns_1w").nullCount() < want.height);
    assert.ok(
      seen.some((s) => s.point === "row field names" && /renamed by meaning/.test(s.shape)),
    );
    const rows = await c.search(filter, { pageSize: 10 }).take(3);
    const base = await plain.search(filter, { pageSize: 10 }).take(3);
    assert.deepEqual(
      rows.map((r) => r.winRateBullish3mWins),
      base.map((r) => r.winRateBullish3mWins),
    );
    assert.deepEqual(rows.map((r) => r.is10b51), base.map((r) => r.is10b51));
  });
}

Deno.test("feeds under another container, without a has-more flag, page to the end", async () => {
  const { client: c } = client((path, b) => {
    if (path !== "/feeds") return b;
    const { data, has_more: _, ...rest } = obj(b);
    return { ...rest, items: rekey(data, lodashCamel) };
  });
  const want = await plain.feed("ceo-trades", "buy", { limit: 7 }).take(60);
  const { value: got, seen } = await shapes(() =>
    c.feed("ceo-trades", "buy", { limit: 7 }).take(60)
  );
  assert.deepEqual([...got], [...want]);
  assert.equal(got.truncated, want.truncated);
  assert.ok(seen.some((s) => s.point === "list container" && s.shape === '"items"'));
  assert.ok(seen.some((s) => s.point === "has-more flag" && /^none/.test(s.shape)));
  const df = await c.feed("ceo-trades", "buy", { limit: 25 }).frame({ progress: false });
  const all = await plain.feed("ceo-trades", "buy", { limit: 25 }).frame({ progress: false });
  assert.ok(df.frameEqual(all, true));
});

Deno.test("feeds with cursor and flag one object down ({ rows, pagination: { … } })", async () => {
  const { client: c } = client((path, b) => {
    if (path !== "/feeds") return b;
    const { data, has_more, next_cursor } = obj(b);
    return { rows: data, pagination: { hasMore: has_more, nextCursor: next_cursor } };
  });
  const want = await plain.feed("top-trades", "sell", { limit: 9 }).take(40);
  assert.deepEqual([...await c.feed("top-trades", "sell", { limit: 9 }).take(40)], [...want]);
});

Deno.test("a page without its row list is InvalidResponseError with the partial rows, naming keys", async () => {
  let pages = 0;
  const { client: c } = client((path, b) => {
    if (path !== "/feeds" || ++pages < 3) return b;
    const { data: _, ...rest } = obj(b);
    return { ...rest, result: "ok" };
  });
  const e = await c.feed("ceo-trades", "buy", { limit: 5 }).take(100).catch((e) => e);
  assert.ok(e instanceof InvalidResponseError, String(e));
  assert.match(e.message, /GET \/feeds: expected feed rows as a list/);
  assert.match(e.message, /"next_cursor", "has_more", "result"/);
  assert.equal(partialOf<unknown[]>(e)!.rows.length, 10);
  assert.ok(partialOf(e)!.cursor);
});

Deno.test("has-more true without a cursor is loud, not a first page alone", async () => {
  const { client: c } = client((path, b) =>
    path === "/feeds" ? { ...obj(b), has_more: true, next_cursor: null } : b
  );
  await assert.rejects(
    c.feed("ceo-trades", "buy").take(50),
    /GET \/feeds: the answer says more feed rows exist \(has_more: true\) but gives no cursor/,
  );
});

Deno.test("a server repeating its cursor: take, .frame() and sync stop with PaginationError", async () => {
  let first: string | null = null;
  const { client: c, count } = client((path, b) => {
    if (path !== "/search" && path !== "/feeds") return b;
    const key = path === "/search" ? "nextCursor" : "next_cursor";
    const o = obj(b);
    first ??= o[key] as string;
    return { ...o, [key]: first };
  });
  const e = await c.search({}, { pageSize: 100 }).take(1000).catch((e) => e);
  assert.ok(e instanceof PaginationError, String(e));
  const rows = partialOf<{ accessionNumber: string; transactionId: number }[]>(e)!.rows;
  assert.equal(rows.length, 200);
  assert.equal(new Set(rows.map((r) => `${r.accessionNumber}/${r.transactionId}`)).size, 200);
  assert.equal(count.n, 2);
  first = null;
  const f = await c.feed("ceo-trades", "buy", { limit: 25 }).frame({ progress: false }).catch((e) =>
    e
  );
  assert.ok(f instanceof PaginationError);
  assert.equal(partialOf<{ height: number }>(f)!.rows.height, 50);
  // sync: every page names cursor "A", and the server answers "A" with the first page again
  const loop = rewriting(
    stub,
    (path, b) => path === "/search" ? { ...obj(b), nextCursor: "A", hasMore: true } : b,
  );
  const unloop = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: (input, init) => {
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      if (body?.pagination?.cursor === "A") body.pagination.cursor = null;
      return loop.fetch(input, { ...init, body: body ? JSON.stringify(body) : init?.body });
    },
  });
  const dir = await Deno.makeTempDir();
  const s = await sync({
    dir,
    from: "2025-01-01",
    to: "2025-02-28",
    insider: unloop,
    progress: false,
  })
    .catch((e) => e);
  assert.ok(s instanceof AggregateError && s.errors[0] instanceof PaginationError, String(s));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("insider lookup as a bare list with other field names: CIK and name by pattern, raw kept", async () => {
  const owner = stub.insider.insiders[4];
  const { client: c } = client((path, b) =>
    path === "/insiders"
      ? (obj(b).data as Record<string, unknown>[]).map(({ cik, name, ...rest }) => ({
        reportingOwnerCik: Number(cik),
        issuerCik: "0000000001",
        reportingOwnerName: name,
        ...rest,
      }))
      : b
  );
  const want = await plain.insiders(owner.name, { limit: 3 });
  const { value: got, seen } = await shapes(() => c.insiders(owner.name, { limit: 3 }));
  assert.deepEqual(
    got.map((h) => [String(Number(h.cik)), h.name]),
    want.map((h) => [String(Number(h.cik)), h.name]),
  );
  assert.equal(got[0].raw.issuerCik, "0000000001");
  assert.deepEqual(got[0].titles, want[0].titles);
  assert.ok(seen.some((s) => s.point === "list container" && s.shape === "bare list"));
  assert.ok(seen.some((s) => /"reportingOwnerCik"/.test(s.shape)));
  const { client: env } = client((path, b) => path === "/insiders" ? { matches: obj(b).data } : b);
  assert.deepEqual(
    (await env.insiders(owner.name, { limit: 3 })).map((h) => h.cik),
    want.map((h) => h.cik),
  );
});

Deno.test("a lookup CIK sent as a number is its ten digits, zero-padded, or is refused (past ten digits, an exponent)", async () => {
  const cikAs = (cik: unknown) =>
    client((path, b) =>
      path === "/insiders"
        ? (obj(b).data as Record<string, unknown>[]).map((h) => ({ ...h, cik }))
        : b
    ).client;
  const owner = stub.insider.insiders[4];
  const ok = await cikAs(320193).insiders(owner.name, { limit: 1 });
  assert.equal(ok[0].cik, "0000320193");
  assert.equal((await cikAs("320193").insiders(owner.name, { limit: 1 }))[0].cik, "0000320193");
  // past 2^53 (JSON writes this double as 12345678901234567000, read as its text): no CIK
  for (const bad of [12345678901234567890, 1e21]) {
    await assert.rejects(cikAs(bad).insiders(owner.name, { limit: 1 }), (e: Error) => {
      assert.equal(e.name, "InvalidResponseError");
      assert.match(
        e.message,
        /GET \/insiders: match 0 cik expected code; got (the number|text of 20)/,
      );
      return true;
    });
  }
});

Deno.test("lookup hits without a CIK, or an unknown form, are InvalidResponseError naming what came", async () => {
  const { client: noCik } = client((path, b) => path === "/insiders" ? [{ id: 1, name: "x" }] : b);
  await assert.rejects(
    noCik.insiders("a"),
    /GET \/insiders: match 0 has no CIK field .*"id", "name"/,
  );
  const { client: odd } = client((path, b) => path === "/insiders" ? { total: 3, ok: true } : b);
  await assert.rejects(
    odd.insiders("a"),
    /GET \/insiders: expected reporting-owner matches as a list .*; got a JSON object with keys "total", "ok"/,
  );
});

Deno.test("transaction detail wrapped in an object and camelCased maps to the same row", async () => {
  const [row] = await plain.feed("ceo-trades", "buy").take(1);
  const want = await plain.transaction(row.accession_number, row.transaction_id);
  const { client: c } = client((path, b) =>
    path.startsWith("/transactions/") ? { transaction: rekey([b], lodashCamel) } : b
  );
  const { client: c2 } = client((path, b) =>
    path.startsWith("/transactions/")
      ? { transaction: (rekey([b], lodashCamel) as unknown[])[0] }
      : b
  );
  await assert.rejects(
    c.transaction(row.accession_number, row.transaction_id),
    InvalidResponseError,
  );
  assert.deepEqual(await c2.transaction(row.accession_number, row.transaction_id), want);
});
