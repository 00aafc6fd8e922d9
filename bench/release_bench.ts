/**
 * Why `releaseNativeNow` waits for the event loop (lib/frames/_release.ts):
 * six synchronous `filter`s of the demo world's transactions frame, a
 * collection after each, with and without one event-loop turn after the
 * collection; each variant in its own process. Prints RSS before and after.
 *
 * @module
 */
import { childEnv } from "./_table.ts";
import { runChild } from "./_child.ts";

/** Runs both variants; returns the printed lines. */
export async function releaseBench(): Promise<string> {
  const env = childEnv(`${Deno.env.get("HOME")}/.cache`);
  const lines = ["native memory of dead frames (6 filters, a collection after each)"];
  for (const mode of ["no-turn", "turn"]) {
    const r = await runChild<{ rows: number; cols: number; before: number; after: number }>(
      "./release_child.ts",
      [mode],
      "release bench failed",
      [],
      env,
    );
    lines.push(
      `  ${
        mode === "turn" ? "with an event-loop turn " : "collection only         "
      }: ${r.rows} × ${r.cols} frame, RSS ${r.before.toFixed(0)} → ${r.after.toFixed(0)} MiB`,
    );
  }
  return lines.join("\n");
}

if (import.meta.main) console.log(await releaseBench());
