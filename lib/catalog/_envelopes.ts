/**
 * Every answer form of the pitch catalog that its spec leaves open ("not
 * shown"), named once, in the manner of openai-node's `pagination.ts`. The
 * client methods call these readers and know no envelope themselves.
 *
 * | Endpoint | Open point | Accepted |
 * | - | - | - |
 * | `GET /pitches/{id}` | detail fields | the object itself or wrapped in one object (`data`, `pitch`, …); keys (and the `archive` object's) mapped by meaning to snake_case |
 * | `GET /pitches` | envelope (spec: `data`, `has_more`, `next_cursor`) | also `pitches`, `items`, `results`, `rows` or the only list; flag and cursor in any casing, or one object down; rows and their `pitch` object mapped by meaning to snake_case |
 * | `GET /search` | lists | `authors` and `companies` at the top or one object down (`data`, `results`); items mapped by meaning (`company_id` → `companyId`) |
 * | `GET /tags` | envelope | a list of types (bare or under `data`, `tag_types`, `types`, `tags`, `items`, `results`, `vocabulary`), a flat list of tags carrying their type key (grouped here), or an object grouped by type key (values: lists of tags, or type objects) |
 * | `GET /filter-sets` | envelope | a bare list, or under `data`, `filter_sets`, `sets`, `items`, `results`, or the only list |
 * | `GET /filter-sets` | `criteria` nesting | by structure (`_nested.ts`) |
 * | `GET /pitches/{id}` | `archive` formats and request flag | by structure (`_nested.ts`) |
 * | `GET /tags` | children of a tag | by structure (`_nested.ts`) |
 *
 * A form not listed is an `InvalidResponseError` naming the endpoint, what
 * was expected and the top-level keys received; a vocabulary with no type,
 * or search without both lists, is one too (never an empty answer in
 * silence). Each reader announces the form it recognised (`shape` events on
 * `httpEvents`), which `deno task doctor` prints.
 *
 * Error answers are read by the spec's status table ({@link catalogProblem}):
 *
 * | Status | Error | Meaning |
 * | - | - | - |
 * | `401` | `AuthenticationError` | missing or invalid API key (`PITCH_API_KEY`) |
 * | `403` | `PremiumRequiredError` | problem `type` `premium-required` (any URI form): the membership lapsed |
 * | `403` | `PermissionDeniedError` | any other `type`, `about:blank` or unknown: no access to a paywalled pitch |
 * | `404` | `NotFoundError` | pitch or archive not found (on `/pitches/{id}…`); elsewhere no such route: check `PITCH_BASE_URL` |
 * | `503` | `ServerError` | archive delivery misconfigured or URL signing failed |
 *
 * @module
 */
import {
  errorFor,
  InvalidResponseError,
  type ProblemError,
  type ProblemInit,
  problemTypeIs,
} from "../http/errors.ts";
import { announceShape } from "../http/events.ts";
import {
  describe,
  findKey,
  isObject,
  type JsonObject,
  readList,
  readOne,
  unexpected,
} from "../http/_envelope.ts";
import { KeyIndex } from "../shared/field_keys.ts";
import type { FilterSet, PitchDetail, PitchListRow, SearchResult, Tag, TagType } from "./types.ts";
import { QUALITY_TYPE_KEYS } from "./vocab.ts";
import { boolAt, childrenOf, readArchive, readCriteria } from "./_nested.ts";
import { checkRow, PITCH_COLUMNS } from "./pitch_frames.ts";

const LIST_ROW = new KeyIndex(["pitch_id", "pitch_date", "added_on", "pitch"]);
// the summary fields of a pitch are the pitch frame's columns
const SUMMARY_NAMES = PITCH_COLUMNS.map((c) => c.name);
const SUMMARY = new KeyIndex(SUMMARY_NAMES);

/** A page of `GET /pitches`: rows (each with its `pitch` object) and the next cursor. */
export function pitchPage(
  body: unknown,
): { rows: PitchListRow[]; next: string | null; raw: unknown; cursorKey: string | null } {
  const endpoint = "GET /pitches";
  const page = readList(body, {
    endpoint,
    what: "pitch rows",
    containers: ["data", "pitches", "items", "results", "rows"],
    cursors: ["next_cursor", "next_page_cursor", "next_page_token", "next"],
    flags: ["has_more", "more", "has_next", "has_next_page"],
  });
  if (page.rows.length === 0) {
    return { rows: [], next: page.next, raw: body, cursorKey: page.cursorKey };
  }
  // the first row sets up the fast path; every row is then read on its own terms
  const first = page.rows[0];
  const outer = LIST_ROW.mapFor(first);
  const firstPitch = outer.apply(first).pitch;
  const inner = SUMMARY.mapFor(isObject(firstPitch) ? firstPitch : {});
  let renamed = false;
  const rows = page.rows.map((r, i) => {
    const o = outer.apply(r);
    checkRow(o, `${endpoint}: row ${i} of ${page.rows.length}`, false);
    const p = o.pitch as JsonObject;
    const q = inner.apply(p);
    if (o === r && q === p) return r as unknown as PitchListRow;
    renamed = true;
    return { ...o, pitch: q } as unknown as PitchListRow;
  });
  announceShape({
    endpoint,
    point: "row field names",
    shape: renamed ? "renamed by meaning" : "as declared",
  });
  return { rows, next: page.next, raw: body, cursorKey: page.cursorKey };
}

const DETAIL = new KeyIndex([...SUMMARY_NAMES, "company_id", "author_badge", "archive"]);

/** The pitch of `GET /pitches/{id}`, keys mapped by meaning. */
export function pitchDetail(body: unknown): PitchDetail {
  const pitch = readOne(
    body,
    "GET /pitches/{id}",
    "a pitch object (with pitch_id)",
    (v) => findKey(v, ["pitch_id"]) !== undefined,
  );
  // a service that leaves out null keys: declared fields are null, never undefined
  const out = DETAIL.withNulls({ ...DETAIL.mapFor(pitch).apply(pitch) });
  out.archive = readArchive(out.archive);
  return out as unknown as PitchDetail;
}

const AUTHOR = new KeyIndex(["userId", "username", "displayName", "tier", "badge"]);
const COMPANY = new KeyIndex(["companyId", "ticker", "name", "alternateNames", "sector"]);

/** The `GET /search` result: both lists, items mapped by meaning. */
export function searchResult(body: unknown): SearchResult {
  const endpoint = "GET /search";
  // bare, or wrapped in one object (`data`, `results`): the `detail envelope` form
  const where = readOne(
    body,
    endpoint,
    `two lists "authors" and "companies"`,
    (v) => ["authors", "companies"].every((n) => Array.isArray(v[findKey(v, [n]) ?? n])),
  );
  const list = (name: string, index: KeyIndex) => {
    const items = where[findKey(where, [name])!] as unknown[];
    return items.map((x, i) => {
      if (!isObject(x)) {
        throw new InvalidResponseError(`${endpoint}: ${name} item ${i} is ${describe(x)}`);
      }
      return index.withNulls({ ...index.mapFor(x).apply(x) });
    });
  };
  return {
    authors: list("authors", AUTHOR) as unknown as SearchResult["authors"],
    companies: list("companies", COMPANY) as unknown as SearchResult["companies"],
  };
}

const TYPE_KEY = ["tagTypeKey", "typeKey", "type_key", "key", "type"];
const TAG_LIST = ["tags", "children", "items", "values", "options"];
const LABEL = ["label", "name", "displayName", "title"];
const CLOSED = new Set<string>(QUALITY_TYPE_KEYS);

function str(o: JsonObject, names: readonly string[]): string | undefined {
  const k = findKey(o, names);
  return k !== undefined && typeof o[k] === "string" ? o[k] as string : undefined;
}

/** A tag (and its children) with declared names; null when it has no slug. */
function tagOf(t: unknown, typeKey: string): Tag | null {
  if (!isObject(t)) return null;
  const slug = str(t, ["slug"]);
  if (slug === undefined) return null;
  const kids = childrenOf(t, slug);
  const children = kids?.items.map((c) => tagOf(c, typeKey)!);
  const { [kids?.key ?? ""]: _, ...rest } = t;
  return {
    ...(kids ? rest : t),
    slug,
    tagTypeKey: str(t, TYPE_KEY) ?? typeKey,
    label: str(t, LABEL) ?? slug,
    ...(children ? { children } : {}),
  } as Tag;
}

/** A type object with declared names; null when it is not one. */
function typeOf(t: unknown, key?: string): TagType | null {
  // a tag (it has a slug) is not a type, even with children
  if (!isObject(t) || str(t, ["slug"]) !== undefined) return null;
  const typeKey = key ?? str(t, TYPE_KEY);
  const listKey = findKey(t, TAG_LIST);
  if (typeKey === undefined || listKey === undefined || !Array.isArray(t[listKey])) return null;
  const where = `type ${JSON.stringify(typeKey)}`;
  const closed = boolAt("GET /tags", where, t, findKey(t, ["closed", "is_closed"]));
  // a tag without a slug is no form of this one: never dropped in silence
  const tags = (t[listKey] as unknown[]).map((x) => tagOf(x, typeKey));
  if (tags.includes(null)) return null;
  const label = str(t, LABEL) ?? typeKey;
  return { tagTypeKey: typeKey, label, closed: closed ?? CLOSED.has(typeKey), tags: tags as Tag[] };
}

/** Types from a list of types, or from a flat list of tags carrying their type key. */
function fromList(items: unknown[]): { types: TagType[]; shape: string } | null {
  const types = items.map((x) => typeOf(x));
  if (items.length && types.every((x) => x !== null)) {
    return { types: types as TagType[], shape: "list of types" };
  }
  const keys = items.map((x) => isObject(x) ? str(x, TYPE_KEY) : undefined);
  if (items.length === 0 || keys.includes(undefined)) return null;
  // each tag under the type key it carries: the type object { tags } of that key
  const byType = Map.groupBy(items, (_, i) => keys[i]!);
  const flat = [...byType].map(([k, tags]) => typeOf({ tags }, k));
  if (flat.includes(null)) return null;
  return { types: flat as TagType[], shape: "flat list of tags, grouped by their type key" };
}

/** Types from an object keyed by type key (values: tag lists or type objects). */
function fromGroups(obj: JsonObject): { types: TagType[]; shape: string } | null {
  // a list of tags is the type of that key with those tags
  const types = Object.entries(obj).map(([k, v]) => typeOf(Array.isArray(v) ? { tags: v } : v, k));
  if (types.length === 0 || types.includes(null)) return null;
  return { types: types as TagType[], shape: "grouped by type key" };
}

/** The tag vocabulary of `GET /tags`, as types (see the module doc for the accepted forms). */
export function tagTypes(body: unknown): TagType[] {
  const endpoint = "GET /tags";
  const containers = ["data", "tag_types", "types", "tags", "items", "results", "vocabulary"];
  // a list is read by fromList, an object by fromGroups: the container's value, else the body
  const typesIn = (v: unknown) =>
    Array.isArray(v) ? fromList(v) : isObject(v) ? fromGroups(v) : null;
  const k = isObject(body) ? findKey(body, containers) : undefined;
  const v = k === undefined ? undefined : (body as JsonObject)[k];
  const nested = Array.isArray(v) || isObject(v);
  const r = typesIn(nested ? v : body);
  const under = nested ? ` under ${JSON.stringify(k)}` : "";
  const found = r &&
    { types: r.types, shape: `${Array.isArray(body) ? "bare " : ""}${r.shape}${under}` };
  if (!found || found.types.length === 0) {
    throw unexpected(
      endpoint,
      "the tag vocabulary: a list of types (each with a type key and its tags), a list of tags " +
        "carrying their type key, or an object grouped by type key",
      body,
    );
  }
  announceShape({ endpoint, point: "envelope", shape: found.shape });
  return found.types;
}

const FILTER_SET = new KeyIndex(["id", "displayName", "criteria"]);

/** The saved filter sets of `GET /filter-sets`. */
export function filterSetList(body: unknown): FilterSet[] {
  const endpoint = "GET /filter-sets";
  const list = readList(body, {
    endpoint,
    what: "filter sets",
    containers: ["data", "filter_sets", "sets", "items", "results"],
    bare: true,
  });
  return list.rows.map((x, i) => {
    const m = FILTER_SET.mapFor(x);
    const idKey = m.found.get("id") ?? findKey(x, ["filter_set_id", "set_id"]);
    const id = idKey === undefined ? undefined : x[idKey];
    if (typeof id !== "string" && typeof id !== "number") {
      throw new InvalidResponseError(
        `${endpoint}: filter set ${i} has no id (a key "id" or "filter_set_id"); got ${
          describe(x)
        }`,
      );
    }
    const set = m.apply(x);
    return {
      ...set,
      id: String(id),
      criteria: readCriteria(set.criteria ?? null, i),
    } as unknown as FilterSet;
  });
}

/**
 * The catalog spec's status table applied to an error answer (module doc):
 * a `403` is `PremiumRequiredError` only when its `type` says
 * `premium-required` (the spec's one named type); with any other type,
 * `about:blank` included, the spec's other cause applies (no access to a
 * paywalled pitch). Other statuses: {@link errorFor}.
 *
 * @example
 * ```ts
 * import { catalogProblem } from "./_envelopes.ts";
 * const e = catalogProblem({ status: 403, type: "about:blank", title: "Forbidden", detail: "no", method: "GET", url: "/pitches/p1" });
 * console.log(e.name, e.meaning); // "PermissionDeniedError" "no access to a paywalled pitch …"
 * ```
 */
export function catalogProblem(init: ProblemInit): ProblemError {
  const meaning = ({
    401: "missing or invalid API key (check PITCH_API_KEY)",
    403: problemTypeIs(init.type, "premium-required")
      ? "Premium required: the membership of this key has lapsed"
      : "no access to a paywalled pitch (the author's paywall applies)",
    404: /\/pitches\/[^/?]+/.test(init.url)
      ? "pitch or archive not found"
      : "no such route: check PITCH_BASE_URL (it should end in /catalog)",
    503: "archive delivery misconfigured or URL signing failed",
  } as Record<number, string>)[init.status];
  // errorFor picks the class (a 403 by its type, as the table says)
  return errorFor(meaning === undefined ? init : { ...init, meaning });
}
