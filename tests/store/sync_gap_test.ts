/**
 * Early ends a sync can see: a month without a row between months with at
 * least a page each is not recorded as synced (a `PaginationError`,
 * `reason: "empty-month"`, and `syncedTo` stays); a rerun asks for that
 * month alone and believes its answer. A window of the sync's parallel pull
 * that the service ends early (has-more false) while later windows have rows
 * fails the run (`"early-end"`) instead of leaving short months behind a
 * `syncedTo` set to the end.
 */
import assert from "node:assert/strict";
import { InsiderClient, PaginationError, readManifest, sync } from "../../mod.ts";
import { createStub, DEMO_KEYS, type Stub } from "../../lib/stub/mod.ts";
import { easternDate } from "../../lib/insider/_windows.ts";

type Edit = (
  body: { data: { filedAt: string }[]; nextCursor?: unknown; hasMore?: unknown },
) => void;

/** An insider client on the emulator whose search answers go through `edit`. */
function edited(stub: Stub, edit: Edit): InsiderClient {
  return new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: async (input, init) => {
      const res = await stub.fetch(input, init);
      const req = new Request(input, init);
      if (req.method !== "POST" || !res.ok) return res;
      const body = await res.json();
      edit(body);
      return Response.json(body, { headers: res.headers });
    },
  });
}

/** The errors of a failed sync, flattened. */
const errorsOf = (e: unknown) => e instanceof AggregateError ? e.errors : [e];

Deno.test("a month with no rows between months with many is not recorded as synced; a rerun asks for it alone", async () => {
  const stub = createStub({ seed: 4, scale: 0.3 });
  // the service leaves out every trade filed in May 2025 (Eastern Time): 109 to 140 trades a month around it
  const insider = edited(stub, (body) => {
    body.data = body.data.filter((r) => easternDate(r.filedAt)?.slice(0, 7) !== "2025-05");
  });
  const dir = await Deno.makeTempDir();
  const opts = { dir, from: "2025-03-01", to: "2025-07-31", insider, progress: false };
  const e = await sync(opts).catch((e) => e);
  const holes = errorsOf(e).filter((x) => x instanceof PaginationError);
  assert.equal(holes.length, 1, String(e));
  assert.equal(holes[0].reason, "empty-month");
  assert.match(holes[0].message, /no rows for 2025-05, between 2025-04 \(\d+ rows\) and 2025-06/);
  let manifest = await readManifest(dir);
  const entry = manifest.datasets.insider_trades!;
  assert.equal(entry.syncedTo, undefined);
  assert.deepEqual(Object.keys(entry.done).sort(), ["2025-03", "2025-04", "2025-06", "2025-07"]);
  // the rerun asks for May alone; an empty answer then is believed
  const report = await sync(opts);
  assert.equal(report.datasets.insider_trades.months, 1);
  manifest = await readManifest(dir);
  assert.equal(manifest.datasets.insider_trades!.done["2025-05"], 0);
  assert.equal(manifest.datasets.insider_trades!.syncedTo, "2025-07-31");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("one early has-more false in a parallel sync: never a silent hole (early-end, or the rows read whole)", async () => {
  const honest = await sync({
    dir: await Deno.makeTempDir(),
    from: "2025-01-01",
    to: "2025-12-31",
    insider: edited(createStub({ seed: 4, scale: 0.3 }), () => {}),
    progress: false,
  });
  const stub = createStub({ seed: 4, scale: 0.3 });
  let cut = false;
  // the first page holding a trade of 2025-04-10 or later ends there, claiming no more
  const insider = edited(stub, (body) => {
    const i = body.data.findIndex((r) => (easternDate(r.filedAt) ?? "") >= "2025-04-10");
    if (cut || i < 0 || body.data.length < 100) return;
    cut = true;
    body.data = body.data.slice(0, i + 1);
    body.nextCursor = null;
    body.hasMore = false;
  });
  const dir = await Deno.makeTempDir();
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (m: string) => warnings.push(m);
  const e = await sync({ dir, from: "2025-01-01", to: "2025-12-31", insider, progress: false })
    .catch((e) => e)
    .finally(() => (console.warn = warn));
  assert.ok(cut, "the service lied once");
  if (e instanceof Error) {
    // the window it ended early is probed: the pull stops before the hole
    const reasons = errorsOf(e).map((x: unknown) => (x as PaginationError).reason);
    assert.ok(reasons.includes("early-end"), String(e));
    assert.equal((await readManifest(dir)).datasets.insider_trades!.syncedTo, undefined);
  } else {
    // the window split before it read on past its end into the hole: its rows were not those
    // of the window ended early, so it went on serially and read every row (here, the case)
    assert.equal(e.datasets.insider_trades.rows, honest.datasets.insider_trades.rows);
    assert.ok(warnings.some((m) => m.includes("ended a window early")), warnings.join("\n"));
  }
  await Deno.remove(dir, { recursive: true });
});
