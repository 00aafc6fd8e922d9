/**
 * The catalog as JSON text, for the world cache: written beside the world
 * it was made from, read back at the first catalog request, so a process
 * does not build the catalog again (building it grows the V8 heap by
 * tens of MB of short-lived objects; parsing the text does not).
 *
 * Only a catalog that JSON gives back exactly is stored: every number
 * finite, no `undefined` value, only plain objects and arrays
 * ({@link storeCatalog} returns null otherwise, and the catalog is then
 * built at first use as before). A −0 (a return rounded from a tiny loss)
 * comes back as 0: every comparison, sort and answer treats them alike.
 *
 * @module
 */
import { type CatalogData, catalogOf } from "./catalog_data.ts";

/**
 * The catalog as JSON text, or null when some value would not come back
 * exactly (see the module doc).
 *
 * @example
 * ```ts
 * import { loadCatalog, storeCatalog } from "./stored_catalog.ts";
 * import { makeCatalogData } from "./catalog_data.ts";
 * import { openWorld } from "../world_cache.ts";
 * const made = makeCatalogData(openWorld({ seed: 1, scale: 0.05, cache: false }).world);
 * const back = loadCatalog(storeCatalog(made)!);
 * console.log(back.pitches.length === made.pitches.length, back.byId.size > 0); // true true
 * ```
 */
export function storeCatalog(d: CatalogData): string | null {
  const plain = {
    authors: d.authors,
    pitches: d.pitches,
    slugType: [...d.slugType],
    tagTypes: d.tagTypes,
    filterSets: d.filterSets,
    following: [...d.following],
    access: [...d.access],
  };
  return exact(plain) ? JSON.stringify(plain) : null;
}

/** The catalog from {@link storeCatalog}'s text. */
export function loadCatalog(text: string): CatalogData {
  const p = JSON.parse(text);
  return catalogOf({
    authors: p.authors,
    pitches: p.pitches,
    slugType: new Map(p.slugType),
    tagTypes: p.tagTypes,
    filterSets: p.filterSets,
    following: new Set(p.following),
    access: new Set(p.access),
  });
}

/** Whether JSON gives `v` back exactly. */
function exact(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return Array.from(v).every(exact); // a hole is undefined: not exact
  if (typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.values(v as Record<string, unknown>).every(exact);
}
