/**
 * One writer per dataset, enforced: two processes writing one dataset at the
 * same moment (two appends, overwrite + replace, two replacing writers, two
 * syncs) end exactly as if they had run one after the other, in every
 * trial; a held lock is a clear error naming the dataset and the holder; a
 * killed holder's lock is recovered; temp cleanup spares live writers.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  DatasetLockedError,
  type InsiderClient,
  scanDataset,
  scanInsiderTrades,
  scanPitches,
  sync,
  writeDataset,
} from "../../mod.ts";
import { offline } from "../_util.ts";
import { _useKernelLocks, LOCK_FILE } from "../../lib/store/lock.ts";
import { modeFrame } from "./write_frames.ts";
import {
  OLD_PARTS,
  ROWS,
  serialOutcomes,
  startsOld,
  SYNC_RANGE,
  SYNC_STUB,
} from "./writers_scenarios.ts";

const TRIALS = 10;
const child = (...args: string[]) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(import.meta.dirname!, "writers_child.ts"), ...args],
    stdout: "piped",
    stderr: "piped",
  });

/** Partition → the versions in it, one entry per `ROWS` rows, sorted. */
async function versions(dir: string): Promise<Record<string, string[]>> {
  const df = (await scanDataset(dir)).groupBy(["k", "version"]).agg(pl.len().alias("n"))
    .sort(["k", "version"]).collectSync();
  const out: Record<string, string[]> = {};
  for (const r of df.toRecords()) {
    const n = Number(r.n);
    assert.equal(n % ROWS, 0, `${r.k}/${r.version}: ${n} rows is not a whole frame's share`);
    for (let i = 0; i < n / ROWS; i++) (out[String(r.k)] ??= []).push(String(r.version));
  }
  return out;
}

/** Runs both writers of `scenario` over `TRIALS` trials; returns the trial folders. */
async function race(scenario: string, setup?: (dir: string) => Promise<void>): Promise<string[]> {
  const base = await Deno.makeTempDir();
  const dirs = Array.from({ length: TRIALS }, (_, i) => join(base, `t${i}`));
  for (const d of dirs) await setup?.(d);
  const outs = await Promise.all(
    ["a", "b"].map((role) => child(scenario, role, base, String(TRIALS)).output()),
  );
  for (const o of outs) {
    const err = new TextDecoder().decode(o.stderr);
    assert.equal(o.code, 0, `${scenario} writer failed: ${err}`);
    assert.match(new TextDecoder().decode(o.stdout), /done/);
  }
  return dirs;
}

const old = (dir: string) =>
  writeDataset(modeFrame("old", OLD_PARTS, ROWS), dir, { partitionBy: ["k"] }).then(() => {});

for (const scenario of ["append", "overwrite-replace", "replace"]) {
  Deno.test(`two processes, ${scenario}: every one of ${TRIALS} trials ends as a serial run would, no rows lost or mixed`, async () => {
    const allowed = serialOutcomes(scenario).map((o) => JSON.stringify(o));
    const dirs = await race(scenario, startsOld(scenario) ? old : undefined);
    for (const dir of dirs) {
      const got = JSON.stringify(await versions(dir));
      assert.ok(allowed.includes(got), `${dir}: ${got} is none of ${allowed.join(" or ")}`);
      const leftovers = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
      assert.ok(!leftovers.includes(LOCK_FILE), "the lock file goes with its holder");
    }
  });
}

Deno.test(`two processes syncing one folder: ${TRIALS} of ${TRIALS} trials end with exactly one sync's rows`, async () => {
  const { insider, catalog } = await offline(SYNC_STUB);
  const ref = await Deno.makeTempDir();
  await sync({ dir: ref, ...SYNC_RANGE, insider, catalog, progress: false });
  const keyed = async (dir: string) => {
    const t = (await scanInsiderTrades(dir)).select("accession_number", "transaction_id")
      .sort(["accession_number", "transaction_id"]).collectSync();
    const p = (await scanPitches(dir)).select("pitch_id").sort("pitch_id").collectSync();
    return { t, p };
  };
  const want = await keyed(ref);
  assert.ok(want.t.height > 100 && want.p.height > 10, `${want.t.height} ${want.p.height}`);
  for (const dir of await race("sync")) {
    const got = await keyed(dir);
    assert.ok(got.t.frameEqual(want.t), `${dir}: ${got.t.height} trades, want ${want.t.height}`);
    assert.ok(got.p.frameEqual(want.p), `${dir}: ${got.p.height} pitches, want ${want.p.height}`);
  }
});

async function holdLock(dir: string) {
  const proc = child("hold", dir, "").spawn();
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("locked")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the holder exited: ${out}`);
    out += value;
  }
  return {
    pid: proc.pid,
    kill: async () => {
      proc.kill("SIGKILL");
      assert.equal((await proc.status).signal, "SIGKILL");
      reader.releaseLock();
      await proc.stdout.cancel().catch(() => {});
      await proc.stderr.cancel();
    },
  };
}

Deno.test("a held lock is a DatasetLockedError naming the dataset and holder; a killed holder's lock is recovered", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await writeDataset(modeFrame("old", 2, 10), dir, { partitionBy: ["k"] });
  const holder = await holdLock(dir);
  for (const lockTimeoutMs of [0, 300]) {
    await assert.rejects(
      writeDataset(modeFrame("new", 2, 10), dir, { partitionBy: ["k"], lockTimeoutMs }),
      (e: unknown) => {
        assert.ok(e instanceof DatasetLockedError);
        assert.equal(e.dir, dir);
        assert.equal(e.holder?.pid, holder.pid);
        assert.equal(e.holder?.by, "test-holder");
        assert.ok(e.waitedMs >= lockTimeoutMs);
        assert.ok(
          e.message.startsWith(
            `writeDataset: ${dir} is locked by another writer (test-holder, pid ${holder.pid} on this host, since `,
          ),
          e.message,
        );
        return true;
      },
    );
  }
  // sync names the folder it could not lock
  const root = join(dir, "..");
  const other = await holdLock(root);
  await assert.rejects(
    sync({ dir: root, insider: {} as InsiderClient, lockTimeoutMs: 0, progress: false }),
    new RegExp(
      `^DatasetLockedError: sync: ${root} is locked by another writer \\(test-holder, pid ${other.pid}`,
    ),
  );
  await other.kill();
  await holder.kill();
  // the holder is gone: its lock is taken over at once, and the write goes through
  await writeDataset(modeFrame("new", 2, 10), dir, { partitionBy: ["k"], lockTimeoutMs: 0 });
  const df = (await scanDataset(dir)).collectSync();
  assert.deepEqual(df.getColumn("version").unique().toArray(), ["new"]);
  const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
  assert.ok(!names.includes(LOCK_FILE), names.join(", "));
});

Deno.test("without kernel locks (NFS without a lock daemon) a write goes ahead unlocked, said once", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await writeDataset(modeFrame("old", 2, 10), dir, { partitionBy: ["k"] });
  const holder = await holdLock(dir);
  const said: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => void said.push(a.join(" "));
  _useKernelLocks(false);
  try {
    for (const v of ["new", "newer"]) {
      await writeDataset(modeFrame(v, 2, 10), dir, { partitionBy: ["k"], lockTimeoutMs: 0 });
    }
  } finally {
    _useKernelLocks(true);
    console.error = error;
    await holder.kill();
  }
  const df = (await scanDataset(dir)).collectSync();
  assert.deepEqual(df.getColumn("version").unique().toArray(), ["newer"]);
  assert.equal(said.length, 1, said.join("\n"));
  assert.match(said[0], new RegExp(`^writeDataset: the filesystem of ${dir} has no file locks`));
});

Deno.test("bad lockTimeoutMs names the value", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await assert.rejects(
    writeDataset(modeFrame("a", 1, 1), dir, { partitionBy: ["k"], lockTimeoutMs: -1 }),
    /writeDataset: lockTimeoutMs -1 is not allowed; allowed: 0 or more milliseconds/,
  );
});

Deno.test("in one process, concurrent writeDataset calls take turns: both appends are kept", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await Promise.all(
    ["a", "b", "c"].map((v) =>
      writeDataset(modeFrame(v, 3, ROWS), dir, { partitionBy: ["k"], mode: "append" })
    ),
  );
  const got = await versions(dir);
  assert.deepEqual(Object.keys(got), ["p00", "p01", "p02"]);
  for (const vs of Object.values(got)) assert.deepEqual(vs, ["a", "b", "c"]);
});

Deno.test("temp cleanup removes only stale temporary files: a live writer's stay", async () => {
  const dir = join(await Deno.makeTempDir(), "ds");
  await writeDataset(modeFrame("a", 2, 10), dir, { partitionBy: ["k"] });
  const part = join(dir, "k=p00");
  const gone = new Deno.Command(Deno.execPath(), { args: ["eval", "0"] }).spawn();
  const deadPid = gone.pid;
  await gone.status;
  const uuid = () => crypto.randomUUID();
  const temps = {
    live: join(part, `data.parquet.${Deno.pid}.${uuid()}.tmp`),
    dead: join(part, `data.parquet.${deadPid}.${uuid()}.tmp`),
    oldUnowned: join(part, `data.parquet.${uuid()}.tmp`),
    freshUnowned: join(part, `data.parquet.${uuid()}.tmp`),
    rootDead: join(dir, `_signalbook.json.${deadPid}.${uuid()}.tmp`),
  };
  for (const f of Object.values(temps)) await Deno.writeTextFile(f, "partial");
  const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
  await Deno.utime(temps.oldUnowned, elevenMinutesAgo, elevenMinutesAgo);
  await writeDataset(modeFrame("b", 1, 10, 1), dir, { partitionBy: ["k"] });
  const left = async () => {
    const out: string[] = [];
    for (const [name, f] of Object.entries(temps)) {
      if (await Deno.stat(f).then(() => true, () => false)) out.push(name);
    }
    return out;
  };
  assert.deepEqual(await left(), ["live", "freshUnowned"]);
  // sync cleans the same way: the synced root's own temps, each dataset's tree
  const root = await Deno.makeTempDir();
  const ds = join(root, "insider_trades", "year=2026", "month=1");
  await Deno.mkdir(ds, { recursive: true });
  const live = join(ds, `data.parquet.${Deno.pid}.${uuid()}.tmp`);
  const dead = join(ds, `data.parquet.${deadPid}.${uuid()}.tmp`);
  const deadRoot = join(root, `manifest.json.${deadPid}.${uuid()}.tmp`);
  for (const f of [live, dead, deadRoot]) await Deno.writeTextFile(f, "partial");
  const { insider } = await offline({ seed: 2, scale: 0.02 });
  await sync({ dir: root, from: "2026-10-01", to: "2026-10-31", insider, progress: false });
  const exists = (f: string) => Deno.stat(f).then(() => true, () => false);
  assert.deepEqual(await Promise.all([live, dead, deadRoot].map(exists)), [true, false, false]);
});
