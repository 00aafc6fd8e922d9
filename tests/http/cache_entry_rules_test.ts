/**
 * Cache entry rules (issue 31, Deliver 3): an entry is read only when it is
 * a regular file no larger than `maxResponseBytes` (plus its header), stored
 * no later than now; its header is checked like its body — a status of 100
 * or 204 or a content type with a line break is a corrupt entry, removed
 * and fetched again, never a `TypeError`/`RangeError`.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cacheStats, CatalogClient } from "../../mod.ts";
import { ResponseCache } from "../../lib/http/cache.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch } from "../_util.ts";

const stub = createStub({ seed: 3, scale: 0.05 });

async function setup(maxResponseBytes?: number) {
  const dir = await Deno.makeTempDir();
  const counted = countingFetch(stub);
  const catalog = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch: counted.fetch,
    cache: { dir },
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });
  await catalog.tags();
  const cache = new ResponseCache({ dir });
  const key = cache.keyFor("GET", "/tags", "http://s/catalog/api/v1/tags", undefined)!;
  // the entry the client wrote (the same key: method, URL, no body)
  const entry = await Deno.readFile(key.file);
  return { dir, catalog, counted, file: key.file, entry };
}

/** An entry with its header changed, checksum still right. */
function forge(entry: Uint8Array, change: (h: Record<string, unknown>) => void): Uint8Array {
  const nl = entry.indexOf(10);
  const header = JSON.parse(new TextDecoder().decode(entry.subarray(0, nl)));
  const body = entry.subarray(nl + 1);
  change(header);
  header.sha256 = createHash("sha256").update(body).digest("hex");
  const head = new TextEncoder().encode(JSON.stringify(header) + "\n");
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

Deno.test("a header with status 100 or 204, or a content type with a line break: corrupt, removed, fetched again", async () => {
  const { dir, catalog, counted, file, entry } = await setup();
  const forged = [
    (h: Record<string, unknown>) => (h.status = 100),
    (h: Record<string, unknown>) => (h.status = 204),
    (h: Record<string, unknown>) => (h.status = 700),
    (h: Record<string, unknown>) => (h.contentType = "application/json\r\nx: y"),
    (h: Record<string, unknown>) => (h.storedAt = "soon"),
  ];
  for (const change of forged) {
    await Deno.writeFile(file, forge(entry, change));
    const before = cacheStats().corrupt;
    counted.count.n = 0;
    const tags = await catalog.tags();
    assert.ok(tags);
    assert.equal(counted.count.n, 1, "fetched again");
    assert.equal(cacheStats().corrupt, before + 1);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an entry stored in the future is a miss whatever ttlMs says", async () => {
  const { dir, catalog, counted, file, entry } = await setup();
  await Deno.writeFile(
    file,
    forge(entry, (h) => {
      h.storedAt = Date.now() + 3_600_000;
      h.expiresAt = Date.now() + 7_200_000;
    }),
  );
  counted.count.n = 0;
  await catalog.tags();
  assert.equal(counted.count.n, 1);
  counted.count.n = 0;
  await catalog.tags(); // the fresh entry written in its place is served
  assert.equal(counted.count.n, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an entry larger than maxResponseBytes is never read whole: a miss, removed; a symlinked entry too", async () => {
  const { dir, catalog, counted, file } = await setup(1 << 20);
  // a 3 GiB sparse file at the entry path
  const f = await Deno.open(file, { write: true, truncate: true });
  await f.truncate(3 * 1024 ** 3);
  f.close();
  counted.count.n = 0;
  const before = Deno.memoryUsage().rss;
  await catalog.tags();
  assert.equal(counted.count.n, 1);
  assert.ok(Deno.memoryUsage().rss - before < 512 << 20, "not read into memory");
  assert.ok((await Deno.lstat(file)).size < 1 << 20, "replaced by a real entry");
  const victim = `${dir}/victim.txt`;
  await Deno.writeTextFile(victim, "keep me");
  await Deno.remove(file);
  await Deno.symlink(victim, file);
  counted.count.n = 0;
  await catalog.tags();
  assert.equal(counted.count.n, 1);
  assert.equal(await Deno.readTextFile(victim), "keep me");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("put hands back a copy of the answer (status, status text, headers, body), stored or not, and leaves a 204 alone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = new ResponseCache({ dir });
    const key = cache.keyFor("GET", "/tags", "http://s/catalog/api/v1/tags", undefined)!;
    for (const cacheControl of ["max-age=60", "no-store"]) {
      const copy = await cache.put(
        key,
        new Response('{"data":[1]}', {
          status: 203,
          statusText: "Copied",
          headers: { "content-type": "application/json", "cache-control": cacheControl },
        }),
      );
      assert.equal(copy.status, 203);
      assert.equal(copy.statusText, "Copied");
      assert.equal(copy.headers.get("content-type"), "application/json");
      assert.equal(await copy.text(), '{"data":[1]}', cacheControl);
    }
    const noBody = new Response(null, { status: 204 });
    assert.equal(await cache.put(key, noBody), noBody);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
