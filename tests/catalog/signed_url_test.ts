/**
 * Issue 25.4: document signing answers are never cached, and a download
 * never uses a signed URL past its expiry.
 */
import assert from "node:assert/strict";
import { cacheStats, CatalogClient, InvalidResponseError } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

Deno.test("with a cache, a download 301 s after the first still works: signing is not cached", async () => {
  let clock = Date.now();
  const stub = createStub({ seed: 3, scale: 0.1, now: () => clock });
  const pitch = stub.catalog.pitches.find((p) => p.archive.available && !stub.catalog.locked(p))!;
  const signed: string[] = [];
  const catalog = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    cache: { dir: await Deno.makeTempDir() },
    fetch: (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes("/document")) signed.push(url);
      return stub.fetch(input, init);
    },
  });
  const dir = await Deno.makeTempDir();
  try {
    cacheStats({ reset: true });
    const first = await catalog.download(pitch.pitch_id, { dir });
    clock += 301_000; // the first URL (300 s) has expired
    const second = await catalog.download(pitch.pitch_id, { dir });
    assert.notEqual(first, second, "two files (the second under a numbered name)");
    assert.deepEqual(await Deno.readFile(first), await Deno.readFile(second));
    assert.equal(signed.length, 2, "each download signed afresh");
    // the JSON form is not cached either: its expires_in_seconds is always true
    const doc = await catalog.document(pitch.pitch_id);
    assert.equal(doc.expires_in_seconds, 300);
    assert.equal(signed.length, 3);
    assert.equal(cacheStats().stores, 0, "no signing answer stored");
    assert.equal(cacheStats().hits, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A fake catalog whose signing answers have the given lifetimes, in turn. */
function signing(lifetimes: number[]) {
  const files: string[] = [];
  let n = 0;
  const catalog = new CatalogClient({
    apiKey: "k",
    baseUrl: "http://fake/catalog",
    fetch: (input) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith("http://fake/")) {
        const life = lifetimes[Math.min(n, lifetimes.length - 1)];
        return Promise.resolve(Response.json({
          url: `http://files.test/${++n}.pdf`,
          format: "pdf",
          artifact: null,
          snapshot: "s",
          filename: "doc.pdf",
          expires_in_seconds: life,
        }));
      }
      files.push(url);
      return Promise.resolve(new Response("%PDF-1.4"));
    },
  });
  return { catalog, files };
}

Deno.test("a URL signed with no life left is signed again once, never fetched; twice is a typed error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const once = signing([0, 300]);
    await once.catalog.download("p1", { dir });
    assert.deepEqual(once.files, ["http://files.test/2.pdf"], "only the fresh URL is fetched");
    const never = signing([0]);
    const err = await never.catalog.download("p1", { dir }).then(
      () => assert.fail("an expired URL was used"),
      (e) => e,
    );
    assert.ok(err instanceof InvalidResponseError, `${err}`);
    assert.match(err.message, /GET \/pitches\/p1\/document: the signed URL had expired/);
    assert.match(err.message, /expires_in_seconds 0/);
    assert.deepEqual(never.files, [], "nothing fetched");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
