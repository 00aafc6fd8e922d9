/**
 * The catalog client against spec-legal answers the emulator does not give
 * by default (issue 21, Deliver 2 and 5): tag vocabularies as bare lists,
 * flat tag lists or grouped by type key; filter sets and pitch pages under
 * other names; search lists one object down; problem types as URIs.
 */
import assert from "node:assert/strict";
import {
  CatalogClient,
  httpEvents,
  InvalidResponseError,
  PremiumRequiredError,
  type ShapeInfo,
  type TagType,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { lodashCamel, rekey, type Rewrite, rewriting, snake } from "../_rewrite.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const opts = { apiKey: DEMO_KEYS.catalog, baseUrl: "http://s/catalog" };
const plain = new CatalogClient({ ...opts, fetch: stub.fetch });
const client = (rewrite: Rewrite, apiKey: string = DEMO_KEYS.catalog) =>
  new CatalogClient({ ...opts, apiKey, fetch: rewriting(stub, rewrite).fetch });
const obj = (b: unknown) => b as Record<string, unknown>;
const typesOf = (b: unknown) => obj(b).data as TagType[];

/** The shapes announced for `endpoint` while `call` runs. */
async function shapesOf(endpoint: string, call: () => Promise<unknown>): Promise<string[]> {
  const seen: ShapeInfo[] = [];
  const on = (e: Event) => seen.push((e as CustomEvent<ShapeInfo>).detail);
  httpEvents.addEventListener("shape", on);
  try {
    await call();
  } finally {
    httpEvents.removeEventListener("shape", on);
  }
  return seen.filter((x) => x.endpoint === endpoint).map((x) => x.shape);
}

async function sameTags(c: CatalogClient): Promise<void> {
  const want = await plain.tags();
  const got = await c.tags();
  assert.deepEqual(got.types.map((t) => t.tagTypeKey), want.types.map((t) => t.tagTypeKey));
  for (const t of want.types) assert.deepEqual(got.slugs(t.tagTypeKey), want.slugs(t.tagTypeKey));
  assert.equal(got.typeOf("sentiment_bullish"), want.typeOf("sentiment_bullish"));
}

Deno.test("tags: a bare list of types", async () => {
  await sameTags(client((p, b) => p === "/tags" ? typesOf(b) : b));
});

Deno.test("tags: types under another name, with snake_case keys", async () => {
  await sameTags(client((p, b) => p === "/tags" ? { tag_types: rekey(typesOf(b), snake) } : b));
});

Deno.test("tags: grouped by type key (lists of tags, or type objects)", async () => {
  await sameTags(
    client((p, b) =>
      p === "/tags" ? Object.fromEntries(typesOf(b).map((t) => [t.tagTypeKey, t.tags])) : b
    ),
  );
  await sameTags(
    client((p, b) =>
      p === "/tags"
        ? { data: Object.fromEntries(typesOf(b).map(({ tagTypeKey, ...t }) => [tagTypeKey, t])) }
        : b
    ),
  );
});

Deno.test("tags: a tag without a slug is loud in every form, never dropped", async () => {
  const slugless = (b: unknown) =>
    typesOf(b).map((t, i) => i === 0 ? { ...t, tags: [...t.tags, { label: "no slug" }] } : t);
  for (
    const rewrite of [
      slugless,
      (b: unknown) => Object.fromEntries(slugless(b).map((t) => [t.tagTypeKey, t.tags])),
      (b: unknown) =>
        Object.fromEntries(slugless(b).map(({ tagTypeKey, ...t }) => [tagTypeKey, t])),
    ]
  ) {
    await assert.rejects(
      client((p, b) => p === "/tags" ? rewrite(b) : b).tags(),
      /GET \/tags: expected the tag vocabulary/,
    );
  }
});

Deno.test("tags: a flat list of tags, each carrying its type key", async () => {
  await sameTags(client((p, b) => p === "/tags" ? { tags: typesOf(b).flatMap((t) => t.tags) } : b));
});

Deno.test("tags: the form read is announced, with its container", async () => {
  const shapeOf = (rewrite: (b: unknown) => unknown) =>
    shapesOf("GET /tags", () => client((p, b) => p === "/tags" ? rewrite(b) : b).tags());
  const grouped = (b: unknown) => Object.fromEntries(typesOf(b).map((t) => [t.tagTypeKey, t.tags]));
  assert.deepEqual(await shapeOf((b) => typesOf(b)), ["bare list of types"]);
  assert.deepEqual(await shapeOf((b) => b), ['list of types under "data"']);
  assert.deepEqual(await shapeOf(grouped), ["grouped by type key"]);
  assert.deepEqual(await shapeOf((b) => ({ vocabulary: grouped(b) })), [
    'grouped by type key under "vocabulary"',
  ]);
  assert.deepEqual(await shapeOf((b) => ({ tags: typesOf(b).flatMap((t) => t.tags) })), [
    'flat list of tags, grouped by their type key under "tags"',
  ]);
});

Deno.test("tags: an unknown form or an empty vocabulary is InvalidResponseError naming the keys", async () => {
  await assert.rejects(
    client((p, b) => p === "/tags" ? { count: 3, vocab: "x" } : b).tags(),
    /GET \/tags: expected the tag vocabulary: .*; got a JSON object with keys "count", "vocab"/,
  );
  await assert.rejects(client((p, b) => p === "/tags" ? [] : b).tags(), InvalidResponseError);
});

Deno.test("filter sets: under another name, or a bare list; never undefined", async () => {
  const want = await plain.filterSets();
  assert.ok(want.length > 0);
  const renamed = await client((p, b) => p === "/filter-sets" ? { filterSets: obj(b).data } : b)
    .filterSets();
  assert.deepEqual(renamed, want);
  const bare = await client((p, b) => p === "/filter-sets" ? obj(b).data : b).filterSets();
  assert.deepEqual(bare, want);
  await assert.rejects(
    client((p, b) => p === "/filter-sets" ? { sets: "none", other: [], more: [] } : b).filterSets(),
    /GET \/filter-sets: expected filter sets as a list .*"sets", "other", "more"/,
  );
});

Deno.test("search: lists one object down, items in snake_case", async () => {
  const co = stub.world.companies[3];
  const want = await plain.search(co.name);
  const got = await client((p, b) =>
    p === "/search"
      ? {
        results: {
          authors: rekey(obj(b).authors, snake),
          companies: rekey(obj(b).companies, snake),
        },
      }
      : b
  ).search(co.name);
  assert.deepEqual(got.companies.map((c) => c.companyId), want.companies.map((c) => c.companyId));
  assert.deepEqual(got.authors.map((a) => a.username), want.authors.map((a) => a.username));
  // the place of the lists is announced
  assert.deepEqual(await shapesOf("GET /search", () => plain.search(co.name)), ["bare"]);
  const under = client((p, b) => p === "/search" ? { results: b } : b);
  assert.deepEqual(await shapesOf("GET /search", () => under.search(co.name)), [
    'wrapped in "results"',
  ]);
  await assert.rejects(
    client((p, b) => p === "/search" ? { authors: obj(b).authors } : b).search(co.name),
    /GET \/search: expected two lists "authors" and "companies".*; got a JSON object with keys "authors"/,
  );
});

Deno.test("pitches: another container, camelCase rows, no has-more flag: the same frame", async () => {
  const want = await plain.pitches({ limit: 13 }).frame({ maxRows: 60, progress: false });
  const got = await client((p, b) => {
    if (p !== "/pitches") return b;
    const { data, has_more: _, ...rest } = obj(b);
    return {
      ...rest,
      pitches: (data as Record<string, unknown>[]).map((r) => ({
        ...(rekey([r], lodashCamel) as Record<string, unknown>[])[0],
        pitch: (rekey([r.pitch], lodashCamel) as unknown[])[0],
      })),
    };
  }).pitches({ limit: 13 }).frame({ maxRows: 60, progress: false });
  assert.ok(got.frameEqual(want, true));
});

Deno.test("pitches: a row without its pitch object is InvalidResponseError naming the row", async () => {
  const e = await client((p, b) => {
    if (p !== "/pitches") return b;
    const rows = obj(b).data as Record<string, unknown>[];
    return { ...obj(b), data: rows.map((r, i) => i === 2 ? { ...r, pitch: null } : r) };
  }).pitches({ limit: 5 }).take(5).catch((e) => e);
  assert.ok(e instanceof InvalidResponseError);
  assert.match(e.message, /GET \/pitches: row 2 of 5 \(pitch_id "[^"]+"\) has no "pitch" object/);
});

Deno.test("a premium-required problem type sent as a URI is PremiumRequiredError", async () => {
  const lapsed = client(
    (_p, b, status) =>
      status === 403 ? { ...obj(b), type: `https://api.example.com/problems/${obj(b).type}` } : b,
    "demo-catalog-lapsed",
  );
  const e = await lapsed.tags().catch((e) => e);
  assert.ok(e instanceof PremiumRequiredError, String(e));
  assert.equal(e.type, "https://api.example.com/problems/premium-required");
});

Deno.test("pitch detail wrapped in an object with camelCase keys maps to the same pitch", async () => {
  const [row] = await plain.pitches({ limit: 5 }).take(1);
  const want = await plain.pitch(row.pitch_id);
  const got = await client((p, b) => {
    if (!/^\/pitches\/[^/]+$/.test(p)) return b;
    const o = (rekey([b], lodashCamel) as Record<string, unknown>[])[0];
    return { data: { ...o, archive: (rekey([o.archive], lodashCamel) as unknown[])[0] } };
  }).pitch(row.pitch_id);
  assert.deepEqual(got, want);
});

Deno.test("a last page with a head_cursor (meaning not shown) and no next_cursor is a last page, never an error", async () => {
  for (const flag of ["has_more", "none"] as const) {
    const c = client((p, b) => {
      if (p !== "/pitches") return b;
      const { next_cursor: _n, has_more: _h, ...rest } = obj(b);
      // a one-page answer: no next cursor, the head cursor still there
      return { ...rest, ...(flag === "has_more" ? { has_more: false } : {}) };
    });
    const rows = await c.pitches({ limit: 7 }).take(50);
    assert.equal(rows.length, 7, flag);
    assert.equal(rows.truncated, false);
    const page = await c.pitches({ limit: 7 }).firstPage();
    assert.equal(page.next, null);
    assert.equal(typeof obj(page.raw).head_cursor, "string");
  }
});
