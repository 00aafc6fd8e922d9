/**
 * nodejs-polars is evaluated at the first frame, not at import
 * (`lib/frames/_polars.ts`, issue 53 point 1): a fresh process imports
 * mod.ts, connects to the embedded emulator and takes 10 rows, and the
 * native addon of nodejs-polars is not in its memory map; the first
 * `.frame()` loads it, and the frame carries the demo mark (the trace is
 * installed before the frame is built).
 */
import assert from "node:assert/strict";

const CHILD = `
const polarsMapped = () => Deno.readTextFileSync("/proc/self/maps").includes("nodejs-polars");
const { connect, isDemo } = await import(${
  JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
});
const sb = await connect({ quiet: true });
const rows = await sb.insider.search({}).take(10);
const afterRows = polarsMapped();
const df = await sb.insider.search({}).frame({ maxRows: 200 });
console.log(JSON.stringify({ rows: rows.length, afterRows, afterFrame: polarsMapped(), height: df.height, demo: isDemo(df), derivedDemo: isDemo(df.head(3)) }));
`;

Deno.test("importing signalbook and taking rows leaves nodejs-polars unevaluated; the first frame loads it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", CHILD],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const got = JSON.parse(text.trim().split("\n").at(-1)!);
  assert.equal(got.rows, 10);
  assert.equal(got.afterRows, false, "nodejs-polars' addon mapped after 10 rows");
  assert.equal(got.afterFrame, true, "the frame loads nodejs-polars");
  assert.ok(got.height > 0);
  assert.equal(got.demo, true, "the frame is demo data");
  assert.equal(got.derivedDemo, true, "a frame derived by Polars keeps the mark (the trace is on)");
});

/** A child: your own nodejs-polars, then demo rows made a frame with it before any signalbook frame. */
const OWN_POLARS = (how: "imported first" | "displayed") => `
${how === "imported first" ? 'import pl0 from "npm:nodejs-polars@0.25.2";' : ""}
const { connect, isDemo, MixedSourcesError, polarsDisplay, writeDataset } = await import(${
  JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
});
const sb = await connect({ quiet: true });
const rows = await sb.insider.search({}).take(10);
${how === "displayed" ? 'polarsDisplay("signalbook");' : ""}
const pl = ${
  how === "imported first" ? "pl0" : '(await import("npm:nodejs-polars@0.25.2")).default'
};
const mine = pl.DataFrame(rows); // no signalbook frame yet
const dir = await Deno.makeTempDir();
const y = (df) => df.head(1).select(pl.lit("x").alias("k"), pl.lit(2025).cast(pl.Int64).alias("y"));
await writeDataset(y(pl.DataFrame({ a: [1] })), dir + "/live", { partitionBy: ["y"] });
const e = await writeDataset(y(mine), dir + "/live", { partitionBy: ["y"], mode: "append" }).catch((e) => e);
await Deno.remove(dir, { recursive: true });
console.log(JSON.stringify({ rows: isDemo(rows), mine: isDemo(mine), refused: e instanceof MixedSourcesError }));
`;

for (const how of ["imported first", "displayed"] as const) {
  Deno.test(`nodejs-polars ${how}: pl.DataFrame(demo rows) before any signalbook frame is demo data, refused into a live dataset`, async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-check", OWN_POLARS(how)],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const got = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
    assert.deepEqual(got, { rows: true, mine: true, refused: true });
  });
}
