/**
 * `deno task -q <args>` of this repository in a child process, offline (no
 * keys, so the emulator answers) and without colour: its exit code and its
 * output, as the CLI tests read them.
 *
 * @module
 */

/** A finished `deno task` run. */
export interface TaskRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno task -q ...args` with the keys unset; resolves when it has ended. */
export async function task(args: string[]): Promise<TaskRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", ...args],
    stdout: "piped",
    stderr: "piped",
    env: { PITCH_API_KEY: "", INSIDER_API_KEY: "", NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
