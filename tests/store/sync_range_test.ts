/**
 * The range a sync pulls: its first month starts at `from` (not on the
 * 1st), a `to` after today is clamped to today (no request for days to
 * come, nothing recorded for them), and a month that has not ended is
 * written but never recorded as done, so the next sync pulls it again.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import pl from "nodejs-polars";
import { InsiderClient, readManifest, scanInsiderTrades, sync } from "../../mod.ts";
import { syncMonths } from "../../lib/store/sync.ts";
import { easternDate } from "../../lib/insider/_windows.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { captureWarnings } from "../_warnings.ts";

/** An in-process emulator and an insider client that reads it. */
function stubClient(opts: { seed?: number; scale: number }) {
  const stub = createStub(opts);
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  return { stub, insider };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => day(Date.now());

Deno.test("syncMonths: each month's days lie inside the range, the first starts at from", () => {
  const days = fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2031, 0, 1) }).map(day);
  fc.assert(
    fc.property(days, days, days, (a, b, now) => {
      const [from, to] = a <= b ? [a, b] : [b, a];
      const ms = syncMonths(from, to, now);
      assert.equal(ms[0].from, from);
      assert.equal(ms.at(-1)!.to, to);
      for (const [i, m] of ms.entries()) {
        assert.ok(m.from <= m.to && m.from.startsWith(m.month) && m.to.startsWith(m.month));
        if (i > 0) assert.equal(m.from, `${m.month}-01`);
        // ended: pulled whole (not cut by from or to) and its last day is before today
        const last = day(Date.UTC(+m.month.slice(0, 4), +m.month.slice(5, 7), 0));
        const whole = m.from === `${m.month}-01` && m.to === last;
        assert.equal(m.ended, whole && last < now, `${m.month} ended by ${now}`);
      }
    }),
  );
});

Deno.test("a sync's first month starts at from: no row filed before it is stored", async () => {
  const { stub, insider } = stubClient({ seed: 4, scale: 0.1 });
  const dir = await Deno.makeTempDir();
  try {
    await sync({ dir, from: "2025-06-15", to: "2025-07-31", insider, progress: false });
    const filed = (await scanInsiderTrades(dir)).select(pl.col("filed_at")).collectSync()
      .getColumn("filed_at").toArray().map((d) =>
        easternDate((d as unknown as Date).toISOString())!
      );
    const want = stub.insider.trades.map((t) => easternDate(t.row.filed_at)!)
      .filter((d) => d >= "2025-06-15" && d <= "2025-07-31");
    const before = stub.insider.trades.filter((t) => {
      const d = easternDate(t.row.filed_at)!;
      return d >= "2025-06-01" && d < "2025-06-15";
    });
    assert.ok(before.length > 0, "the world has trades on June 1-14 that must stay out");
    assert.equal(filed.filter((d) => d < "2025-06-15").length, 0);
    assert.equal(filed.length, want.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const ahead of [40, 365 * 8000]) {
  Deno.test(`a to ${ahead} days ahead is clamped to today; the month not yet ended is not done`, async () => {
    const stub = createStub({ seed: 4, scale: 0.02 });
    // days to come would be asked for (the windows of 8,000 years): stopped at the 200th request
    const requests = { n: 0 };
    const insider = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://s/insider",
      fetch: (i, init) =>
        ++requests.n > 200
          ? Promise.reject(new Error("a request for days to come"))
          : stub.fetch(i, init),
      maxRetries: 0,
    });
    const dir = await Deno.makeTempDir();
    try {
      const from = day(Date.now() - 70 * 86_400_000);
      const to = day(Math.min(Date.now() + ahead * 86_400_000, Date.UTC(9999, 11, 31)));
      const r = await sync({ dir, from, to, insider, progress: false });
      assert.ok(requests.n <= 200, `${requests.n} requests`);
      const now = today();
      assert.equal(r.datasets.insider_trades.to, now);
      const entry = (await readManifest(dir)).datasets.insider_trades!;
      assert.equal(entry.run.to, now);
      assert.equal(entry.syncedTo, now);
      const months = Object.keys(entry.done);
      assert.ok(months.length >= 1, "the ended months are done");
      assert.ok(!months.includes(now.slice(0, 7)), `${now.slice(0, 7)} has not ended: not done`);
      assert.ok(months.every((m) => m < now.slice(0, 7)));
      // the next sync pulls this month again (it is not skipped as done)
      const again = await sync({ dir, to: now, insider, overlapDays: 0, progress: false });
      assert.equal(again.datasets.insider_trades.months, 1);
      assert.equal(again.datasets.insider_trades.skipped, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a from after the clamped to is refused naming both days", async () => {
  const { insider } = stubClient({ scale: 0.02 });
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      sync({ dir, from: "9000-01-01", to: "9999-12-31", insider, progress: false }),
      (e: Error) =>
        e instanceof RangeError && e.message.includes("from 9000-01-01 is after today " + today()),
    );
    await assert.rejects(
      sync({ dir, from: "2025-03-02", to: "2025-03-01", insider, progress: false }),
      /from 2025-03-02 is after to 2025-03-01/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a month cut by from or to is written but not done; the next sync completes it", async () => {
  const { stub, insider } = stubClient({ seed: 4, scale: 0.02 });
  const dir = await Deno.makeTempDir();
  try {
    // as the CLI does offline: to is the emulator's today, before the month's end
    await sync({ dir, from: "2025-06-15", to: "2025-08-10", insider, progress: false });
    const entry = (await readManifest(dir)).datasets.insider_trades!;
    assert.deepEqual(Object.keys(entry.done), ["2025-07"]);
    await sync({ dir, to: "2025-08-31", insider, progress: false });
    const rows = (await scanInsiderTrades(dir)).collectSync().height;
    const want = stub.insider.trades.filter((t) => {
      const d = easternDate(t.row.filed_at)!;
      return d >= "2025-06-15" && d <= "2025-08-31";
    });
    assert.equal(rows, want.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a later sync given an earlier from continues where the last ended, and says so", async () => {
  const { insider } = stubClient({ seed: 4, scale: 0.02 });
  const dir = await Deno.makeTempDir();
  try {
    await sync({ dir, from: "2025-07-01", to: "2025-08-10", insider, progress: false });
    using warned = captureWarnings();
    const report = await sync({
      dir,
      from: "2024-01-01",
      to: "2025-08-20",
      insider,
      progress: false,
    });
    assert.equal(report.datasets.insider_trades!.from, "2025-08-03");
    assert.deepEqual(warned.lines, [
      "signalbook: sync: insider_trades was synced up to 2025-08-10 and continues from 2025-08-03; " +
      "from 2024-01-01 applies to a first sync only (sync into a new folder for earlier days)",
    ]);
    // a later from (or none) is no surprise: nothing said
    warned.lines.length = 0;
    await sync({ dir, from: "2025-08-19", to: "2025-08-20", insider, progress: false });
    await sync({ dir, to: "2025-08-20", insider, progress: false });
    assert.deepEqual(warned.lines, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
