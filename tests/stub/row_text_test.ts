/**
 * Search rows written straight from the stored world's columns (the world
 * cache) are byte for byte the rows written from plain row objects: every
 * column kind's value text equals `JSON.stringify` of the value, and a stub
 * on the cached world answers every route, dialect and query with the same
 * bytes as a stub on the world built in memory.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { createStub } from "../../lib/stub/mod.ts";
import { DIALECTS as DIALECT_NAMES, resolveDialect } from "../../lib/stub/dialect.ts";
import { insiderService } from "../../lib/stub/insider/insider_service.ts";
import type { InsiderData, Trade } from "../../lib/stub/insider/insider_data.ts";
import { encodeColumns, RecordColumns } from "../../lib/stub/columns.ts";
import { rowTextWriter } from "../../lib/stub/insider/stored_trades.ts";

const day = fc.date({
  min: new Date("1990-01-01"),
  max: new Date("2040-12-31"),
  noInvalidDate: true,
})
  .map((d) => d.toISOString().slice(0, 10));
const instant = fc.date({
  min: new Date("1990-01-01"),
  max: new Date("2040-12-31"),
  noInvalidDate: true,
})
  .map((d) => d.toISOString());
/** One column's values: each kind the columns store, with nulls, escapes and odd numbers. */
const column = fc.oneof(
  fc.array(fc.option(fc.integer(), { nil: null })),
  fc.array(fc.option(fc.oneof(fc.double(), fc.constant(-0), fc.constant(1e21)), { nil: null })),
  fc.array(fc.option(fc.boolean(), { nil: null })),
  fc.array(fc.option(day, { nil: null })),
  fc.array(fc.option(instant, { nil: null })),
  fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 31 })).map((a) => a.sort((x, y) => x - y))),
  fc.array(fc.option(fc.string({ unit: "binary" }), { nil: null })),
  fc.array(
    fc.option(
      fc.oneof(
        fc.string({ unit: "grapheme" }),
        fc.constantFrom('a"b', "c\\d", "\n", "\u2028", "\ud800x"),
      ),
      { nil: null },
    ),
  ),
  fc.array(fc.option(fc.jsonValue(), { nil: null })),
);

Deno.test("column texts: each kind's value text is JSON.stringify of the value, escapes and nulls included", () => {
  fc.assert(
    fc.property(fc.array(column, { minLength: 1, maxLength: 6 }), fc.nat(), (cols, len) => {
      const n = 1 + len % 20;
      const rows = Array.from(
        { length: n },
        (_, i) =>
          Object.fromEntries(cols.map((c, k) => [`k${k}`, c.length ? c[i % c.length] : null])),
      );
      const stored = new RecordColumns(encodeColumns(rows), n);
      for (const [name, text] of stored.texts) {
        for (let i = 0; i < n; i++) {
          assert.equal(text(i), JSON.stringify(rows[i][name]), `${name} row ${i}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});

const DIALECTS = Object.keys(DIALECT_NAMES).concat("all");
const SEARCH = fc.record({
  filter: fc.record({
    cikOrTicker: fc.constantFrom("WPI", "AAPL", "0000320193"),
    sortBy: fc.constantFrom(
      "filedAt",
      "insiderReturn",
      "tradeReturn",
      "percentChange",
      "transactionValue",
    ),
    sortDirection: fc.constantFrom("asc", "desc"),
    tradeType: fc.constantFrom("all", "purchase", "sale"),
    filingDatePreset: fc.constantFrom("All time", "1 year", "3 months"),
  }, { requiredKeys: [] }),
  pageSize: fc.constantFrom(1, 7, 100),
});

type App = { request(path: string, init?: RequestInit): Response | Promise<Response> };

async function searchPages(s: App, body: { filter: unknown; pageSize: number }): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let p = 0; p < 2; p++) {
    const res = await s.request("/api/v1/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        filter: body.filter,
        pagination: { pageSize: body.pageSize, ...(cursor ? { cursor } : {}) },
      }),
    });
    const text = await res.text();
    out.push(`${res.status} ${text}`);
    cursor = res.status === 200 ? JSON.parse(text).nextCursor : undefined;
    if (!cursor) break;
  }
  return out;
}

Deno.test("search pages written from the columns have the same bytes as pages written from row objects, for every dialect and query", async () => {
  const stub = createStub({ seed: 2, scale: 0.1 });
  const stored = stub.insider;
  // the same trades as plain objects: their rows are written by JSON.stringify of each value
  const trades: Trade[] = stored.trades.map((t) => ({ ...t, row: t.row }));
  const plainData: InsiderData = {
    insiders: stored.insiders,
    trades,
    byKey: new Map(trades.map((t) => [`${t.row.accession_number}/${t.row.transaction_id}`, t])),
  };
  const one = rowTextWriter([["ticker_symbol", "t"], ["returns_1w", "w"]]);
  const want = JSON.stringify({ t: trades[0].row.ticker_symbol, w: trades[0].row.returns_1w });
  assert.equal(one(trades[0]), want, "plain trades: JSON.stringify of the object");
  assert.equal(one(stored.trades[0]), want, "stored trades: from the columns");
  assert.equal(rowTextWriter([])(stored.trades[0]), "{}");
  const services = new Map<string, [App, App]>();
  const pair = (name: string) => {
    let p = services.get(name);
    if (!p) {
      const dialect = resolveDialect(name);
      const ctx = { world: stub.world, secret: "s", dialect, keepServedRows: 0 };
      p = [
        insiderService({ ...ctx, data: plainData }),
        insiderService({ ...ctx, data: stored }),
      ];
      services.set(name, p);
    }
    return p;
  };
  let rows = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...DIALECTS), SEARCH, async (d, body) => {
      const [plain, columns] = pair(d);
      const a = await searchPages(plain, body);
      assert.deepEqual(await searchPages(columns, body), a);
      rows += a.join("").split('"issuerCik"').length - 1;
    }),
    { numRuns: 150 },
  );
  assert.ok(rows > 500, `rows compared: ${rows}`);
});

Deno.test("encodeColumns stores ascending id lists of 0..31 as bit masks, any other list as JSON", () => {
  const kinds = (vals: unknown[]) => encodeColumns(vals.map((v) => ({ v })))[0].kind;
  assert.equal(kinds([[], [0], [1, 5, 31], [2, 3]]), "ids");
  for (const odd of [[3, 1], [1, 1], [32], [-1], [1.5], ["1"], [0, -0, 2], [null]]) {
    assert.equal(kinds([[1, 2], odd]), "json", JSON.stringify(odd));
  }
  // and each reads back as it was written
  const rows = [[], [0], [1, 5, 31], [3, 1], [32]].map((v) => ({ v }));
  const cols = new RecordColumns(encodeColumns(rows), rows.length);
  assert.deepEqual(rows.map((_, i) => cols.row(i)), rows);
});
