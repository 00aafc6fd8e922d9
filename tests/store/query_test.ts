import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { dtypeName, query, QueryError, scanInsiderTrades, sync } from "../../mod.ts";
import { offline } from "../_util.ts";

const { insider, catalog } = await offline({ seed: 3, scale: 0.05 });
const root = await Deno.makeTempDir();
const both = join(root, "both");
const tradesOnly = join(root, "trades-only");
const range = { from: "2024-06-01", to: "2025-06-30", progress: false };
await sync({ dir: both, insider, catalog, ...range });
await sync({ dir: tradesOnly, insider, ...range });

Deno.test("query keeps Int64, Float64, Date, Datetime(ms, UTC), Boolean, String and List(Int64)", async () => {
  const df = await query(
    `select accession_number, transaction_id, win_rate_1y_wins, transaction_value, transaction_date,
            filed_at, is_ceo, feed_ids, year, month
       from insider_trades order by filed_at, accession_number, transaction_id`,
    { dir: both },
  );
  const want: Record<string, string> = {
    accession_number: "String",
    win_rate_1y_wins: "Int64",
    transaction_value: "Float64",
    transaction_date: "Date",
    filed_at: "Datetime(ms,UTC)",
    is_ceo: "Bool",
    feed_ids: "List(Int64)",
    year: "Int64",
    month: "Int64",
  };
  for (const [c, t] of Object.entries(want)) assert.equal(dtypeName(df.getColumn(c).dtype), t, c);
  assert.equal(String(df.getColumn("filed_at").dtype), String(pl.Datetime("ms", "UTC")));
  assert.equal(String(df.getColumn("feed_ids").dtype), String(pl.List(pl.Int64)));
  const polars = (await scanInsiderTrades(both)).select(
    "accession_number",
    "transaction_id",
    "win_rate_1y_wins",
    "transaction_value",
    "transaction_date",
    "filed_at",
    "is_ceo",
    "feed_ids",
    "year",
    "month",
  ).sort(["filed_at", "accession_number", "transaction_id"]).collectSync();
  assert.ok(df.height > 100);
  assert.ok(df.frameEqual(polars, true), "same rows and values as the Polars scan");
});

Deno.test("query: aggregates come back typed (count Int64, sum of BIGINT Int64, min date Date)", async () => {
  const df = await query(
    `select month, count(*) as n, sum(win_rate_1y_wins) as wins, min(transaction_date) as first_day,
            avg(transaction_value) as mean_value, bool_or(is_ceo) as any_ceo
       from insider_trades where year = '2025' group by month order by month`,
    { dir: both },
  );
  assert.deepEqual(df.dtypes.map((d) => dtypeName(d)), [
    "Int64",
    "Int64",
    "Int64",
    "Date",
    "Float64",
    "Bool",
  ]);
  assert.deepEqual(df.getColumn("month").toArray(), [1, 2, 3, 4, 5, 6]);
  const want = (await scanInsiderTrades(both)).filter(pl.col("year").eq(pl.lit(2025)))
    .groupBy("month").agg(pl.len().alias("n")).sort("month").collectSync();
  assert.deepEqual(
    df.getColumn("n").toArray().map(Number),
    want.getColumn("n").toArray().map(Number),
  );
});

Deno.test("query: both views, an empty result keeps its dtypes", async () => {
  const p = await query("select count(*) as n from pitches", { dir: both });
  assert.ok(Number(p.getColumn("n").get(0)) > 0);
  const empty = await query(
    "select transaction_date, win_rate_1y_wins from insider_trades where false",
    { dir: both },
  );
  assert.equal(empty.height, 0);
  assert.deepEqual(empty.dtypes.map((d) => dtypeName(d)), ["Date", "Int64"]);
});

Deno.test("query errors: bad SQL has DuckDB's message and the SQL; unknown and absent views; missing dataset", async () => {
  const bad = "selec count(*) from insider_trades";
  await assert.rejects(query(bad, { dir: both }), (e: unknown) => {
    assert.ok(e instanceof QueryError);
    assert.match(e.message, /Parser Error: syntax error at or near "selec"/);
    assert.ok(e.message.includes(`SQL: ${bad}`));
    assert.equal(e.sql, bad);
    return true;
  });
  await assert.rejects(
    query("select nope from insider_trades", { dir: both }),
    /Binder Error: Referenced column "nope" not found[\s\S]*SQL: select nope from insider_trades/,
  );
  await assert.rejects(
    query("select * from insider_trade", { dir: both }),
    /unknown view "insider_trade"; views in .*: insider_trades, pitches \(did you mean "insider_trades"\?\)/,
  );
  await assert.rejects(
    query("select * from pitches", { dir: tradesOnly }),
    /unknown view "pitches"; views in .*trades-only: insider_trades \(pitches was not synced there: sync it with a catalog client\)/,
  );
  await assert.rejects(
    query("select 1", { dir: join(root, "nowhere") }),
    /query: .*nowhere does not exist: no parquet under .*nowhere\/insider_trades or .*; run sync/,
  );
  await Deno.mkdir(join(root, "empty"));
  await assert.rejects(query("select 1", { dir: join(root, "empty") }), /empty holds no dataset/);
  await assert.rejects(query("  ", { dir: both }), /sql " {2}" is not allowed/);
  await assert.rejects(
    query("select 1", { dir: 3 as unknown as string }),
    /dir 3 is not allowed; allowed: the folder sync wrote/,
  );
});

Deno.test("query: the layout is what DuckDB's own read_parquet(hive_partitioning = true) sees", async () => {
  const glob = join(both, "insider_trades", "**", "*.parquet");
  const a = await query(
    `select count(*) as n, count(distinct year || month) as months from read_parquet('${glob}', hive_partitioning = true)`,
    { dir: both },
  );
  const b = await query(
    "select count(*) as n, count(distinct year || month) as months from insider_trades",
    {
      dir: both,
    },
  );
  assert.ok(a.frameEqual(b));
  assert.equal(Number(b.getColumn("months").get(0)), 13);
});

Deno.test("query reads only its dataset: other files, globs, URLs, writes and EXPORT are QueryErrors that touch nothing", async () => {
  const outside = join(root, "outside");
  await Deno.mkdir(outside);
  const stray = join(outside, "stray.parquet");
  pl.DataFrame({ a: [1] }).writeParquet(stray);
  const refused = async (sql: string, pattern: RegExp) => {
    await assert.rejects(query(sql, { dir: both }), (e: unknown) => {
      assert.ok(e instanceof QueryError, `${sql}: ${e}`);
      assert.match(e.message, pattern, sql);
      assert.equal(e.sql, sql);
      return true;
    });
  };
  const noAccess = /Permission Error[\s\S]*reads only the dataset under .*both/;
  await refused("select * from read_csv('/etc/passwd', sep = ':')", noAccess);
  await refused("select * from glob('/etc/*')", noAccess);
  await refused("select * from read_text('/etc/hostname')", noAccess);
  await refused(`select * from read_parquet('${stray}')`, noAccess);
  await refused(`select * from read_text('${join(both, "manifest.json")}')`, noAccess);
  await refused(
    `select * from read_text('${join(both, "insider_trades", "..", "manifest.json")}')`,
    noAccess,
  );
  await refused("select * from read_csv('http://127.0.0.1:9/x.csv')", noAccess);
  // statements that are not queries are refused by the parser, before DuckDB binds them
  const exports = [join(outside, "export"), join(both, "insider_trades", "export")];
  for (const target of exports) {
    await refused(
      `EXPORT DATABASE '${target}'`,
      /an EXPORT statement is not allowed; allowed: one query/,
    );
    await refused(
      `export database '${target}' (format parquet);`,
      /EXPORT statement is not allowed/,
    );
  }
  const copied = join(outside, "copy.csv");
  await refused(`COPY (select 1) TO '${copied}'`, /a COPY statement is not allowed/);
  await refused(`ATTACH '${join(outside, "x.duckdb")}'`, /an? ATTACH statement is not allowed/);
  await refused("SET enable_external_access = true", /a SET statement is not allowed/);
  await refused(
    "select 1; select * from read_csv('/etc/passwd')",
    /2 statements given; allowed: one query/,
  );
  await refused("INSTALL httpfs", /an? INSTALL statement is not allowed/);
  for (const target of [...exports, copied, join(outside, "x.duckdb")]) {
    assert.equal(await Deno.stat(target).then(() => "exists", () => "absent"), "absent", target);
  }
  // the dataset itself, a trailing comment and DESCRIBE still work
  const n = await query("select count(*) as n from insider_trades -- all of them", { dir: both });
  assert.ok(Number(n.getColumn("n").get(0)) > 0);
  assert.ok((await query("describe insider_trades", { dir: both })).height > 100);
  const settings = await query(
    "select current_setting('enable_external_access') as ext, current_setting('lock_configuration') as locked",
    { dir: both },
  );
  assert.deepEqual(settings.row(0), [false, true]);
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(root, { recursive: true });
});
