/**
 * The tag vocabulary as a typed tree with lookups by type key and slug.
 *
 * @module
 */
import type { Tag, TagType } from "./types.ts";

/** Tags and their children, each tag before its children. */
function* inTreeOrder(tags: readonly Tag[]): Generator<Tag> {
  for (const t of tags) {
    yield t;
    if (t.children) yield* inTreeOrder(t.children);
  }
}

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
    for (const type of types) for (const t of inTreeOrder(type.tags)) this.#bySlug.set(t.slug, t);
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
    return [...inTreeOrder(type.tags)].map((t) => t.slug);
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
