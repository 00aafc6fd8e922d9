/**
 * The catalog's nested objects whose keys its spec leaves open, read by
 * structure with a documented set of names; a shape outside them is an
 * `InvalidResponseError` naming the object, the key and the value
 * (described), never a null in silence.
 *
 * **Archive of a pitch detail** (`available`, the formats, `has_attachment`,
 * a request flag "whose name is not shown"). Keys are matched spelling-free
 * (case, `_` and `-` ignored). Values by the grammars of `shared/values/`.
 *
 * | Point | Names | Shapes read |
 * | - | - | - |
 * | snapshot ready | `available`, `is_available`, `ready` | boolean grammar |
 * | formats | `formats`, `available_formats`, `document_formats`, `format_list` | a list of format names; a list of objects each naming its format (`format`, `type`, `name`, `kind`); an object keyed by format (value `true`/an object: present; `false`/`null`: absent); names joined by `,` `;` `\|` or blanks. Names are `pdf`, `mhtml`, `md` in any case (`markdown` is `md`) |
 * | attachment | `has_attachment`, `attachment`, `has_attachments` | boolean grammar |
 * | request flag | the one key whose name contains `request` (`requested`, `archive_requested`, `isRequested`, `requested_at`, …) | boolean grammar; a timestamp (`requested_at`: when) is `true`, null is `false` |
 * | snapshots | `snapshots` | kept as sent |
 *
 * Two keys naming the request flag, an unknown format name or a value of
 * another shape: `InvalidResponseError`.
 *
 * **Criteria of a saved filter set** ("exact nesting not shown"): read to
 * `{ tags?: { any }, tagsByType?, noneOf }`.
 *
 * | Point | Names | Shapes read |
 * | - | - | - |
 * | any of these tags | one of `tags`, `tags_any`, `any`, `any_of`, `slugs`, `tag_slugs` | a list of slugs, or an object with `any`/`any_of`/`slugs` alone |
 * | tags by type | `tags_by_type`, `by_type`, `types` | an object type key → list of slugs (or `{ any: [...] }`); or a list of objects with a type key (`tag_type_key`, `type_key`, `type`) and slugs (`slugs`, `tags`, `any`) |
 * | inverted types | `none_of`, `none`, `exclude`, `excluded`, `not`, `inverted` | a list of type keys (absent: none) |
 *
 * Any other key in `criteria`, or a value of another shape, is an
 * `InvalidResponseError` naming it: a criterion the client cannot read
 * would change which pitches a set selects.
 *
 * **Children of a tag** (sectors nest industries): under `children`,
 * `subtags`, `sub_tags`, `tags`, `items`, `industries` or `nodes`, as a
 * list of tags or an object keyed by slug (values: tag objects or labels).
 * A child that is not a tag (no slug) is an `InvalidResponseError`.
 *
 * @module
 */
import { InvalidResponseError } from "../http/errors.ts";
import { badValue, findKey, isObject, type JsonObject } from "../http/_envelope.ts";
import { normKey } from "../shared/field_keys.ts";
import { GRAMMARS, IGNORE, readValue, UNREADABLE } from "../shared/values/mod.ts";
import type { FilterSet, PitchArchive } from "./types.ts";
import { DOCUMENT_FORMATS, type DocumentFormat } from "./vocab.ts";

const squash = (k: string) => normKey(k).replaceAll("-", "");

/** `findKey` on `v` that adds each key it finds to `used`. */
function taker(v: JsonObject, used: Set<string>): (names: readonly string[]) => string | undefined {
  return (names) => {
    const k = findKey(v, names);
    if (k !== undefined) used.add(k);
    return k;
  };
}

const DETAIL = "GET /pitches/{id}";

function formatName(x: unknown, where: string): DocumentFormat {
  const s = typeof x === "string" ? x.trim().toLowerCase() : undefined;
  const f = s === "markdown" ? "md" : s;
  if (f === undefined || !(DOCUMENT_FORMATS as readonly string[]).includes(f)) {
    throw badValue(DETAIL, where, `a format name (${DOCUMENT_FORMATS.join(", ")})`, x);
  }
  return f as DocumentFormat;
}

const FORMAT_KEYS = ["format", "type", "name", "kind"];

function formats(v: unknown, where: string): DocumentFormat[] | null {
  if (v === null || v === undefined) return null;
  let out: DocumentFormat[];
  if (Array.isArray(v)) {
    out = v.map((x, i) => {
      if (isObject(x)) {
        const k = findKey(x, FORMAT_KEYS);
        if (k === undefined) {
          throw badValue(DETAIL, `${where}[${i}]`, "an object naming its format", x);
        }
        return formatName(x[k], `${where}[${i}].${k}`);
      }
      return formatName(x, `${where}[${i}]`);
    });
  } else if (isObject(v)) {
    out = [];
    for (const [k, x] of Object.entries(v)) {
      const f = formatName(k, `${where} key`);
      const present = isObject(x) ? true : readValue(GRAMMARS.boolean, x, IGNORE);
      if (present === UNREADABLE) {
        throw badValue(DETAIL, `${where}.${k}`, "true, false or an object", x);
      }
      if (present) out.push(f);
    }
  } else if (typeof v === "string") {
    out = v.trim() === "" ? [] : v.trim().split(/\s*[,;|]\s*|\s+/).map((x) => formatName(x, where));
  } else throw badValue(DETAIL, where, "a list of format names", v);
  return [...new Set(out)];
}

/**
 * The flag at `v[k]` by the boolean grammar: null when `k` is absent or the
 * value null; a value it cannot read is loud, never a default in silence.
 */
export function boolAt(
  endpoint: string,
  where: string,
  v: JsonObject,
  k: string | undefined,
): boolean | null {
  const r = k === undefined ? null : readValue(GRAMMARS.boolean, v[k], IGNORE);
  if (r === UNREADABLE) throw badValue(endpoint, `${where}.${k}`, "a boolean", v[k!], { field: k });
  return r;
}

/**
 * The archive object of a pitch detail, read by structure (module doc);
 * null stays null (a locked pitch).
 */
export function readArchive(v: unknown): PitchArchive | null {
  if (v === null || v === undefined) return null;
  if (!isObject(v)) throw badValue(DETAIL, "archive", "an object", v);
  const where = "archive";
  const requestKeys = Object.keys(v).filter((k) => squash(k).includes("request"));
  if (requestKeys.length > 1) {
    throw new InvalidResponseError(
      `${DETAIL}: archive has ${requestKeys.length} keys naming the request flag (${
        requestKeys.map((k) => JSON.stringify(k)).join(", ")
      }); the client reads one`,
      { endpoint: DETAIL, field: "archive.requested", expected: "one request flag" },
    );
  }
  let requested: boolean | null = null;
  if (requestKeys.length === 1) {
    const k = requestKeys[0];
    const x = v[k];
    if (x === null || x === undefined) requested = squash(k).endsWith("at") ? false : null;
    else {
      const b = readValue(GRAMMARS.boolean, x, IGNORE);
      const t = b === UNREADABLE ? readValue(GRAMMARS.timestamp, x, IGNORE) : null;
      if (b === UNREADABLE && (t === UNREADABLE || t === null)) {
        throw badValue(DETAIL, `${where}.${k}`, "a boolean or the timestamp of the request", x);
      }
      requested = b === UNREADABLE ? true : b;
    }
  }
  const used = new Set<string>(requestKeys);
  const at = taker(v, used);
  const bool = (names: readonly string[]) => boolAt(DETAIL, where, v, at(names));
  const available = bool(["available", "is_available", "ready"]);
  const fk = at(["formats", "available_formats", "document_formats", "format_list"]);
  const snapshots = at(["snapshots"]);
  const out = {
    available,
    formats: fk === undefined ? null : formats(v[fk], `${where}.${fk}`),
    has_attachment: bool(["has_attachment", "attachment", "has_attachments"]),
    requested,
    snapshots: snapshots === undefined ? null : v[snapshots],
  };
  // keys the spec does not name are kept as sent
  const rest = Object.fromEntries(Object.entries(v).filter(([k]) => !used.has(k)));
  return { ...rest, ...out } as unknown as PitchArchive;
}

const FILTER_SETS = "GET /filter-sets";
const ANY = ["any", "any_of", "slugs"];
const TOP_ANY = ["tags", "tags_any", "any", "any_of", "slugs", "tag_slugs"];
const BY_TYPE = ["tags_by_type", "by_type", "types"];
const NONE = ["none_of", "none", "exclude", "excluded", "not", "inverted"];
const TYPE_KEY = ["tag_type_key", "type_key", "type"];
const SLUGS = ["slugs", "tags", "any"];

function slugList(v: unknown, where: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
    throw badValue(FILTER_SETS, where, "a list of slugs", v);
  }
  return v as string[];
}

/** Slugs as a list, or as an object naming them under `any` (with no other key when `alone`). */
function anySlugs(x: unknown, where: string, alone = false): string[] {
  if (!isObject(x)) return slugList(x, where);
  const k = findKey(x, ANY);
  if (k === undefined || (alone && Object.keys(x).some((y) => y !== k))) {
    const expected = alone ? `an object with "any" alone` : "a list of slugs or { any }";
    throw badValue(FILTER_SETS, where, expected, x);
  }
  return slugList(x[k], `${where}.${k}`);
}

/** The criteria of a saved filter set, read by structure (module doc). */
export function readCriteria(v: unknown, set: number): FilterSet["criteria"] {
  const where = `filter set ${set} criteria`;
  if (!isObject(v)) throw badValue(FILTER_SETS, where, "an object", v);
  const out: FilterSet["criteria"] = { noneOf: [] };
  const known = new Set<string>();
  const take = taker(v, known);
  // one list of tags (a second under another name is not a criterion the client reads)
  const anyKey = take(TOP_ANY);
  if (anyKey !== undefined) out.tags = { any: anySlugs(v[anyKey], `${where}.${anyKey}`, true) };
  const byKey = take(BY_TYPE);
  if (byKey !== undefined) {
    const b = v[byKey];
    const by: Record<string, string[]> = {};
    if (isObject(b)) {
      for (const [type, x] of Object.entries(b)) {
        by[type] = anySlugs(x, `${where}.${byKey}.${type}`);
      }
    } else if (Array.isArray(b)) {
      b.forEach((x, i) => {
        const w = `${where}.${byKey}[${i}]`;
        const tk = isObject(x) ? findKey(x, TYPE_KEY) : undefined;
        const sk = isObject(x) ? findKey(x, SLUGS) : undefined;
        if (!isObject(x) || tk === undefined || sk === undefined || typeof x[tk] !== "string") {
          throw badValue(FILTER_SETS, w, "an object with a type key and its slugs", x);
        }
        by[x[tk] as string] = slugList(x[sk], `${w}.${sk}`);
      });
    } else throw badValue(FILTER_SETS, `${where}.${byKey}`, "an object of slug lists by type", b);
    out.tagsByType = by;
  }
  const noneKey = take(NONE);
  if (noneKey !== undefined && v[noneKey] !== null) {
    out.noneOf = slugList(v[noneKey], `${where}.${noneKey}`);
  }
  const unknown = Object.keys(v).filter((k) => !known.has(k));
  if (unknown.length) {
    throw new InvalidResponseError(
      `${FILTER_SETS}: ${where} has ${
        unknown.map((k) => JSON.stringify(k)).join(", ")
      }, not a criterion the client reads (tags, tags_by_type, none_of and the names of lib/catalog/_nested.ts); ` +
        `reading the rest alone would change which pitches the set selects`,
      { endpoint: FILTER_SETS, field: `${where}.${unknown[0]}`, expected: "a known criterion" },
    );
  }
  return out;
}

const CHILDREN = ["children", "subtags", "sub_tags", "tags", "items", "industries", "nodes"];

/**
 * The children of a tag (module doc) as raw tag objects, or undefined when
 * it has none; `tagOf` reads each. Throws for a child that is not a tag.
 */
export function childrenOf(
  t: JsonObject,
  slug: string,
): { key: string; items: JsonObject[] } | undefined {
  const k = findKey(t, CHILDREN);
  if (k === undefined || t[k] === null) return undefined;
  const v = t[k];
  const where = `tag ${JSON.stringify(slug)} ${k}`;
  let items: JsonObject[];
  if (Array.isArray(v)) {
    items = v.map((x, i) => {
      if (!isObject(x) || typeof x[findKey(x, ["slug"]) ?? "slug"] !== "string") {
        throw badValue("GET /tags", `${where}[${i}]`, "a tag (an object with a slug)", x);
      }
      return x;
    });
  } else if (isObject(v)) {
    items = Object.entries(v).map(([childSlug, x]) => {
      if (typeof x === "string") return { slug: childSlug, label: x };
      if (isObject(x)) return { slug: childSlug, ...x };
      throw badValue("GET /tags", `${where}.${childSlug}`, "a tag object or its label", x);
    });
  } else throw badValue("GET /tags", where, "a list of tags or an object of tags by slug", v);
  return { key: k, items };
}
