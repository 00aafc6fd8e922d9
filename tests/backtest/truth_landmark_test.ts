/**
 * The emulator's truth covers every effect it builds into prices (issue
 * 32): the ten-bagger landmark (one biotech re-rated 15× over 100 days) is
 * in `World.effect` and so in `stub.truth`; the re-rated biotech is picked
 * on a parameter drawn before its path, so nothing selects its noise; the
 * prices and rows are pinned by digest.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createStub } from "../../lib/stub/mod.ts";
import { TEN_BAGGER } from "../../lib/stub/world.ts";

const stub = createStub({ seed: 7, scale: 0.2 });
const { world, truth } = stub;
// the re-rated issuer: the one company whose effect differs from its insiders' signals
const landmark = world.companies.findIndex((c) =>
  Math.abs(world.effect(c.idx, world.asOf) - world.abnormal(c.idx, world.asOf)) > 1e-12
);

Deno.test("truth: the landmark's run-up is in World.effect, exactly as in the price path", () => {
  assert.ok(landmark >= 0, "every world has the ten-bagger");
  const lift = world.effect(landmark, world.asOf) - world.abnormal(landmark, world.asOf);
  assert.ok(Math.abs(lift - Math.log(TEN_BAGGER.multiple)) < 1e-12, `${lift}`);
  const start = world.asOf - TEN_BAGGER.daysBeforeAsOf;
  // before the run-up no lift, half-way half of it (in log), after it all of it
  const liftAt = (d: number) => world.effect(landmark, d) - world.abnormal(landmark, d);
  assert.equal(liftAt(start), 0);
  assert.ok(Math.abs(liftAt(start + 50) - Math.log(TEN_BAGGER.multiple) / 2) < 1e-12);
  for (const c of world.companies) {
    if (c.idx !== landmark) assert.equal(world.effect(c.idx, 1e9), world.abnormal(c.idx, 1e9));
  }
});

Deno.test("truth: trades of the landmark issuer before the run-up expect its ~14-fold gain", () => {
  const start = world.asOf - TEN_BAGGER.daysBeforeAsOf;
  const before = stub.insider.trades.filter((t) =>
    t.company === landmark && t.day < start && t.day + 365 > start + TEN_BAGGER.days &&
    t.row.excess_returns_1y !== null
  );
  assert.ok(before.length > 0, "the landmark issuer has trades before the run-up");
  for (const t of before) {
    const e = truth.expected(t.row, "1y")!;
    // 100 · E[market growth] · (15 · e^(signals) − 1): several hundred percent, as realized
    assert.ok(e > 900, `expected ${e}`);
    assert.ok(
      Math.abs(t.row.excess_returns_1y! - e) < 0.8 * e,
      `${t.row.excess_returns_1y} vs ${e}`,
    );
  }
});

Deno.test("the ten-bagger is never picked on its path: the biotech with the lowest idiosyncratic volatility", () => {
  for (const seed of [1, 2, 3, 7, 11]) {
    const s = createStub({ seed, scale: 0.2 });
    const w = s.world;
    const cap = (c: number) => w.price(c, w.firstDay) * w.companies[c].sharesOutstanding;
    const mega = w.companies.reduce((b, c) => cap(c.idx) > cap(b) ? c.idx : b, 0);
    const biotechs = w.companies.filter((c) => c.sector === "biotech" && c.idx !== mega);
    // volatility is drawn before the path: picking on it selects no noise
    const steadiest = biotechs.reduce((a, c) => w.idioVol(c.idx) < w.idioVol(a.idx) ? c : a).idx;
    const landmark = w.companies.findIndex((c) =>
      Math.abs(w.effect(c.idx, w.asOf) - w.abnormal(c.idx, w.asOf)) > 1e-12
    );
    assert.equal(landmark, steadiest, `seed ${seed}`);
  }
});

Deno.test("truth: the prices and rows are pinned (world cache version 8)", () => {
  // sha-256 of every daily price and every transaction row, re-taken when the ten-bagger's
  // pick left its path (world cache version 8)
  const want: Record<number, string> = {
    1: "4287fcca335a85762b2f37ed736046fe39366e808fd12f4f8f819e3d9103897f",
    7: "f3f9e66c301035ba4f0dce4d38ca69b161b6c1517c244723d540fa5e494d186d",
  };
  for (const seed of [1, 7]) {
    const s = createStub({ seed, scale: 0.2 });
    const h = createHash("sha256");
    const w = s.world;
    for (let c = 0; c < w.companies.length; c++) {
      const a = new Float64Array(w.asOf - w.start + 1);
      for (let d = w.start; d <= w.asOf; d++) a[d - w.start] = w.price(c, d);
      h.update(new Uint8Array(a.buffer));
    }
    h.update(JSON.stringify(s.insider.trades.map((t) => t.row)));
    assert.equal(h.digest("hex"), want[seed], `seed ${seed}`);
  }
});
