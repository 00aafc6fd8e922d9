/**
 * `deno task notebooks`: re-executes every notebook in `notebooks/` in place
 * through real Jupyter, so the committed outputs are fresh.
 *
 * @module
 */
import { execute, jupyterMissing } from "../notebook/jupyter.ts";

if (import.meta.main) {
  const missing = await jupyterMissing();
  if (missing) {
    console.error(
      `notebooks: ${missing}. Install: apt-get install python3-nbclient python3-nbformat jupyter-client && deno jupyter --install`,
    );
    Deno.exit(1);
  }
  const dir = new URL("../../notebooks/", import.meta.url).pathname;
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".ipynb"))
    .sort();
  for (const name of names) {
    const t0 = performance.now();
    await execute(dir + name, dir + name);
    console.log(`${name}: executed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}
