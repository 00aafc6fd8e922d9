import assert from "node:assert/strict";
import { firstLine } from "../_util.ts";
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  CatalogClient,
  InsiderClient,
  readManifest,
  scanInsiderTrades,
  scanPitches,
  sync,
} from "../../mod.ts";
import { createStub, DEMO_KEYS, type Stub } from "../../lib/stub/mod.ts";

function clients(stub: Stub, count?: { n: number }) {
  const fetch = (i: Request | URL | string, init?: RequestInit) => {
    if (count) count.n++;
    return stub.fetch(i, init);
  };
  return {
    insider: new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://s/insider", fetch }),
    catalog: new CatalogClient({ apiKey: DEMO_KEYS.catalog, baseUrl: "http://s/catalog", fetch }),
  };
}
const sorted = (df: pl.DataFrame, keys: string[]) => df.drop(["year", "month"]).sort(keys);

Deno.test("a sync holds exactly the service's rows, partitioned by month, de-duplicated", async () => {
  const stub = createStub({ seed: 4, scale: 0.1 });
  const dir = await Deno.makeTempDir();
  const report = await sync({
    dir,
    from: "2021-11-01",
    to: "2026-11-20",
    ...clients(stub),
    progress: false,
  });
  assert.equal(report.datasets.insider_trades.rows, stub.insider.trades.length);
  const trades = (await scanInsiderTrades(dir)).collectSync();
  assert.equal(trades.height, stub.insider.trades.length);
  assert.equal(trades.select("accession_number", "transaction_id").unique().height, trades.height);
  const pitches = (await scanPitches(dir)).collectSync();
  assert.equal(pitches.height, stub.catalog.pitches.length);
  const dirs = [...Deno.readDirSync(join(dir, "insider_trades"))].map((e) => e.name).sort();
  assert.ok(dirs.includes("year=2025") && dirs.includes("_signalbook.json"));
  assert.ok(
    [...Deno.readDirSync(join(dir, "insider_trades", "year=2025"))].some((e) =>
      e.name === "month=3"
    ),
  );
  const manifest = await readManifest(dir);
  assert.equal(manifest.datasets.insider_trades?.syncedTo, "2026-11-20");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a later sync asks only for what is new (overlap window), and replaces re-read rows by key", async () => {
  const stub = createStub({ seed: 4, scale: 0.1 });
  const dir = await Deno.makeTempDir();
  await sync({ dir, from: "2021-11-01", to: "2026-10-31", ...clients(stub), progress: false });
  const before = (await scanInsiderTrades(dir)).collectSync().height;
  const count = { n: 0 };
  const r = await sync({
    dir,
    to: "2026-11-20",
    ...clients(stub, count),
    overlapDays: 7,
    progress: false,
  });
  assert.equal(r.datasets.insider_trades.from, "2026-10-24");
  assert.equal(r.datasets.insider_trades.months, 2);
  assert.ok(count.n <= 12, `${count.n} requests`);
  const after = (await scanInsiderTrades(dir)).collectSync();
  assert.equal(after.height, stub.insider.trades.length);
  assert.equal(after.select("accession_number", "transaction_id").unique().height, after.height);
  assert.ok(after.height > before);
  const pitches = (await scanPitches(dir)).collectSync();
  assert.equal(pitches.getColumn("pitch_id").unique().length, pitches.height);
  assert.equal(pitches.height, stub.catalog.pitches.length);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "a sync killed mid-run and rerun ends with exactly the rows of an uninterrupted sync",
  sanitizeResources: false,
  fn: async () => {
    const child = new URL("./sync_child.ts", import.meta.url).pathname;
    const clean = await Deno.makeTempDir();
    const killed = await Deno.makeTempDir();
    const ok = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", child, clean],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(ok.success);
    // the child stops after 5 months of trades and says so: the kill follows that line
    const proc = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", child, killed, "5"],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const { line, reader } = await firstLine(proc.stdout);
    assert.equal(line, "stopped after 5 months");
    proc.kill("SIGKILL");
    assert.equal((await proc.status).signal, "SIGKILL", "the sync was killed, not finished");
    await reader.cancel();
    await proc.stdin.close().catch(() => {});
    const partial = await readManifest(killed);
    const doneBefore = Object.keys(partial.datasets.insider_trades?.done ?? {}).length;
    // the manifest follows the month files: it names at most the 5 months written
    assert.ok(doneBefore <= 5, `killed after ${doneBefore} months`);
    assert.notEqual(partial.datasets.insider_trades?.syncedTo, "2026-11-20");
    const rerun = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", child, killed],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(rerun.success);
    const keys = ["accession_number", "transaction_id"];
    const a = sorted((await scanInsiderTrades(clean)).collectSync(), keys);
    const b = sorted((await scanInsiderTrades(killed)).collectSync(), keys);
    assert.equal(b.height, a.height);
    assert.ok(a.frameEqual(b, true), "same rows and values");
    const pa = sorted((await scanPitches(clean)).collectSync(), ["pitch_id"]);
    const pb = sorted((await scanPitches(killed)).collectSync(), ["pitch_id"]);
    assert.ok(pa.frameEqual(pb, true));
    const leftovers: string[] = [];
    const walk = (d: string) => {
      for (const e of Deno.readDirSync(d)) {
        e.isDirectory ? walk(join(d, e.name)) : e.name.endsWith(".tmp") && leftovers.push(e.name);
      }
    };
    walk(killed);
    assert.deepEqual(leftovers, []);
    await Deno.remove(clean, { recursive: true });
    await Deno.remove(killed, { recursive: true });
  },
});

Deno.test("sync input checks name the bad value", async () => {
  const dir = await Deno.makeTempDir();
  await assert.rejects(
    sync({ dir, from: "2025-02-30", insider: clients(createStub({ scale: 0.02 })).insider }),
    /from "2025-02-30"/,
  );
  await assert.rejects(sync({ dir }), /give an insider client/);
  await assert.rejects(
    sync({ dir, concurrency: 0, insider: clients(createStub({ scale: 0.02 })).insider }),
    /concurrency 0/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a resync keeps one row per key even when the stored month holds a key twice", async () => {
  const stub = createStub({ seed: 4, scale: 0.1 });
  const dir = await Deno.makeTempDir();
  const range = { from: "2025-01-01", to: "2025-02-28" };
  await sync({ dir, ...range, insider: clients(stub).insider, progress: false });
  // a row the service no longer sends, stored twice in February (an older writer's slip)
  const file = join(dir, "insider_trades", "year=2025", "month=2", "data.parquet");
  const stored = pl.readParquet(file);
  const ghost = stored.head(1).withColumns(
    pl.lit(987654321).cast(pl.Int64).alias("transaction_id"),
  );
  pl.concat([stored, ghost, ghost]).writeParquet(file, { compression: "zstd" });
  await sync({ dir, ...range, insider: clients(stub).insider, progress: false });
  const feb = pl.readParquet(file);
  const keys = feb.select("accession_number", "transaction_id");
  assert.equal(keys.unique().height, feb.height);
  assert.equal(feb.height, stored.height + 1);
  assert.equal(
    feb.filter(pl.col("transaction_id").eq(pl.lit(987654321))).height,
    1,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a row of a month already written, arriving later, fails the sync: the list is not in date order", async () => {
  const stub = createStub({ seed: 4, scale: 0.1 });
  let searches = 0;
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const res = await stub.fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    if (!url.includes("/search") || ++searches !== 4) return res;
    // the fourth page's last row moves back to January
    const body = await res.json();
    const rows = body[Object.keys(body).find((k) => Array.isArray(body[k]))!];
    rows[rows.length - 1].filedAt = "2025-01-06T15:00:00Z";
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch,
  });
  const dir = await Deno.makeTempDir();
  const e = await sync({
    dir,
    from: "2025-01-01",
    to: "2025-12-31",
    insider,
    concurrency: 1,
    progress: false,
  }).catch((e) => e);
  assert.ok(e instanceof AggregateError, String(e));
  assert.match(
    e.errors.map(String).join("\n"),
    /insider_trades rows of 2025-01 came after 2025-\d\d: the list is not in date order/,
  );
  const synced = await readManifest(dir);
  assert.equal(synced.datasets.insider_trades?.syncedTo, undefined);
  await Deno.remove(dir, { recursive: true });
});
