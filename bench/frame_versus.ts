/**
 * The 100k `.frame()` over loopback against an earlier commit's, side by
 * side: one `--scale 10` emulator at 0 ms (this code's), then `.frame({
 * maxRows: 100000 })` (`bench/frame_scale_child.ts frame`) alternately from
 * this tree and from `git archive <commit>` of the earlier one (57fb095, the
 * round-5 figure of issue 53), `n` times each, each run in its own process.
 * Prints per tree the median seconds, min, max, every run with the load it
 * started at, and the ratio of the medians.
 *
 * `deno run -A bench/frame_versus.ts [n=5] [commit=57fb095] [rows=100000]`.
 *
 * @module
 */
import { startStub, table } from "./loopback.ts";
import { lastJsonLine } from "./_child.ts";
import { median } from "./floor_runs.ts";

/** The commit issue 53 names for the 100k `.frame()` time. */
export const FRAME_BASE_COMMIT = "57fb095";

const load = () => Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);

/** `commit`'s tree in a new temporary folder (from `git archive`), or throws naming the commit. */
async function checkout(commit: string): Promise<string> {
  const repo = new URL("..", import.meta.url).pathname;
  const dir = await Deno.makeTempDir({ prefix: "sb-frame-versus-" });
  const out = await new Deno.Command("bash", {
    args: ["-c", `git -C "${repo}" archive --format=tar "${commit}" | tar -x -C "${dir}"`],
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`frame versus: no tree of ${commit}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return dir;
}

/** Runs the side-by-side and returns its table. */
export async function frameVersusBench(
  n = 5,
  commit = FRAME_BASE_COMMIT,
  rows = 100_000,
): Promise<string> {
  const old = await checkout(commit);
  const stub = await startStub(["--scale", "10"]);
  const trees = [
    { name: `${commit} (round 5)`, child: `${old}/bench/frame_scale_child.ts`, cwd: old },
    {
      name: "this tree",
      child: new URL("./frame_scale_child.ts", import.meta.url).pathname,
      cwd: new URL("..", import.meta.url).pathname,
    },
  ];
  const runs = trees.map(() => [] as { s: number; load: number }[]);
  try {
    for (let i = 0; i < n; i++) {
      for (const [j, t] of trees.entries()) {
        const l = load();
        const r = await lastJsonLine<{ s: number; rows: number }>({
          args: ["run", "-A", t.child, stub.url, "frame", String(rows)],
          cwd: t.cwd,
        }, `frame versus: ${t.name} failed`);
        if (r.rows !== rows) throw new Error(`frame versus: ${t.name} gave ${r.rows} rows`);
        runs[j].push({ s: r.s, load: l });
      }
    }
  } finally {
    await stub.stop();
    await Deno.remove(old, { recursive: true });
  }
  const med = runs.map((r) => median(r.map((x) => x.s)));
  return table(
    `.frame() of ${
      rows.toLocaleString("en-US")
    } rows over loopback (--scale 10, 0 ms, pageSize 100), ` +
      `${n} runs each, alternating; load: 1-min load average as each run started`,
    ["tree", "median s", "min s", "max s", "× " + commit, "every run s", "loads"],
    trees.map((t, j) => [
      t.name,
      med[j].toFixed(2),
      Math.min(...runs[j].map((x) => x.s)).toFixed(2),
      Math.max(...runs[j].map((x) => x.s)).toFixed(2),
      (med[j] / med[0]).toFixed(2),
      runs[j].map((x) => x.s.toFixed(2)).join(" "),
      runs[j].map((x) => x.load.toFixed(1)).join(" "),
    ]),
  );
}

if (import.meta.main) {
  console.log(
    await frameVersusBench(
      Number(Deno.args[0] ?? 5),
      Deno.args[1] ?? FRAME_BASE_COMMIT,
      Number(Deno.args[2] ?? 100_000),
    ),
  );
}
