/** Issue 11: CLI failures are one line + exit 1, flags are all checked at once (exit 2). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createStub } from "../../lib/stub/mod.ts";
import { describeFailure } from "../../lib/cli/args.ts";
import { AuthenticationError } from "../../mod.ts";

const dec = new TextDecoder();
async function run(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", `lib/cli/${script}.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { PITCH_API_KEY: "", INSIDER_API_KEY: "", NO_COLOR: "1", ...env },
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
const lines = (s: string) => s.trim().split("\n").filter((l) => l.trim() !== "");
/** Exactly one line on stderr, no stack frames. */
function oneLine(stderr: string): string {
  const ls = lines(stderr);
  assert.equal(ls.length, 1, `one line expected, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack");
  return ls[0];
}

Deno.test('sync: --dir "", --from after --to, --from in the future, hex and exponent numbers exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [["--dir", ""], /--dir "" is not allowed; allowed: a directory path/],
    [["--from", "2024-05-01", "--to", "2024-01-01"], /--from 2024-05-01 is after --to 2024-01-01/],
    [["--from", "2099-01-01"], /--from 2099-01-01 is in the future \(today is 2026-11-20/],
    [["--concurrency", "0x10"], /--concurrency "0x10" is not allowed/],
    [["--overlap-days", "1e1"], /--overlap-days "1e1" is not allowed/],
    [["--datasets", "pitches,pitches"], /--datasets: "pitches" is given twice/],
  ];
  // every problem is reported at once: two runs (the two --from cases cannot share one)
  for (const part of [cases.filter((_, i) => i !== 2), [cases[2]]]) {
    const r = await run("sync", part.flatMap(([args]) => args));
    assert.equal(r.code, 2, r.stderr);
    for (const [args, re] of part) assert.match(r.stderr, re, args.join(" "));
  }
});

Deno.test("sync and backtest report every bad flag at once", async () => {
  const s = await run("sync", [
    "--concurrency",
    "1e3",
    "--overlap-days",
    "x",
    "--datasets",
    "trades",
    "--bogus",
    "--dri",
    "d",
  ]);
  assert.equal(s.code, 2);
  for (
    const re of [
      /--concurrency "1e3"/,
      /--overlap-days "x"/,
      /--datasets: "trades"/,
      /Unknown option '--bogus'/,
      /Unknown option '--dri'; did you mean --dir\?/,
    ]
  ) assert.match(s.stderr, re);
  const b = await run("backtest", [
    "--max-rows",
    "0x10",
    "--min-n",
    "1e3",
    "--horizons",
    "1m,3m,1m",
    "--feed",
    "ceo-trades:buy",
    "--feed",
    "ceo-trades:buy",
    "--cluster",
    "week",
  ]);
  assert.equal(b.code, 2);
  for (
    const re of [
      /--max-rows "0x10" is not allowed; allowed: an integer from 1 to 100000/,
      /--min-n "1e3" is not allowed/,
      /--horizons: "1m" is given twice/,
      /--feed "ceo-trades:buy" is given twice/,
      /--cluster "week" is not allowed/,
    ]
  ) assert.match(b.stderr, re);
  const m = await run("backtest", ["--max-rows", "1e3"]);
  assert.equal(m.code, 2);
  assert.match(m.stderr, /--max-rows "1e3" is not allowed/);
});

Deno.test("--dir / --out that is a file or not writable: one line, exit 1, before pulling", async () => {
  const root = await Deno.makeTempDir();
  const file = join(root, "afile");
  await Deno.writeTextFile(file, "x");
  const a = await run("sync", ["--dir", file, "--from", "2026-01-01"]);
  assert.equal(a.code, 1, a.stderr);
  assert.match(oneLine(a.stderr), /^sync: --dir ".*afile" is a file, not a directory/);
  assert.equal(a.stdout, "", "nothing was pulled");
  const b = await run("backtest", ["--out", join(file, "sub")]);
  assert.equal(b.code, 1, b.stderr);
  assert.match(oneLine(b.stderr), /^backtest: --out ".*afile\/sub" is not writable/);
  const c = await run("backtest", ["--out", "/proc/signalbook-test"]);
  assert.equal(c.code, 1, c.stderr);
  assert.match(oneLine(c.stderr), /--out "\/proc\/signalbook-test" is not writable/);
  const d = await run("demo", ["--out", file]);
  assert.equal(d.code, 1, d.stderr);
  assert.match(oneLine(d.stderr), /^demo: --out .* is a file/);
  // --debug adds the stack
  const e = await run("sync", ["--dir", file, "--debug"]);
  assert.equal(e.code, 1);
  assert.match(e.stderr, /^sync: --dir .* is a file/);
  assert.match(e.stderr, /^\s+at /m);
  await Deno.remove(root, { recursive: true });
});

Deno.test("backtest with no trades for the range: one line, exit 1", async () => {
  const r = await run("backtest", ["--from", "2015-01-01", "--to", "2015-03-31"]);
  assert.equal(r.code, 1, r.stderr);
  const msg = lines(r.stderr).at(-1)!;
  assert.match(msg, /^backtest: no trades in ceo-trades:buy from 2015-01-01 to 2015-03-31; widen/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
});

/** A loopback emulator that counts requests; env for the CLIs with keys set. */
function countingStub(keys: { insider: string; catalog: string }) {
  const stub = createStub({ seed: 1, scale: 0.2 });
  let requests = 0;
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    (req) => {
      requests++;
      return stub.app.fetch(req);
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    env: {
      INSIDER_API_KEY: keys.insider,
      INSIDER_BASE_URL: `${base}/insider`,
      PITCH_API_KEY: keys.catalog,
      PITCH_BASE_URL: `${base}/catalog`,
    },
    requests: () => requests,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

Deno.test("sync with a bad key stops after the first 401 and prints one short line", async () => {
  const srv = countingStub({ insider: "wrong-key", catalog: "wrong-key" });
  const dir = await Deno.makeTempDir();
  try {
    const r = await run(
      "sync",
      ["--dir", dir, "--from", "2021-11-01", "--to", "2026-11-20"],
      srv.env,
    );
    assert.equal(r.code, 1, r.stderr);
    // a key this short (9 characters) is warned about once, when the client is made
    const short = /^signalbook: the API key has 9 characters, fewer than 16: .*$/gm;
    assert.equal(r.stderr.match(short)?.length, 1, r.stderr);
    const line = oneLine(r.stderr.replace(/^sync insider trades.*$/gm, "").replace(short, ""));
    assert.match(
      line,
      /^sync: the service refused the API key \(401 invalid API key\); check INSIDER_API_KEY$/,
    );
    assert.ok(r.stderr.length < 1000, `short output, got ${r.stderr.length} bytes`);
    assert.doesNotMatch(r.stderr, /wrong-key/, "the key is never shown");
    // 61 months; at most the months already in flight (concurrency 4) asked before it stopped
    assert.ok(srv.requests() <= 4, `${srv.requests()} requests`);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unreachable host: one line naming the host and the setting, first error and count", async () => {
  const dir = await Deno.makeTempDir();
  const r = await run(
    "sync",
    ["--dir", dir, "--from", "2026-10-01", "--to", "2026-11-20", "--datasets", "insider_trades"],
    {
      INSIDER_API_KEY: "k",
      INSIDER_BASE_URL: "http://nosuch-host.invalid/insider",
      PITCH_API_KEY: "k",
      PITCH_BASE_URL: "http://nosuch-host.invalid/catalog",
    },
  );
  assert.equal(r.code, 1, r.stderr);
  const line = lines(r.stderr).at(-1)!;
  assert.match(
    line,
    /^sync: POST \/search to nosuch-host.invalid failed: .*; check PITCH_BASE_URL \/ INSIDER_BASE_URL/,
  );
  // one distinct error for both months (a run of months ends at its first failure)
  assert.match(line, /\(sync: 2 of 2 months of insider_trades failed/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("describeFailure: disk full, 401, aggregate — one line each", async () => {
  let full: unknown;
  try {
    await Deno.writeFile("/dev/full", new Uint8Array(16));
  } catch (e) {
    full = e;
  }
  assert.ok(full instanceof Error, "writing /dev/full fails with ENOSPC");
  const line = describeFailure("demo", full, { paths: { "--out": "/dev" } });
  assert.match(
    line,
    /^demo: the disk is full while writing \/dev\/full \(--out\); free some space/,
  );
  const auth = new AuthenticationError({
    status: 401,
    type: "unauthorized",
    title: "Unauthorized",
    detail: "invalid API key",
    method: "GET",
    url: "http://h/catalog/api/v1/pitches",
  });
  assert.equal(
    describeFailure("sync", auth),
    "sync: the service refused the API key (401 invalid API key); check PITCH_API_KEY",
  );
  const agg = new AggregateError([auth, auth, auth], "sync: 3 of 3 months failed");
  const a = describeFailure("sync", agg);
  assert.ok(!a.includes("\n"));
  assert.match(
    a,
    /^sync: the service refused .* \(first of 3 failures: sync: 3 of 3 months failed\)$/,
  );
});

Deno.test("stub: port in use and a bad --hostname are one line and exit 1", async () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", "lib/cli/stub.ts", "--port", String(held.addr.port)],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1);
    assert.match(oneLine(dec.decode(out.stderr)), /port is in use; choose another --port/);
  } finally {
    held.close();
  }
  const bad = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", "lib/cli/stub.ts", "--hostname", "nosuch-host.invalid"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(bad.code, 1);
  assert.match(
    oneLine(dec.decode(bad.stderr)),
    /--hostname "nosuch-host.invalid" is not an address of this machine/,
  );
});

Deno.test("sync into a folder another writer holds: one line naming the folder and the holder, exit 1", async () => {
  const dir = join(await Deno.makeTempDir(), "data");
  const holder = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tests/store/writers_child.ts", "hold", dir],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let out = ""; !out.includes("locked");) out += (await reader.read()).value ?? "";
  try {
    const r = await run("sync", ["--dir", dir, "--from", "2026-10-01", "--lock-timeout-ms", "0"]);
    assert.equal(r.code, 1);
    // the emulator's one-time notice, then the failure
    assert.match(r.stderr, /^signalbook: .*offline emulator/);
    assert.match(
      oneLine(r.stderr.replace(/^signalbook: .*\n/, "")),
      new RegExp(
        `^sync: ${dir} is locked by another writer \\(test-holder, pid ${holder.pid} on this host, since .*\\); waited 0\\.0 s .*--lock-timeout-ms\\)$`,
      ),
    );
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
    reader.releaseLock();
    await holder.stdout.cancel().catch(() => {});
  }
});

Deno.test("describeFailure: a DiskFullError keeps its path and free space", async () => {
  const { DiskFullError } = await import("../../mod.ts");
  const e = new DiskFullError(
    "sync",
    "data/insider_trades/year=2025/month=03/data.parquet",
    92_160,
  );
  assert.equal(
    describeFailure("sync", e),
    "sync: no space left on the disk writing data/insider_trades/year=2025/month=03/data.parquet " +
      "(free: 92 kB); free some space or write elsewhere, then rerun",
  );
});
