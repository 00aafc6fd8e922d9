import { displayBundle, offline } from "../_util.ts";
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  buildFrame,
  CatalogClient,
  dtypeName,
  FrameBuilder,
  frameBundle,
  InsiderClient,
  pitchesFrame,
  show,
  TRANSACTION_FIELDS,
  transactionsFrame,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { captureWarnings } from "../_warnings.ts";

const { stub, insider, catalog } = await offline();
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
  const captured = captureWarnings();
  const warnings = captured.lines;
  try {
    const df = transactionsFrame(rows);
    transactionsFrame(rows);
    assert.equal(dt(df, "extra_text"), "String");
    assert.equal(dt(df, "extra_num"), "Float64");
    assert.equal(dt(df, "extra_obj"), "String");
    assert.equal(df.getColumn("extra_obj").getIndex(0), '{"a":1}');
  } finally {
    captured.restore();
  }
  assert.equal(warnings.filter((w) => w.includes('"extra_text"')).length, 1);
});

Deno.test(".frame({ maxRows }) says when it cut rows: the flag and the display, no printed notice", async () => {
  const printed: string[] = [];
  const orig = { warn: console.warn, error: console.error, log: console.log };
  console.warn = console.error = console.log = (m: string) => printed.push(m);
  try {
    const cut = await catalog.pitches({ limit: 20 }).frame({ maxRows: 30, progress: false });
    assert.equal(cut.height, 30);
    assert.equal(cut.truncated, true);
    const shown = displayBundle(cut)["text/plain"];
    assert.match(shown.split("\n")[0], /^shape: \(30, \d+\) · .*stopped at maxRows/);
    const co = stub.world.companies[5].companyId;
    const all = await catalog.pitches({ companyId: co }).frame({ progress: false });
    const exact = await catalog.pitches({ companyId: co }).frame({
      maxRows: all.height,
      progress: false,
    });
    assert.equal(exact.truncated, false);
    assert.equal(all.truncated, false);
    const exactShown = displayBundle(exact)["text/plain"];
    assert.doesNotMatch(exactShown, /maxRows/);
    assert.deepEqual(printed, [], "the caller got the rows asked for: nothing printed");
  } finally {
    Object.assign(console, orig);
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
  const bundle = displayBundle(df);
  assert.match(bundle["text/html"], /shape: \(40, 174\)/);
  assert.match(bundle["text/html"], /<i>Datetime\(ms,UTC\)<\/i>/);
  assert.match(bundle["text/html"], /<td>…<\/td>/);
  assert.match(bundle["text/plain"], /shape: \(40, 174\)/);
  const any = show(pl.DataFrame({ a: [1, 2] }));
  assert.match(
    displayBundle(any)["text/html"],
    /shape: \(2, 1\)/,
  );
  assert.match(
    frameBundle(buildFrame([{ name: "d", type: "date" }], [{ d: "2025-01-02" }]))["text/html"],
    /2025-01-02/,
  );
});

// Guards the cause of the old memory blow-up (issue: `.frame()` at real
// sizes): a per-page frame for each of many small pages, all concatenated at
// the end. Rows must go into a few large native chunks, proportional to the
// rows (rows / CHUNK_ROWS), never one chunk per page.
Deno.test(".frame() over 200 pages builds rows/CHUNK_ROWS native chunks, not one per page", async () => {
  const { CHUNK_ROWS } = await import("../../mod.ts");
  const big = createStub({ seed: 3, scale: 1 });
  const client = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: big.fetch,
  });
  let pages = 0;
  const df = await client.search({ excludeAnomalousTransactions: false }, { pageSize: 100 })
    .frame({ maxRows: 20_000, progress: false, onPage: () => pages++ });
  assert.equal(pages, 200);
  assert.equal(df.height, 20_000);
  assert.equal(df.nChunks(), Math.ceil(20_000 / CHUNK_ROWS));
  // same rows, same order as paging them
  const ids = await client.search({ excludeAnomalousTransactions: false }, { pageSize: 100 })
    .take(20_000);
  const col = df.getColumn("accession_number").toArray();
  assert.equal(col[0], ids[0].accessionNumber);
  assert.equal(col[12_345], ids[12_345].accessionNumber);
  assert.equal(col[19_999], ids[19_999].accessionNumber);
});

Deno.test("FrameBuilder: chunk boundaries keep values, nulls, order and extra columns", () => {
  const b = new FrameBuilder([{ name: "v", type: "integer" }, { name: "d", type: "date" }, {
    name: "l",
    type: "list",
  }], { chunkRows: 2 });
  b.append([{ v: 1, d: "2025-01-02", l: [1] }, { v: 2 }, { v: 3, l: [2, 3] }]);
  assert.equal(b.chunks, 1);
  b.append([{ v: null, x: "extra" }]);
  const df = b.finish();
  assert.deepEqual(
    df.getColumn("v").toArray(),
    [1, 2, 3, null],
  );
  assert.deepEqual(df.getColumn("l").toArray(), [[1], null, [2, 3], null]);
  assert.equal(dt(df, "d"), "Date");
  assert.deepEqual(df.getColumn("x").toArray(), [null, null, null, "extra"]);
  assert.equal(df.nChunks(), 2);
});

Deno.test("hydrateFrame: typed frame in input order, failures returned, same as hydrate", async () => {
  const feed = await insider.feed("ceo-trades", "buy").take(40);
  const bogus = { ...feed[5], transaction_id: 999_999_999 };
  const input = [...feed.slice(0, 5), bogus, ...feed.slice(5)];
  const { frame, failed } = await insider.hydrateFrame(input, { progress: false, concurrency: 4 });
  const { rows } = await insider.hydrate(input, { progress: false });
  assert.equal(frame.width, TRANSACTION_FIELDS.length);
  assert.equal(frame.height, rows.length);
  assert.deepEqual(failed.map((f) => f.index), [5]);
  assert.deepEqual(
    frame.getColumn("transaction_id").toArray().map(Number),
    rows.map((r) => Number(r.transaction_id)),
  );
  assert.equal(dt(frame, "filed_at"), "Datetime(ms,UTC)");
});

Deno.test("hydrateFrame: a bad concurrency names the value", async () => {
  await assert.rejects(
    () => insider.hydrateFrame([], { concurrency: 0 }),
    (e: Error) => /concurrency/.test(e.message) && /\b0\b/.test(e.message),
  );
});

Deno.test("a builder's report: columns absent from every row are missing, from some rows partly missing", async () => {
  const { FrameBuilder } = await import("../../lib/frames/build.ts");
  const specs = [
    { name: "a", type: "integer" as const },
    { name: "b", type: "integer" as const },
    { name: "c", type: "integer" as const },
  ];
  const b = new FrameBuilder(specs, { onReport: () => {} });
  b.append([{ a: 1 }, { a: 2, b: 3 }, { a: 4 }]);
  const r = b.report();
  assert.deepEqual([r.missing, r.partlyMissing], [["c"], ["b"]]);
  const off = new FrameBuilder(specs, { reportMissing: false, onReport: () => {} });
  off.append([{ a: 1 }]);
  assert.deepEqual([off.report().missing, off.report().partlyMissing], [[], []]);
});
