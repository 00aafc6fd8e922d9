/**
 * One way for a benchmark to run a child script in its own process (so each
 * measurement has a fresh heap and its own peak RSS).
 *
 * @module
 */

/**
 * Runs `deno run -A [v8Flags] bench/<script> args…` and returns the JSON of
 * the last line it prints; throws `Error(failed)` when the child fails.
 */
export async function runChild<T>(
  script: string,
  args: readonly (string | number)[],
  failed: string,
  flags: readonly string[] = [],
): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, new URL(script, import.meta.url).pathname, ...args.map(String)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(failed);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]) as T;
}
