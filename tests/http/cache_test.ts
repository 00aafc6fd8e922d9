import assert from "node:assert/strict";
import { join } from "node:path";
import {
  cacheStats,
  CatalogClient,
  InsiderClient,
  InvalidResponseError,
  ResponseCache,
  Transport,
  useProgressSink,
} from "../../mod.ts";
import { describe } from "../../lib/notebook/progress.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch } from "../_util.ts";
import type { FetchLike } from "../../lib/http/transport.ts";

const stub = createStub({ seed: 7, scale: 0.1 });

function insiderWith(fetch: FetchLike, cache: { dir: string; ttlMs?: number } | false) {
  return new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch,
    cache,
  });
}

function catalogWith(fetch: FetchLike, cache: { dir: string; ttlMs?: number }) {
  return new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch,
    cache,
  });
}

async function searchPages(insider: InsiderClient, n: number): Promise<number> {
  let rows = 0;
  let pages = 0;
  const list = insider.search({ excludeAnomalousTransactions: false }, {
    pageSize: 10,
    prefetch: false,
  });
  for await (const page of list.pages()) {
    rows += page.rows.length;
    if (++pages === n) break;
  }
  assert.equal(pages, n);
  return rows;
}

async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  await walk(dir);
  return out;
}

Deno.test("cache: rerunning a 20-page search and a 100-row hydrate makes 0 requests; the key is in no file", async () => {
  const dir = await Deno.makeTempDir();
  const c1 = countingFetch(stub);
  const first = insiderWith(c1.fetch, { dir });
  const rows1 = await searchPages(first, 20);
  const feed = await first.feed("ceo-trades", "buy", {}, { prefetch: false }).take(100);
  assert.equal(feed.length, 100);
  const h1 = await first.hydrate(feed, { progress: false });
  assert.equal(h1.rows.length, 100);
  assert.ok(c1.count.n >= 20 + 100);
  const before = cacheStats();

  const c2 = countingFetch(stub);
  const second = insiderWith(c2.fetch, { dir }); // a new client, as after a notebook restart
  const rows2 = await searchPages(second, 20);
  const feed2 = await second.feed("ceo-trades", "buy", {}, { prefetch: false }).take(100);
  const h2 = await second.hydrate(feed2, { progress: false });
  assert.equal(c2.count.n, 0, "the rerun made no request");
  assert.equal(rows2, rows1);
  assert.deepEqual(h2.rows, h1.rows);
  const after = cacheStats();
  assert.ok(after.hits - before.hits >= 120);
  assert.equal(after.misses, before.misses);

  const files = await filesOf(dir);
  assert.ok(files.length >= 120);
  assert.ok(files.every((f) => f.endsWith(".entry")), "no temporary file left");
  for (const f of files) {
    const text = new TextDecoder().decode(await Deno.readFile(f));
    assert.ok(!text.includes(DEMO_KEYS.insider), `${f} holds the key`);
    assert.ok(!/authorization|bearer/i.test(text.split("\n")[0]), "no auth header stored");
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache: keyed by method, URL and body; errors, other POSTs and cache: false are not cached", async () => {
  const dir = await Deno.makeTempDir();
  const c = countingFetch(stub);
  const insider = insiderWith(c.fetch, { dir });
  await insider.search({ tradeType: "purchase" }, { pageSize: 5 }).firstPage();
  await insider.search({ tradeType: "sale" }, { pageSize: 5 }).firstPage();
  assert.equal(c.count.n, 2, "different bodies are different entries");
  await insider.search({ tradeType: "purchase" }, { pageSize: 5 }).firstPage();
  assert.equal(c.count.n, 2);
  await assert.rejects(insider.transaction("0000000000-00-000000", 1));
  await assert.rejects(insider.transaction("0000000000-00-000000", 1));
  assert.equal(c.count.n, 4, "a 404 is not cached");
  const cache = new ResponseCache({ dir });
  assert.equal(cache.keyFor("POST", "/other", "http://s/api/v1/other", "{}"), undefined);
  assert.ok(cache.keyFor("POST", "/search", "http://s/api/v1/search", "{}"));

  const off = countingFetch(stub);
  const plain = insiderWith(off.fetch, false);
  await plain.search({}, { pageSize: 5 }).firstPage();
  await plain.search({}, { pageSize: 5 }).firstPage();
  assert.equal(off.count.n, 2, "cache: false sends every request");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache: Cache-Control no-store is not stored, max-age bounds the lifetime, ttlMs expires", async () => {
  const dir = await Deno.makeTempDir();
  let control = "no-store";
  let n = 0;
  const fetch: FetchLike = async (input, init) => {
    n++;
    const res = await stub.fetch(input, init);
    const headers = new Headers(res.headers);
    headers.set("cache-control", control);
    return new Response(res.body, { status: res.status, headers });
  };
  const catalog = catalogWith(fetch, { dir });
  await catalog.tags();
  await catalog.tags();
  assert.equal(n, 2, "no-store: fetched both times");
  assert.equal((await filesOf(dir)).length, 0);
  control = "private, max-age=3600";
  await catalog.tags();
  await catalog.tags();
  assert.equal(n, 3);
  const [file] = await filesOf(dir);
  const header = JSON.parse(new TextDecoder().decode(await Deno.readFile(file)).split("\n")[0]);
  assert.equal(header.expiresAt - header.storedAt, 3_600_000, "max-age=3600 → one hour");
  assert.equal(
    new ResponseCache({ dir }).ttlMs,
    86_400_000,
    "the default TTL is 24 h",
  );

  control = "";
  const short = catalogWith(fetch, { dir: join(dir, "short"), ttlMs: 1 });
  await short.filterSets();
  await new Promise((r) => setTimeout(r, 5));
  await short.filterSets();
  assert.equal(n, 5, "an entry older than ttlMs is fetched again");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache: a truncated or corrupted entry is detected, removed and fetched again", async () => {
  const dir = await Deno.makeTempDir();
  const c = countingFetch(stub);
  const catalog = catalogWith(c.fetch, { dir });
  const tags = await catalog.tags();
  const [file] = await filesOf(dir);
  const whole = await Deno.readFile(file);
  await Deno.writeFile(file, whole.subarray(0, whole.length - 10)); // half-written
  const before = cacheStats();
  assert.deepEqual(await catalog.tags(), tags);
  assert.equal(c.count.n, 2);
  assert.equal(cacheStats().corrupt - before.corrupt, 1);
  const flipped = new Uint8Array(await Deno.readFile(file));
  flipped[flipped.length - 3] ^= 0x20; // same length, one bit changed
  await Deno.writeFile(file, flipped);
  assert.deepEqual(await catalog.tags(), tags);
  assert.equal(c.count.n, 3);
  await Deno.writeFile(file, new TextEncoder().encode("garbage"));
  assert.deepEqual(await catalog.tags(), tags);
  assert.equal(c.count.n, 4);
  assert.deepEqual(await catalog.tags(), tags);
  assert.equal(c.count.n, 4, "the refetched entry is whole again");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache: processes sharing one folder leave only whole entries", async () => {
  const dir = await Deno.makeTempDir();
  const children = Array.from({ length: 3 }, () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(import.meta.dirname!, "cache_child.ts"), dir],
      stdout: "piped",
      stderr: "inherit",
    }).output());
  const counts = new Set<string>();
  for (const out of await Promise.all(children)) {
    assert.ok(out.success);
    counts.add(new TextDecoder().decode(out.stdout).trim());
  }
  assert.equal(counts.size, 1);
  const n = Number([...counts][0]);
  assert.ok(n >= 5);
  const files = await filesOf(dir);
  assert.equal(files.length, n);
  const c = countingFetch(stub);
  const catalog = catalogWith(c.fetch, { dir });
  const before = cacheStats();
  let pages = 0;
  for await (const _ of catalog.pitches({ limit: 20 }, { prefetch: false }).pages()) {
    if (++pages === 12) break;
  }
  assert.equal(c.count.n, 0, "every page came from the shared folder");
  assert.equal(cacheStats().corrupt, before.corrupt, "every entry is whole");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache: hits and misses show in the progress display", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  useProgressSink({ show: (s) => lines.push(describe(s)) });
  try {
    const insider = insiderWith(stub.fetch, { dir });
    const feed = await insider.feed("ceo-trades", "sell", {}, { prefetch: false }).take(30);
    await insider.hydrate(feed);
    assert.match(lines.at(-1)!, /cache 0 hits\/30 misses/, lines.join("\n"));
    await insider.hydrate(feed);
    assert.match(lines.at(-1)!, /cache 30 hits\/0 misses/);
  } finally {
    useProgressSink(undefined);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache options: a bad dir or ttlMs names the value and what is allowed", () => {
  assert.throws(
    () => insiderWith(stub.fetch, { dir: "" }),
    /cache\.dir "" is not allowed; allowed: a folder path/,
  );
  assert.throws(
    () => insiderWith(stub.fetch, { dir: "x", ttlMs: -5 }),
    /cache\.ttlMs -5 is not allowed; allowed: an integer from 1 to/,
  );
});

Deno.test("cache on connect(): both clients share it; a rerun is served from it", async () => {
  const { connect } = await import("../../mod.ts");
  const dir = await Deno.makeTempDir();
  const { catalog, insider } = await connect({ cache: { dir }, quiet: true });
  const before = cacheStats();
  const tags = await catalog.tags();
  const page = await insider.search({}, { pageSize: 7 }).firstPage();
  const mid = cacheStats();
  assert.equal(mid.misses - before.misses, 2);
  const again = await connect({ cache: { dir }, quiet: true });
  assert.deepEqual(await again.catalog.tags(), tags);
  assert.deepEqual((await again.insider.search({}, { pageSize: 7 }).firstPage()).rows, page.rows);
  const after = cacheStats();
  assert.equal(after.hits - mid.hits, 2);
  assert.equal(after.misses, mid.misses);
  const off = await connect({ cache: false, quiet: true });
  await off.catalog.tags();
  assert.equal(cacheStats().misses, after.misses, "cache: false does not consult the cache");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("cache: a 204 or 205 answer (no body) to a cached request is not stored", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const status of [204, 205]) {
      const t = new Transport({
        apiKey: DEMO_KEYS.insider,
        baseUrl: "http://s/insider",
        cache: { dir },
        maxRetries: 0,
        fetch: () => Promise.resolve(new Response(null, { status })),
      });
      // no JSON answer to read: a typed error, and nothing written
      const err = await t.json({ method: "GET", path: `/empty/${status}` }).catch((e) => e);
      assert.ok(err instanceof InvalidResponseError, String(err));
    }
    assert.deepEqual(await filesOf(dir).catch(() => []), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
