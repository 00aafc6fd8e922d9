/**
 * A query ends within its limits whatever it returns: DuckDB runs in a
 * process of its own, killed when its resident memory passes `memoryLimit`
 * plus `QUERY_MEMORY_MARGIN` or when `timeoutMs` is up, so one huge value
 * (a list of 200 million numbers, a 1.5 GB string) neither grows this
 * process nor outlives the time limit. Each stop is a `QueryLimitError`
 * naming the limit. The children's peak memory is read here from /proc,
 * apart from the watchdog's own reading.
 */
import assert from "node:assert/strict";
import { query, QUERY_MEMORY_MARGIN, QueryError, QueryLimitError, sync } from "../../mod.ts";
import { sizeBytes } from "../../lib/store/_query_process.ts";
import { offline } from "../_util.ts";

const { insider } = await offline({ seed: 3, scale: 0.02 });
const dir = await Deno.makeTempDir();
await sync({ dir, insider, from: "2025-01-01", to: "2025-02-28", progress: false });

const rss = (pid: number | string, field = "VmHWM") => {
  try {
    const m = new RegExp(`${field}:\\s*(\\d+) kB`).exec(
      Deno.readTextFileSync(`/proc/${pid}/status`),
    );
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/**
 * This process's child processes (test files run in parallel in it: theirs
 * too). A thread can end between the listing and the read: it has none.
 */
const children = () =>
  [...Deno.readDirSync("/proc/self/task")].flatMap((t) => {
    try {
      const kids = Deno.readTextFileSync(`/proc/self/task/${t.name}/children`).trim();
      return kids ? kids.split(" ") : [];
    } catch {
      return []; // the thread ended between the listing and the read
    }
  });

/** Whether `pid` is a query's DuckDB process (`_query_child.ts`). */
const isQueryChild = (pid: string) => {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).includes("_query_child.ts");
  } catch {
    return false;
  }
};

/**
 * The most memory any query process started while `run` ran held (VmHWM, read
 * every 5 ms): other children of this process (other test files' kernels and
 * workers, started before) are not counted.
 */
async function childPeak(run: () => Promise<unknown>): Promise<{ peak: number; error: unknown }> {
  const seen = { peak: 0 };
  const earlier = new Set(children());
  const watch = setInterval(() => {
    for (const pid of children()) {
      if (!earlier.has(pid) && isQueryChild(pid)) seen.peak = Math.max(seen.peak, rss(pid));
    }
  }, 5);
  try {
    const error = await run().then(() => undefined, (e) => e);
    return { peak: seen.peak, error };
  } finally {
    clearInterval(watch);
  }
}

const MB = 2 ** 20;

/** `query(sql)` run by `query_limits_child.ts`: how much that caller's memory grew, and the error. */
async function callerGrowth(sql: string, timeoutMs: number) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./query_limits_child.ts", import.meta.url).pathname,
      sql,
      dir,
      String(timeoutMs),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(out.success, "the caller process failed");
  const line = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
  return JSON.parse(line) as { grown: number; limitError: boolean; limit: string | null };
}

for (
  const [sql, timeoutMs] of [
    ["select range(0, 200000000) l", 20_000],
    ["select range(0, 30000000) l", 5_000],
    ["select repeat('x', 1500000000) s", 8_000],
  ] as const
) {
  Deno.test(`${sql} (timeoutMs ${timeoutMs}): stopped within its limits, naming the limit`, async () => {
    const t0 = performance.now();
    const { peak, error } = await childPeak(() => query(sql, { dir, timeoutMs }));
    const seconds = (performance.now() - t0) / 1000;
    assert.ok(error instanceof QueryLimitError, String(error));
    assert.ok(error.limit === "memoryLimit" || error.limit === "timeoutMs", error.limit);
    assert.ok(error.message.includes(error.limit), error.message);
    assert.ok(seconds < timeoutMs / 1000 + 1, `${seconds.toFixed(1)} s`);
    const cap = sizeBytes("512MB")! + QUERY_MEMORY_MARGIN;
    // the watchdog reads every 10 ms: what a value grows in that time is the slack
    assert.ok(peak > 0 && peak < cap + 128 * MB, `child peak ${(peak / MB).toFixed(0)} MiB`);
    // the caller's own growth, in a process of its own (test files share this one)
    const child = await callerGrowth(sql, timeoutMs);
    assert.ok(child.limitError, JSON.stringify(child));
    assert.ok(child.grown < 64 * MB, `the caller grew ${(child.grown / MB).toFixed(0)} MiB`);
    console.log(
      `${sql}: ${error.limit} after ${seconds.toFixed(2)} s, child peak ${
        (peak / MB).toFixed(0)
      } MiB`,
    );
  });
}

Deno.test("a query that runs past timeoutMs is killed within a second of it", async () => {
  const t0 = performance.now();
  const e = await query("select sum(i) as s from range(0, 100000000000) t(i)", {
    dir,
    timeoutMs: 1500,
  })
    .catch((e) => e);
  const seconds = (performance.now() - t0) / 1000;
  assert.ok(e instanceof QueryLimitError && e.limit === "timeoutMs" && e.value === 1500, String(e));
  assert.match(e.message, /stopped after 1500 ms \(timeoutMs\)/);
  assert.ok(seconds < 2.5, `${seconds} s`);
});

Deno.test("a result larger than memoryLimit once read is refused before this process reads it", async () => {
  const e = await query("select repeat('x', 1000) as s from range(0, 300000)", {
    dir,
    memoryLimit: "100MB",
  }).catch((e) => e);
  assert.ok(e instanceof QueryLimitError && e.limit === "memoryLimit", String(e));
  assert.match(e.message, /the result is 30\d MB once read, more than memoryLimit 100MB/);
});

Deno.test("memoryLimit that is not a size is refused naming it", async () => {
  for (const bad of ["lots", "512", "0MB", "-1GB", "1e9B"]) {
    const e = await query("select 1", { dir, memoryLimit: bad }).catch((e) => e);
    assert.ok(e instanceof QueryError, String(e));
    assert.ok(
      e.message.startsWith(`query: memoryLimit ${JSON.stringify(bad)} is not allowed`),
      e.message,
    );
  }
  assert.equal(sizeBytes("2GiB"), 2 * 1024 ** 3);
  assert.equal(sizeBytes("1.5GB"), 1.5e9);
  assert.equal((await query("select 1 as one", { dir, memoryLimit: "64MiB" })).height, 1);
});

Deno.test("the query process is bounded by construction: the kernel's data limit and V8's heap, not the poll alone", async () => {
  const earlier = new Set(children());
  // every query process started during the call, read again at each tick until it ends (the
  // last reading is after its shell set the limit and exec'd deno); other test files running
  // beside this one start query processes of their own, with other limits
  const seen = new Map<string, { limits: string; cmdline: string }>();
  const watch = setInterval(() => {
    for (const pid of children()) {
      if (earlier.has(pid) || !isQueryChild(pid)) continue;
      try {
        const limits = Deno.readTextFileSync(`/proc/${pid}/limits`);
        seen.set(pid, { limits, cmdline: Deno.readTextFileSync(`/proc/${pid}/cmdline`) });
      } catch { /* ended */ }
    }
  }, 5);
  try {
    const e = await query("select count(*) from range(0, 100000000000)", {
      dir,
      timeoutMs: 2_000,
      memoryLimit: "44MiB",
    }).catch((e) => e);
    assert.ok(e instanceof QueryLimitError, String(e));
  } finally {
    clearInterval(watch);
  }
  const cap = 44 * MB + QUERY_MEMORY_MARGIN;
  // this call's process: the one whose V8 heap is capped at this call's limit
  const ours = [...seen.values()].filter((s) =>
    s.cmdline.includes(`--max-old-space-size=${cap / MB}`)
  );
  assert.ok(ours.length > 0, [...seen.values()].map((s) => s.cmdline).join("\n"));
  for (const s of ours) {
    const data = /Max data size\s+(\d+)\s+(\d+)\s+bytes/.exec(s.limits);
    assert.deepEqual(data?.slice(1).map(Number), [cap, cap], s.limits);
  }
});
