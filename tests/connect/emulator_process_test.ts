/**
 * The offline emulator out of a Jupyter kernel: in a kernel (or with
 * `SIGNALBOOK_EMULATOR=process`) `connect()` without keys reaches the
 * default emulator in a process of its own, with the same answers as the
 * in-process one, still marked as demo data, and `stub` made only when read.
 */
import assert from "node:assert/strict";
import { connect } from "../../mod.ts";
import { emulatorInProcess } from "../../lib/connect/_emulator_process.ts";
import { isDemo } from "../../lib/shared/demo.ts";

Deno.test("the emulator runs in process outside a kernel, in its own process inside one; the setting wins", () => {
  assert.equal(emulatorInProcess(false, undefined), true);
  assert.equal(emulatorInProcess(true, undefined), false);
  assert.equal(emulatorInProcess(true, "in-process"), true);
  assert.equal(emulatorInProcess(false, "process"), false);
});

Deno.test({
  name: "SIGNALBOOK_EMULATOR=process: the same rows and pitches as in process, marked demo",
  // the emulator process lives as long as this one (it exits when its stdin closes)
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const apart = await connect({ quiet: true, env: { SIGNALBOOK_EMULATOR: "process" } });
    const inside = await connect({ quiet: true, env: { SIGNALBOOK_EMULATOR: "in-process" } });
    assert.deepEqual(apart.offline, { catalog: true, insider: true });
    assert.equal(apart.offlineToday, inside.offlineToday);
    const a = await apart.insider.search({}, { pageSize: 25 }).take(60);
    const b = await inside.insider.search({}, { pageSize: 25 }).take(60);
    assert.deepEqual(a, b);
    const pa = await apart.catalog.pitches({ limit: 5 }).firstPage();
    const pb = await inside.catalog.pitches({ limit: 5 }).firstPage();
    assert.deepEqual(pa.rows, pb.rows);
    const frame = await apart.insider.search({}).frame({ maxRows: 10, progress: false });
    assert.equal(isDemo(frame), true);
    assert.equal(
      isDemo(await inside.insider.search({}).frame({ maxRows: 10, progress: false })),
      true,
    );
    // the truth is the in-process emulator's, made when asked for
    assert.equal(apart.stub?.world.seed, inside.stub?.world.seed);
  },
});
