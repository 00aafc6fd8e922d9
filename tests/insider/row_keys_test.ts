/**
 * Rows are read key by key: a key is recognised in whichever row it first
 * appears, so rows that leave out their null keys, a first row that is the
 * sparsest, or a page mixing two spellings land every value on its declared
 * column, never in an extra column of another name.
 */
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { CatalogClient, createStub, DEMO_KEYS, InsiderClient } from "../../mod.ts";
import { lodashCamel, rewriting } from "../_rewrite.ts";
import type { FetchLike } from "../../mod.ts";

const base = createStub({ seed: 5, scale: 0.2 });
const insider = (fetch: FetchLike) =>
  new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://t/insider", fetch });
const catalog = (fetch: FetchLike) =>
  new CatalogClient({ apiKey: DEMO_KEYS.catalog, baseUrl: "http://t/catalog", fetch });
const quiet = { onReport: () => {} };

async function searchFrame(fetch: FetchLike, rows = 2000): Promise<pl.DataFrame> {
  return await insider(fetch).search({}).frame({ maxRows: rows, progress: false });
}

function sameFrames(a: pl.DataFrame, b: pl.DataFrame): void {
  assert.deepEqual(b.columns, a.columns, "no extra columns");
  const differ = a.columns.filter((c) =>
    !a.getColumn(c).isNull().eq(b.getColumn(c).isNull()).all()
  );
  assert.deepEqual(differ, [], "every column holds the same values");
  assert.ok(a.frameEqual(b, true));
}

Deno.test("rows that omit their null keys (dialect omit-nulls) give the same frame: search and pitches", async () => {
  const omit = createStub({ seed: 5, scale: 0.2, dialect: "omit-nulls" });
  sameFrames(await searchFrame(base.fetch), await searchFrame(omit.fetch));
  const p = (s: typeof base) =>
    catalog(s.fetch).pitches({}).frame({ maxRows: 300, progress: false });
  sameFrames(await p(base), await p(omit));
  void quiet;
});

Deno.test("a first row that is the sparsest does not decide what later rows mean", async () => {
  // the first row of every page keeps only its identity; the rest are whole
  const { fetch } = rewriting(base, (path, body) => {
    if (path !== "/search") return body;
    const b = body as { data: Record<string, unknown>[] };
    const first = b.data[0];
    if (first) {
      b.data[0] = Object.fromEntries(
        Object.entries(first).filter(([k]) =>
          ["accessionNumber", "transactionId", "feedIds"].includes(k)
        ),
      );
    }
    return b;
  });
  const whole = await searchFrame(base.fetch, 500);
  const sparse = await searchFrame(fetch, 500);
  assert.deepEqual(sparse.columns, whole.columns, "no extra columns");
  // later rows are intact
  const tail = (df: pl.DataFrame) => df.filter(pl.col("transaction_id").isNotNull()).slice(1, 50);
  assert.ok(tail(whole).frameEqual(tail(sparse), true));
  assert.equal(sparse.getColumn("returns_1w").nullCount() < sparse.height / 2, true);
});

Deno.test("a page mixing two spellings lands both on the declared columns", async () => {
  // every other row re-cased the lodash way (returns1W), the others as served (returns1w),
  // and a few snake_case
  const { fetch } = rewriting(base, (path, body) => {
    if (path !== "/search") return body;
    const b = body as { data: Record<string, unknown>[] };
    b.data = b.data.map((row, i) => {
      if (i % 2 === 0) return row;
      const snake = i % 3 === 0;
      return Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          snake
            ? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/(\d+)/g, "_$1")
            : lodashCamel(k),
          v,
        ]),
      );
    });
    return b;
  });
  sameFrames(await searchFrame(base.fetch, 600), await searchFrame(fetch, 600));
});
