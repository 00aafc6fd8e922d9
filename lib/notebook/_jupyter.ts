/**
 * Finding and driving Jupyter for notebook execution: Debian's own python3
 * (not a pyenv one) with nbclient, and the Deno kernel.
 *
 * @module
 */
import { envVar } from "../shared/env.ts";

/** The python3 that has nbclient: `SIGNALBOOK_PYTHON`, else Debian's /usr/bin/python3. */
export function python(): string {
  return envVar("SIGNALBOOK_PYTHON");
}

/** Runs `cmd` to its end: success and both outputs as text (`env`: the whole environment). */
async function run(cmd: string, args: string[], env?: Record<string, string>) {
  const clearEnv = env !== undefined;
  const out = await new Deno.Command(cmd, { args, env, clearEnv, stdout: "piped", stderr: "piped" })
    .output();
  const [stdout, stderr] = [out.stdout, out.stderr].map((b) => new TextDecoder().decode(b));
  return { success: out.success, stdout, stderr };
}

/** Why Jupyter cannot run here, or null when it can. */
export async function jupyterMissing(): Promise<string | null> {
  try {
    const out = await run(python(), [
      "-c",
      "import nbclient, nbformat, jupyter_client.kernelspec as k; print('deno' in k.KernelSpecManager().find_kernel_specs())",
    ]);
    if (!out.success) return `${python()} cannot import nbclient/nbformat/jupyter_client`;
    if (out.stdout.trim() !== "True") {
      return "the Deno kernel is not installed (deno jupyter --install)";
    }
    return null;
  } catch {
    return `${python()} was not found`;
  }
}

/**
 * The environment the Deno kernel runs with, from its kernel spec
 * (`kernel.json`'s `env`; `deno jupyter` takes no `--v8-flags`):
 * - `MALLOC_ARENA_MAX=2`: Polars allocates from many threads, and glibc's
 *   default of up to 8 arenas per core keeps freed memory in each; two arenas
 *   give it back.
 * - `DENO_V8_FLAGS=--memory-saver-mode`: V8 grows its heap by less between
 *   collections. A kernel starts with about 80 MiB of live heap of its own
 *   (Deno's bench module), and V8 sizes the room it leaves for garbage from
 *   the live heap, so a pull's parsed pages piled up far past what was
 *   live: notebook 02's kernel peaked 100–200 MiB lower with the flag, and
 *   04's 23k-trade pull took as long (docs/charts-and-notebooks.md).
 * - `--no-maglev` (same variable): no mid-tier compile. Maglev's compile of
 *   a frame's generated row loop (one function reading 174 columns) took
 *   about 50 MiB of native memory at once, at the kernel's first search
 *   frame; without it 02 peaked 15–35 MiB lower, in as much time (TurboFan
 *   still compiles the hot loops).
 * - `--max-semi-space-size=1` (same variable): V8's young generation stays
 *   at 1 MiB a half. With the offline emulator serving from inside the
 *   kernel, a pull's short-lived page texts and rows filled a larger young
 *   generation before each scavenge: notebook 02 peaked at 419 and 421 MiB
 *   with it against 441 and 437 without (two runs each, alternating).
 * - `MALLOC_MMAP_THRESHOLD_=131072`: glibc serves every allocation of
 *   128 KiB or more (Polars' buffers) by its own mapping, returned to the
 *   system when freed. Without it glibc raises that threshold after the
 *   first such free, and later buffers of a frame dropped stay in the
 *   arenas: notebook 04 counted whole (the kernel and its `query()`
 *   process) peaked at 441 and 423 MiB with it against 458 and 454
 *   without (alternating runs of the runner, load 17-19).
 *
 * No V8 heap cap: it would have to be sized against the largest pull a
 * notebook makes, and a kernel over it dies.
 */
export const KERNEL_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  DENO_V8_FLAGS: "--memory-saver-mode,--no-maglev,--max-semi-space-size=1",
};

/**
 * Installs the Deno kernel (`deno jupyter --install --force`) and adds
 * {@link KERNEL_ENV} to its `kernel.json`; returns that file's path. Throws
 * with Deno's message when the install fails.
 */
export async function installKernel(): Promise<string> {
  const out = await run(Deno.execPath(), ["jupyter", "--install", "--force"]);
  const text = out.stdout + out.stderr;
  const dir = /installed successfully at (.+?)\.?\s*$/m.exec(text)?.[1];
  if (!out.success || dir === undefined) {
    throw new Error(`deno jupyter --install failed: ${text.trim()}`);
  }
  const file = `${dir}/kernel.json`;
  const spec = JSON.parse(await Deno.readTextFile(file)) as { env?: Record<string, string> };
  spec.env = { ...spec.env, ...KERNEL_ENV };
  await Deno.writeTextFile(file, JSON.stringify(spec, null, 2) + "\n");
  return file;
}

/** What one execution found: code cells, and the error outputs (cell counts code cells from 1). */
export interface ExecuteSummary {
  /** Code cells in the notebook. */
  cells: number;
  /** Error outputs, in order. */
  errors: { cell: number; ename: string; evalue: string }[];
  /** The kernel's peak resident memory, MiB (Linux `VmHWM` after the last cell); null where not measured. */
  kernelPeakMb?: number | null;
  /**
   * The largest sum of the peaks (`VmHWM`) of the kernel's live child
   * processes (a `query()`'s, any a cell starts), read every 0.1 s while
   * the notebook runs, MiB; 0 when there are none, null where not measured.
   */
  childrenPeakMb?: number | null;
  /**
   * The largest resident memory of the kernel and its child processes
   * together, read every 0.1 s, and at least the kernel's peak, MiB; null
   * where not measured.
   */
  wholePeakMb?: number | null;
}

/** Options of {@link execute}. */
export interface ExecuteOptions {
  /** Seconds a cell may run (default 600). */
  timeoutS?: number;
  /** Stop at the first failing cell, as "Run All" does (default false: run every cell). */
  stopOnError?: boolean;
  /**
   * Keep `PITCH_*` / `INSIDER_*` from the environment (default false: the
   * repo's notebooks always run on the offline emulator; a user's notebook
   * keeps the keys it needs).
   */
  keepKeys?: boolean;
}

/**
 * Executes `src` into `dst` through nbclient with the late-output workaround
 * of execute.py; throws with its stderr when Jupyter itself fails (a cell
 * error is not a failure here: it is in the summary and in `dst`).
 */
export async function execute(
  src: string,
  dst: string,
  opts: ExecuteOptions = {},
): Promise<ExecuteSummary> {
  const env = { ...Deno.env.toObject() };
  if (!opts.keepKeys) {
    for (const k of ["PITCH_API_KEY", "PITCH_BASE_URL", "INSIDER_API_KEY", "INSIDER_BASE_URL"]) {
      delete env[k];
    }
  }
  env.NO_COLOR = "1"; // committed outputs carry no ANSI escape codes
  // the kernel inherits this environment: a kernel spec installed without `deno task notebooks
  // --install` runs with the same allocator settings as one installed with it
  for (const [k, v] of Object.entries(KERNEL_ENV)) env[k] ??= v;
  const out = await run(python(), [
    new URL("./execute.py", import.meta.url).pathname,
    src,
    dst,
    String(opts.timeoutS ?? 600),
    ...(opts.stopOnError ? ["--stop-on-error"] : []),
  ], env);
  if (!out.success) throw new Error(`executing ${src} failed:\n${out.stderr}`);
  const last = out.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as ExecuteSummary;
}
