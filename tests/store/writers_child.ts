/**
 * Child process for the concurrent-writer tests. Usage:
 *
 * - `writers_child.ts <scenario> <role> <base> <trials>`: for each trial i,
 *   waits at a barrier with the other role (files in `<base>`), then writes
 *   into `<base>/t<i>` as the scenario says (`append`, `overwrite-replace`,
 *   `replace`, `sync`); prints "done".
 * - `writers_child.ts hold <dir>`: takes the dataset lock of `<dir>`,
 *   prints "locked" and waits to be killed.
 */
import { sync, writeDataset } from "../../mod.ts";
import { offline } from "../_util.ts";
import { lockDataset } from "../../lib/store/lock.ts";
import { modeFrame } from "./write_frames.ts";
import { ROWS, scenarioWrite, SYNC_RANGE, SYNC_STUB } from "./writers_scenarios.ts";

const [scenario, role, base, trials] = Deno.args;

if (scenario === "hold") {
  await lockDataset([role], { caller: "test-holder" });
  console.log("locked");
  setInterval(() => {}, 60_000); // until killed
  await new Promise(() => {});
}

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

async function barrier(i: number): Promise<void> {
  await Deno.writeTextFile(`${base}/t${i}.ready.${role}`, "");
  const other = role === "a" ? "b" : "a";
  const deadline = Date.now() + 120_000;
  while (!(await exists(`${base}/t${i}.ready.${other}`))) {
    if (Date.now() > deadline) throw new Error(`writer ${other} never reached trial ${i}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const clients = scenario === "sync" ? await offline(SYNC_STUB) : undefined;

for (let i = 0; i < Number(trials); i++) {
  const dir = `${base}/t${i}`;
  if (scenario === "sync") {
    await barrier(i);
    // b starts while a is writing months (on main, b's start-up cleanup deleted a's temp files)
    if (role === "b") await new Promise((r) => setTimeout(r, 100 + (i * 97) % 600));
    await sync({
      dir,
      ...SYNC_RANGE,
      insider: clients!.insider,
      catalog: clients!.catalog,
      concurrency: 2,
      progress: false,
    });
    continue;
  }
  const w = scenarioWrite(scenario, role);
  const df = modeFrame(role, w.parts, ROWS, w.first);
  await barrier(i);
  await writeDataset(w.reverse ? df.reverse() : df, dir, { partitionBy: ["k"], mode: w.mode });
}
console.log("done");
