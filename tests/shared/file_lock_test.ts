/**
 * The one file lock (lib/shared/file_lock.ts) that the store's dataset lock
 * and the emulator's world-generation lock share: one holder at a time,
 * released on dispose, the waits bounded, the pauses doubling to a cap, a
 * reason to give up honoured, and nothing but a regular file locked.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lockFile, lockFileSync, lockTries } from "../../lib/shared/file_lock.ts";
import { UnsafeFileError } from "../../lib/shared/regular_file.ts";

const fresh = () => join(Deno.makeTempDirSync({ prefix: "sb-lock-" }), "x.lock");

Deno.test("file lock: one holder at a time; the second waits out its time, then takes it once released", () => {
  const path = fresh();
  const first = lockFileSync(path, { timeoutMs: 0 });
  assert.ok("held" in first);
  const t0 = performance.now();
  const second = lockFileSync(path, { timeoutMs: 80, pauseMs: [5, 20] });
  assert.deepEqual(second, { timedOut: true });
  assert.ok(performance.now() - t0 >= 75, "waited its time");
  first.held.release();
  first.held.release(); // idempotent
  const third = lockFileSync(path, { timeoutMs: 0 });
  assert.ok("held" in third);
  third.held[Symbol.dispose]();
  assert.ok(Deno.lstatSync(path).isFile, "the file stays unless removeOnRelease");
});

Deno.test("file lock: removeOnRelease removes the file before unlocking it", () => {
  const path = fresh();
  const got = lockFileSync(path, { timeoutMs: 0, removeOnRelease: true });
  assert.ok("held" in got);
  assert.ok(Deno.lstatSync(path).isFile);
  got.held.release();
  assert.throws(() => Deno.lstatSync(path), Deno.errors.NotFound);
});

Deno.test("file lock: the async driver waits with a timer and takes the lock released meanwhile", async () => {
  const path = fresh();
  const first = lockFileSync(path, { timeoutMs: 0 });
  assert.ok("held" in first);
  let ticks = 0;
  const beat = setInterval(() => ticks++, 5);
  setTimeout(() => first.held.release(), 60);
  const second = await lockFile(path, { timeoutMs: 5_000, pauseMs: [5, 10] });
  clearInterval(beat);
  assert.ok("held" in second);
  assert.ok(ticks >= 3, `the event loop ran while it waited (${ticks} ticks)`);
  second.held.release();
});

Deno.test("file lock: the pauses double from the first to the longest", () => {
  const path = fresh();
  const first = lockFileSync(path, { timeoutMs: 0 });
  assert.ok("held" in first);
  const tries = lockTries(path, { timeoutMs: 60_000, pauseMs: [10, 40] });
  const pauses = [0, 1, 2, 3, 4].map(() => tries.next().value);
  assert.deepEqual(pauses, [10, 20, 40, 40, 40]);
  first.held.release();
  const last = tries.next();
  assert.ok(last.done && "held" in last.value);
  last.value.held.release();
});

Deno.test("file lock: giveUp is asked with the lock file's inode, and its reason ends the wait", () => {
  const path = fresh();
  const first = lockFileSync(path, { timeoutMs: 0 });
  assert.ok("held" in first);
  const asked: (number | null)[] = [];
  const got = lockFileSync(path, {
    timeoutMs: 60_000,
    giveUp: (ino) => (asked.push(ino), "its holder is stopped"),
  });
  assert.deepEqual(got, { gaveUp: "its holder is stopped" });
  assert.deepEqual(asked, [Deno.statSync(path).ino]);
  first.held.release();
});

Deno.test("file lock: a symlink, FIFO or hard-linked file at the path is refused, naming it, its target untouched", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "sb-lock-" });
  const victim = join(dir, "victim.txt");
  Deno.writeTextFileSync(victim, "IMPORTANT USER DATA");
  const link = join(dir, "sym.lock");
  Deno.symlinkSync(victim, link);
  const hard = join(dir, "hard.lock");
  Deno.linkSync(victim, hard);
  const fifo = join(dir, "fifo.lock");
  assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
  for (const [path, why] of [[link, /is a symlink/], [hard, /2 hard links/], [fifo, /is a FIFO/]]) {
    assert.throws(
      () => lockFileSync(path as string, { timeoutMs: 0 }),
      (e) => e instanceof UnsafeFileError && e.path === path && (why as RegExp).test(e.message),
    );
    await assert.rejects(lockFile(path as string, { timeoutMs: 0 }), UnsafeFileError);
  }
  assert.equal(Deno.readTextFileSync(victim), "IMPORTANT USER DATA");
});

Deno.test("file lock: two threads taking and releasing a lock removed on release never fail (a file removed between the tries' opens is tried again)", async () => {
  const path = join(await Deno.makeTempDir(), ".lock");
  const run = () =>
    new Promise<{ held: number; error?: string }>((resolve) => {
      const w = new Worker(new URL("./file_lock_worker.ts", import.meta.url), { type: "module" });
      w.onmessage = (e) => resolve(e.data);
      w.postMessage({ path, n: 3000 });
    });
  const results = await Promise.all([run(), run(), run()]);
  for (const r of results) assert.deepEqual(r, { held: 3000 });
});
