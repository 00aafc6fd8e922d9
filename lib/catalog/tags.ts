/**
 * The tag vocabulary as a typed tree with lookups by type key and slug.
 *
 * @module
 */
import type { Tag, TagType } from "./types.ts";

/**
 * The tag tree served by `/tags`.
 *
 * @example
 * ```ts
 * import { connect } from "../../mod.ts";
 * const { catalog } = await connect();
 * const tags = await catalog.tags();
 * console.log(tags.slugs("sector_industry").slice(0, 3));
 * ```
 */
export class Tags {
  /** Types in service order. */
  readonly types: readonly TagType[];
  #bySlug = new Map<string, Tag>();
  /** Wraps the `/tags` data. */
  constructor(types: readonly TagType[]) {
    this.types = types;
    const walk = (tags: Tag[]) => {
      for (const t of tags) {
        this.#bySlug.set(t.slug, t);
        if (t.children) walk(t.children);
      }
    };
    for (const t of types) walk(t.tags);
  }
  /** Every slug of a type, children included, in tree order. */
  slugs(typeKey: string): string[] {
    const type = this.types.find((t) => t.tagTypeKey === typeKey);
    if (!type) {
      throw new RangeError(
        `tag type ${JSON.stringify(typeKey)} does not exist; allowed: ${
          this.types.map((t) => t.tagTypeKey).join(", ")
        }`,
      );
    }
    const out: string[] = [];
    const walk = (tags: Tag[]) => {
      for (const t of tags) {
        out.push(t.slug);
        if (t.children) walk(t.children);
      }
    };
    walk(type.tags);
    return out;
  }
  /** The tag of a slug, if known. */
  find(slug: string): Tag | undefined {
    return this.#bySlug.get(slug);
  }
  /** Type key of a slug, if known. */
  typeOf(slug: string): string | undefined {
    return this.#bySlug.get(slug)?.tagTypeKey;
  }
}
