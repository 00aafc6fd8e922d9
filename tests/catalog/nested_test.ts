/**
 * The catalog's nested objects whose keys its spec leaves open, read by
 * structure (lib/catalog/_nested.ts): the archive's formats and request
 * flag, filter-set criteria, tag children and type flags. Each documented
 * form gives the plain answer; a shape outside them is an
 * InvalidResponseError naming the object and key, never a null.
 */
import assert from "node:assert/strict";
import { CatalogClient, InsiderClient, InvalidResponseError } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { type Rewrite, rewriting } from "../_rewrite.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const opts = { apiKey: DEMO_KEYS.catalog, baseUrl: "http://s/catalog" };
const plain = new CatalogClient({ ...opts, fetch: stub.fetch });
const client = (rewrite: Rewrite) =>
  new CatalogClient({ ...opts, fetch: rewriting(stub, rewrite).fetch });
type Obj = Record<string, unknown>;
const open = stub.catalog.pitches.find((p) => !stub.catalog.locked(p))!.pitch_id;

async function archiveAs(f: (a: Obj) => Obj) {
  return await client((p, b) =>
    p === `/pitches/${open}` ? { ...(b as Obj), archive: f((b as Obj).archive as Obj) } : b
  ).pitch(open);
}

Deno.test("archive formats in every documented shape read as the plain list", async () => {
  const want = (await plain.pitch(open)).archive!;
  assert.ok(want.formats.length > 0);
  const shapes: [string, (f: string[]) => unknown][] = [
    ["names in upper case", (f) => f.map((x) => x.toUpperCase())],
    ["objects naming their format", (f) => f.map((format) => ({ format, url: null }))],
    [
      "object keyed by format, booleans",
      (f) => Object.fromEntries(["pdf", "mhtml", "md"].map((x) => [x, f.includes(x)])),
    ],
    ["object keyed by format, objects", (f) => Object.fromEntries(f.map((x) => [x, { size: 1 }]))],
    ["joined names", (f) => f.join(",")],
  ];
  for (const [what, shape] of shapes) {
    const { formats: fs, ...rest } = (await plain.pitch(open)).archive! as unknown as Obj;
    const got = await archiveAs(() => ({ ...rest, available_formats: shape(fs as string[]) }));
    assert.deepEqual(got.archive!.formats, want.formats, what);
  }
});

Deno.test("the archive's request flag under another name, or as a timestamp", async () => {
  const base = (await plain.pitch(open)).archive! as unknown as Obj;
  const { requested, ...rest } = base;
  for (
    const [key, value, want] of [
      ["archiveRequested", requested, requested],
      ["is_requested", String(requested), requested],
      ["requested_at", "2026-11-19T14:00:00Z", true],
      ["requested_at", null, false],
    ] as const
  ) {
    const got = await archiveAs(() => ({ ...rest, [key]: value }));
    assert.equal(got.archive!.requested, want, `${key}: ${value}`);
  }
});

Deno.test("an archive shape outside the documented ones is loud, naming the key", async () => {
  const base = (await plain.pitch(open)).archive! as unknown as Obj;
  const cases: [Obj, RegExp][] = [
    [{ ...base, formats: ["pdf", "docx"] }, /archive\.formats\[1\] expected a format name/],
    [{ ...base, formats: 7 }, /archive\.formats expected a list of format names; got the number 7/],
    [{ ...base, requested: "maybe" }, /archive\.requested expected a boolean or the timestamp/],
    [{ ...base, requested_at: "2026-11-19T14:00:00Z" }, /2 keys naming the request flag/],
    [{ ...base, available: "soon" }, /archive\.available expected a boolean/],
  ];
  for (const [archive, re] of cases) {
    const e = await archiveAs(() => archive).catch((e) => e);
    assert.ok(e instanceof InvalidResponseError, String(e));
    assert.match(e.message, re);
  }
});

Deno.test("filter-set criteria in other nestings read as the plain criteria; unknown ones are loud", async () => {
  const want = await plain.filterSets();
  const reshape = (f: (c: Obj) => Obj) =>
    client((p, b) => {
      if (p !== "/filter-sets") return b;
      const data = ((b as Obj).data as Obj[]).map((s) => ({
        ...s,
        criteria: f(s.criteria as Obj),
      }));
      return { ...(b as Obj), data };
    }).filterSets();
  const snake = await reshape((c) => {
    const out: Obj = { none_of: c.noneOf };
    if (c.tags) out.tags = (c.tags as { any: string[] }).any; // a bare list
    if (c.tagsByType) {
      out.tags_by_type = Object.entries(c.tagsByType as Obj).map(([type, slugs]) => ({
        tag_type_key: type,
        slugs,
      }));
    }
    return out;
  });
  assert.deepEqual(snake, want);
  const anyTop = await reshape((c) => {
    const { tags, ...rest } = c;
    return tags ? { ...rest, any_of: (tags as { any: string[] }).any } : c;
  });
  assert.deepEqual(anyTop, want);
  // `{ any }` objects: under tags (with no other key), and per type
  const anyObjects = await reshape((c) => ({
    ...c,
    ...(c.tags ? { tags: { any_of: (c.tags as { any: string[] }).any } } : {}),
    ...(c.tagsByType
      ? {
        tagsByType: Object.fromEntries(
          Object.entries(c.tagsByType as Obj).map(([type, slugs]) => [type, { any: slugs }]),
        ),
      }
      : {}),
  }));
  assert.deepEqual(anyObjects, want);
  const withTags = want.findIndex((s) => s.criteria.tags);
  assert.ok(withTags >= 0, "the emulator serves a set with tags");
  assert.ok(want.some((s) => s.criteria.tagsByType), "and one with tags by type");
  const e3 = await reshape((c) => c.tags ? { ...c, tags: { any: [], all: [] } } : c).catch((e) =>
    e
  );
  assert.ok(e3 instanceof InvalidResponseError);
  assert.match(
    e3.message,
    /criteria\.tags expected an object with "any" alone; got an object of 2 keys/,
  );
  const e = await reshape((c) => ({ ...c, minScore: 3 })).catch((e) => e);
  assert.ok(e instanceof InvalidResponseError);
  assert.match(e.message, /criteria has "minScore", not a criterion the client reads/);
  const e2 = await reshape((c) => ({ ...c, noneOf: "sentiment" })).catch((e) => e);
  assert.match(e2.message, /criteria\.noneOf expected a list of slugs; got text of 9 characters/);
});

Deno.test("tag children under another name or keyed by slug; a child that is not a tag is loud", async () => {
  const want = await plain.tags();
  const rename = (f: (t: Obj) => Obj) =>
    client((p, b) => {
      if (p !== "/tags") return b;
      const walk = (t: Obj): Obj => {
        const kids = t.children as Obj[] | undefined;
        return kids ? f({ ...t, children: kids.map(walk) }) : t;
      };
      const data = ((b as Obj).data as Obj[]).map((ty) => ({
        ...ty,
        tags: (ty.tags as Obj[]).map(walk),
      }));
      return { ...(b as Obj), data };
    }).tags();
  const sector = want.types.find((t) => t.tags.some((x) => x.children?.length))!;
  for (
    const f of [
      (t: Obj) => {
        const { children, ...rest } = t;
        return { ...rest, industries: children };
      },
      (t: Obj) => {
        const { children, ...rest } = t;
        return {
          ...rest,
          subtags: Object.fromEntries((children as Obj[]).map((c) => [c.slug, c])),
        };
      },
    ]
  ) {
    const got = await rename(f);
    assert.deepEqual(got.slugs(sector.tagTypeKey), want.slugs(sector.tagTypeKey));
  }
  const e = await rename((t) => ({ ...t, children: [{ name: "no slug" }] })).catch((e) => e);
  assert.ok(e instanceof InvalidResponseError);
  assert.match(
    e.message,
    /children\[0\] expected a tag \(an object with a slug\); got an object of 1 key/,
  );
  const e2 = await client((p, b) => {
    if (p !== "/tags") return b;
    const data = ((b as Obj).data as Obj[]).map((ty) => ({ ...ty, closed: "perhaps" }));
    return { ...(b as Obj), data };
  }).tags().catch((e) => e);
  assert.match(e2.message, /closed expected a boolean; got text of 7 characters/);
  // the structured details name the key itself, not the whole place
  assert.equal(e2.field, "closed");
});

Deno.test("insider lookup hits: counts and times by their grammars, loud outside", async () => {
  const ins = (f: (h: Obj) => Obj) =>
    new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://s/insider",
      fetch: rewriting(stub, (p, b) =>
        p === "/insiders" ? { ...(b as Obj), data: ((b as Obj).data as Obj[]).map(f) } : b).fetch,
    }).insiders("smith", { limit: 3 });
  const want = await ins((h) => h);
  assert.ok(want.some((h) => h.issuers.length > 0 && h.titles.length > 0));
  // the optional fields under other spellings read the same (raw aside: as sent)
  const renamed = await ins(({ issuers, titles, trade_count, latest_filed_at, ...h }) => ({
    ...h,
    Issuers: issuers,
    Titles: titles,
    tradeCount: trade_count,
    latestFiledAt: latest_filed_at,
  }));
  assert.deepEqual(renamed.map(({ raw: _, ...h }) => h), want.map(({ raw: _, ...h }) => h));
  const text = await ins((h) => ({ ...h, trade_count: String(h.trade_count) }));
  assert.deepEqual(text.map((h) => h.trade_count), want.map((h) => h.trade_count));
  const e = await ins((h) => ({ ...h, trade_count: "many" })).catch((e) => e);
  assert.ok(e instanceof InvalidResponseError);
  assert.match(e.message, /match 0 trade_count expected integer; got text of 4 characters/);
  assert.deepEqual([e.field, e.row, e.got], [
    "trade_count",
    0,
    'text of 4 characters shaped "aaaa"',
  ]);
});
