/**
 * The mechanics of reading answers whose envelope the specs leave open: find
 * the row list, the cursor and the has-more flag by name (spelling-free, see
 * `shared/field_keys.ts`), at the top level or one object down
 * (`{ data: { items, next_cursor } }`, `{ items, pagination: { has_more } }`),
 * and say which form was found (a `shape` event, see `events.ts`). Which
 * names each endpoint may use is not here: each service names them once in
 * its own `_envelopes.ts`.
 *
 * The paging rule: continue while a cursor is present, unless a has-more
 * flag says false. A flag that says true without a cursor is an
 * {@link InvalidResponseError} (the rest could not be fetched, and stopping
 * would return a first page alone in silence).
 *
 * Unknown paging names are loud, never a silent last page: when a list
 * answer has no cursor under a name its endpoint accepts, but a key beside
 * its rows (at the top level, or beside a list one object down) holds a
 * non-empty string and is named like paging ({@link PAGING_WORDS}: `cursor`,
 * `next`, `token`, `page`, `after`, `continuation`, `marker`, `scroll`,
 * `offset`, in any casing), or a key of any object down to two levels holds
 * a non-empty string or a number and is named as a next pointer (`cursor`,
 * `next`, `token`, not a flag's `has…`/`is…`: `meta.paging.next_cursor`,
 * `next_page: 2`), the answer is
 * an {@link InvalidResponseError} naming that key (a `page: 1` or an
 * `offset: 0` beside a last page is not). A key also naming the current or an earlier page
 * (`prev`, `previous`, `self`, `current`, `first`, `before`) is not read as
 * a next-page cursor. An answer with no cursor key at all is a last page;
 * a client warns when such a page is full ({@link warnedPages}).
 *
 * @module
 */
import { InvalidResponseError } from "./errors.ts";
import { announceShape } from "./events.ts";
import { normKey } from "../shared/field_keys.ts";
import { describeValue, GRAMMARS, IGNORE, UNREADABLE } from "../shared/values/mod.ts";

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Whether `v` is a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What an answer was, for error messages: `a JSON object with keys "a", "b"`. */
export function describe(body: unknown): string {
  if (Array.isArray(body)) return `a JSON array of ${body.length}`;
  if (body === null) return "null";
  if (!isObject(body)) return `a ${typeof body}`;
  const keys = Object.keys(body);
  if (keys.length === 0) return "an empty JSON object";
  const shown = keys.slice(0, 12).map((k) => JSON.stringify(k)).join(", ");
  return `a JSON object with keys ${shown}${keys.length > 12 ? `, … (${keys.length})` : ""}`;
}

/** The error for an answer of a form the client does not know. */
export function unexpected(
  endpoint: string,
  expected: string,
  body: unknown,
): InvalidResponseError {
  return new InvalidResponseError(`${endpoint}: expected ${expected}; got ${describe(body)}`);
}

/** The key of `obj` whose spelling-free form is one of `names` (in the order of `names`). */
export function findKey(obj: JsonObject, names: readonly string[]): string | undefined {
  const keys = Object.keys(obj);
  for (const n of names) {
    const want = normKey(n);
    const k = keys.find((x) => normKey(x) === want);
    if (k !== undefined) return k;
  }
  return undefined;
}

/** Where to look for a list and its paging fields. */
export interface ListSpec {
  /** Method and path template, e.g. `GET /feeds`. */
  endpoint: string;
  /** What the rows are, for messages: `feed rows`. */
  what: string;
  /** Names the row list may have, preferred first. */
  containers: readonly string[];
  /** Names the next-page cursor may have. */
  cursors?: readonly string[];
  /** Names the has-more flag may have. */
  flags?: readonly string[];
  /** Accept a bare JSON array (a list without paging). */
  bare?: boolean;
}

/**
 * Parts of a key's spelling-free name that make it look like paging; a
 * string-valued such key beside a list whose cursor was not recognised is an
 * {@link InvalidResponseError}.
 */
export const PAGING_WORDS: readonly string[] = [
  "cursor",
  "next",
  "token",
  "page",
  "after",
  "continuation",
  "marker",
  "scroll",
  "offset",
];
/**
 * Parts of a name that say a cursor is not the next page's: a `head_cursor`
 * (the catalog's, meaning "not shown", beside a last page that has no
 * `next_cursor`) points back at the first page, never onwards.
 */
const NOT_NEXT = ["prev", "previous", "self", "current", "first", "before", "head"];

/**
 * The keys under `obj` that look like an unrecognised next-page cursor, as
 * paths: at the top and beside the rows (one object down, under
 * `rowsHolder`), a non-empty string named like paging ({@link PAGING_WORDS});
 * there and in any other object down to two levels, a non-empty string or a
 * number named as a next pointer (`cursor`, `next`, `token`:
 * `meta.paging.next_cursor`, `next_page: 2`). Lists (rows) are not read.
 */
function pagingLike(obj: unknown, rowsHolder?: string, path = "", depth = 0): string[] {
  return Object.entries(obj as JsonObject).flatMap(([k, v]) => {
    if (isObject(v)) return depth < 2 ? pagingLike(v, rowsHolder, `${path}${k}.`, depth + 1) : [];
    const n = normKey(k).replaceAll("-", "");
    const text = typeof v === "string" && v !== "";
    const broad = depth === 0 || path === `${rowsHolder}.`;
    // (a has-more flag sent as a number, `has_next: 0`, is no pointer)
    const named = (text || typeof v === "number") && /^(?!has|is).*(cursor|next|token)/.test(n) ||
      text && broad && PAGING_WORDS.some((w) => n.includes(w));
    return named && !NOT_NEXT.some((w) => n.includes(w)) ? [path + k] : [];
  });
}

/** A list as read: rows, the next cursor (null on the last page) and the cursor's key (the forms found are `shape` events). */
export interface ListRead {
  /** The rows (JSON objects). */
  rows: JsonObject[];
  /** Cursor of the next page; null when there is none or a has-more flag says false. */
  next: string | null;
  /** The cursor's key (`"next_cursor"`, `"meta.nextCursor"`), or null when the answer has none. */
  cursorKey: string | null;
}

/** A value found in an answer: its path, and the key of the object one level down holding it. */
type Found = { path: string; value: unknown; holder?: string };

function locate(body: JsonObject, names: readonly string[], accept: (v: unknown) => boolean) {
  const top = findKey(body, names);
  if (top !== undefined && accept(body[top])) return { path: top, value: body[top] };
  for (const [k, v] of Object.entries(body)) {
    if (!isObject(v)) continue;
    const inner = findKey(v, names);
    if (inner !== undefined && accept(v[inner])) {
      return { path: `${k}.${inner}`, value: v[inner], holder: k };
    }
  }
  return undefined;
}

function onlyList(body: JsonObject): Found | undefined {
  const lists = Object.entries(body).filter(([, v]) => Array.isArray(v));
  if (lists.length === 1) return { path: lists[0][0], value: lists[0][1] };
  if (lists.length > 1) return undefined;
  const nested = Object.entries(body).filter(([, v]) => isObject(v)).flatMap(([k, v]) =>
    Object.entries(v as JsonObject).filter(([, x]) => Array.isArray(x)).map(([j, x]) => ({
      path: `${k}.${j}`,
      value: x,
      holder: k,
    }))
  );
  return nested.length === 1 ? nested[0] : undefined;
}

/**
 * A next-page cursor as sent back: text as it is (empty: none; a number
 * in an answer's text comes as its text as written, `shared/json_numbers.ts`,
 * so `0.1e1` is `"0.1e1"`), a number built in code by the code grammar (an
 * integer within 2^53: its digits), null or
 * `false` none; anything else (a number whose digits a double has lost, an
 * object) is an {@link InvalidResponseError}: a cursor read wrong would
 * fetch some other page.
 */
function cursorOf(v: unknown, spec: ListSpec, key: string): string | null {
  if (v === "" || v === null || v === undefined || v === false) return null;
  // (the code grammar refuses what is not text or a number)
  const c = GRAMMARS.code.read(v, IGNORE);
  if (c !== UNREADABLE) return c;
  throw badValue(spec.endpoint, key, "a cursor (text, or an integer within ±(2^53 − 1))", v);
}

/**
 * A has-more flag by the boolean grammar (`shared/values/boolean.ts`):
 * null when absent or null, else an {@link InvalidResponseError} when it
 * does not read (a flag read wrong ends a list early, or never).
 */
function flagOf(v: unknown, spec: ListSpec, key: string): boolean | null {
  if (v === null || v === undefined) return null;
  const b = GRAMMARS.boolean.read(v, IGNORE);
  if (b !== UNREADABLE) return b;
  throw badValue(spec.endpoint, key, `a has-more flag (${GRAMMARS.boolean.forms.join("; ")})`, v);
}

/**
 * The error for a value of the wrong shape in an answer (a paging field, a
 * nested object's key): `endpoint: where expected …; got …`, the value
 * described, never printed. `more` adds to the details (`field` when it is
 * not `where`, `row`).
 */
export function badValue(
  endpoint: string,
  where: string,
  expected: string,
  v: unknown,
  more: { field?: string; row?: number } = {},
): InvalidResponseError {
  const got = describeValue(v);
  return new InvalidResponseError(`${endpoint}: ${where} expected ${expected}; got ${got}`, {
    endpoint,
    field: where,
    expected,
    got,
    ...more,
  });
}

/**
 * Reads one page of a list (see the module doc for the rules), announcing
 * the container, the cursor and the has-more flag it found.
 *
 * @example
 * ```ts
 * import { readList } from "./_envelope.ts";
 * const page = readList({ items: [{ a: 1 }], meta: { nextCursor: "c2" } }, {
 *   endpoint: "GET /x", what: "rows", containers: ["data"], cursors: ["next_cursor"], flags: ["has_more"],
 * });
 * console.log(page.cursorKey, page.next); // meta.nextCursor c2
 * ```
 */
export function readList(body: unknown, spec: ListSpec): ListRead {
  const { endpoint, what, cursors = [], flags = [] } = spec;
  const obj = isObject(body) ? body : {};
  const found: Found | undefined = Array.isArray(body)
    ? (spec.bare ? { path: "", value: body } : undefined)
    : locate(obj, spec.containers, Array.isArray) ?? onlyList(obj);
  if (!found) {
    throw unexpected(
      endpoint,
      `${what} as a list (under ${spec.containers.map((c) => JSON.stringify(c)).join(", ")}, ` +
        `or the only list in the answer${spec.bare ? ", or a bare list" : ""})`,
      body,
    );
  }
  const rows = found.value as unknown[];
  const container = Array.isArray(body) ? "bare list" : JSON.stringify(found.path);
  const cur = cursors.length ? locate(obj, cursors, () => true) : undefined;
  const fl = flags.length ? locate(obj, flags, () => true) : undefined;
  // a cursor under a name this endpoint does not accept: loud, never a last page
  const odd = cursors.length && !cur ? pagingLike(obj, found.holder) : [];
  if (odd.length > 0) {
    throw new InvalidResponseError(
      `${endpoint}: the answer has ${odd.map((k) => JSON.stringify(k)).join(", ")}, ${
        odd.length > 1 ? "which look" : "which looks"
      } like a next-page cursor, but no cursor under a name the client reads (${
        cursors.map((c) => JSON.stringify(c)).join(", ")
      }); stopping here would return a first page alone. Got ${describe(body)}`,
    );
  }
  const next = cur ? cursorOf(cur.value, spec, cur.path) : null;
  const flag = fl ? flagOf(fl.value, spec, fl.path) : null;
  const bad = rows.findIndex((r) => !isObject(r));
  if (bad >= 0) {
    throw new InvalidResponseError(
      `${endpoint}: ${what} ${bad} of ${rows.length} (under ${container}) is ${
        describe(rows[bad])
      }, not a JSON object`,
    );
  }
  if (flag === true && next === null) {
    throw new InvalidResponseError(
      `${endpoint}: the answer says more ${what} exist (${
        fl!.path
      }: true) but gives no cursor; got ${describe(body)}`,
    );
  }
  const shapes = [["list container", container]];
  if (cursors.length || flags.length) {
    shapes.push(
      ["cursor", cur ? JSON.stringify(cur.path) : "none"],
      ["has-more flag", fl ? JSON.stringify(fl.path) : "none (pages while a cursor is present)"],
    );
  }
  for (const [point, shape] of shapes) announceShape({ endpoint, point, shape });
  return {
    rows: rows as JsonObject[],
    next: flag === false ? null : next,
    cursorKey: cur?.path ?? null,
  };
}

/**
 * A single resource answered bare or wrapped in one object (`{ data: {…} }`,
 * `{ transaction: {…} }`): the object `isIt` recognises, announced as the
 * `detail envelope` form, or an {@link InvalidResponseError}.
 *
 * @example
 * ```ts
 * import { readOne } from "./_envelope.ts";
 * const one = readOne({ data: { id: "p1" } }, "GET /x/{id}", "an object with id", (v) => "id" in v);
 * console.log(one.id); // p1
 * ```
 */
export function readOne(
  body: unknown,
  endpoint: string,
  expected: string,
  isIt: (v: JsonObject) => boolean,
): JsonObject {
  const ok = (v: unknown): v is JsonObject => isObject(v) && isIt(v);
  // bare, or the one object in it that is one
  const inner = ok(body) ? [] : Object.entries(isObject(body) ? body : {}).filter(([, v]) => ok(v));
  const found = ok(body) ? body : inner.length === 1 ? (inner[0][1] as JsonObject) : undefined;
  if (!found) throw unexpected(endpoint, `${expected}, bare or wrapped in one object`, body);
  const shape = found === body ? "bare" : `wrapped in ${JSON.stringify(inner[0][0])}`;
  announceShape({ endpoint, point: "detail envelope", shape });
  return found;
}

/**
 * A page reader (`read`) for one pull that warns once (per pull: per
 * reader) when a page came back full (`rows` ≥ the page size asked for)
 * and its answer has no cursor key at all: the list may continue, and the
 * client cannot tell. The pull itself ends there, as the paging rule says
 * (a missing cursor is a last page). Give it the page size asked for; it
 * gives the reader of that answer.
 *
 * @example
 * ```ts
 * import { warnedPages } from "./_envelope.ts";
 * const page = { rows: new Array(10).fill({}), cursorKey: null, next: null };
 * const read = warnedPages("GET /x", () => page);
 * read(10)({}); // warns
 * read(10)({}); // silent: once per pull
 * ```
 */
export function warnedPages<
  P extends { rows: readonly unknown[]; cursorKey: string | null; next: string | null },
>(endpoint: string, read: (body: unknown) => P): (pageSize: number) => (body: unknown) => P {
  let warned = false;
  return (pageSize) => (body) => {
    const page = read(body);
    const full = pageSize > 0 && page.rows.length >= pageSize;
    if (!warned && full && page.cursorKey === null && page.next === null) {
      warned = true;
      console.warn(
        `signalbook: ${endpoint} returned a full page (${page.rows.length} rows, the page size asked for) ` +
          `with no cursor key at all; treated as the last page, but the list may continue.`,
      );
    }
    return page;
  };
}
