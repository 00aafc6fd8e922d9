/**
 * `deno task notebooks`: re-executes every notebook in `notebooks/` in place
 * through real Jupyter, so the committed outputs are fresh.
 *
 * @module
 */
import { execute, jupyterMissing } from "../notebook/_jupyter.ts";

/**
 * `deno task notebooks [NAME…]`: re-executes every notebook, or only those
 * whose file name starts with one of the given names (`02`, `05-insider`).
 */
export async function main(args: string[] = Deno.args): Promise<void> {
  const missing = await jupyterMissing();
  if (missing) {
    console.error(
      `notebooks: ${missing}. Install: apt-get install python3-nbclient python3-nbformat jupyter-client && deno jupyter --install`,
    );
    Deno.exit(1);
  }
  const dir = new URL("../../notebooks/", import.meta.url).pathname;
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".ipynb"))
    .filter((n) => args.length === 0 || args.some((a) => n.startsWith(a))).sort();
  if (names.length === 0) {
    console.error(`notebooks: no notebook matches ${args.join(" ")}`);
    Deno.exit(2);
  }
  for (const name of names) {
    const t0 = performance.now();
    await execute(dir + name, dir + name);
    console.log(`${name}: executed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

if (import.meta.main) await main();
