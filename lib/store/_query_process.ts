/**
 * One `query()` in a process of its own (`_query_child.ts`), bounded from
 * outside: the process is killed (SIGKILL) when its resident memory passes
 * `rssBytes` (the query's `memoryLimit` plus {@link QUERY_MEMORY_MARGIN}),
 * read from `/proc/<pid>/status` every {@link RSS_POLL_MS} ms, or when
 * the query's `timeoutMs` has passed since `query()` was called (what is
 * left of it when the process starts). DuckDB's own `memory_limit`
 * bounds its operators, not a value it builds (one row holding a list of
 * 200 million numbers, a 1.5 GB string): the kill bounds everything, and
 * the caller's process never holds DuckDB's memory at all. The bound also
 * holds by construction, without the poll winning a race: the process
 * starts with a data limit of `rssBytes` (`ulimit -d`; the kernel refuses
 * an allocation past it, and DuckDB answers "Out of Memory") and V8's heap
 * capped alike (`--max-old-space-size`; `--jitless`, so V8 reserves no
 * code range counted in that limit). Either kill, and an allocation refused
 * at the bound, is a {@link QueryLimitError} naming the limit. On Windows
 * (no `/proc`, no `ulimit`) only the time limit, V8's cap and DuckDB's own
 * limit hold.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { QueryError, QueryLimitError } from "./errors.ts";
import { formatBytes } from "./disk.ts";
import type { QueryAnswer, QueryJob } from "./_query_child.ts";

/** Memory a query's process may hold above its `memoryLimit`: Deno and DuckDB's code (about 90 MiB) and slack. */
export const QUERY_MEMORY_MARGIN = 256 * 2 ** 20;

/** How often the query process's memory is read, ms. */
export const RSS_POLL_MS = 10;

const CHILD = new URL("./_query_child.ts", import.meta.url);

/**
 * Bytes of a DuckDB size (`512MB`, `2GiB`, `1.5GB`: KB/MB/GB/TB are powers
 * of 1000, KiB/MiB/GiB/TiB of 1024, as DuckDB reads them); null when it is
 * not one or below 1 MB.
 *
 * @example
 * ```ts
 * import { sizeBytes } from "./_query_process.ts";
 * sizeBytes("512MB"); // 512000000
 * sizeBytes("1GiB"); // 1073741824
 * sizeBytes("lots"); // null
 * ```
 */
export function sizeBytes(size: unknown): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|[KMGT]i?B)?\s*$/i.exec(String(size));
  if (typeof size !== "string" || !m) return null;
  const unit = (m[2] ?? "B").toUpperCase();
  const power = "BKMGT".indexOf(unit[0]);
  const n = Number(m[1]) * (unit.includes("I") ? 1024 : 1000) ** power;
  return n >= 1e6 && Number.isFinite(n) ? n : null;
}

/** Resident memory of process `pid`, bytes (null when it cannot be read). */
function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s*(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The limits of one run. */
export interface RunLimits {
  /** The query's `timeoutMs` (for messages). */
  timeoutMs: number;
  /** What is left of it when the process starts, ms. */
  leftMs: number;
  /** The `memoryLimit` as given (for messages). */
  memoryLimit: string;
  /** Most resident memory of the process, bytes. */
  rssBytes: number;
}

/**
 * Runs `job` in a new process within `limits` (see the module doc) and
 * returns its answer. `sql` is for the errors.
 */
export async function runBounded(
  job: QueryJob,
  limits: RunLimits,
  sql: string,
): Promise<QueryAnswer> {
  // bounded by construction too, whatever the poll sees: the kernel refuses the process memory
  // past rssBytes (RLIMIT_DATA counts every private writable mapping; V8 without its JIT reserves
  // no code range there) and V8's heap has the same bound
  const mib = Math.ceil(limits.rssBytes / 2 ** 20);
  const flags = `--v8-flags=--jitless,--max-old-space-size=${mib}`;
  const jobFile = join(dirname(job.out), "job.json");
  await Deno.writeTextFile(jobFile, JSON.stringify(job));
  const deno = ["run", "-A", "--no-config", flags, CHILD.href, jobFile];
  const posix = Deno.build.os !== "windows";
  const child = new Deno.Command(posix ? "/bin/sh" : Deno.execPath(), {
    args: posix
      ? ["-c", `ulimit -d ${mib * 1024} && exec "$0" "$@"`, Deno.execPath(), ...deno]
      : deno,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stop: "time" | "memory" | undefined;
  let peak = 0; // the most resident memory seen
  const kill = (why: "time" | "memory") => {
    if (stop) return;
    stop = why;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => kill("time"), limits.leftMs);
  const watch = setInterval(() => {
    const rss = rssOf(child.pid) ?? 0;
    peak = Math.max(peak, rss);
    if (rss > limits.rssBytes) kill("memory");
  }, RSS_POLL_MS);
  let out = "", err = "";
  try {
    const { stdout, stderr } = await child.output();
    [out, err] = [stdout, stderr].map((b) => new TextDecoder().decode(b));
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
    await child.stdin.close().catch(() => {});
  }
  if (stop === "time") {
    throw new QueryLimitError(
      "timeoutMs",
      limits.timeoutMs,
      `stopped after ${limits.timeoutMs} ms (timeoutMs); narrow the query or raise timeoutMs`,
      sql,
    );
  }
  const line = out.trim().split("\n").at(-1) ?? "";
  let answer: QueryAnswer | undefined;
  try {
    answer = JSON.parse(line);
  } catch {
    // no answer: the process ended before it wrote one
  }
  // an allocation refused at the bound (by DuckDB, by the kernel) is the memory limit too
  const refused = answer ? !answer.ok && answer.message : err;
  const denied = !!refused && /out of memory|bad.alloc/i.test(refused);
  if (stop === "memory" || denied) {
    const seen = denied ? "an allocation past it was refused" : `it held ${formatBytes(peak)}`;
    throw new QueryLimitError(
      "memoryLimit",
      limits.memoryLimit,
      `stopped: DuckDB's process needed more than memoryLimit ${limits.memoryLimit} plus ${
        formatBytes(QUERY_MEMORY_MARGIN)
      } (${seen}); a large value (a long list or string) or result ` +
        `cannot be built within it: narrow the query or raise memoryLimit`,
      sql,
    );
  }
  if (answer) return answer;
  throw new QueryError(
    `query: DuckDB's process ended without an answer: ${
      err.trim().split("\n").slice(-3).join(" ") || "(nothing on stderr)"
    }\nSQL: ${sql}`,
    sql,
  );
}
