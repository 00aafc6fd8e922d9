/**
 * `quiet` silences the notice, never the fact: everything built from the
 * offline emulator's answers says "demo data / offline emulator" where the
 * user looks (frame display, take() arrays, derived frames, event studies,
 * portfolios, charts, report.md), and nothing built from a live service does.
 */
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import * as Plot from "npm:@observablehq/plot@0.6.17";
import {
  authorReturnBuckets,
  authorWinRates,
  connect,
  createStub,
  DEMO_KEYS,
  DEMO_LABEL,
  entryComparison,
  eventStudy,
  eventStudyChart,
  InsiderClient,
  isDemo,
  pitchReturnBuckets,
  plot,
  portfolioBacktest,
  portfolioTable,
  saveChart,
  show,
  statsTable,
  tradeClass,
  transactionsFrame,
  winRateBuckets,
  writeReport,
} from "../../mod.ts";
import { displayBundle } from "../_util.ts";
import { serveStub } from "../../lib/stub/serve.ts";
import type { FetchLike } from "../../mod.ts";
import { DEMO_SOURCE } from "../../lib/backtest/report.ts";

const display = displayBundle;

Deno.test("offline, quiet: frames, derived frames, take() arrays and pages carry the demo mark", async () => {
  const { insider, catalog } = await connect({
    env: {},
    quiet: true,
    stub: { seed: 2, scale: 0.1 },
  });
  const df = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 300 });
  assert.ok(isDemo(df));
  const derived = df.filter(pl.col("transaction_id").isNotNull()).select("transaction_id");
  assert.ok(isDemo(derived), "derived frames keep the mark");
  const b = display(derived);
  assert.ok(b["text/html"].includes(DEMO_LABEL), "the HTML display shows the badge");
  assert.match(
    b["text/plain"].split("\n")[0],
    /^shape: \(\d+, 1\).* · DEMO DATA · offline emulator/,
  );
  assert.ok(String(show(df)).includes(DEMO_LABEL), "show() too");
  const rows = await insider.search({}).take(5);
  assert.ok(isDemo(rows));
  assert.ok(isDemo(transactionsFrame(rows)), "a frame of demo rows is a demo frame");
  const page = await catalog.pitches({ limit: 3 }).firstPage();
  assert.ok(isDemo(page.rows));
  // the mark changes nothing else: columns, JSON, equality
  assert.equal(JSON.stringify(rows).includes("signalbook.demo"), false);
  assert.ok(df.frameEqual(pl.DataFrame(df.getColumns())));
});

Deno.test("results, charts and report.md built from demo data say 'offline emulator'", async () => {
  const { insider } = await connect({ env: {}, quiet: true, stub: { seed: 2, scale: 0.1 } });
  const trades = tradeClass(
    await insider.search({ tradeType: "purchase" }).frame({ maxRows: 800 }),
  );
  const stats = eventStudy(trades, { groupBy: "role" });
  assert.ok(isDemo(stats));
  const chart = eventStudyChart(stats);
  assert.ok(
    chart.svg.includes(DEMO_LABEL.replace("·", "&#183;")) || chart.svg.includes(DEMO_LABEL),
  );
  const folio = portfolioBacktest(trades, { horizon: "3m" });
  assert.ok(isDemo(folio.monthly));
  const own = plot({
    marks: [Plot.dot(trades, { x: "transaction_date", y: "transaction_value" })],
  });
  assert.ok(own.svg.includes("DEMO DATA"));
  const dir = await Deno.makeTempDir();
  await writeReport(dir, stats, { es: chart }, { title: "t", portfolios: { all: folio } });
  const md = await Deno.readTextFile(`${dir}/report.md`);
  assert.match(md.split("\n").slice(0, 4).join("\n"), /offline emulator/);
  // the data files keep the mark as a last column any reader keeps, with no options
  for (const f of ["stats.csv", "portfolio-all.csv", "stats.parquet", "portfolio-all.parquet"]) {
    const back = f.endsWith(".csv") ? pl.readCSV(`${dir}/${f}`) : pl.readParquet(`${dir}/${f}`);
    assert.equal(back.columns.at(-1), "source", `${f}: ${back.columns.join(", ")}`);
    assert.ok(back.height > 0, f);
    assert.deepEqual([...new Set(back.getColumn("source").toArray())], [DEMO_SOURCE], f);
    assert.equal(DEMO_SOURCE, DEMO_LABEL);
  }
  // a live result's files have no such column
  const live = pl.DataFrame(trades.getColumns());
  await writeReport(`${dir}/live`, eventStudy(live, { groupBy: "role" }), {}, {
    title: "t",
    portfolios: { all: portfolioBacktest(live, { horizon: "3m" }) },
  });
  for (const f of ["stats.csv", "portfolio-all.csv"]) {
    const back = pl.readCSV(`${dir}/live/${f}`);
    assert.equal(back.columns.includes("source"), false, `live ${f}`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a chart of data that is not demo data carries no mark", () => {
  const c = plot({ marks: [Plot.dot([{ a: 1, b: 2 }], { x: "a", y: "b" })] });
  assert.ok(!c.svg.includes("DEMO DATA"));
  // the mark never leaks from one chart into the next
  const rows = pl.DataFrame({ a: [1], b: [2] });
  assert.ok(!plot({ marks: [Plot.dot(rows, { x: "a", y: "b" })] }).svg.includes("DEMO DATA"));
});

Deno.test("a loopback emulator is recognised by its header; a server without it is live data", async () => {
  const ac = new AbortController();
  const { url, server } = await serveStub({
    port: 0,
    hostname: "127.0.0.1",
    signal: ac.signal,
    seed: 2,
    scale: 0.1,
  });
  try {
    const viaHeader = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: `${url}/insider` });
    assert.ok(isDemo(await viaHeader.search({}).frame({ maxRows: 50 })));
    // the same answers without the emulator's header, through an unmarked fetch: not demo
    const stub = createStub({ seed: 2, scale: 0.1 });
    const plain: FetchLike = async (input, init) => {
      const res = await stub.fetch(input, init);
      const headers = new Headers(res.headers);
      headers.delete("x-signalbook-demo");
      return new Response(res.body, { status: res.status, headers });
    };
    const live = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://live.test/insider",
      fetch: plain,
    });
    const df = await live.search({}).frame({ maxRows: 50 });
    assert.ok(!isDemo(df));
    assert.ok(!display(df)["text/html"].includes(DEMO_LABEL));
  } finally {
    ac.abort();
    await server.finished;
  }
});

Deno.test("result tables and a portfolio result built from demo data carry the mark in every form", async () => {
  const { insider } = await connect({ env: {}, quiet: true, stub: { seed: 2, scale: 0.1 } });
  const trades = tradeClass(
    await insider.search({ tradeType: "purchase" }).frame({ maxRows: 800 }),
  );
  const stats = eventStudy(trades, { groupBy: "role" });
  const folio = portfolioBacktest(trades, { horizon: "3m" });
  const tables = [
    statsTable(stats),
    portfolioTable({ all: folio }),
    entryComparison(stats),
  ];
  for (const t of tables) {
    assert.ok(isDemo(t));
    assert.ok(String(t).startsWith(DEMO_LABEL), String(t).slice(0, 80));
    assert.ok(display(t)["text/html"].includes(DEMO_LABEL));
  }
  assert.ok(display(folio)["text/html"].includes(DEMO_LABEL), "the portfolio result's display");
  // tables of live data carry none (the same figures as bytes, which carry no mark; its columns
  // themselves are demo data: frames/_demo_trace.ts)
  assert.ok(isDemo(pl.DataFrame(stats.getColumns())));
  const live = statsTable(pl.readIPC(stats.writeIPC()));
  assert.ok(!String(live).includes("DEMO DATA"));
});

Deno.test("only a loopback host's header marks data: a live host sending x-signalbook-demo gets no mark", async () => {
  const stub = createStub({ seed: 2, scale: 0.1 });
  // the emulator's answers, header kept, through an unmarked fetch (not the in-process emulator)
  const relay: FetchLike = (input, init) => stub.fetch(input, init);
  const take = async (baseUrl: string) => {
    const client = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl, fetch: relay });
    const df = await client.search({}).frame({ maxRows: 20 });
    return { client, df };
  };
  const live = await take("https://insider.example.com/insider");
  assert.equal(isDemo(live.df), false, "a live host's header is not believed");
  assert.equal(live.client.demo, false);
  for (const host of ["http://127.0.0.1:8787/insider", "http://localhost:9/insider"]) {
    const local = await take(host);
    assert.equal(isDemo(local.df), true, `${host}: a stub on this machine`);
  }
  // the in-process emulator's own fetch marks whatever host it is given
  const own = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "https://insider.example.com/insider",
    fetch: stub.fetch,
  });
  assert.ok(isDemo(await own.search({}).take(3)));
});

Deno.test("toRecords(), rows(), pitchReturnBuckets(...).frame and saved charts of demo data carry the mark", async () => {
  const { insider, catalog } = await connect({
    env: {},
    quiet: true,
    stub: { seed: 2, scale: 0.1 },
  });
  const df = await insider.search({}).frame({ maxRows: 50 });
  const records = df.select("transaction_id").toRecords();
  assert.ok(isDemo(records), "toRecords()");
  assert.ok(isDemo(df.rows()), "rows()");
  assert.ok(isDemo(df.toObject()), "toObject()");
  assert.equal(JSON.stringify(records).includes("demo"), false, "the mark adds no key");
  assert.equal(isDemo(pl.DataFrame({ a: [1] }).toRecords()), false);
  const { frame } = await pitchReturnBuckets(catalog, {}, { period: "1y", kind: "abs" });
  assert.ok(isDemo(frame), "pitchReturnBuckets(...).frame");
  const chart = plot({ marks: [Plot.dot(df, { x: "transaction_date", y: "transaction_value" })] });
  assert.ok(isDemo(chart), "the chart object");
  const dir = await Deno.makeTempDir();
  try {
    await saveChart(chart, `${dir}/c.svg`);
    assert.ok((await Deno.readTextFile(`${dir}/c.svg`)).includes("DEMO DATA"), "the saved file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.equal(isDemo(plot({ marks: [Plot.dot([{ a: 1, b: 2 }], { x: "a", y: "b" })] })), false);
});

Deno.test("whole result objects built from demo data are demo data: portfolioBacktest, authorWinRates, buckets, eventStudy, tables; live ones are not", async () => {
  const { insider, catalog } = await connect({
    env: {},
    quiet: true,
    stub: { seed: 2, scale: 0.1 },
  });
  const trades = tradeClass(
    await insider.search({ tradeType: "purchase" }).frame({ maxRows: 800 }),
  );
  const folio = portfolioBacktest(trades, { horizon: "1m" });
  assert.ok(isDemo(folio.monthly));
  assert.ok(isDemo(folio), "isDemo(portfolioBacktest(...)), not only its monthly frame");
  assert.ok(isDemo(folio.stats), "isDemo(portfolioBacktest(...).stats) alone");
  assert.equal(JSON.stringify(folio.stats).includes("demo"), false, "the mark adds no key");
  const wins = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 1 });
  assert.ok(isDemo(wins.frame));
  assert.ok(isDemo(wins), "isDemo(authorWinRates(...))");
  for (
    const buckets of [
      await pitchReturnBuckets(catalog, { limit: 50 }, { period: "1y", kind: "abs" }),
      await authorReturnBuckets(catalog, { limit: 50 }, { period: "1y", kind: "abs" }),
      await winRateBuckets(catalog, { limit: 50 }),
    ]
  ) {
    assert.ok(isDemo(buckets), "isDemo(...Buckets(...))");
  }
  const study = eventStudy(trades, { groupBy: "role" });
  assert.ok(isDemo(study), "isDemo(eventStudy(...))");
  assert.ok(isDemo({ all: folio }), "a record of results (what portfolioTable takes)");
  assert.ok(isDemo(portfolioTable({ all: folio })));
  assert.ok(isDemo(statsTable(study)));
  // the same builders over live rows: no mark anywhere
  const live = pl.DataFrame(trades.getColumns());
  const liveFolio = portfolioBacktest(live, { horizon: "1m" });
  assert.equal(isDemo(liveFolio), false);
  assert.equal(isDemo(liveFolio.stats), false);
  assert.equal(isDemo(eventStudy(live, { groupBy: "role" })), false);
  assert.equal(isDemo({ all: liveFolio, n: 3, note: "x" }), false);
  assert.equal(isDemo(portfolioTable({ all: liveFolio })), false);
  // a plain row of many fields is data, not a result: not looked into
  const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i]));
  assert.equal(isDemo({ ...wide, inner: folio }), false);
});
