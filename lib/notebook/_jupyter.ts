/**
 * Finding and driving Jupyter for notebook execution: Debian's own python3
 * (not a pyenv one) with nbclient, and the Deno kernel.
 *
 * @module
 */

/** The python3 that has nbclient: `SIGNALBOOK_PYTHON`, else Debian's /usr/bin/python3. */
export function python(): string {
  return Deno.env.get("SIGNALBOOK_PYTHON") ?? "/usr/bin/python3";
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

/** Executes `src` into `dst` through nbclient; throws with its stderr on failure. */
export async function execute(src: string, dst: string, timeoutS = 600): Promise<void> {
  const env = { ...Deno.env.toObject() };
  for (const k of ["PITCH_API_KEY", "PITCH_BASE_URL", "INSIDER_API_KEY", "INSIDER_BASE_URL"]) {
    delete env[k];
  }
  env.NO_COLOR = "1"; // committed outputs carry no ANSI escape codes
  const out = await new Deno.Command(python(), {
    args: [new URL("./execute.py", import.meta.url).pathname, src, dst, String(timeoutS)],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`executing ${src} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
}
