/** Child process for the crash test: syncs a slow in-process emulator into Deno.args[0]. */
import { CatalogClient, InsiderClient, sync } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 4, scale: 0.1, latencyMs: Number(Deno.args[1] ?? 0) });
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://s/insider",
  fetch: stub.fetch,
});
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://s/catalog",
  fetch: stub.fetch,
});
await sync({
  dir: Deno.args[0],
  from: "2024-01-01",
  to: "2026-11-20",
  insider,
  catalog,
  concurrency: 3,
  progress: false,
});
console.log("done");
