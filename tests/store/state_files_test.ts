/**
 * State files that explain themselves: every hand edit of `manifest.json`
 * or `_signalbook.json` that cannot be read (bad JSON, `null`, `[]`, a null
 * or missing field, a foreign `format`, a `syncedTo` in the future) is a
 * `StateFileError` naming the file and the field; `scan*` and `query()`
 * raise the same typed error for a bad `_signalbook.json` (a `QueryError`
 * too, so everything `query()` raises stays one); nothing is written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  query,
  QueryError,
  readManifest,
  scanDataset,
  scanInsiderTrades,
  StateFileError,
  sync,
} from "../../mod.ts";
import { offline } from "../_util.ts";

const { insider } = await offline({ seed: 3, scale: 0.05 });
const range = { from: "2024-06-01", to: "2024-08-31", progress: false };

/** A good manifest with one change. */
function manifestWith(edit: (m: Record<string, unknown>) => unknown, good: string): string {
  const m = JSON.parse(good);
  const out = edit(m);
  return JSON.stringify(out === undefined ? m : out);
}

Deno.test("manifest.json: each bad edit is a StateFileError naming the file and the field; sync writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  await sync({ dir, insider, ...range });
  const file = join(dir, "manifest.json");
  const good = await Deno.readTextFile(file);
  type M = { datasets: { insider_trades: Record<string, unknown> | null } };
  const cases: [string, string, RegExp][] = [
    ["{ not json", "(file)", /is not valid JSON/],
    ["null", "(file)", /is null; expected an object/],
    ["[]", "(file)", /is \[\]; expected an object/],
    ['"text"', "(file)", /is "text"/],
    [manifestWith((m) => void (m.datasets = null), good), "datasets", /field datasets is null/],
    [manifestWith((m) => void (m.datasets = []), good), "datasets", /field datasets is \[\]/],
    [manifestWith((m) => void delete m.datasets, good), "datasets", /field datasets is missing/],
    [
      manifestWith((m) => void (m.format = "other-tool/3"), good),
      "format",
      /field format is "other-tool\/3"; expected "signalbook-sync\/1"/,
    ],
    [
      manifestWith((m) => void ((m as M).datasets.insider_trades!.syncedTo = "2999-12-31"), good),
      "datasets.insider_trades.syncedTo",
      /"2999-12-31", in the future/,
    ],
    [
      manifestWith((m) => void ((m as M).datasets.insider_trades!.syncedTo = null), good),
      "datasets.insider_trades.syncedTo",
      /is null; expected a YYYY-MM-DD date/,
    ],
    [
      manifestWith((m) => void ((m as M).datasets.insider_trades = null), good),
      "datasets.insider_trades",
      /is null/,
    ],
    [
      manifestWith(
        (m) => void ((m as M).datasets.insider_trades!.done = { "2024-06": "many" }),
        good,
      ),
      "datasets.insider_trades.done.2024-06",
      /is "many"; expected a row count/,
    ],
    [
      manifestWith((m) => void delete (m as M).datasets.insider_trades!.run, good),
      "datasets.insider_trades.run",
      /is missing/,
    ],
    [
      manifestWith(
        (m) => void ((m as M).datasets.insider_trades!.sources = [{ kind: "demo" }]),
        good,
      ),
      "datasets.insider_trades.sources[0].kind",
      /is "demo"; expected "emulator" or "live"/,
    ],
  ];
  for (const [text, field, problem] of cases) {
    await Deno.writeTextFile(file, text);
    for (
      const e of [
        await readManifest(dir).catch((e) => e),
        await sync({ dir, insider, ...range }).catch((e) => e),
      ]
    ) {
      assert.ok(e instanceof StateFileError, `${text.slice(0, 40)}: ${e}`);
      assert.equal(e.file, file);
      assert.equal(e.field, field, text.slice(0, 80));
      assert.ok(e.message.startsWith(file), e.message);
      assert.match(e.message, problem);
    }
    assert.equal(await Deno.readTextFile(file), text, "sync left the file as it was");
  }
  // a sync to a day after today records today at most: its next run still reads the days to come
  await Deno.writeTextFile(file, good);
  const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  await sync({ dir, insider, ...range, to: later });
  const synced = (await readManifest(dir)).datasets.insider_trades!.syncedTo!;
  assert.equal(synced, new Date().toISOString().slice(0, 10));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("_signalbook.json: scan* and query() raise the same StateFileError (a QueryError) naming the file and the field", async () => {
  const dir = await Deno.makeTempDir();
  await sync({ dir, insider, ...range });
  const file = join(dir, "insider_trades", "_signalbook.json");
  const good = JSON.parse(await Deno.readTextFile(file));
  const cases: [unknown, string, RegExp][] = [
    ["{ broken", "(file)", /is not valid JSON/],
    [null, "(file)", /is null/],
    [[], "(file)", /is \[\]/],
    [
      { ...good, format: "delta-lake/2" },
      "format",
      /"delta-lake\/2"; expected "signalbook-hive-parquet\/1"/,
    ],
    [{ ...good, partitions: null }, "partitions", /is null; expected a list/],
    [{ ...good, partitions: [{ name: "year" }] }, "partitions[0].dtype", /is missing/],
    [{ ...good, partitions: [null] }, "partitions[0]", /is null/],
    [{ ...good, sources: {} }, "sources", /is \{\}; expected a list of sources/],
    [
      { ...good, sources: [{ ...good.sources[0], first: "yesterday" }] },
      "sources[0].first",
      /ISO 8601/,
    ],
  ];
  for (const [value, field, problem] of cases) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    await Deno.writeTextFile(file, text);
    const errors = [
      await scanInsiderTrades(dir).catch((e) => e),
      await scanDataset(join(dir, "insider_trades")).catch((e) => e),
      await query("select count(*) from insider_trades", { dir }).catch((e) => e),
      await sync({ dir, insider, ...range }).catch((e) => e),
    ];
    for (const e of errors) {
      assert.ok(e instanceof StateFileError, `${text.slice(0, 40)}: ${e}`);
      assert.ok(e instanceof QueryError);
      assert.equal(e.file, file);
      assert.equal(e.field, field);
      assert.match(e.message, problem);
    }
    assert.equal(errors[2].sql, "select count(*) from insider_trades", "query()'s carries its SQL");
    assert.equal(errors[0].message, errors[1].message);
    assert.equal(errors[0].message, errors[2].message, "scan and query say the same");
    assert.equal(await Deno.readTextFile(file), text);
  }
  await Deno.writeTextFile(file, JSON.stringify(good));
  assert.ok((await scanInsiderTrades(dir)).collectSync().height > 0);
  await Deno.remove(dir, { recursive: true });
});
