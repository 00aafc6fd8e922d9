/**
 * Child of `world_cache_hostile_test.ts`: opens a world the way a notebook
 * does, in its own process, and prints one JSON line of what it served.
 *
 * `deno run -A _world_child.ts createStub <dir> <seed> <scale>`: the world in
 * `dir`. Prints its number of trades and digests of every row, every
 * issuer's last price and the catalog's pitches (all read, so every block
 * of the file a row needs is read).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createStub } from "../../lib/stub/mod.ts";

const [, dir, seed, scale] = Deno.args;
const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

const stub = createStub({ seed: Number(seed), scale: Number(scale), worldCache: dir });
const w = stub.world;
console.log(JSON.stringify({
  trades: stub.insider.trades.length,
  rows: sha(stub.insider.trades.map((t) => JSON.stringify(t.row)).join("\n")),
  prices: sha(w.companies.map((_, c) => w.price(c, w.asOf)).join(",")),
  catalog: sha(JSON.stringify(stub.catalog.pitches)),
}));
