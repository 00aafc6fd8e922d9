import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  buildFrame,
  CatalogClient,
  dtypeName,
  frameBundle,
  InsiderClient,
  pitchesFrame,
  show,
  TRANSACTION_FIELDS,
  transactionsFrame,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://s/insider",
  fetch: stub.fetch,
});
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://s/catalog",
  fetch: stub.fetch,
});
const dt = (df: pl.DataFrame, c: string) => dtypeName(df.getColumn(c).dtype);

Deno.test("transactions frame: explicit dtypes from the catalog", async () => {
  const df = await insider.search({}).frame({ maxRows: 300 });
  assert.equal(df.width, TRANSACTION_FIELDS.length);
  const want: Record<string, string> = {
    transaction_date: "Date",
    period_of_report: "Date",
    filed_at: "Datetime(ms,UTC)",
    created_at: "Datetime(ms,UTC)",
    issuer_cik: "String",
    accession_number: "String",
    is_ceo: "Bool",
    transaction_value: "Float64",
    returns_1m: "Float64",
    win_rate_1y_pct: "Float64",
    win_rate_1y_wins: "Int64",
    cluster_num_trades_30d: "Int64",
    transaction_id: "Int64",
    feed_ids: "List(Int64)",
  };
  for (const [c, t] of Object.entries(want)) assert.ok(dt(df, c).includes(t), `${c}: ${dt(df, c)}`);
  assert.ok((df.getColumn("issuer_cik").getIndex(0) as string).startsWith("000"));
});

Deno.test("values survive exactly: dates, timestamps, nulls, booleans, lists", () => {
  const rows = stub.insider.trades.slice(0, 500).map((t) => t.row);
  const df = transactionsFrame(rows);
  rows.forEach((r, i) => {
    assert.equal(
      (df.getColumn("transaction_date").getIndex(i) as Date).toISOString().slice(0, 10),
      r.transaction_date,
    );
    assert.equal((df.getColumn("filed_at").getIndex(i) as Date).toISOString(), r.filed_at);
    assert.equal(df.getColumn("returns_1y").getIndex(i), r.returns_1y);
    assert.equal(df.getColumn("expiration_date").getIndex(i) === null, r.expiration_date === null);
    assert.equal(df.getColumn("is_10b51").getIndex(i), r.is_10b51);
    assert.deepEqual([...(df.getColumn("feed_ids").getIndex(i) as number[])], r.feed_ids);
  });
  const nulls = transactionsFrame([{
    ...rows[0],
    is_ceo: null,
    transaction_date: null,
    transaction_value: null,
  }]);
  assert.equal(nulls.getColumn("is_ceo").getIndex(0), null);
  assert.equal(nulls.getColumn("transaction_date").getIndex(0), null);
  assert.equal(nulls.getColumn("transaction_value").getIndex(0), null);
});

Deno.test("search rows (camelCase) and detail rows (snake_case) give the same schema and values", async () => {
  const camel = await insider.search({}, { pageSize: 20 }).take(20);
  const snake = await insider.hydrate(
    camel.map((r) => ({
      accession_number: r.accessionNumber!,
      transaction_id: r.transactionId!,
      filed_at: r.filedAt!,
    })),
  );
  const a = transactionsFrame(camel);
  const b = transactionsFrame(snake.rows);
  assert.deepEqual(a.columns, b.columns);
  assert.deepEqual(a.dtypes.map(String), b.dtypes.map(String));
  assert.ok(a.frameEqual(b, true));
});

Deno.test("partial rows (fields=) and empty input still give the full schema", async () => {
  const t = stub.insider.trades[0].row;
  const part = await insider.transaction(t.accession_number!, t.transaction_id!, {
    fields: ["code", "transaction_value"],
  });
  const df = transactionsFrame([part]);
  assert.equal(df.width, TRANSACTION_FIELDS.length);
  assert.equal(df.getColumn("code").getIndex(0), t.code);
  assert.equal(df.getColumn("filed_at").getIndex(0), null);
  const empty = transactionsFrame([]);
  assert.equal(empty.height, 0);
  assert.equal(empty.width, TRANSACTION_FIELDS.length);
  assert.equal(dt(empty, "feed_ids"), "List(Int64)");
  const pe = pitchesFrame([]);
  assert.equal(pe.height, 0);
  assert.equal(dt(pe, "slugs"), "List(String)");
});

Deno.test("extra columns are kept by the stated rule and reported once", () => {
  const rows = stub.insider.trades.slice(0, 3).map((t) => ({
    ...t.row,
    extra_text: "x",
    extra_num: 1.5,
    extra_obj: { a: 1 },
    extra_mixed: t.row.code === "P" ? 1 : "one",
  }));
  const warnings: string[] = [];
  const orig = console.warn;
  console.warn = (m: string) => warnings.push(m);
  try {
    const df = transactionsFrame(rows);
    transactionsFrame(rows);
    assert.equal(dt(df, "extra_text"), "String");
    assert.equal(dt(df, "extra_num"), "Float64");
    assert.equal(dt(df, "extra_obj"), "String");
    assert.equal(df.getColumn("extra_obj").getIndex(0), '{"a":1}');
  } finally {
    console.warn = orig;
  }
  assert.equal(warnings.filter((w) => w.includes('"extra_text"')).length, 1);
});

Deno.test(".frame({ maxRows }) says when it cut rows: warning and flag", async () => {
  const warnings: string[] = [];
  const orig = console.warn;
  console.warn = (m: string) => warnings.push(m);
  try {
    const cut = await catalog.pitches({ limit: 20 }).frame({ maxRows: 30 });
    assert.equal(cut.height, 30);
    assert.equal(cut.truncated, true);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /maxRows=30/);
    const co = stub.world.companies[5].companyId;
    const all = await catalog.pitches({ companyId: co }).frame();
    const exact = await catalog.pitches({ companyId: co }).frame({ maxRows: all.height });
    assert.equal(exact.truncated, false);
    assert.equal(all.truncated, false);
    assert.equal(warnings.length, 1);
  } finally {
    console.warn = orig;
  }
});

Deno.test("pitches frame flattens the nested object without duplicate columns; locked rows are null", async () => {
  const big = createStub({ seed: 1 });
  const full = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch: big.fetch,
  });
  const df = await full.pitches({ isPremiumPitch: true }).frame();
  assert.equal(new Set(df.columns).size, df.columns.length);
  assert.deepEqual(df.columns.slice(0, 3), ["pitch_id", "pitch_date", "added_on"]);
  assert.equal(dt(df, "pitch_date"), "Date");
  assert.equal(dt(df, "slugs"), "List(String)");
  const locked = df.filter(pl.col("is_locked"));
  assert.ok(locked.height > 0);
  assert.equal(locked.getColumn("pitch_title").nullCount(), locked.height);
  const detail = await full.pitch(df.getColumn("pitch_id").getIndex(0) as string);
  const dd = pitchesFrame([detail]);
  assert.ok(dd.columns.includes("archive_available") && dd.columns.includes("company_id"));
});

Deno.test("notebook display shows shape, dtypes and head/tail rows", async () => {
  const df = await insider.search({}).frame({ maxRows: 40 });
  const bundle = (df as unknown as Record<symbol, () => Record<string, string>>)
    [Symbol.for("Jupyter.display")]();
  assert.match(bundle["text/html"], /shape: \(40, 174\)/);
  assert.match(bundle["text/html"], /<i>Datetime\(ms,UTC\)<\/i>/);
  assert.match(bundle["text/html"], /<td>…<\/td>/);
  assert.match(bundle["text/plain"], /shape: \(40, 174\)/);
  const any = show(pl.DataFrame({ a: [1, 2] }));
  assert.match(
    (any as unknown as Record<symbol, () => Record<string, string>>)
      [Symbol.for("Jupyter.display")]()["text/html"],
    /shape: \(2, 1\)/,
  );
  assert.match(
    frameBundle(buildFrame([{ name: "d", dtype: "date" }], [{ d: "2025-01-02" }]))["text/html"],
    /2025-01-02/,
  );
});
