/**
 * Why `releaseNativeNow` waits for the event loop (lib/frames/_release.ts):
 * six synchronous `filter`s of the demo world's transactions frame, a
 * collection after each, with and without one event-loop turn after the
 * collection; each variant in its own process. Prints RSS before and after.
 *
 * @module
 */
import { childEnv } from "./_table.ts";

const CHILD = `
import pl from "npm:nodejs-polars@0.25.2";
import { connect } from "${new URL("../mod.ts", import.meta.url).href}";
import { releaseNative } from "${new URL("../lib/frames/_release.ts", import.meta.url).href}";
const turn = Deno.args[0] === "turn";
const { insider } = await connect({ quiet: true });
const df = await insider.search({}).frame({ maxRows: 20000 });
releaseNative();
await new Promise((r) => setTimeout(r, 0));
const mb = () => Deno.memoryUsage().rss / 2 ** 20;
const before = mb();
for (let i = 0; i < 6; i++) {
  df.filter(pl.col("code").eq(pl.lit("P"))).height;
  releaseNative();
  if (turn) await new Promise((r) => setTimeout(r, 0));
}
console.log(JSON.stringify({ rows: df.height, cols: df.width, before, after: mb() }));
`;

/** Runs both variants; returns the printed lines. */
export async function releaseBench(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "sb-release-" });
  try {
    const file = `${dir}/child.ts`;
    await Deno.writeTextFile(file, CHILD);
    const lines = ["native memory of dead frames (6 filters, a collection after each)"];
    for (const mode of ["no-turn", "turn"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", file, mode],
        clearEnv: true,
        env: childEnv(`${Deno.env.get("HOME")}/.cache`),
        stdout: "piped",
        stderr: "null",
      }).output();
      const r = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
      lines.push(
        `  ${
          mode === "turn" ? "with an event-loop turn " : "collection only         "
        }: ${r.rows} × ${r.cols} frame, RSS ${r.before.toFixed(0)} → ${r.after.toFixed(0)} MB`,
      );
    }
    return lines.join("\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) console.log(await releaseBench());
