/**
 * The world cache against a hostile or damaged cache folder
 * (lib/stub/world_cache.ts), each case as the probe ran it: a fresh process
 * opening the world, with a time limit and a memory ceiling, which must end
 * on its own with the same world it would have generated and one notice
 * saying what it refused. A FIFO at the world file or at its lock, the lock
 * held by a stopped process, a header claiming 4 GiB, bytes changed after
 * the first 4 KiB; then, in this process, a byte changed at places all over
 * the file (every one caught) and headers whose lengths lie.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { openWorld, WORLD_CACHE_VERSION } from "../../lib/stub/world_cache.ts";
import { type Plan, planOf } from "../../lib/stub/_world_format.ts";

const CHILD = new URL("./_world_child.ts", import.meta.url).pathname;
/** Generous: a child that has not ended by then hangs (it takes seconds on a loaded machine). */
const TIMEOUT_MS = 120_000;
/** A scale-0.05 world in a fresh process peaks near 200 MB; reading a 4 GiB header would not stop there. */
const MAX_RSS_MB = 1024;

interface Ran {
  code: number | null;
  out: string;
  err: string;
  /** Killed at {@link TIMEOUT_MS}. */
  hung: boolean;
  /** Killed over {@link MAX_RSS_MB}. */
  overMemory: boolean;
}

/** Runs `_world_child.ts` with `args`, killed at the time limit or over the memory ceiling. */
async function child(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const c = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let hung = false;
  let overMemory = false;
  const timer = setTimeout(() => {
    hung = true;
    c.kill("SIGKILL");
  }, TIMEOUT_MS);
  const watch = setInterval(() => {
    try {
      const status = Deno.readTextFileSync(`/proc/${c.pid}/status`);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      if (kb > MAX_RSS_MB * 1024) {
        overMemory = true;
        c.kill("SIGKILL");
      }
    } catch {
      // ended
    }
  }, 25);
  const [status, out, err] = await Promise.all([
    c.status,
    new Response(c.stdout).text(),
    new Response(c.stderr).text(),
  ]);
  clearTimeout(timer);
  clearInterval(watch);
  return { code: status.code, out, err, hung, overMemory };
}

/** The child ended on its own, served `want` and said `notice` once (and nothing else). */
function servedWith(r: Ran, want: Record<string, unknown>, notice: RegExp): void {
  assert.ok(!r.hung, `hung: killed after ${TIMEOUT_MS / 1000} s\n${r.err}`);
  assert.ok(!r.overMemory, `killed over ${MAX_RSS_MB} MB of RSS\n${r.err}`);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out.trim().split("\n").at(-1)!), want);
  const notices = r.err.split("\n").filter((l) => l.trim());
  assert.equal(notices.length, 1, r.err);
  assert.match(notices[0], notice);
}

const SEED = 11;
const SCALE = 0.05;
const name = `world-v${WORLD_CACHE_VERSION}-seed${SEED}-scale${SCALE}-2026-11-20.bin`;

/** A folder holding this world's file, what a clean child serves from it, and the file's bytes. */
async function withWorld(
  run: (
    dir: string,
    file: string,
    want: Record<string, unknown>,
    bytes: Uint8Array,
  ) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "sb-hostile-" });
  try {
    const made = openWorld({ seed: SEED, scale: SCALE, cache: dir });
    assert.equal(made.file, `${dir}/${name}`);
    const bytes = await Deno.readFile(made.file!);
    const clean = await child(["createStub", dir, String(SEED), String(SCALE)]);
    assert.equal(clean.code, 0, clean.err);
    assert.equal(clean.err.trim(), "", "a sound file is read without a notice");
    await run(dir, made.file!, JSON.parse(clean.out.trim()), bytes);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A world's rows and catalog as one text (sets as lists), to compare two worlds by what they serve. */
const fingerprint = (w: ReturnType<typeof openWorld>) =>
  JSON.stringify(
    [w.insider.trades.map((t) => t.row), w.catalog()],
    (_k: string, v: unknown) => v instanceof Set || v instanceof Map ? [...v] : v,
  );

const mkfifo = async (path: string) => {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
};
const args = (dir: string) => ["createStub", dir, String(SEED), String(SCALE)];

Deno.test("world cache, own process: a FIFO at the world file is refused, the world generated and written in its place", async () => {
  await withWorld(async (dir, file, want) => {
    await Deno.remove(file);
    await mkfifo(file);
    const r = await child(args(dir));
    servedWith(
      r,
      want,
      /world-v\d+-seed11-scale0\.05-2026-11-20\.bin is a FIFO.*generating the world/,
    );
    assert.ok(Deno.lstatSync(file).isFile, "replaced by a regular file");
    assert.equal(openWorld({ seed: SEED, scale: SCALE, cache: dir }).source, "cache");
  });
});

Deno.test("world cache, own process: a FIFO at the lock: the world generated in memory, one notice, nothing written", async () => {
  await withWorld(async (dir, file, want) => {
    await Deno.remove(file);
    await Deno.remove(`${file}.lock`);
    await mkfifo(`${file}.lock`);
    const r = await child(args(dir));
    servedWith(r, want, /\.bin\.lock is a FIFO; generating the world in memory \(not written\)/);
    assert.ok(!(await exists(file)), "not written without the lock");
  });
});

/**
 * Runs the child while another process holds the world's generation lock
 * (stopped with SIGSTOP when `stop`, else running and never letting go).
 */
async function lockHeldBy(stop: boolean, notice: (pid: number) => RegExp): Promise<void> {
  await withWorld(async (dir, file, want) => {
    await Deno.remove(file);
    const holder = `${dir}/hold.ts`;
    await Deno.writeTextFile(
      holder,
      `const f = Deno.openSync(${
        JSON.stringify(`${file}.lock`)
      }, { read: true, write: true, create: true });
      f.lockSync(true);
      console.log("locked");
      setInterval(() => {}, 1000);`,
    );
    const h = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", holder],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      const reader = h.stdout.pipeThrough(new TextDecoderStream()).getReader();
      assert.match((await reader.read()).value ?? "", /locked/);
      reader.releaseLock();
      if (stop) h.kill("SIGSTOP");
      const r = await child(args(dir));
      servedWith(r, want, notice(h.pid));
      assert.ok(!(await exists(file)), "the holder's to write");
    } finally {
      if (stop) h.kill("SIGCONT");
      h.kill("SIGKILL");
      await h.status;
      await h.stdout.cancel().catch(() => {});
    }
  });
}

Deno.test("world cache, own process: a lock held by a stopped process is not waited for: the world is generated in memory", async () => {
  await lockHeldBy(
    true,
    (pid) =>
      new RegExp(
        `\\.bin\\.lock is held by process ${pid}, which is stopped; generating the world in memory \\(not written\\)`,
      ),
  );
});

Deno.test("world cache, own process: a lock held without end by a running process is waited for 15 s, then the world is generated in memory", async () => {
  await lockHeldBy(
    false,
    () =>
      /another process has held .*\.bin\.lock for 15\.0 s \(stopped, or slow\); generating the world in memory/,
  );
});

Deno.test("world cache, own process: a header length of 4 GiB is refused unread, the file sized to match or not", async () => {
  await withWorld(async (dir, file, want, bytes) => {
    const headLen = 0xfffffff0;
    const bodyLen = new DataView(bytes.buffer).getFloat64(8, true);
    const fresh = fingerprint(openWorld({ seed: SEED, scale: SCALE, cache: false }));
    for (const sparse of [false, true]) {
      const f = await Deno.open(file, { read: true, write: true });
      const prefix = bytes.slice(0, 32);
      new DataView(prefix.buffer).setUint32(4, headLen, true);
      await f.write(prefix);
      // sized to match: a sparse file of 4 GiB, whose header the old reader read whole
      if (sparse) await f.truncate(Math.ceil((32 + headLen) / 8) * 8 + bodyLen);
      f.close();
      const r = await child(args(dir));
      servedWith(
        r,
        want,
        sparse
          ? /is 4296\d+ bytes, over the cap of 67108864/
          : /states a header of 4294967280 bytes, over the cap of 4194304/,
      );
      // replaced by the generated world: read back from the cache, the same world (not the same
      // bytes: node:v8 may write a number in its short or long form, by what the process ran before)
      const back = openWorld({ seed: SEED, scale: SCALE, cache: dir });
      assert.equal(back.source, "cache", "replaced by the generated world");
      assert.equal(fingerprint(back), fresh);
    }
  });
});

Deno.test("world cache, own process: bytes flipped after the first 4 KiB (same size) are caught as read, the world generated again", async () => {
  await withWorld(async (dir, file, want, bytes) => {
    const h = header(bytes);
    // in the header (after 4 KiB), in a row column's last block, in the prices, in the catalog
    const body = h.start;
    const at = {
      header: 5000,
      column: body + h.plan.places.get("rows/40")!.offset + 3,
      prices: body + h.plan.places.get("prices/paths")!.offset + 1001,
      catalog: body + h.plan.places.get("catalog/text")!.offset + 77,
    };
    for (const [where, pos] of Object.entries(at)) {
      assert.ok(pos > 4096 && pos < bytes.length, `${where}: ${pos}`);
      const bad = bytes.slice();
      bad[pos] ^= 0x10;
      await Deno.writeFile(file, bad);
      const r = await child(args(dir));
      servedWith(r, want, /changed bytes in .* \(digest differs\)/);
      await Deno.writeFile(file, bytes);
    }
  });
});

Deno.test("world cache: a byte changed anywhere in the file is caught before it is served", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sb-hostile-" });
  const said: string[] = [];
  const error = console.error;
  console.error = (m: string) => said.push(m);
  try {
    const made = openWorld({ seed: 12, scale: 0.01, cache: dir });
    const want = served(openWorld({ seed: 12, scale: 0.01, cache: false }));
    const bytes = await Deno.readFile(made.file!);
    const h = header(bytes);
    // every part: the prefix, the header and its padding, each array and its padding, the table
    const places = new Set<number>([0, 5, 9, 17, 31, h.start - 1, bytes.length - 1]);
    for (const r of h.plan.places.values()) {
      // its last byte: the padding after its values where it has some
      places.add(h.start + r.offset + r.bytes - 1);
    }
    for (let p = 0; p < bytes.length; p += 9973) places.add(p);
    let caught = 0;
    for (const pos of places) {
      const bad = bytes.slice();
      bad[pos] ^= 0x01;
      await Deno.writeFile(made.file!, bad);
      said.length = 0;
      const w = openWorld({ seed: 12, scale: 0.01, cache: dir });
      assert.deepEqual(served(w), want, `byte ${pos}`);
      // caught, with one notice; or in a block nothing served needed (a column null throughout)
      const { read, total } = w.blocks();
      assert.ok(said.length === 1 || read < total, `byte ${pos}: ${said.join("\n")}`);
      assert.ok(said.length <= 1, said.join("\n"));
      if (said.length) caught++;
      await Deno.writeFile(made.file!, bytes);
    }
    assert.ok(places.size > 250, `${places.size} places`);
    assert.ok(caught > places.size * 0.9, `${caught} of ${places.size} caught`);
  } finally {
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("world cache: lengths that lie in a header whose digest is right are refused before reading", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sb-hostile-" });
  const said: string[] = [];
  const error = console.error;
  console.error = (m: string) => said.push(m);
  try {
    const made = openWorld({ seed: 13, scale: 0.01, cache: dir });
    const bytes = await Deno.readFile(made.file!);
    // every array's place follows from the header: a length that lies moves the arrays off the
    // file's size, and is refused before any array is read
    const lies: [string, (j: Header["json"]) => void, RegExp][] = [
      ["catalog of 4 GiB", (j) => j.meta.catalogBytes = 2 ** 32, /its arrays take \d+ bytes/],
      ["trades of 2^40", (j) => j.meta.trades = 2 ** 40, /its arrays take \d+ bytes/],
      ["one trade more than written", (j) => j.meta.trades += 1, /its arrays take \d+ bytes/],
      ["a negative number of trades", (j) => j.meta.trades = -3, /trades: -3/],
      ["a type that is no array", (j) => j.meta.rows[0].type = "constructor", /rows 0 type/],
      ["prices of a million days", (j) => j.meta.world.start = j.meta.world.asOf - 1e6, /days/],
    ];
    for (const [what, lie, why] of lies) {
      const h = header(bytes);
      lie(h.json);
      await Deno.writeFile(made.file!, withHeader(bytes, h));
      said.length = 0;
      const w = openWorld({ seed: 13, scale: 0.01, cache: dir });
      assert.equal(w.source, "generated", what);
      assert.equal(said.length, 1, what);
      assert.match(said[0], /has a header that does not hold together/, what);
      assert.match(said[0], why, `${what}: ${said[0]}`);
    }
  } finally {
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

interface Header {
  // deno-lint-ignore no-explicit-any
  json: any;
  /** Where the body starts. */
  start: number;
  /** The header's length as stored. */
  length: number;
  /** Where the declared layout puts each array of the header's meta. */
  plan: Plan;
}

/** The file's header, as the format lays it out (a 32-byte prefix, the JSON, padding to 8). */
function header(bytes: Uint8Array): Header {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(32, 32 + length)));
  return { json, start: Math.ceil((32 + length) / 8) * 8, length, plan: planOf(json.meta) };
}

/** The file with `h.json` as its header, its digest right (the body moved to follow it). */
function withHeader(bytes: Uint8Array, h: Header): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify(h.json));
  const start = Math.ceil((32 + head.length) / 8) * 8;
  const out = new Uint8Array(start + bytes.length - h.start);
  out.set(bytes.subarray(0, 16));
  new DataView(out.buffer).setUint32(4, head.length, true);
  out.set(head, 32);
  out.set(bytes.subarray(h.start), start);
  const digest = createHash("sha256").update(out.subarray(0, 16)).update(out.subarray(32, start));
  out.set(digest.digest().subarray(0, 16), 16);
  return out;
}

/** Everything a world serves: every row, every last price, the catalog. */
function served(w: ReturnType<typeof openWorld>) {
  return {
    rows: w.insider.trades.map((t) => JSON.stringify(t.row)).join("\n"),
    prices: w.world.companies.map((_, c) => w.world.price(c, w.world.asOf)).join(","),
    catalog: JSON.stringify(w.catalog().pitches),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}
