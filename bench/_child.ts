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
  return await lastJsonLine<T>({
    args: ["run", "-A", ...flags, new URL(script, import.meta.url).pathname, ...args.map(String)],
    // an environment given is the whole environment (see `childEnv` in _table.ts)
    ...(env ? { clearEnv: true, env } : {}),
  }, failed);
}

/** Runs Deno with `options` and returns the JSON of the last line it prints; throws `Error(failed)` when it fails. */
export async function lastJsonLine<T>(options: Deno.CommandOptions, failed: string): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    ...options,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(failed);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines[lines.length - 1]) as T;
}

/** The names Deno (or npm) would read as a project's configuration in a folder. */
const PROJECT_FILES = ["deno.json", "deno.jsonc", "package.json"];

/**
 * The first project file (`deno.json`, `deno.jsonc`, `package.json`) in
 * `dir` or a folder above it, or undefined: where there is none, `deno run`
 * of a script in `dir` runs without a configuration, as a user's own script
 * in a folder of their own does.
 */
export function projectFileAbove(dir: string): string | undefined {
  for (let d = dir.replace(/\/+$/, "") || "/";; d = d.slice(0, d.lastIndexOf("/")) || "/") {
    for (const name of PROJECT_FILES) {
      const path = `${d === "/" ? "" : d}/${name}`;
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch { /* not there */ }
    }
    if (d === "/") return undefined;
  }
}

/**
 * `source` (a script's text read from `base`) with each relative module
 * specifier (`"./x.ts"`, `"../mod.ts"`, in `from` clauses and `import()`
 * calls) made an absolute `file:` URL, so that the script runs the same
 * from any folder: as a user's script imports signalbook by path.
 */
export function withAbsoluteImports(source: string, base: URL): string {
  return source.replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(["'])(\.\.?\/[^"']+)\2/g,
    (_, head: string, q: string, spec: string) => `${head}${q}${new URL(spec, base).href}${q}`,
  );
}

/**
 * Runs `bench/<script>` as {@link runChild} does, from a new folder outside
 * the repository with no project file in it or above it (the script copied
 * there, its relative imports made absolute): as a notebook or script in a
 * user's own folder runs signalbook, without the repository's deno.json and
 * lockfile. Throws when a project file would be found there.
 */
export async function runChildOutside<T>(
  script: string,
  args: readonly (string | number)[],
  failed: string,
  env: Record<string, string>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "sb-user-folder-" });
  try {
    const found = projectFileAbove(dir);
    if (found) throw new Error(`${failed}: ${found} would configure the child in ${dir}`);
    const from = new URL(script, import.meta.url);
    const copy = `${dir}/${from.pathname.split("/").pop()}`;
    await Deno.writeTextFile(copy, withAbsoluteImports(await Deno.readTextFile(from), from));
    return await lastJsonLine<T>(
      { args: ["run", "-A", copy, ...args.map(String)], cwd: dir, clearEnv: true, env },
      failed,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
