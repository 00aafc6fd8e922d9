/**
 * Frames from rows that are not quite as declared: keys mapped by meaning,
 * catalog fields absent reported once, values read by the value grammars
 * and counted, every unknown key seen, bounded memory for rows with very
 * many unknown keys.
 */
import assert from "node:assert/strict";
import {
  buildFrame,
  FrameBuilder,
  type FrameReport,
  InsiderClient,
  MAX_EXTRA_COLUMNS,
  TRANSACTION_FIELDS,
  transactionsFrame,
} from "../../mod.ts";
import { KeyIndex, normKey } from "../../lib/shared/field_keys.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { lodashCamel, rekey, rewriting } from "../_rewrite.ts";
import { captureWarnings } from "../_warnings.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const trades = stub.insider.trades.slice(0, 200).map((t) => t.row as Record<string, unknown>);

function warnings<T>(f: () => T): { value: T; lines: string[] } {
  const captured = captureWarnings();
  const lines = captured.lines;
  try {
    return { value: f(), lines };
  } finally {
    captured.restore();
  }
}

Deno.test("no two catalog fields collide under the spelling-free key (lower case, no underscores)", () => {
  const names = TRANSACTION_FIELDS.map((f) => f.name);
  assert.equal(new Set(names.map(normKey)).size, names.length);
  new KeyIndex(names); // throws on a collision
  for (const f of TRANSACTION_FIELDS) {
    assert.equal(normKey(f.camel), normKey(f.name));
    assert.equal(normKey(lodashCamel(f.name)), normKey(f.name));
  }
  assert.throws(() => new KeyIndex(["is_10b51", "is10b_51"]), /"is_10b51" and "is10b_51" collide/);
});

Deno.test("transactionsFrame maps lodash-camelCase rows by meaning: the same frame, no warning", () => {
  const want = transactionsFrame(trades);
  const { value: got, lines } = warnings(() =>
    transactionsFrame(rekey(trades, lodashCamel) as Record<string, unknown>[])
  );
  assert.ok(got.frameEqual(want, true));
  assert.deepEqual(lines, []);
});

Deno.test("catalog fields absent from the rows: one warning per pull naming how many and the first few", async () => {
  const dropped = (rows: unknown) =>
    (rows as Record<string, unknown>[]).map((r) => {
      const out = { ...r };
      for (const k of Object.keys(out)) if (/^returns1|^winRate/.test(k)) delete out[k];
      return out;
    });
  const r = rewriting(stub, (p, b) => {
    const o = b as Record<string, unknown>;
    return p === "/search" ? { ...o, data: dropped(o.data) } : b;
  });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: r.fetch,
  });
  const captured = captureWarnings();
  const lines = captured.lines;
  try {
    await insider.search({}, { pageSize: 20 }).frame({ maxRows: 100, progress: false });
  } finally {
    captured.restore();
  }
  const absent = lines.filter((l) => l.includes("absent"));
  assert.equal(absent.length, 1, lines.join("\n"));
  assert.match(absent[0], /^signalbook: 60 of 174 declared columns are absent from all 100 rows/);
  assert.match(absent[0], /returns_1w, returns_1m, returns_1y/);
  // with a fields= selection, absent fields are expected: no warning
  const sel = warnings(() => transactionsFrame([{ code: "P", feed_ids: [] }], { selected: true }));
  assert.deepEqual(sel.lines, []);
});

Deno.test("lenient values: numeric text, true/false text, empty text; counted once per pull", () => {
  const rows = trades.slice(0, 50).map((r, i) => ({
    ...r,
    transaction_value: r.transaction_value === null ? null : String(r.transaction_value),
    is_ceo: i < 3 ? String(r.is_ceo ?? false) : r.is_ceo,
    price_per_share: i === 7 ? "" : r.price_per_share,
    filed_at: i === 9 ? "yesterday" : r.filed_at,
    issuer_cik: i === 11 ? 320193 : r.issuer_cik,
    feed_ids: i === 12 ? ["15", 16] : r.feed_ids,
  }));
  let report: FrameReport | undefined;
  const df = transactionsFrame(rows, { onReport: (r) => report = r });
  const want = transactionsFrame(trades.slice(0, 50));
  assert.deepEqual(
    df.getColumn("transaction_value").toArray(),
    want.getColumn("transaction_value").toArray(),
  );
  assert.deepEqual(
    df.getColumn("is_ceo").toArray().slice(0, 3),
    trades.slice(0, 3).map((r) => r.is_ceo ?? false),
  );
  assert.equal(df.getColumn("price_per_share").getIndex(7), null);
  assert.equal(df.getColumn("filed_at").getIndex(9), null);
  assert.equal(df.getColumn("issuer_cik").getIndex(11), "0000320193");
  assert.deepEqual([...df.getColumn("feed_ids").getIndex(12)], [15, 16]);
  const nonNull = trades.slice(0, 50).filter((r) => r.transaction_value !== null).length;
  assert.deepEqual(
    report!.coerced.find((c) => c.column === "transaction_value"),
    { column: "transaction_value", rows: nonNull, from: "text" },
  );
  assert.deepEqual(report!.coerced.find((c) => c.column === "is_ceo"), {
    column: "is_ceo",
    rows: 3,
    from: "text",
  });
  assert.equal(
    report!.coerced.find((c) => c.column === "price_per_share")?.from,
    "empty text (now null)",
  );
  assert.deepEqual(report!.unreadable, [{
    column: "filed_at",
    rows: 1,
    example: 'text of 9 characters shaped "aaaaaaaaa"',
    row: 9,
  }]);
  const { lines } = warnings(() => transactionsFrame(rows));
  assert.ok(
    lines.some((l) =>
      l.startsWith(
        `signalbook: 2 columns coerced from text: transaction_value (${nonNull} rows), is_ceo (3 rows)`,
      )
    ),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) =>
      /1 column had unreadable values, now null: filed_at \(1 row, e\.g\. text of 9 characters shaped "aaaaaaaaa" in row 9\)/
        .test(l)
    ),
  );
});

Deno.test("one odd value never fails a pull: objects and words in number, date and list columns", () => {
  const rows = trades.slice(0, 5).map((r, i) => ({
    ...r,
    transaction_value: i === 0 ? { usd: 5 } : r.transaction_value,
    transaction_date: i === 1 ? "soon" : r.transaction_date,
    feed_ids: i === 2 ? "not a list" : i === 3 ? [{ id: 1 }] : r.feed_ids,
    is_ceo: i === 4 ? "maybe" : r.is_ceo,
  }));
  let report: FrameReport | undefined;
  const df = transactionsFrame(rows, { onReport: (r) => report = r });
  assert.equal(df.height, 5);
  assert.equal(df.getColumn("transaction_value").getIndex(0), null);
  assert.equal(df.getColumn("transaction_date").getIndex(1), null);
  assert.equal(df.getColumn("feed_ids").getIndex(2), null);
  assert.deepEqual(
    report!.unreadable.map((u) => u.column).sort(),
    ["feed_ids", "is_ceo", "transaction_date", "transaction_value"],
  );
});

Deno.test("every unknown key is seen: a field only in row 5 of 200, or only in row 150", () => {
  for (const at of [5, 150, 199]) {
    const rows = trades.map((r, i) => i === at ? { ...r, surprise: 42 } : r);
    let report: FrameReport | undefined;
    const df = transactionsFrame(rows, { onReport: (r) => report = r });
    assert.ok(df.columns.includes("surprise"), `row ${at}`);
    assert.equal(df.getColumn("surprise").getIndex(at), 42);
    assert.equal(df.getColumn("surprise").nullCount(), 199);
    assert.deepEqual(report!.extra, [{ name: "surprise", dtype: "Float64" }]);
  }
  // an extra key in a row that also lacks a declared key (same key count)
  const swapped = trades.map((r, i) => {
    if (i !== 7) return r;
    const { notes: _, ...rest } = r;
    return { ...rest, swapped_in: "x" };
  });
  assert.equal(transactionsFrame(swapped).getColumn("swapped_in").getIndex(7), "x");
  // across chunks of a page-by-page build
  const b = new FrameBuilder([{ name: "v", type: "integer" }], {
    chunkRows: 3,
    onReport: () => {},
  });
  b.append([{ v: 1 }, { v: 2 }, { v: 3 }, { v: 4 }, { v: 5, late: "y" }]);
  assert.deepEqual(b.finish().getColumn("late").toArray(), [null, null, null, null, "y"]);
});

Deno.test("a 1-row answer with 100,000 unknown keys: bounded columns, catalog kept, reported once", () => {
  const row: Record<string, unknown> = { ...trades[0] };
  for (let i = 0; i < 100_000; i++) row[`k${i}`] = i;
  let report: FrameReport | undefined;
  const df = buildFrame(
    TRANSACTION_FIELDS.map((f) => ({ name: f.name, type: "code" as const })).slice(0, 3),
    [row],
    { onReport: (r) => report = r },
  );
  assert.equal(df.height, 1);
  assert.equal(df.width, 3 + MAX_EXTRA_COLUMNS);
  assert.equal(report!.droppedExtra.count, 100_000 + 171 - MAX_EXTRA_COLUMNS);
  const t = transactionsFrame([row], { onReport: () => {} });
  assert.equal(t.width, 174 + MAX_EXTRA_COLUMNS);
  assert.equal(t.getColumn("accession_number").getIndex(0), trades[0].accession_number);
  const { lines } = warnings(() => transactionsFrame([row]));
  assert.equal(lines.filter((l) => l.includes("left out")).length, 1);
  assert.match(
    lines.find((l) => l.includes("left out"))!,
    /left out 99,?500 more keys|left out 99500 more keys/,
  );
});
