/**
 * Data that knows its origin: a dataset records each source it was written
 * from (emulator or live, the host, when) in `manifest.json` and
 * `_signalbook.json`; everything read back from a dataset holding the
 * emulator's rows carries the demo mark (`scan*`, `query()`, derived
 * frames, `toRecords()`, results); live rows into a demo dataset, or the
 * reverse, is a `MixedSourcesError` naming both sources, with nothing
 * written.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import {
  eventStudy,
  InsiderClient,
  isDemo,
  MixedSourcesError,
  query,
  readManifest,
  scanDataset,
  scanInsiderTrades,
  sync,
  tradeClass,
  writeDataset,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import type { FetchLike } from "../../mod.ts";

const stub = createStub({ seed: 3, scale: 0.05 });
const range = { from: "2024-06-01", to: "2024-09-30", progress: false };

/** A client of the in-process emulator (its fetch is the emulator's own, marked). */
const demoClient = () =>
  new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://s/insider", fetch: stub.fetch });

/**
 * A client whose answers are the emulator's, header included, relayed by an
 * unmarked fetch that counts requests: live data unless `baseUrl` is loopback.
 */
function relayClient(baseUrl: string) {
  const count = { n: 0 };
  const fetch: FetchLike = (input, init) => {
    count.n++;
    return stub.fetch(input, init);
  };
  return { client: new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl, fetch }), count };
}

/** Every file under `dir` with its bytes, to show nothing changed. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else out.set(p, btoa(String.fromCharCode(...await Deno.readFile(p))));
    }
  };
  await walk(dir);
  return out;
}

Deno.test("a demo sync records its source; everything read back carries the demo mark", async () => {
  const dir = await Deno.makeTempDir();
  await sync({ dir, insider: demoClient(), ...range });
  const manifest = await readManifest(dir);
  const [src] = manifest.datasets.insider_trades!.sources!;
  assert.equal(src.kind, "emulator");
  assert.equal(src.host, "s");
  assert.ok(Date.parse(src.first) <= Date.parse(src.last) && Date.parse(src.last) <= Date.now());
  const meta = JSON.parse(await Deno.readTextFile(join(dir, "insider_trades/_signalbook.json")));
  assert.deepEqual(meta.sources, manifest.datasets.insider_trades!.sources);
  const lf = await scanInsiderTrades(dir);
  assert.ok(isDemo(lf), "scanInsiderTrades");
  const df = lf.collectSync();
  assert.ok(isDemo(df), "its collected frame");
  assert.ok(isDemo(df.filter(pl.col("code").eq(pl.lit("P")))), "a derived frame");
  assert.ok(isDemo(df.head(3).toRecords()), "toRecords()");
  assert.ok(isDemo(await scanDataset(join(dir, "insider_trades"))), "scanDataset");
  const q = await query("select * from insider_trades", { dir });
  assert.ok(isDemo(q), "query()");
  assert.ok(isDemo(eventStudy(tradeClass(q), { groupBy: "role" })), "an event study of it");
  // a rerun records the same source once, with a later `last`
  await sync({ dir, insider: demoClient(), ...range, to: "2024-10-31" });
  const again = (await readManifest(dir)).datasets.insider_trades!.sources!;
  assert.equal(again.length, 1);
  assert.equal(again[0].first, src.first);
  assert.ok(again[0].last >= src.last);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a live sync into a demo dataset, and the reverse, is refused naming both sources; nothing is written", async () => {
  const demo = await Deno.makeTempDir();
  await sync({ dir: demo, insider: demoClient(), ...range });
  const before = await snapshot(demo);
  const live = relayClient("https://insider.example.com/insider");
  const e = await sync({ dir: demo, insider: live.client, ...range, to: "2024-12-31" })
    .catch((e) => e);
  assert.ok(e instanceof MixedSourcesError, String(e));
  assert.match(e.message, /the offline emulator \(s\)/);
  assert.match(e.message, /the live service at insider\.example\.com/);
  assert.match(e.message, /nothing was written/);
  assert.equal(live.count.n, 0, "refused before its first request");
  assert.deepEqual(await snapshot(demo), before, "the dataset and manifest are untouched");

  // the reverse: a live dataset refuses the emulator's rows; what it holds reads as live
  const lived = await Deno.makeTempDir();
  await sync({ dir: lived, insider: live.client, ...range });
  const src = (await readManifest(lived)).datasets.insider_trades!.sources!;
  assert.deepEqual(src.map((s) => [s.kind, s.host]), [["live", "insider.example.com"]]);
  assert.equal(isDemo((await scanInsiderTrades(lived)).collectSync()), false);
  assert.equal(isDemo(await query("select count(*) from insider_trades", { dir: lived })), false);
  const kept = await snapshot(lived);
  const r = await sync({ dir: lived, insider: demoClient(), ...range }).catch((e) => e);
  assert.ok(r instanceof MixedSourcesError, String(r));
  assert.match(r.message, /live service at insider\.example\.com.*offline emulator \(s\)/s);
  assert.deepEqual(await snapshot(lived), kept);
  await Deno.remove(demo, { recursive: true });
  await Deno.remove(lived, { recursive: true });
});

Deno.test("a loopback host is told by its answers: a stub's rows are demo rows, refused in a live dataset before any is written", async () => {
  const lived = await Deno.makeTempDir();
  await sync({
    dir: lived,
    insider: relayClient("https://insider.example.com/insider").client,
    ...range,
  });
  const kept = await snapshot(lived);
  // the emulator's header from 127.0.0.1: demo data, known once it answered
  const local = relayClient("http://127.0.0.1:8787/insider");
  const e = await sync({ dir: lived, insider: local.client, ...range }).catch((e) => e);
  assert.ok(e instanceof MixedSourcesError, String(e));
  assert.match(e.message, /offline emulator \(127\.0\.0\.1:8787\)/);
  assert.deepEqual(await snapshot(lived), kept, "no month, no manifest change");
  // into a fresh folder it is recorded as the emulator at that host
  const fresh = await Deno.makeTempDir();
  await sync({ dir: fresh, insider: local.client, ...range });
  const [src] = (await readManifest(fresh)).datasets.insider_trades!.sources!;
  assert.deepEqual([src.kind, src.host], ["emulator", "127.0.0.1:8787"]);
  assert.ok(isDemo(await query("select count(*) from insider_trades", { dir: fresh })));
  await Deno.remove(lived, { recursive: true });
  await Deno.remove(fresh, { recursive: true });
});

Deno.test("writeDataset: a demo frame into a live dataset, or a live frame into a demo one, is refused; the mark round-trips", async () => {
  const dir = await Deno.makeTempDir();
  const demoFrame = await demoClient().search({}).frame({ maxRows: 60 });
  assert.ok(isDemo(demoFrame));
  const withKey = (df: pl.DataFrame) => df.withColumns(pl.lit("a").alias("part"));
  const demoDs = join(dir, "demo");
  await writeDataset(withKey(demoFrame), demoDs, { partitionBy: ["part"] });
  const meta = JSON.parse(await Deno.readTextFile(join(demoDs, "_signalbook.json")));
  assert.deepEqual(meta.sources.map((s: { kind: string; host: unknown }) => [s.kind, s.host]), [[
    "emulator",
    null,
  ]]);
  const back = (await scanDataset(demoDs)).collectSync();
  assert.ok(isDemo(back));
  // what was read back goes back in: still demo rows
  await writeDataset(back, demoDs, { partitionBy: ["part"], mode: "append" });
  const before = await snapshot(demoDs);
  const liveFrame = withKey(pl.DataFrame(demoFrame.getColumns()));
  assert.equal(isDemo(liveFrame), false);
  const e = await writeDataset(liveFrame, demoDs, { partitionBy: ["part"], mode: "append" })
    .catch((e) => e);
  assert.ok(e instanceof MixedSourcesError, String(e));
  assert.match(e.message, /a frame of demo data .* a frame without the demo mark \(live data\)/s);
  assert.ok(e.message.includes(demoDs));
  assert.deepEqual(await snapshot(demoDs), before);
  const liveDs = join(dir, "live");
  await writeDataset(liveFrame, liveDs, { partitionBy: ["part"] });
  assert.equal(isDemo(await scanDataset(liveDs)), false);
  const r = await writeDataset(withKey(demoFrame), liveDs, { partitionBy: ["part"] })
    .catch((e) => e);
  assert.ok(r instanceof MixedSourcesError, String(r));
  await Deno.remove(dir, { recursive: true });
});

/**
 * SQL that names a view without spelling it: the name cut in pieces, each
 * piece in any case, joined with `||` or `concat()`, read by
 * `query_table(lower(…))` (or the view named plainly, quoted or not).
 */
const viewSql = (view: string) =>
  fc.tuple(
    fc.uniqueArray(fc.integer({ min: 1, max: view.length - 1 }), { maxLength: 3 }),
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    fc.constantFrom("||", "concat", "plain", "quoted"),
  ).map(([cuts, upper, join]) => {
    if (join === "plain") {
      return `select count(*) as n from ${upper[0] ? view.toUpperCase() : view}`;
    }
    if (join === "quoted") return `select count(*) as n from "${view}"`;
    const at = [0, ...[...cuts].sort((x, y) => x - y), view.length];
    const pieces = at.slice(1).map((end, i) => {
      const piece = view.slice(at[i], end);
      return `'${upper[i] ? piece.toUpperCase() : piece}'`;
    });
    const expr = join === "||" ? pieces.join(" || ") : `concat(${pieces.join(", ")})`;
    return `select count(*) as n from query_table(lower(${expr}))`;
  });

Deno.test("query(): demo data whenever a dataset it can read holds emulator rows, whatever the SQL says", async () => {
  const dir = await Deno.makeTempDir();
  const { CatalogClient } = await import("../../mod.ts");
  await sync({ dir, insider: relayClient("https://insider.example.com/insider").client, ...range });
  const catalog = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch: stub.fetch,
  });
  await sync({ dir, catalog, ...range });
  const pitches = (await query("select count(*) as n from pitches", { dir })).getColumn("n").get(0);
  assert.ok(Number(pitches) > 0);
  await fc.assert(
    fc.asyncProperty(viewSql("pitches"), async (sql) => {
      const df = await query(sql, { dir });
      assert.equal(Number(df.getColumn("n").get(0)), Number(pitches), sql);
      assert.ok(isDemo(df), `unmarked emulator rows: ${sql}`);
    }),
    { numRuns: 12 },
  );
  // the demo view is readable from any SQL over this folder: every result is demo data
  assert.ok(isDemo(await query("select count(*) from insider_trades", { dir })));
  assert.ok(isDemo(await query("select 1 as one", { dir })));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("query(): a folder of live datasets only is never marked, however the SQL names them", async () => {
  const dir = await Deno.makeTempDir();
  await sync({ dir, insider: relayClient("https://insider.example.com/insider").client, ...range });
  await fc.assert(
    fc.asyncProperty(viewSql("insider_trades"), async (sql) => {
      const df = await query(sql, { dir });
      assert.ok(Number(df.getColumn("n").get(0)) > 0, sql);
      assert.equal(isDemo(df), false, sql);
    }),
    { numRuns: 8 },
  );
  await Deno.remove(dir, { recursive: true });
});
