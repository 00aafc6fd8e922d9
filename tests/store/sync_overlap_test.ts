/**
 * A later sync starts at the last sync's end minus the overlap window,
 * 7 days when `overlapDays` is not given (sync.ts: late filings and
 * corrections are read again).
 */
import assert from "node:assert/strict";
import { InsiderClient, readManifest, sync } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

Deno.test("a later sync without overlapDays asks from 7 days before the last sync's end", async () => {
  const stub = createStub({ seed: 4, scale: 0.02 });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  const dir = await Deno.makeTempDir();
  try {
    await sync({ dir, from: "2025-06-01", to: "2025-06-30", insider, progress: false });
    assert.equal((await readManifest(dir)).datasets.insider_trades!.syncedTo, "2025-06-30");
    const r = await sync({ dir, to: "2025-07-31", insider, progress: false });
    assert.equal(r.datasets.insider_trades.from, "2025-06-23");
    assert.equal((await readManifest(dir)).datasets.insider_trades!.run.from, "2025-06-23");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
