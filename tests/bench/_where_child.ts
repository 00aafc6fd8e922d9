/**
 * Child of `first_cell_outside_test.ts`: prints where it ran and whether the
 * repository's configuration applied (its import map resolves the bare name
 * `hono`; without a configuration nothing does), as one JSON line.
 *
 * @module
 */
import { DEMO_LABEL } from "../../lib/shared/demo.ts";

let importMap = true;
try {
  import.meta.resolve("hono");
} catch {
  importMap = false;
}
console.log(
  JSON.stringify({ cwd: Deno.cwd(), main: import.meta.url, label: DEMO_LABEL, importMap }),
);
