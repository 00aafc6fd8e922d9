/**
 * The catalog kept in the world file (lib/stub/catalog/stored_catalog.ts):
 * it comes back equal to the catalog built from the world, lookups and lock
 * rule included; values JSON would not give back come back exactly; a world
 * file holds one, and a stub on a cached world serves from it.
 */
import assert from "node:assert/strict";
import { createStub } from "../../lib/stub/mod.ts";
import { type CatalogData, makeCatalogData } from "../../lib/stub/catalog/catalog_data.ts";
import { loadCatalog, storeCatalog } from "../../lib/stub/catalog/stored_catalog.ts";
import { openWorld } from "../../lib/stub/world_cache.ts";

function same(a: CatalogData, b: CatalogData) {
  // as JSON: a −0 return comes back as 0, which every comparison and answer treats alike
  assert.equal(JSON.stringify(b.pitches), JSON.stringify(a.pitches));
  assert.equal(JSON.stringify(b.authors), JSON.stringify(a.authors));
  assert.deepEqual(b.tagTypes, a.tagTypes);
  assert.deepEqual(b.filterSets, a.filterSets);
  assert.deepEqual(b.slugType, a.slugType);
  assert.deepEqual(b.following, a.following);
  assert.deepEqual(b.access, a.access);
  assert.deepEqual([...b.byId.keys()], [...a.byId.keys()]);
  assert.deepEqual(a.pitches.map((p) => b.locked(p)), a.pitches.map((p) => a.locked(p)));
}

Deno.test("stored catalog: back from its bytes, equal to the one built, lookups and locks too", () => {
  for (const [seed, scale] of [[1, 1], [4, 0.1]]) {
    const made = makeCatalogData(openWorld({ seed, scale, cache: false }).world);
    same(made, loadCatalog(storeCatalog(made)));
    if (scale === 1) {
      // the default world has both locked and readable pitches: the lock rule is compared on both
      assert.ok(
        made.pitches.some((p) => made.locked(p)) && made.pitches.some((p) => !made.locked(p)),
      );
    }
  }
});

Deno.test("stored catalog: what JSON would not give back comes back exactly", () => {
  const made = makeCatalogData(openWorld({ seed: 1, scale: 0.05, cache: false }).world);
  const p = made.pitches[0] as unknown as Record<string, unknown>;
  for (const odd of [NaN, Infinity, -0, undefined, new Date(0)]) {
    const pitches = [{ ...p, price_target: odd }, ...made.pitches.slice(1)];
    const back = loadCatalog(storeCatalog({ ...made, pitches } as CatalogData));
    const got = back.pitches[0] as unknown as Record<string, unknown>;
    assert.ok("price_target" in got, String(odd));
    assert.deepEqual(got.price_target, odd, String(odd));
    assert.ok(Object.is(got.price_target, odd) || odd instanceof Date, String(odd));
    assert.equal(back.byId.get(p.pitch_id as string), back.pitches[0], "lookups rebuilt");
  }
});

Deno.test("stored catalog: a world file holds it; a stub on the cached world serves the same", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sb-worlds-" });
  try {
    const made = openWorld({ seed: 2, scale: 0.1, cache: dir });
    const bytes = await Deno.readFile(made.file!);
    const headLen = new DataView(bytes.buffer).getUint32(4, true);
    // the header follows a 32-byte prefix (tag, lengths, the header's digest)
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(32, 32 + headLen)));
    assert.ok(header.meta.catalogBytes > 0, "the file has a catalog section");
    const back = openWorld({ seed: 2, scale: 0.1, cache: dir });
    assert.equal(back.source, "cache");
    same(made.catalog(), back.catalog());
    assert.equal(back.catalog(), back.catalog(), "read once");
    const plain = createStub({ seed: 2, scale: 0.1, worldCache: false });
    const cached = createStub({ seed: 2, scale: 0.1, worldCache: dir });
    const auth = { authorization: "Bearer demo-catalog-key" };
    for (const path of ["/catalog/api/v1/pitches?limit=50", "/catalog/api/v1/filter-sets"]) {
      const a = await (await plain.app.request(path, { headers: auth })).text();
      const b = await (await cached.app.request(path, { headers: auth })).text();
      assert.ok(a.length > 100, a.slice(0, 200));
      assert.equal(b, a, path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
