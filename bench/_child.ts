/**
 * One way for a benchmark to run a child script in its own process (so each
 * measurement has a fresh heap and its own peak RSS).
 *
 * @module
 */

/**
 * Runs `deno run -A [v8Flags] bench/<script> args…` (with only `env` as its
 * environment when given) and returns the JSON of
 * the last line it prints; throws `Error(failed)` when the child fails.
 */
export async function runChild<T>(
  script: string,
  args: readonly (string | number)[],
  failed: string,
  flags: readonly string[] = [],
  env?: Record<string, string>,
): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, new URL(script, import.meta.url).pathname, ...args.map(String)],
    // an environment given is the whole environment (see `childEnv` in _table.ts)
    ...(env ? { clearEnv: true, env } : {}),
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(failed);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]) as T;
}
