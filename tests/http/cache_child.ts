/** Child of the concurrent-cache test: the same GETs (up to 12 pages), three times, through one cache folder (Deno.args[0]). */
import { CatalogClient } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 5, scale: 0.05 });
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://s/catalog",
  fetch: stub.fetch,
  cache: { dir: Deno.args[0] },
});
let pages: number[] = [];
for (let round = 0; round < 3; round++) {
  pages = [];
  for await (const page of catalog.pitches({ limit: 20 }, { prefetch: false }).pages()) {
    pages.push(page.rows.length);
    if (pages.length === 12) break;
  }
}
console.log(pages.length);
