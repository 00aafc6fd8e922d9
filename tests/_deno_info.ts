/**
 * The module graph of one entry as `deno info --json` prints it, read from
 * the repository root. Shared by the tests that walk the import graph
 * (`architecture_test.ts`, `import_weight_test.ts`).
 */

/** One import of a module: its text, where it resolved, whether dynamic. */
export interface InfoDependency {
  specifier: string;
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}

/** What `deno info --json` prints: the roots and every module reached. */
export interface DenoInfo {
  roots: string[];
  modules: { specifier: string; dependencies?: InfoDependency[] }[];
}

/** The graph of `entry` (a path from the repository root); throws naming it if deno fails. */
export function denoInfo(entry: string): DenoInfo {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: new URL("../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`deno info ${entry}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout)) as DenoInfo;
}
