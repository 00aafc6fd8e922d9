import { offline } from "../_util.ts";
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  boundPolarsDisplay,
  isDataFrame,
  NOTEBOOK_MAX_ROWS,
  show,
  transactionsFrame,
  withDisplay,
} from "../../mod.ts";

const J = Symbol.for("Jupyter.display");
type Bundle = Record<string, unknown>;
const bundle = (x: unknown): Bundle => (x as Record<symbol, () => Bundle>)[J]();
const html = (x: unknown) => String(bundle(x)["text/html"]);
const bytes = (b: Bundle) =>
  Object.values(b).reduce<number>(
    (n, v) => n + new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v)).length,
    0,
  );
/** nodejs-polars' own display of the same data: a fresh frame, not from signalbook. */
const plain = (df: pl.DataFrame) => pl.DataFrame(df.getColumns());

const { insider } = await offline();
const trades = await insider.search({}).frame({ maxRows: 200, progress: false });

Deno.test("display: a derived 50 × 174 frame keeps the rich display, before/after size", () => {
  const derived = trades.filter(pl.col("transaction_value").gt(0)).head(50);
  assert.deepEqual(derived.shape, { height: 50, width: 174 });
  const before = bytes(bundle(plain(derived))); // nodejs-polars' own: HTML + dataresource JSON
  const after = bytes(bundle(derived));
  console.log(`display size of a derived 50 × 174 frame: before ${before} B, after ${after} B`);
  assert.match(html(derived), /shape: \(50, 174\) · 162 middle columns not shown/);
  assert.ok(after <= 60_000, `rich display ${after} B`);
  assert.ok(before > 5 * after, `own display ${before} B vs rich ${after} B`);
});

Deno.test("display: survives filter, select, withColumns, sort, join, groupBy().agg, head, lazy", async () => {
  const small = trades.select("accession_number", "transaction_id", "is_ceo", "transaction_value");
  const chains: [string, unknown][] = [
    ["filter", trades.filter(pl.col("is_ceo"))],
    ["select", small],
    ["withColumns", small.withColumns(pl.col("transaction_value").mul(2).alias("double"))],
    ["sort", small.sort("transaction_value", true)],
    [
      "join",
      small.join(trades.select("accession_number", "transaction_id", "filed_at"), {
        on: ["accession_number", "transaction_id"],
      }),
    ],
    ["groupBy().agg", small.groupBy("is_ceo").agg(pl.col("transaction_value").mean())],
    ["groupBy().len", small.groupBy("is_ceo").len()],
    ["head", small.head(3)],
    ["tail", small.tail(3)],
    ["slice", small.slice(1, 2)],
    ["rename", small.rename({ is_ceo: "ceo" })],
    ["drop", small.drop("is_ceo")],
    ["unique", small.unique()],
    ["lazy().collectSync", small.lazy().filter(pl.col("is_ceo")).collectSync()],
    ["lazy().collect", await small.lazy().select("is_ceo").collect()],
    ["sample", small.sample(2)],
  ];
  for (const [name, df] of chains) {
    assert.ok(isDataFrame(df), name);
    assert.match(html(df), /shape: \(\d+, \d+\)/, name);
    assert.match(html(df), /<i>(Bool|Float64|String|Int64|Datetime|UInt32)/, name);
  }
  // the wrapped frame still behaves as the frame: columns by name, row count, concat
  assert.equal(small.getColumn("transaction_id").len(), trades.height);
  assert.equal(pl.concat([small, small]).height, 2 * trades.height);
  assert.equal((small as unknown as Record<string, pl.Series>).is_ceo.len(), trades.height);
});

Deno.test("display: ISO dates and timestamps, compact lists, visible nulls", () => {
  const df = withDisplay(pl.DataFrame({
    d: pl.Series("d", [Date.UTC(2025, 0, 2) / 86400000, null], pl.Int32).cast(pl.Date),
    t: pl.Series("t", [Date.UTC(2025, 9, 19, 21, 2), null], pl.Int64).cast(
      pl.Datetime("ms", "UTC"),
    ),
    l: pl.Series("l", [[1, 2, 3, 4, 5, 6], []], pl.List(pl.Int64)),
  }));
  const h = html(df.filter(pl.lit(true)));
  assert.match(h, /<td>2025-01-02<\/td>/);
  assert.match(h, /<td>2025-10-19T21:02:00Z<\/td>/);
  assert.doesNotMatch(h, /GMT/);
  assert.match(h, /<td>\[1, 2, 3, 4, … \+2\]<\/td>/);
  assert.match(h, /<td class="sb-null">null<\/td>/);
  assert.match(String(bundle(df)["text/plain"]), /shape: \(2, 3\)\nd\s+t\s+l\nDate\s+Datetime/);
});

Deno.test("display: other frames are bounded through POLARS_FMT_MAX_ROWS in a notebook only", () => {
  const saved = Deno.env.get("POLARS_FMT_MAX_ROWS");
  Deno.env.delete("POLARS_FMT_MAX_ROWS");
  try {
    const other = plain(trades.head(50));
    const before = bytes(bundle(other));
    assert.equal(boundPolarsDisplay(), false, "outside a kernel nothing changes");
    assert.equal(Deno.env.get("POLARS_FMT_MAX_ROWS"), undefined);
    assert.equal(boundPolarsDisplay(true), true);
    assert.equal(Deno.env.get("POLARS_FMT_MAX_ROWS"), String(NOTEBOOK_MAX_ROWS));
    const after = bytes(bundle(other));
    console.log(`nodejs-polars' own display of 50 × 174: before ${before} B, after ${after} B`);
    assert.ok(after <= 60_000, `${after} B`);
    assert.ok(before > 300_000, `${before} B`);
    Deno.env.set("POLARS_FMT_MAX_ROWS", "7");
    assert.equal(boundPolarsDisplay(true), false, "a value the user set is kept");
  } finally {
    if (saved === undefined) Deno.env.delete("POLARS_FMT_MAX_ROWS");
    else Deno.env.set("POLARS_FMT_MAX_ROWS", saved);
  }
});

Deno.test("display: console.log of a wrapped frame prints the Polars table as before", () => {
  const small = trades.select("transaction_id", "is_ceo").head(3);
  assert.equal(Deno.inspect(small), Deno.inspect(plain(small)));
  assert.match(Deno.inspect(small), /shape: \(3, 2\)/);
  assert.match(Deno.inspect(small.lazy()), /DF \["transaction_id", "is_ceo"\]/);
});

Deno.test("show(): LazyFrames show columns and plan without collecting", () => {
  // collecting this plan throws (the text is no number); showing it must not
  const lazy = pl.DataFrame({ s: ["not a date"], n: [1] }).lazy()
    .withColumns(pl.col("s").cast(pl.Int64, true).alias("d"))
    .filter(pl.col("n").gt(0));
  assert.throws(() => lazy.collectSync());
  const b = bundle(show(lazy));
  assert.match(String(b["text/plain"]), /LazyFrame \(not collected\), 3 columns: s, n, d/);
  assert.match(String(b["text/plain"]), /FILTER/);
  assert.match(String(b["text/html"]), /<pre>/);
  // a LazyFrame made from a signalbook frame displays on its own too
  assert.match(html(trades.lazy().select("is_ceo")), /LazyFrame \(not collected\), 1 column/);
});

Deno.test("show(): frames, series, records and any value", () => {
  assert.match(html(show(pl.DataFrame({ a: [1, 2, 3] }), { head: 1, tail: 1 })), /<td>…<\/td>/);
  assert.match(html(show(pl.Series("x", [1.5, null]))), /shape: \(2, 1\).*<th>x<\/th>/s);
  const records = show([{ a: 1, when: new Date(Date.UTC(2025, 0, 2)) }, { a: null }]);
  assert.match(html(records), /2025-01-02T00:00:00Z.*class="sb-null"/s);
  assert.equal(String(show({ n: 1 })), "{ n: 1 }");
  assert.match(html(show(transactionsFrame([]))), /shape: \(0, 174\)/);
});
