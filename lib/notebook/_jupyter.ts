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

/** Why Jupyter cannot run here, or null when it can. */
export async function jupyterMissing(): Promise<string | null> {
  try {
    const out = await new Deno.Command(python(), {
      args: [
        "-c",
        "import nbclient, nbformat, jupyter_client.kernelspec as k; print('deno' in k.KernelSpecManager().find_kernel_specs())",
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) return `${python()} cannot import nbclient/nbformat/jupyter_client`;
    if (new TextDecoder().decode(out.stdout).trim() !== "True") {
      return "the Deno kernel is not installed (deno jupyter --install)";
    }
    return null;
  } catch {
    return `${python()} was not found`;
  }
}

/** What one execution found: code cells, and the error outputs (cell counts code cells from 1). */
export interface ExecuteSummary {
  /** Code cells in the notebook. */
  cells: number;
  /** Error outputs, in order. */
  errors: { cell: number; ename: string; evalue: string }[];
  /** The kernel's peak resident memory, MiB (Linux `VmHWM` after the last cell); null where not measured. */
  kernelPeakMb?: number | null;
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
  options: number | ExecuteOptions = {},
): Promise<ExecuteSummary> {
  const opts = typeof options === "number" ? { timeoutS: options } : options;
  const env = { ...Deno.env.toObject() };
  if (!opts.keepKeys) {
    for (const k of ["PITCH_API_KEY", "PITCH_BASE_URL", "INSIDER_API_KEY", "INSIDER_BASE_URL"]) {
      delete env[k];
    }
  }
  env.NO_COLOR = "1"; // committed outputs carry no ANSI escape codes
  const out = await new Deno.Command(python(), {
    args: [
      new URL("./execute.py", import.meta.url).pathname,
      src,
      dst,
      String(opts.timeoutS ?? 600),
      ...(opts.stopOnError ? ["--stop-on-error"] : []),
    ],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`executing ${src} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  const last = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as ExecuteSummary;
}
