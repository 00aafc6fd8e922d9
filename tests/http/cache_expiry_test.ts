import assert from "node:assert/strict";
import { ResponseCache } from "../../mod.ts";

const URL_ = "https://host/catalog/api/v1/tags";

Deno.test("an entry past its own lifetime (the server's max-age) is a miss, however long the reader's ttlMs", async () => {
  const dir = await Deno.makeTempDir();
  const cache = new ResponseCache({ dir, ttlMs: 60_000 });
  const key = cache.keyFor("GET", "/tags", URL_, undefined)!;
  await cache.put(key, new Response('{"data":[]}', { status: 200 }));
  assert.equal(await (await cache.get(key))?.text(), '{"data":[]}', "fresh: a hit");
  // stored 3 s ago by an answer that said max-age=1: expired 2 s ago, younger than the 60 s ttlMs
  const text = await Deno.readTextFile(key.file);
  const nl = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, nl));
  header.storedAt -= 3_000;
  header.expiresAt = header.storedAt + 1_000;
  await Deno.writeTextFile(key.file, JSON.stringify(header) + text.slice(nl));
  assert.equal(await cache.get(key), null, "past expiresAt: a miss");
  await Deno.remove(dir, { recursive: true });
});
