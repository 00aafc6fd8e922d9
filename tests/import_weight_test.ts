/**
 * What every process that imports signalbook loads: the static import graph
 * of mod.ts (dynamic `import()`s left out, as they load only when reached)
 * holds none of the packages whose weight a first cell would pay for nothing.
 * Each was measured in a fresh process after nodejs-polars (RSS added by the
 * import alone): stdlib's t quantile about 11 MiB (a hundred packages; jStat
 * replaces it), linkedom's main entry about 12 MiB (its one-file `worker`
 * build about 3), jsdom about 34; DuckDB loads at the first `query()`.
 */
import assert from "node:assert/strict";
import { denoInfo } from "./_deno_info.ts";

/** Packages mod.ts must not import statically, with the reason. */
const HEAVY: [RegExp, string][] = [
  [/^npm:@stdlib\//, "stdlib: jStat's quantiles (lib/backtest/_quantiles.ts) replace it"],
  [/^npm:jsdom@/, "jsdom: charts draw into linkedom"],
  [/^npm:linkedom@[^/]+$/, "linkedom's main entry: import its one-file build, linkedom/worker"],
  [/^npm:@duckdb\//, "DuckDB: loaded at the first query()"],
];

/**
 * Packages in mod.ts's static graph that only charts (or frames) use:
 * imported there with `import defer` (or for types), so that importing
 * signalbook loads them but evaluates them only at the first chart (or frame). Plot (and the d3 it imports) took
 * about 19 MiB when evaluated, linkedom about 3, resvg's native addon and
 * upng a few more (RSS after importing mod.ts from a folder with no deno.json:
 * 129–135 MiB before, 117–119 after).
 */
const DEFERRED = [
  // nodejs-polars and its native addon, about 34 MiB evaluated: at the first
  // frame, through lib/frames/_polars.ts (issue 53 point 1)
  /^npm:nodejs-polars@/,
  /^npm:@observablehq\/plot@/,
  /^npm:linkedom@/,
  /^npm:@resvg\/resvg-js@/,
  /^npm:upng-js@/,
];

/** Each module of `entry`'s static graph that is a file of this repository. */
function staticLocalModules(entry: string): string[] {
  const info = denoInfo(entry);
  const bySpec = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (s: string) => {
    const m = bySpec.get(s);
    if (seen.has(s) || !m) return;
    seen.add(s);
    for (const d of m.dependencies ?? []) {
      if (!d.isDynamic && d.code && d.code.specifier.startsWith("file:")) visit(d.code.specifier);
    }
  };
  info.roots.forEach(visit);
  return [...seen].filter((s) => s.startsWith("file:"));
}

/** The import statements of `source` that name a package matching `re`, and are neither deferred nor type-only. */
function eagerImports(source: string, res: readonly RegExp[]): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^import\s+([^;]*?)\s+from\s+"([^"]+)";/gms)) {
    const [statement, clause, spec] = m;
    if (!res.some((re) => re.test(spec))) continue;
    if (/^(defer\s+\*\s+as\s+\w+|type\s)/.test(clause)) continue;
    found.push(statement.replace(/\s+/g, " "));
  }
  return found;
}

function staticNpmImports(entry: string): string[] {
  const info = denoInfo(entry);
  const bySpec = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const npm = new Set<string>();
  const visit = (s: string) => {
    const m = bySpec.get(s);
    if (seen.has(s) || !m) return;
    seen.add(s);
    for (const d of m.dependencies ?? []) {
      if (d.isDynamic) continue;
      if (d.specifier.startsWith("npm:")) npm.add(d.specifier);
      else if (d.code) visit(d.code.specifier);
    }
  };
  info.roots.forEach(visit);
  assert.ok(seen.size > 50, `mod.ts's graph read: ${seen.size} modules`);
  return [...npm].sort();
}

Deno.test("mod.ts imports statically none of the packages a first cell does not need", () => {
  const npm = staticNpmImports("mod.ts");
  const found = npm.flatMap((s) =>
    HEAVY.filter(([re]) => re.test(s)).map(([, why]) => `${s} (${why})`)
  );
  assert.deepEqual(found, []);
  assert.ok(npm.includes("npm:nodejs-polars@0.25.2"), npm.join(", "));
  assert.ok(npm.includes("npm:linkedom@0.18.12/worker"), npm.join(", "));
});

Deno.test("the chart-only packages and nodejs-polars are imported with import defer: evaluated when first used", () => {
  const modules = staticLocalModules("mod.ts");
  assert.ok(modules.length > 50, `mod.ts's graph read: ${modules.length} modules`);
  const eager = modules.flatMap((url) =>
    eagerImports(Deno.readTextFileSync(new URL(url)), DEFERRED).map((s) =>
      `${url.slice(url.indexOf("/lib/") + 1)}: ${s}`
    )
  );
  assert.deepEqual(eager, []);
  // the rule reads import statements as written
  assert.deepEqual(
    eagerImports(
      'import * as Plot from "npm:@observablehq/plot@0.6.17";\n' +
        'import defer * as P from "npm:@observablehq/plot@0.6.17";\n' +
        'import type * as T from "npm:@observablehq/plot@0.6.17";\n' +
        'import {\n  parseHTML,\n} from "npm:linkedom@0.18.12/worker";\n' +
        'import pl from "npm:nodejs-polars@0.25.2";',
      DEFERRED,
    ),
    [
      'import * as Plot from "npm:@observablehq/plot@0.6.17";',
      'import { parseHTML, } from "npm:linkedom@0.18.12/worker";',
      'import pl from "npm:nodejs-polars@0.25.2";',
    ],
  );
});
