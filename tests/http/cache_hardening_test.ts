/**
 * Issue 25.9: the reader's ttlMs caps an entry's age; only regular files are
 * read (a FIFO never hangs the reader); orphaned temporary files are
 * removed; a cache that cannot be written says so once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheStats, ResponseCache } from "../../mod.ts";
import { STALE_TEMP_MS } from "../../lib/http/cache.ts";
import { captureWarnings } from "../_warnings.ts";

const URL_ = "https://host/catalog/api/v1/tags";
const body = () => new Response('{"data":[]}', { status: 200 });

async function stored(dir: string, ttlMs?: number) {
  const cache = new ResponseCache({ dir, ttlMs });
  const key = cache.keyFor("GET", "/tags", URL_, undefined)!;
  await cache.put(key, body());
  return { cache, key };
}

Deno.test("a reader's shorter ttlMs caps the age of an entry stored with a longer one", async () => {
  const dir = await Deno.makeTempDir();
  const { key } = await stored(dir); // 24 h
  // the entry was stored 3 s ago, to live 24 h
  const text = await Deno.readTextFile(key.file);
  const nl = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, nl));
  header.storedAt -= 3_000;
  header.expiresAt -= 3_000;
  await Deno.writeTextFile(key.file, JSON.stringify(header) + text.slice(nl));
  const short = new ResponseCache({ dir, ttlMs: 1_000 });
  assert.equal(await short.get(key), null, "older than the reader's 1 s: a miss");
  const long = new ResponseCache({ dir, ttlMs: 60_000 });
  assert.equal(await (await long.get(key))?.text(), '{"data":[]}', "younger than 60 s: a hit");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a FIFO (or a folder) in place of an entry is a miss, not a hang", async () => {
  const dir = await Deno.makeTempDir();
  const cache = new ResponseCache({ dir });
  const key = cache.keyFor("GET", "/tags", URL_, undefined)!;
  await Deno.mkdir(join(key.file, ".."), { recursive: true });
  const made = await new Deno.Command("mkfifo", { args: [key.file] }).output();
  assert.ok(made.success, "mkfifo");
  let guard: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((r) => guard = setTimeout(() => r("hung"), 10_000));
  const got = await Promise.race([cache.get(key), hung]);
  clearTimeout(guard);
  if (got === "hung") {
    // unblock the reader (a writer on the FIFO lets its open return) before failing
    (await Deno.open(key.file, { write: true })).close();
    assert.fail("the reader blocked on a FIFO");
  }
  assert.equal(got, null);
  // the FIFO was cleared, so the next answer can be stored and read
  await cache.put(key, body());
  assert.equal(await (await cache.get(key))?.text(), '{"data":[]}');
  // a folder at an entry's path is a miss too
  const key2 = cache.keyFor("GET", "/filter-sets", URL_ + "x", undefined)!;
  await Deno.mkdir(key2.file, { recursive: true });
  assert.equal(await cache.get(key2), null);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("orphaned temporary files are removed at the first access; fresh ones are left", async () => {
  const dir = await Deno.makeTempDir();
  const shard = join(dir, "v1", "ab");
  await Deno.mkdir(shard, { recursive: true });
  const old = join(shard, "x.entry.1111.tmp");
  const fresh = join(shard, "y.entry.2222.tmp");
  const entry = join(shard, "z.entry");
  for (const f of [old, fresh, entry]) await Deno.writeTextFile(f, "half");
  const past = new Date(Date.now() - STALE_TEMP_MS - 60_000);
  await Deno.utime(old, past, past);
  await Deno.utime(entry, past, past);
  // a read alone (a miss) sweeps them
  const cache = new ResponseCache({ dir });
  assert.equal(await cache.get(cache.keyFor("GET", "/tags", URL_, undefined)!), null);
  const left = [...Deno.readDirSync(shard)].map((e) => e.name).sort();
  assert.deepEqual(left, ["y.entry.2222.tmp", "z.entry"], "only the stale temp file went");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a cache that cannot be written says so once, and requests still succeed", async () => {
  const parent = await Deno.makeTempDir();
  const dir = join(parent, "not-a-folder");
  await Deno.writeTextFile(dir, "a file where the cache folder should be");
  const captured = captureWarnings();
  const warnings = captured.lines;
  try {
    cacheStats({ reset: true });
    const cache = new ResponseCache({ dir });
    for (const path of ["/a", "/b", "/c"]) {
      const key = cache.keyFor("GET", path, URL_ + path, undefined)!;
      const res = await cache.put(key, body());
      assert.equal(await res.text(), '{"data":[]}', "the answer is still handed back");
    }
  } finally {
    captured.restore();
  }
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /^signalbook: cannot write the response cache in .*not-a-folder \(/);
  assert.match(warnings[0], /answers are not being cached$/);
  assert.equal(cacheStats().stores, 0);
  await Deno.remove(parent, { recursive: true });
});
