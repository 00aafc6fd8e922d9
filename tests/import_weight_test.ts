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
