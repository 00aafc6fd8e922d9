/**
 * Local files cannot hang, blow up or escape (issue 31, Deliver 3):
 * `query()` reads only regular files inside the dataset (a symlinked view
 * folder, a symlinked part, a FIFO or a `/dev/zero` link is a `QueryError`
 * naming it), stops at `timeoutMs` and refuses a result over `maxRows`; the
 * manifest, a dataset's `_signalbook.json` and the lock file are opened
 * only as regular files — a FIFO, `/dev/zero` or a symlink there is an
 * error naming the path, never a hang or a write through the link (the
 * lock case in a second process, as a writer would meet it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { InsiderClient, query, QueryError, readManifest, sync, writeDataset } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import pl from "nodejs-polars";

const stub = createStub({ seed: 3, scale: 0.05 });
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://s/insider",
  fetch: stub.fetch,
});
const range = { from: "2024-06-01", to: "2024-12-31", progress: false };

async function synced(): Promise<string> {
  const dir = await Deno.makeTempDir();
  await sync({ dir, insider, ...range });
  return dir;
}
const mkfifo = (p: string) => new Deno.Command("mkfifo", { args: [p] }).output();

Deno.test("query: a view folder linked elsewhere, a linked part, a FIFO or /dev/zero is a QueryError naming it", async () => {
  const dir = await synced();
  const other = await synced();
  const trades = join(dir, "insider_trades");
  // the view folder itself a link to another dataset
  await Deno.rename(trades, join(dir, "moved"));
  await Deno.symlink(join(other, "insider_trades"), trades);
  let e = await query("select count(*) from insider_trades", { dir }).catch((e) => e);
  assert.ok(e instanceof QueryError, String(e));
  assert.match(e.message, /insider_trades is a symlink/);
  await Deno.remove(trades);
  await Deno.rename(join(dir, "moved"), trades);
  assert.ok((await query("select count(*) as n from insider_trades", { dir })).height === 1);
  // a part linked to a file outside
  const year = [...Deno.readDirSync(trades)].find((x) => x.name.startsWith("year="))!.name;
  const link = join(trades, year, "outside.parquet");
  const outside = [...Deno.readDirSync(join(other, "insider_trades", year))][0];
  await Deno.symlink(join(other, "insider_trades", year, outside.name), link);
  e = await query("select count(*) from insider_trades", { dir }).catch((e) => e);
  assert.ok(e instanceof QueryError);
  assert.ok(e.message.includes(link), e.message);
  await Deno.remove(link);
  // a FIFO at the metadata: an error, not a hang
  const meta = join(trades, "_signalbook.json");
  await Deno.rename(meta, meta + ".bak");
  await mkfifo(meta);
  e = await query("select count(*) from insider_trades", { dir }).catch((e) => e);
  assert.ok(e instanceof QueryError);
  assert.ok(e.message.includes(meta), e.message);
  await Deno.remove(meta);
  await Deno.symlink("/dev/zero", meta);
  e = await query("select count(*) from insider_trades", { dir }).catch((e) => e);
  assert.ok(e instanceof QueryError);
  assert.ok(e.message.includes(meta), e.message);
  await Deno.remove(meta);
  await Deno.rename(meta + ".bak", meta);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(other, { recursive: true });
});

Deno.test("query: timeoutMs interrupts DuckDB; maxRows refuses a larger result; bad values name themselves", async () => {
  const dir = await synced();
  // a query that hashes 10^11 rows: far past any timeout here, on any machine
  const t = await query("select sum(hash(range)) from range(100000000000)", {
    dir,
    timeoutMs: 300,
  }).catch((e) => e);
  assert.ok(t instanceof QueryError, String(t));
  assert.match(t.message, /stopped after 300 ms \(timeoutMs\)/);
  const n = (await query("select count(*)::BIGINT as n from insider_trades", { dir }))
    .getColumn("n").get(0) as number;
  const ok = await query("select * from insider_trades", { dir, maxRows: Number(n) });
  assert.equal(ok.height, Number(n));
  const big = await query("select * from insider_trades", { dir, maxRows: Number(n) - 1 }).catch((
    e,
  ) => e);
  assert.ok(big instanceof QueryError);
  assert.match(big.message, new RegExp(`more than ${Number(n) - 1} rows \\(maxRows\\)`));
  for (const bad of [{ timeoutMs: 0 }, { maxRows: -1 }, { timeoutMs: 1.5 }]) {
    const e = await query("select 1", { dir, ...bad }).catch((e) => e);
    assert.ok(e instanceof QueryError);
    assert.match(e.message, new RegExp(`${Object.keys(bad)[0]} ${Object.values(bad)[0]}`));
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the manifest and a dataset's metadata: a FIFO, /dev/zero or a symlink is an error naming the path", async () => {
  const dir = await Deno.makeTempDir();
  const manifest = join(dir, "manifest.json");
  await mkfifo(manifest);
  await assert.rejects(readManifest(dir), (e: Error) => e.message.includes(manifest));
  const s = await sync({ dir, insider, ...range }).catch((e) => e);
  assert.ok(s instanceof Error && s.message.includes(manifest), String(s));
  await Deno.remove(manifest);
  await Deno.symlink("/dev/zero", manifest);
  await assert.rejects(readManifest(dir), /is a symlink/);
  await Deno.remove(manifest);
  // writeDataset over a FIFO metadata file: an error, the lock released
  const ds = join(dir, "ds");
  await Deno.mkdir(ds);
  await mkfifo(join(ds, "_signalbook.json"));
  const df = pl.DataFrame({ a: ["x", "y"] });
  const w = await writeDataset(df, ds, { mode: "append", partitionBy: ["a"] }).catch((e) => e);
  assert.ok(w instanceof Error && w.message.includes("_signalbook.json"), String(w));
  await Deno.remove(join(ds, "_signalbook.json"));
  await writeDataset(df, ds, { mode: "append", partitionBy: ["a"] }); // the lock was released
  await Deno.remove(dir, { recursive: true });
});

Deno.test("two processes: a symlink at the lock path is refused, its target untouched", async () => {
  const dir = await Deno.makeTempDir();
  const ds = join(dir, "ds");
  await Deno.mkdir(ds);
  const victim = join(dir, "victim.txt");
  await Deno.writeTextFile(victim, "IMPORTANT USER DATA");
  await Deno.symlink(victim, join(ds, ".signalbook.lock"));
  const code = `
    import pl from "nodejs-polars";
    import { writeDataset } from "${new URL("../../mod.ts", import.meta.url).href}";
    try {
      await writeDataset(pl.DataFrame({ a: ["x"] }), ${
    JSON.stringify(ds)
  }, { mode: "append", partitionBy: ["a"] });
      console.log("written");
    } catch (e) {
      console.log("refused: " + e.message);
    }`;
  /** The writer, in its own process: what it printed. */
  const writer = async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-check", code],
      cwd: new URL("../..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  };
  const text = await writer();
  assert.match(text, /refused: .*\.signalbook\.lock is a symlink/, text);
  assert.equal(await Deno.readTextFile(victim), "IMPORTANT USER DATA");
  // a FIFO there: an error, not a hang
  await Deno.remove(join(ds, ".signalbook.lock"));
  await mkfifo(join(ds, ".signalbook.lock"));
  assert.match(await writer(), /refused: .*is a FIFO/);
  await Deno.remove(dir, { recursive: true });
});
