/**
 * The import graph of lib/ keeps the layers of docs/ARCHITECTURE.md: every
 * import points down (or stays inside its area), and no file imports itself
 * through others. The emulator (lib/stub) stands apart: it may use shared/
 * and the resources' shape modules (field catalogs, vocabularies, parameter
 * schemas), never a client, the transport or the frame builder.
 */
import assert from "node:assert/strict";
import { denoInfo } from "./_deno_info.ts";

/** Layer of each area, bottom first (see docs/ARCHITECTURE.md). */
export const LAYERS: Record<string, number> = {
  shared: 0,
  http: 1,
  frames: 2,
  catalog: 3,
  insider: 3,
  families: 4,
  store: 4,
  charts: 5,
  backtest: 6,
  notebook: 7,
  connect: 8,
  doctor: 9,
  cli: 10,
};
const SHAPES = [
  "lib/catalog/vocab.ts",
  "lib/catalog/params.ts",
  // the catalog's response types (type-only), one declaration for the client and the emulator
  "lib/catalog/types.ts",
  "lib/insider/fields.ts",
  "lib/insider/filter.ts",
  "lib/insider/params.ts",
];

const root = new URL("../", import.meta.url).href;
const entries = [
  "mod.ts",
  ...[...Deno.readDirSync(new URL("../lib/cli/", import.meta.url))]
    .filter((e) => e.name.endsWith(".ts")).map((e) => `lib/cli/${e.name}`),
];

function graph(): [string, string][] {
  const edges = new Set<string>();
  for (const entry of entries) {
    const info = denoInfo(entry);
    for (const m of info.modules) {
      if (!m.specifier.startsWith(root + "lib/")) continue;
      for (const d of m.dependencies ?? []) {
        const to = d.code?.specifier ?? d.type?.specifier;
        if (to?.startsWith(root + "lib/")) {
          edges.add(`${m.specifier.slice(root.length)}\u0000${to.slice(root.length)}`);
        }
      }
    }
  }
  return [...edges].map((e) => e.split("\u0000") as [string, string]);
}

const area = (f: string) => f.split("/")[1].replace(/\.ts$/, "");
const edges = graph();

Deno.test("architecture: imports point down the layers", () => {
  const bad = edges.filter(([from, to]) => {
    const a = area(from);
    const b = area(to);
    if (a === b) return false;
    if (a === "stub") return !(b === "shared" || SHAPES.includes(to));
    if (b === "stub") return !(a === "connect" || a === "cli");
    return !(a in LAYERS) || !(b in LAYERS) || LAYERS[b] > LAYERS[a] ||
      (LAYERS[b] === LAYERS[a]);
  });
  assert.deepEqual(bad.map((e) => e.join(" -> ")), []);
  assert.ok(edges.length > 100, `only ${edges.length} edges found`);
});

Deno.test("architecture: no import cycles", () => {
  const adj = new Map<string, string[]>();
  for (const [a, b] of edges) (adj.get(a) ?? adj.set(a, []).get(a)!).push(b);
  const cycles: string[] = [];
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (v: string) => {
    state.set(v, 1);
    stack.push(v);
    for (const w of adj.get(v) ?? []) {
      if (state.get(w) === 1) cycles.push([...stack.slice(stack.indexOf(w)), w].join(" -> "));
      else if (!state.has(w)) visit(w);
    }
    stack.pop();
    state.set(v, 2);
  };
  for (const v of adj.keys()) if (!state.has(v)) visit(v);
  assert.deepEqual(cycles, []);
});
