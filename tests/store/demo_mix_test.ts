/**
 * Mixing demo and live rows through frame methods is loud: a signalbook
 * frame (from a client, `scan*`, `query()`) given a demo frame or demo
 * columns gives a demo frame (`vstack`, `join`, `hstack`, `pl.concat` with
 * a signalbook frame first), so `writeDataset` refuses it into a live
 * dataset with a `MixedSourcesError`, writing nothing; so does a frame
 * signalbook did not make (the mark is on Polars' native data,
 * `frames/_demo_trace.ts`). Where the mark cannot follow (documented in
 * docs/datasets.md): bytes, text and values copied out.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { isDemo, MixedSourcesError, scanDataset, withDisplay, writeDataset } from "../../mod.ts";

const rows = (k: string[]) =>
  pl.DataFrame({ k, v: k.map((_, i) => i) }).withColumns(pl.lit(2025).cast(pl.Int64).alias("y"));

async function liveAndDemo() {
  const dir = await Deno.makeTempDir();
  const liveDir = join(dir, "live");
  await writeDataset(rows(["a", "b"]), liveDir, { partitionBy: ["y"] });
  const live = (await scanDataset(liveDir)).collectSync();
  const demo = withDisplay(rows(["c", "d"]), { demo: true });
  assert.equal(isDemo(live), false);
  return { dir, liveDir, live, demo };
}

Deno.test("a live signalbook frame mixed with demo rows or columns is demo data", async () => {
  const { dir, live, demo } = await liveAndDemo();
  try {
    // hstack's typing picks its in-place overload for a list of columns
    const hstack = (df: pl.DataFrame, cols: pl.Series[]) =>
      (df.hstack as unknown as (c: pl.Series[]) => pl.DataFrame).call(df, cols);
    const mixed: Record<string, pl.DataFrame> = {
      vstack: live.vstack(demo),
      join: live.join(demo.select("k", pl.col("v").alias("w")), { on: "k", how: "left" }),
      "hstack(columns)": hstack(live.select("k"), demo.select("v", "y").getColumns()),
      "hstack(frame)": live.select("k").hstack(demo.select("v", "y")),
      "hstack([column])": hstack(live.select("k", "y"), [demo.getColumn("v")]),
      "pl.concat": pl.concat([live, demo]),
      "lazy join": live.lazy().join(demo.lazy(), { on: "k" }).collectSync(),
    };
    for (const [how, df] of Object.entries(mixed)) assert.ok(isDemo(df), how);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeDataset(live.vstack(demo), liveDir, append) is refused, nothing written", async () => {
  const { dir, liveDir, live, demo } = await liveAndDemo();
  try {
    const before = (await scanDataset(liveDir)).collectSync().height;
    const e = await writeDataset(live.vstack(demo), liveDir, { partitionBy: ["y"], mode: "append" })
      .catch((e) => e);
    assert.ok(e instanceof MixedSourcesError, String(e));
    assert.ok(e.message.includes(liveDir));
    assert.equal((await scanDataset(liveDir)).collectSync().height, before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("frames signalbook did not make mix loudly too; where the mark cannot follow, as documented", async () => {
  const { dir, liveDir, demo } = await liveAndDemo();
  try {
    const plain = () => rows(["z"]); // pl.DataFrame(...): not made by signalbook
    const extended = plain();
    extended.extend(demo);
    const mixed: Record<string, pl.DataFrame | pl.Series> = {
      "plain.vstack(demo)": plain().vstack(demo),
      "pl.concat([plain, demo])": pl.concat([plain(), demo]),
      "lazy pl.concat": pl.concat([plain().lazy(), demo.lazy()]).collectSync(),
      "plain.extend(demo)": extended,
      "plain.withColumns(demo series)": plain().withColumns(demo.getColumn("v").head(1).alias("w")),
      "a column's own methods": demo.getColumn("v").slice(0, 1),
      "pl.DataFrame(demo.toRecords())": pl.DataFrame(demo.toRecords()),
    };
    for (const [how, df] of Object.entries(mixed)) assert.ok(isDemo(df), how);
    const e = await writeDataset(plain().vstack(demo), liveDir, {
      partitionBy: ["y"],
      mode: "append",
    })
      .catch((e) => e);
    assert.ok(e instanceof MixedSourcesError, String(e));
    // bytes and values copied out cannot carry it
    assert.equal(isDemo(pl.readIPC(demo.writeIPC())), false);
    assert.equal(isDemo(pl.DataFrame(demo.toRecords().map((r) => ({ ...r })))), false);
    assert.equal(isDemo(plain()), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
