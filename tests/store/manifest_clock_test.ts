import assert from "node:assert/strict";
import { join } from "node:path";
import { readManifest, StateFileError } from "../../mod.ts";

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A manifest of one dataset synced to `syncedTo`. */
async function manifestDir(syncedTo: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  const entry = { done: {}, run: { from: "2024-06-01", to: syncedTo }, syncedTo, sources: [] };
  const manifest = { format: "signalbook-sync/1", datasets: { insider_trades: entry } };
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}

Deno.test("manifest.json: a syncedTo of tomorrow (UTC) reads, for clocks a day apart; the day after is refused", async () => {
  const tomorrow = dayText(Date.now() + 86_400_000);
  const ok = await manifestDir(tomorrow);
  assert.equal((await readManifest(ok)).datasets.insider_trades!.syncedTo, tomorrow);
  const later = dayText(Date.now() + 2 * 86_400_000);
  const bad = await manifestDir(later);
  await assert.rejects(readManifest(bad), (e: unknown) => {
    assert.ok(e instanceof StateFileError);
    assert.match((e as Error).message, /in the future \(the latest allowed is /);
    assert.ok((e as Error).message.includes(tomorrow), "names the latest day allowed");
    return true;
  });
  for (const d of [ok, bad]) await Deno.remove(d, { recursive: true });
});
