import assert from "node:assert/strict";
import { firstLine } from "../_util.ts";
import pl from "nodejs-polars";
import { dirname, join } from "node:path";
import { partFiles, scanDataset, writeDataset } from "../../mod.ts";
import { modeFrame } from "./write_frames.ts";

async function counts(dir: string): Promise<Record<string, string>> {
  const df = (await scanDataset(dir)).groupBy(["k", "version"]).agg(pl.len().alias("n"))
    .sort("k").collectSync();
  const out: Record<string, string> = {};
  for (const r of df.toRecords()) out[String(r.k)] = `${r.version}:${r.n}`;
  return out;
}

Deno.test("writeDataset default (replace-partitions): a rerun gives the same rows, other partitions kept", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await writeDataset(modeFrame("a", 3, 10), dir, { partitionBy: ["k"] });
  await writeDataset(modeFrame("a", 3, 10), dir, { partitionBy: ["k"] });
  assert.deepEqual(await counts(dir), { p00: "a:10", p01: "a:10", p02: "a:10" });
  await writeDataset(modeFrame("b", 2, 4, 2), dir, { partitionBy: ["k"] });
  assert.deepEqual(await counts(dir), { p00: "a:10", p01: "a:10", p02: "b:4", p03: "b:4" });
  assert.equal((await partFiles(dir)).length, 4);
  await Deno.remove(dirname(dir), { recursive: true });
});

Deno.test("writeDataset modes: error refuses an existing dataset, overwrite replaces it all, append adds", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await writeDataset(modeFrame("a", 3, 10), dir, { partitionBy: ["k"], mode: "error" });
  await assert.rejects(
    writeDataset(modeFrame("a", 3, 10), dir, { partitionBy: ["k"], mode: "error" }),
    (e: Error) => e.message.includes(dir) && /already holds a dataset/.test(e.message),
  );
  await writeDataset(modeFrame("b", 2, 5, 1), dir, { partitionBy: ["k"], mode: "append" });
  const all = (await scanDataset(dir)).groupBy(["k", "version"]).agg(pl.len().alias("n"))
    .sort(["k", "version"]).collectSync().toRecords().map((r) => `${r.k}/${r.version}:${r.n}`);
  assert.deepEqual(all, ["p00/a:10", "p01/a:10", "p01/b:5", "p02/a:10", "p02/b:5"]);
  await writeDataset(modeFrame("c", 2, 3, 1), dir, { partitionBy: ["k"], mode: "overwrite" });
  assert.deepEqual(await counts(dir), { p01: "c:3", p02: "c:3" });
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
    ["_signalbook.json", "k=p01", "k=p02"],
    "overwrite removes the partitions the frame lacks, directories too",
  );
  await Deno.remove(dirname(dir), { recursive: true });
});

Deno.test("writeDataset: a bad mode names the value, the allowed modes and the close match", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await assert.rejects(
    writeDataset(modeFrame("a", 1, 1), dir, {
      partitionBy: ["k"],
      mode: "replace" as "append",
    }),
    /mode "replace" is not allowed; allowed: "error", "overwrite", "replace-partitions", "append" \(did you mean "replace-partitions"\?\)/,
  );
  await assert.rejects(
    writeDataset(modeFrame("a", 1, 1), dir, { partitionBy: ["versoin"] }),
    /lacks partition column "versoin" \(did you mean "version"\?\)/,
  );
  await Deno.remove(dirname(dir), { recursive: true });
});

Deno.test("writeDataset: appending a frame with other columns is a clear error, the partition untouched", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await writeDataset(modeFrame("a", 1, 4), dir, { partitionBy: ["k"] });
  await assert.rejects(
    writeDataset(pl.DataFrame({ k: ["p00"], other: [1] }), dir, {
      partitionBy: ["k"],
      mode: "append",
    }),
    /cannot append to .*k=p00/,
  );
  assert.deepEqual(await counts(dir), { p00: "a:4" });
  await Deno.remove(dirname(dir), { recursive: true });
});

/** Temporary files under the dataset's partition folders. */
async function tmpFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isDirectory) continue;
    for await (const f of Deno.readDir(join(dir, e.name))) {
      if (f.name.endsWith(".tmp")) out.push(`${e.name}/${f.name}`);
    }
  }
  return out;
}

Deno.test("writeDataset crash safety: a writer killed midway leaves each partition old or new, never half or both", async () => {
  const parts = 6;
  const rows = 2_000;
  // the child stops at a point of its own progress and says so; the kill follows that line,
  // so the outcome does not depend on how busy the machine is
  for (const stopAt of ["after-swap", "before-swap"]) {
    const dir = join(await Deno.makeTempDir(), "ds");
    await writeDataset(modeFrame("old", parts, rows), dir, { partitionBy: ["k"] });
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(import.meta.dirname!, "write_child.ts"),
        dir,
        String(parts),
        String(rows),
        stopAt,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const { line, reader } = await firstLine(child.stdout);
    assert.equal(line, stopAt === "after-swap" ? "swapped 1" : "written 2");
    child.kill("SIGKILL");
    const status = await child.status;
    await reader.cancel();
    await child.stdin.close().catch(() => {});
    assert.equal(status.signal, "SIGKILL", "the writer was killed, not finished");
    const got = await counts(dir);
    assert.equal(Object.keys(got).length, parts, "no partition lost");
    const states = Object.values(got);
    for (const s of states) assert.ok(s === `old:${rows}` || s === `new:${rows + 7}`, s);
    // exactly the partition swapped before the stop is new; the writer was stopped midway
    assert.equal(states.filter((s) => s === `new:${rows + 7}`).length, 1, `${stopAt}: one new`);
    assert.equal(states.filter((s) => s === `old:${rows}`).length, parts - 1, `${stopAt}: old`);
    // before the swap, the second partition's new file was complete under its temporary name
    assert.equal((await tmpFiles(dir)).length, stopAt === "before-swap" ? 1 : 0, stopAt);
    // the next write finishes the job, and leaves no temporary file of the killed writer
    await writeDataset(modeFrame("new", parts, rows + 7), dir, { partitionBy: ["k"] });
    assert.ok(Object.values(await counts(dir)).every((s) => s === `new:${rows + 7}`));
    assert.deepEqual(await tmpFiles(dir), [], "temporary files of the killed writer are removed");
    await Deno.remove(dirname(dir), { recursive: true });
  }
});

Deno.test("writeDataset default on a synced dataset replaces the months it writes; sync reruns stay exact", async () => {
  const { InsiderClient, scanInsiderTrades, sync } = await import("../../mod.ts");
  const { createStub, DEMO_KEYS } = await import("../../lib/stub/mod.ts");
  const stub = createStub({ seed: 2, scale: 0.05 });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  const root = await Deno.makeTempDir();
  const opts = { dir: root, from: "2025-01-01", to: "2025-06-30", insider, progress: false };
  await sync(opts);
  const all = (await scanInsiderTrades(root)).collectSync();
  const march = all.filter(pl.col("month").eq(pl.lit(3)));
  assert.ok(march.height > 0);
  await writeDataset(march, join(root, "insider_trades"), { partitionBy: ["year", "month"] });
  await writeDataset(march, join(root, "insider_trades"), { partitionBy: ["year", "month"] });
  assert.equal((await scanInsiderTrades(root)).collectSync().height, all.height);
  await sync({ ...opts, from: undefined });
  assert.equal((await scanInsiderTrades(root)).collectSync().height, all.height);
  await Deno.remove(root, { recursive: true });
});
