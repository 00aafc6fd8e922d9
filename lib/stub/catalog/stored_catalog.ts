/**
 * The catalog as bytes, for the world cache: written beside the world it
 * was made from, read back at the first catalog request, so a process does
 * not build the catalog again (building it grows the V8 heap by tens of MB
 * of short-lived objects; reading the bytes does not).
 *
 * The bytes are V8's structured serialization (`node:v8`, already loaded by
 * the frames): every value comes back exactly (a −0 return, a NaN, an
 * undefined), the maps and sets as maps and sets, so every catalog can be
 * stored. (Before world cache version 11 the catalog was JSON text, stored
 * only when JSON gave it back exactly.)
 *
 * @module
 */
import { deserialize, serialize } from "node:v8";
import { type CatalogData, catalogOf, type CatalogParts } from "./catalog_data.ts";

/**
 * The catalog's data as bytes (its lookups are made again when it is read).
 *
 * @example
 * ```ts
 * import { loadCatalog, storeCatalog } from "./stored_catalog.ts";
 * import { makeCatalogData } from "./catalog_data.ts";
 * import { openWorld } from "../world_cache.ts";
 * const made = makeCatalogData(openWorld({ seed: 1, scale: 0.05, cache: false }).world);
 * const back = loadCatalog(storeCatalog(made));
 * console.log(back.pitches.length === made.pitches.length, back.byId.size > 0); // true true
 * ```
 */
export function storeCatalog(d: CatalogData): Uint8Array {
  const { byId: _byId, locked: _locked, ...parts } = d;
  const bytes = serialize(parts);
  // a plain Uint8Array view: the world file holds typed arrays of the types it declares
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The catalog from {@link storeCatalog}'s bytes. */
export function loadCatalog(bytes: Uint8Array): CatalogData {
  return catalogOf(deserialize(bytes) as CatalogParts);
}
