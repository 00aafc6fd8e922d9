/**
 * Unknown paging fields are loud: a list answer with a paging-like key
 * beside its rows and no recognised cursor is an InvalidResponseError naming
 * the key; a full page without any cursor key warns once per pull.
 */
import assert from "node:assert/strict";
import {
  CatalogClient,
  createStub,
  DEMO_KEYS,
  InsiderClient,
  InvalidResponseError,
} from "../../mod.ts";
import { rewriting } from "../_rewrite.ts";
import type { FetchLike } from "../../mod.ts";
import { captureWarnings } from "../_warnings.ts";

const stub = createStub({ seed: 4, scale: 0.2 });
const insider = (fetch: FetchLike) =>
  new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://t/insider", fetch });

async function warnings(fn: () => Promise<unknown>): Promise<string[]> {
  const captured = captureWarnings();
  const seen = captured.lines;
  try {
    await fn();
  } finally {
    captured.restore();
  }
  return seen;
}

Deno.test("GET /feeds as { result: { rows, cursor } }: take(30) fails naming result.cursor", async () => {
  const { fetch } = rewriting(stub, (path, body) => {
    if (path !== "/feeds") return body;
    const b = body as { data: unknown[]; next_cursor: string | null };
    return { result: { rows: b.data, cursor: b.next_cursor } };
  });
  await assert.rejects(
    insider(fetch).feed("ceo-trades", "buy").take(30),
    (e: unknown) =>
      e instanceof InvalidResponseError && /GET \/feeds: .*"result\.cursor"/.test(e.message) &&
      /next-page cursor/.test(e.message),
  );
});

Deno.test("the emulator's cursorName=cursor: search, feeds and pitches fail loudly naming the key", async () => {
  const odd = createStub({ seed: 4, scale: 0.2, dialect: "cursorName=cursor" });
  const ins = insider(odd.fetch as FetchLike);
  const named = (e: unknown) => e instanceof InvalidResponseError && /"cursor"/.test(e.message);
  await assert.rejects(ins.search({}, { pageSize: 10 }).take(30), named);
  await assert.rejects(ins.feed("ceo-trades", "buy").take(30), named);
  const cat = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://t/catalog",
    fetch: odd.fetch as FetchLike,
  });
  await assert.rejects(cat.pitches({ limit: 5 }).take(12), named);
});

Deno.test("a previous-page cursor or a last page is not an unknown cursor", async () => {
  const { fetch } = rewriting(stub, (path, body) => {
    if (path !== "/feeds") return body;
    return { ...(body as object), prev_cursor: "p0", self: "x" };
  });
  const rows = await insider(fetch).feed("ceo-trades", "buy").take(25);
  assert.equal(rows.length, 25);
});

Deno.test("a full page without any cursor key warns once per pull that the list may continue", async () => {
  const { fetch } = rewriting(stub, (path, body) => {
    if (path !== "/feeds") return body;
    const { next_cursor: _c, has_more: _h, ...rest } = body as Record<string, unknown>;
    return rest;
  });
  const list = insider(fetch).feed("ceo-trades", "buy", { limit: 10 });
  const seen = await warnings(async () => {
    assert.equal((await list.take(30)).length, 10, "the missing cursor ends the pull");
    // the same list read again: its warning was given already
    assert.equal((await list.take(30)).length, 10);
  });
  assert.equal(seen.length, 1, seen.join("\n"));
  assert.match(seen[0], /GET \/feeds returned a full page \(10 rows.*no cursor key.*may continue/);
  // a short page without a cursor is an ordinary last page
  const cut = rewriting(stub, (path, body) => {
    if (path !== "/feeds") return body;
    const { next_cursor: _c, has_more: _h, data, ...rest } = body as Record<string, unknown>;
    return { ...rest, data: (data as unknown[]).slice(0, 7) };
  });
  const short = await warnings(async () => {
    const got = await insider(cut.fetch).feed("ceo-trades", "buy", { limit: 10 }).take(30);
    assert.equal(got.length, 7);
  });
  assert.deepEqual(short, []);
});
