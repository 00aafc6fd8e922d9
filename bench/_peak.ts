/**
 * Peak resident memory of a whole child process (Linux): the parent reads
 * the child's `VmHWM` (its high-water mark, which only grows) every 50 ms
 * until it exits. The last reading can miss growth in the final 50 ms, so a
 * figure is a lower bound within that window.
 *
 * @module
 */

/**
 * The peak resident memory so far (Linux `VmHWM`, which only grows) of this
 * process or of process `pid`, MiB; NaN where it cannot be read (another OS,
 * a process that has exited).
 */
export function peakMb(pid: number | "self" = "self"): number {
  try {
    const s = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = Number(/VmHWM:\s+(\d+)/.exec(s)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** What {@link runWithPeak} measured. */
export interface PeakRun {
  /** Exit code. */
  code: number;
  /** Peak RSS, MiB (NaN where /proc is missing). */
  peakMb: number;
  /** Wall time, s. */
  seconds: number;
  /** The child's stderr (for failures). */
  stderr: string;
}

/** Runs `deno <args>` with `env` and reports its exit code, peak RSS and time. */
export async function runWithPeak(
  args: readonly string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<PeakRun> {
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [...args],
    clearEnv: true,
    env,
    cwd,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let peakMb_ = NaN;
  const read = () => {
    const mb = peakMb(child.pid);
    if (!Number.isNaN(mb)) peakMb_ = Math.max(Number.isNaN(peakMb_) ? 0 : peakMb_, mb);
  };
  const timer = setInterval(read, 50);
  const out = await child.output();
  clearInterval(timer);
  return {
    code: out.code,
    peakMb: peakMb_,
    seconds: (performance.now() - t0) / 1000,
    stderr: new TextDecoder().decode(out.stderr),
  };
}
