/**
 * Paths taken literally and links refused, as a hostile probe tries them:
 * - dataset folders named `data[12]`, `data*`, `data?` (beside `data1` and
 *   `data2`) read their own rows only, through `scanDataset`,
 *   `scanInsiderTrades` and `query()`; a parent folder named `x=y` adds no
 *   column; `query()` errors are `QueryError`s;
 * - a hard link (or symlink, FIFO) at the lock, the manifest, the metadata
 *   or a part is refused naming it; the file it points to is untouched. The
 *   cases that could hang (a FIFO; a writer through a link) run in their
 *   own process with a time limit and a memory ceiling.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import {
  query,
  QueryError,
  readManifest,
  scanDataset,
  scanInsiderTrades,
  sync,
  writeDataset,
} from "../../mod.ts";
import { offline } from "../_util.ts";

const { insider } = await offline({ seed: 3, scale: 0.05 });
const range = { from: "2024-06-01", to: "2024-08-31", progress: false };
const GLOBS = ["data[12]", "data*", "data?"];
const NAMES = ["data1", "data2", ...GLOBS];

/** A frame whose rows say which folder they were written to. */
const rowsOf = (name: string) => pl.DataFrame({ who: [name, name], part: ["a", "b"] });

/**
 * Runs `code` (a module importing mod.ts) in its own Deno process with a
 * time limit and a 512 MB heap: what it printed, and whether it was killed.
 */
async function child(code: string, timeoutMs = 60_000): Promise<{ text: string; killed: boolean }> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", "--v8-flags=--max-old-space-size=512", code],
    cwd: new URL("../..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    proc.kill("SIGKILL");
  }, timeoutMs);
  const out = await proc.output();
  clearTimeout(timer);
  return {
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
    killed,
  };
}
const MOD = new URL("../../mod.ts", import.meta.url).href;
const mkfifo = (p: string) => new Deno.Command("mkfifo", { args: [p] }).output();

Deno.test("glob characters in a dataset path: data[12], data*, data? read their own rows only", async () => {
  const base = await Deno.makeTempDir();
  for (const name of NAMES) {
    await writeDataset(rowsOf(name), join(base, name), { partitionBy: ["part"] });
  }
  for (const name of NAMES) {
    const got = (await scanDataset(join(base, name))).collectSync();
    assert.deepEqual(got.getColumn("who").toArray(), [name, name], name);
    assert.deepEqual(got.getColumn("part").toArray().sort(), ["a", "b"]);
  }
  // a parent folder named like a partition adds no column
  const nested = join(base, "x=y", "data[12]");
  await writeDataset(rowsOf("nested"), nested, { partitionBy: ["part"] });
  const lf = await scanDataset(nested);
  assert.deepEqual(lf.collectSync().columns, ["who", "part"]);
  assert.equal(lf.filter(pl.col("part").eq(pl.lit("b"))).collectSync().height, 1);
  await Deno.remove(base, { recursive: true });
});

Deno.test("glob characters in a sync folder: scanInsiderTrades and query() read their own rows only", async () => {
  const base = await Deno.makeTempDir();
  // data1 holds rows, the glob-named folders their own, fewer months
  await sync({ dir: join(base, "data1"), insider, ...range });
  await sync({ dir: join(base, "data2"), insider, ...range });
  const own: Record<string, number> = {};
  for (const [i, name] of GLOBS.entries()) {
    await sync({
      dir: join(base, name),
      insider,
      from: "2024-06-01",
      to: new Date(Date.UTC(2024, 6 + i, 0)).toISOString().slice(0, 10), // months pulled whole: done
      progress: false,
    });
    const done = (await readManifest(join(base, name))).datasets.insider_trades!.done;
    own[name] = Object.values(done).reduce((a, b) => a + b, 0);
  }
  for (const name of GLOBS) {
    const dir = join(base, name);
    const scanned = (await scanInsiderTrades(dir)).collectSync().height;
    assert.equal(scanned, own[name], `${name}: scanInsiderTrades`);
    const q = await query("select count(*) as n from insider_trades", { dir });
    assert.equal(Number(q.getColumn("n").get(0)), own[name], `${name}: query()`);
  }
  // a path DuckDB cannot read literally is a QueryError naming it, not a plain Error
  const odd = join(base, "back\\slash*");
  await sync({ dir: odd, insider, ...range });
  const e = await query("select count(*) from insider_trades", { dir: odd }).catch((e) => e);
  assert.ok(e instanceof QueryError, String(e));
  assert.ok(e.message.includes("back\\slash*"), e.message);
  assert.equal((await scanInsiderTrades(odd)).collectSync().height > 0, true, "Polars reads it");
  await Deno.remove(base, { recursive: true });
});

Deno.test("hard links: a linked part, manifest or metadata is refused naming it; scan*, query() and sync alike", async () => {
  const base = await Deno.makeTempDir();
  const dir = join(base, "ds");
  await sync({ dir, insider, ...range });
  const outside = join(base, "outside.parquet");
  await Deno.writeFile(outside, await Deno.readFile(lastPart(dir)));
  // a part that is a hard link to a file outside the dataset
  const part = lastPart(dir);
  await Deno.remove(part);
  await Deno.link(outside, part);
  const q = await query("select count(*) from insider_trades", { dir }).catch((e) => e);
  assert.ok(q instanceof QueryError, String(q));
  assert.match(q.message, /has 2 hard links/);
  assert.ok(q.message.includes(part), q.message);
  await assert.rejects(scanInsiderTrades(dir), (e: Error) => e.message.includes(part));
  await assert.rejects(
    sync({ dir, insider, ...range, to: "2024-09-30" }),
    (e: Error) => e.message.includes("hard links"),
  );
  await Deno.remove(part);
  await Deno.writeFile(part, await Deno.readFile(outside));
  // the manifest and the metadata as hard links
  for (
    const file of [join(dir, "manifest.json"), join(dir, "insider_trades", "_signalbook.json")]
  ) {
    const copy = join(base, "copy.json");
    await Deno.rename(file, copy);
    await Deno.link(copy, file);
    const before = await Deno.readTextFile(copy);
    const errors = [
      await sync({ dir, insider, ...range }).catch((e) => e),
      ...(file.endsWith("_signalbook.json")
        ? [
          await scanInsiderTrades(dir).catch((e) => e),
          await query("select 1 from insider_trades", { dir }).catch((e) => e),
        ]
        : [await readManifest(dir).catch((e) => e)]),
    ];
    for (const e of errors) {
      assert.ok(e instanceof Error && e.message.includes(file), String(e));
      assert.match(e.message, /hard links/);
    }
    assert.equal(await Deno.readTextFile(copy), before, "the other name's bytes are untouched");
    await Deno.remove(file);
    await Deno.rename(copy, file);
  }
  assert.ok((await query("select count(*) from insider_trades", { dir })).height === 1);
  await Deno.remove(base, { recursive: true });
});

function lastPart(dir: string): string {
  const root = join(dir, "insider_trades");
  // the last month: the one a later sync reads again (its overlap window)
  const year = [...Deno.readDirSync(root)].map((e) => e.name).filter((n) => n.startsWith("year="))
    .sort().at(-1)!;
  const month = [...Deno.readDirSync(join(root, year))].map((e) => e.name).sort().at(-1)!;
  return join(root, year, month, "data.parquet");
}

Deno.test("own process: a hard-linked lock is refused and its target is not written; a FIFO part is refused without a hang", async () => {
  const base = await Deno.makeTempDir();
  const ds = join(base, "ds");
  await Deno.mkdir(ds);
  const victim = join(base, "victim.txt");
  await Deno.writeTextFile(victim, "IMPORTANT USER DATA");
  await Deno.link(victim, join(ds, ".signalbook.lock"));
  const write = `
    import pl from "npm:nodejs-polars@0.25.2";
    import { writeDataset } from "${MOD}";
    try {
      await writeDataset(pl.DataFrame({ a: ["x"] }), ${JSON.stringify(ds)}, { partitionBy: ["a"] });
      console.log("written");
    } catch (e) { console.log("refused: " + e.message); }`;
  const w = await child(write);
  assert.equal(w.killed, false, w.text);
  assert.match(w.text, /refused: .*\.signalbook\.lock has 2 hard links/, w.text);
  assert.equal(await Deno.readTextFile(victim), "IMPORTANT USER DATA");
  assert.equal((await Deno.stat(victim)).size, 19);
  // a FIFO in place of a part: refused by scan and query, nothing waits on it
  await Deno.remove(join(ds, ".signalbook.lock"));
  await writeDataset(pl.DataFrame({ a: ["x", "y"] }), ds, { partitionBy: ["a"] });
  const part = join(ds, "a=x", "data.parquet");
  await Deno.remove(part);
  await mkfifo(part);
  const read = `
    import { scanDataset } from "${MOD}";
    for (const f of [() => scanDataset(${JSON.stringify(ds)}).then((l) => l.collectSync())]) {
      try { await f(); console.log("read"); } catch (e) { console.log("refused: " + e.message); }
    }`;
  const r = await child(read);
  assert.equal(r.killed, false, "no hang");
  assert.match(r.text, /refused: .*a=x\/data\.parquet is a FIFO/, r.text);
  await Deno.remove(base, { recursive: true });
});
