/**
 * One `deno task demo` run shared by the test files that check its output
 * (`tests/cli/cli_test.ts`, `tests/backtest/duckdb_check_test.ts`), so the
 * suite pays for the demo once. The first file to ask runs it; the others —
 * parallel workers of the same `deno test` process, or later files of a
 * serial run — wait on a file lock and read its result.
 *
 * The output folder is keyed by the test process id (every worker of one
 * `deno test` shares it) and left in place for the other files; folders of
 * test processes that have ended are removed when the next run starts.
 */
import { join } from "node:path";
import { tmpdir } from "node:os";

/** What one demo run wrote and printed. */
export interface DemoRun {
  /** The `--out` folder. */
  out: string;
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

const PREFIX = "signalbook-test-demo-";
let mine: Promise<DemoRun> | undefined;

/** The shared demo run (see the module doc). */
export function demoRun(): Promise<DemoRun> {
  return mine ??= run();
}

async function run(): Promise<DemoRun> {
  const dir = join(tmpdir(), `${PREFIX}${Deno.pid}`);
  await Deno.mkdir(dir, { recursive: true });
  const lock = await Deno.open(`${dir}/lock`, { create: true, write: true });
  await lock.lock(true);
  try {
    const saved = `${dir}/result.json`;
    try {
      return JSON.parse(await Deno.readTextFile(saved));
    } catch {
      // not run yet in this test process
    }
    await removeEnded();
    const out = `${dir}/out`;
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "demo", "--out", out],
      stdout: "piped",
      stderr: "piped",
      env: { PITCH_API_KEY: "", INSIDER_API_KEY: "" },
    }).output();
    const dec = new TextDecoder();
    const result: DemoRun = {
      out,
      code: r.code,
      stdout: dec.decode(r.stdout),
      stderr: dec.decode(r.stderr),
    };
    await Deno.writeTextFile(saved, JSON.stringify(result));
    return result;
  } finally {
    await lock.unlock();
    lock.close();
  }
}

/** Removes the demo folders of test processes that are gone. */
async function removeEnded(): Promise<void> {
  for await (const e of Deno.readDir(tmpdir())) {
    const pid = e.isDirectory && e.name.startsWith(PREFIX) ? e.name.slice(PREFIX.length) : "";
    if (!/^\d+$/.test(pid) || Number(pid) === Deno.pid) continue;
    const alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
    if (!alive) await Deno.remove(join(tmpdir(), e.name), { recursive: true }).catch(() => {});
  }
}
