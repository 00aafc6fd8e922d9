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
