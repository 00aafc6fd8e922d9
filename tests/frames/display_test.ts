import { displayBundle, offline } from "../_util.ts";
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  eventStudy,
  isDataFrame,
  polarsDisplay,
  portfolioBacktest,
  show,
  transactionsFrame,
  withDisplay,
} from "../../mod.ts";
import { captureWarnings } from "../_warnings.ts";

type Bundle = Record<string, unknown>;
const bundle = (x: unknown): Bundle => displayBundle<unknown>(x);
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
  assert.match(
    html(derived),
    /shape: \(50, 174\) · 35 rows not shown \(…\) · 162 columns not shown \(…\)/,
  );
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

Deno.test("display: plain Polars frames state their shape and elisions; no setting changes", () => {
  const env = Deno.env.get("POLARS_FMT_MAX_ROWS");
  const seven = () =>
    pl.DataFrame({ a: [1, 2, 3, 4, 5, 6, 7], b: ["p", "q", "r", "s", "t", "u", "v"] });
  assert.equal(polarsDisplay("signalbook"), "polars", "outside a kernel: Polars' own display");
  try {
    const small = bundle(seven());
    assert.match(String(small["text/plain"]), /^shape: \(7, 2\)\n/);
    assert.equal(String(small["text/plain"]).split("\n").length, 2 + 7 + 1, "all 7 rows shown");
    const tall = pl.DataFrame({ i: Array.from({ length: 40 }, (_, i) => i) });
    const t = String(bundle(tall.filter(pl.col("i").gt(-1)))["text/plain"]);
    assert.match(t, /^shape: \(40, 1\) · 25 rows not shown \(…\)\n/);
    assert.match(t, /\n…\n/, "the elided rows are marked where they are");
    const wide = pl.DataFrame(
      Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`c${j}`, [j]])),
    );
    assert.match(String(bundle(wide)["text/html"]), /8 columns not shown \(…\)/);
    assert.equal(Deno.env.get("POLARS_FMT_MAX_ROWS"), env, "no environment change");
    assert.match(seven().toString(), /│ 7/, "toString still prints every row");
    // a plain frame holding demo data says so where it is seen; one without, not
    const demo = withDisplay(seven(), { demo: true });
    assert.match(html(seven().vstack(demo)), /DEMO DATA/);
    assert.doesNotMatch(html(seven().vstack(seven())), /DEMO DATA/);
    assert.throws(
      () => polarsDisplay("pandas" as "polars"),
      /"pandas" is not allowed; allowed: "signalbook", "polars"/,
    );
  } finally {
    assert.equal(polarsDisplay("polars"), "signalbook");
  }
  assert.ok(!("text/plain" in bundle(seven())), "nodejs-polars' own display is back");
});

Deno.test("display: an event study shows its key columns first with 2 decimals; all: true shows all", async () => {
  const buys =
    (await insider.search({ tradeType: "purchase" }).frame({ maxRows: 2000, progress: false }))
      .filter(pl.col("code").eq(pl.lit("P")));
  const es = eventStudy(buys, {
    groupBy: "role",
    horizons: ["1m", "3m"],
    samples: 200,
    minClusters: 2,
  });
  const text = String(bundle(es)["text/plain"]);
  const [head, names] = text.split("\n");
  assert.match(
    head,
    /event study: key columns, 2 decimals; \d+ more in show\(df, \{ all: true \}\)/,
  );
  assert.match(
    names.replace(/\s+/g, " "),
    /^group horizon n n_clusters mean_excess median_excess ci_low ci_high thin( thin_reason)?$/,
  );
  assert.doesNotMatch(names, /diff/, "no baseline asked: the all-null diff columns are left out");
  const row = text.split("\n")[3];
  assert.match(row, /^\S+\s+1m\s+\d+\s+\d+\s+-?\d+\.\d\d\s/, "2 decimals");
  const based = eventStudy(buys, {
    groupBy: "role",
    horizons: ["3m"],
    minClusters: 2,
    baseline: "Director",
    samples: 200,
  });
  assert.match(
    String(bundle(based)["text/plain"]).split("\n")[1],
    /ci_high\s+diff_vs_baseline\s+diff_ci_low\s+diff_ci_high/,
  );
  const all = String(show(es, { all: true }));
  assert.match(all.split("\n")[0], /^shape: \(\d+, \d+\) · \d+ columns not shown/);
  assert.match(
    String(show(es, { all: true, maxColumns: 100 })).split("\n")[1],
    /^group\s+horizon\s+horizon_days\s+n\s/,
  );
  const { monthly } = portfolioBacktest(buys, { horizon: "3m" });
  assert.match(
    String(bundle(monthly)["text/plain"]).split("\n")[0],
    /portfolio months: key columns, 2 decimals/,
  );
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

Deno.test("display: a frame with values outside the grammar says so under its table", () => {
  const rows = [
    { d: "2025-01-02", t: "2025-01-02T02:48:00" },
    { d: "2025-02-30", t: "2025-01-02T03:48:00" },
  ];
  const captured = captureWarnings();
  let df;
  try {
    df = transactionsFrame(
      rows.map((r) => ({ transaction_date: r.d, filed_at: r.t })),
      { selected: true },
    );
  } finally {
    captured.restore();
  }
  const text = html(df);
  assert.match(
    text,
    /transaction_date: 1 value outside the grammar, now null \(e\.g\. text of 10 characters shaped &quot;9999-99-99&quot;, row 1\)/,
  );
  assert.match(text, /filed_at: 2 values read from timestamp without a zone \(read as UTC\)/);
});
