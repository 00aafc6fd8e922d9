/**
 * Mixing demo and live rows through frame methods is loud: a signalbook
 * frame (from a client, `scan*`, `query()`) given a demo frame or demo
 * columns gives a demo frame (`vstack`, `join`, `hstack`, `pl.concat` with
 * a signalbook frame first), so `writeDataset` refuses it into a live
 * dataset with a `MixedSourcesError`, writing nothing. Where the mark
 * cannot follow (documented in `isDemo` and docs/datasets.md): a frame
 * signalbook did not make, first in `pl.concat` or calling the method, and
 * a lazy `pl.concat`.
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

Deno.test("where the mark cannot follow, as documented: frames signalbook did not make", async () => {
  const { dir, demo } = await liveAndDemo();
  try {
    const plain = rows(["z"]); // pl.DataFrame(...): not made by signalbook
    assert.equal(isDemo(plain.vstack(demo)), false);
    assert.equal(isDemo(pl.concat([plain, demo])), false);
    assert.equal(isDemo(pl.concat([demo.lazy(), plain.lazy()]).collectSync()), false);
    // a column's own methods hand out unmarked columns
    assert.ok(isDemo(demo.getColumn("v")));
    assert.equal(isDemo(demo.getColumn("v").slice(0, 1)), false);
    // wrapping a frame made elsewhere gives it the rules above
    assert.ok(isDemo(withDisplay(plain).vstack(demo)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
