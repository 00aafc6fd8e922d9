import assert from "node:assert/strict";
import { connect } from "../mod.ts";

const noKeys = () => undefined;

Deno.test("connect: both offline services share one emulator", async () => {
  const c = await connect({ env: noKeys, quiet: true, stub: { seed: 7, scale: 0.1 } });
  assert.ok(c.stub);
  const d = await connect({ env: noKeys, quiet: true });
  assert.ok(d.stub);
  // custom options make a private emulator; they do not leak into later connect() calls
  assert.notEqual(c.stub, d.stub);
  const e = await connect({ env: noKeys, quiet: true });
  assert.equal(d.stub, e.stub, "without options, one emulator per process");
  assert.match(c.offlineToday ?? "", /^\d{4}-\d{2}-\d{2}$/);
  // the emulator's as-of day (a day number) as a UTC date
  assert.equal(Date.parse(`${c.offlineToday}T00:00:00Z`), c.stub.world.asOf * 86_400_000);
});

Deno.test("connect: custom emulator options apply to both services of that call only", async () => {
  const small = await connect({ env: noKeys, quiet: true, stub: { seed: 7, scale: 0.1 } });
  const n = small.stub!.insider.trades.length;
  const def = await connect({ env: noKeys, quiet: true });
  assert.notEqual(def.stub!.insider.trades.length, n);
  // both clients of the small connection read the same small world
  const hits = await small.insider.search({}).take(1);
  assert.equal(hits.length, 1);
});
