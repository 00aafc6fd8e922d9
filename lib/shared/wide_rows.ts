/**
 * Wide JSON rows rebuilt as compact objects.
 *
 * `JSON.parse` gives an object with 128 keys or more V8's dictionary form (a
 * hash table per object): a page of 100 insider search rows (174 keys) is
 * about 1.2 MB of heap parsed, against 0.25 MB for the same rows as objects
 * with a shared shape, and reading a field of a dictionary object is a hash
 * lookup. Rows held while a parallel pull stitches its windows back in order
 * are most of its memory (measured: about 110 pages at parallel 8, so 140 MB
 * of dictionaries), so a wide row is copied once, as it is read, into an
 * object built by a constructor generated for its keys (one per key list,
 * cached): V8 then lays its fields out in the object itself.
 *
 * The copy is exact or not made: a row whose keys are not exactly the
 * sample's (a key missing, one more, `__proto__`) is left as it is. The
 * copy's keys are in the sample's order, which `JSON.stringify` and `for…in`
 * show; equality, `Object.keys(row).length` and every value are unchanged,
 * and its prototype is `Object.prototype`, as a parsed row's is.
 *
 * @module
 */

/** Rows with at least this many keys are rebuilt (V8 keeps up to 127 parsed keys in its fast form). */
export const WIDE_KEYS = 128;

/** A row rebuilt, or undefined when its keys are not exactly the sample's. */
export type WideRowMaker = (row: Record<string, unknown>) => Record<string, unknown> | undefined;

const MAX_CACHED = 32;
/** Wider rows are left as they are (the generated code grows with the keys). */
const MAX_KEYS = 4096;
const cache = new Map<string, WideRowMaker>();

/**
 * A maker that copies rows with exactly the keys `keys` into compact objects
 * whose key `keys[i]` is named `names[i]` (default: the same); undefined when
 * the rows are narrow (fewer than {@link WIDE_KEYS} keys) or the keys cannot
 * be copied exactly (`__proto__`, two keys to one name).
 *
 * @example
 * ```ts
 * import { wideRowMaker } from "./wide_rows.ts";
 * const keys = Array.from({ length: 130 }, (_, i) => `f${i}`);
 * const row = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, i]))));
 * const make = wideRowMaker(keys)!;
 * console.log(make(row)!.f129); // 129
 * console.log(make({ f0: 1 })); // undefined: not the same keys
 * ```
 */
export function wideRowMaker(
  keys: readonly string[],
  names: readonly string[] = keys,
): WideRowMaker | undefined {
  if (keys.length < WIDE_KEYS || keys.length > MAX_KEYS || names.length !== keys.length) {
    return undefined;
  }
  if (new Set(names).size !== names.length || new Set(keys).size !== keys.length) return undefined;
  if (keys.includes("__proto__") || names.includes("__proto__")) return undefined;
  const id = JSON.stringify([keys, names]);
  let make = cache.get(id);
  if (make === undefined) {
    try {
      make = compile(keys, names);
    } catch {
      return undefined; // code generation not allowed here: rows stay as parsed
    }
    // bounded: keys come from services
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(id, make);
  }
  return make;
}

/**
 * The generated code: a constructor storing each value under its name (named
 * stores, so V8 sizes the object for all of them), and a reader that takes
 * the values by key, checks that none is missing (JSON has no `undefined`)
 * and that the row has no other key, then constructs. Keys and names enter
 * the code only as `JSON.stringify` string literals.
 */
function compile(keys: readonly string[], names: readonly string[]): WideRowMaker {
  const lit = (s: string) => JSON.stringify(s);
  const vars = keys.map((_, i) => `v${i}`);
  const Row = rowConstructor(names);
  const reader = new Function(
    "Row",
    "n",
    `return function (r) {
${keys.map((k, i) => `  const v${i} = r[${lit(k)}];`).join("\n")}
  if (${vars.map((v) => `${v} === undefined`).join(" || ")}) return undefined;
  if (Object.keys(r).length !== n) return undefined;
  return new Row(${vars.join(", ")});
};`,
  );
  return reader(Row, keys.length) as WideRowMaker;
}

/** A constructor storing its arguments under `names`, in order, with `Object.prototype` as prototype. */
function rowConstructor(names: readonly string[]): unknown {
  const lit = (s: string) => JSON.stringify(s);
  const Row = new Function(
    ...names.map((_, i) => `v${i}`),
    names.map((n, i) => `this[${lit(n)}] = v${i};`).join("\n"),
  );
  Row.prototype = Object.prototype;
  return Row;
}

/** Whether rows with exactly these keys can be copied compact (see {@link wideRowMaker}). */
function packable(keys: readonly string[]): boolean {
  return keys.length >= WIDE_KEYS && keys.length <= MAX_KEYS && !keys.includes("__proto__");
}

/** One list of wide rows, its rows as value arrays in the order of `keys`. */
export interface PackedList {
  /** Where the list was in the answer: `[]` the answer itself, `[k]` or `[k, k2]` below it. */
  path: string[];
  /** The keys of every row, in order. */
  keys: string[];
  /** Each row's values, in the order of `keys`. */
  values: unknown[][];
}

/** A parsed JSON answer with its lists of wide rows taken out as value arrays (see {@link packWideLists}). */
export interface PackedJson {
  /** The answer, each packed list replaced by null. */
  body: unknown;
  /** The lists taken out. */
  lists: PackedList[];
}

const UNIFORM = Symbol.for("signalbook.uniformWideRows");

/**
 * A parsed JSON answer with its lists of wide rows (the answer itself, a
 * list one key down, or two keys down) taken out as value arrays: what a
 * parse worker posts back to the loop thread, which rebuilds the rows
 * compact with {@link unpackWideLists}. Structured clone of value arrays is
 * about a fifth of the cost of parsing the JSON text or of cloning the rows
 * (measured on a 100-row search page: 0.9 ms against 4.4 ms to parse and
 * 2.0 ms to clone the objects), and no key is sent twice.
 *
 * A list is packed only when every element is an object with exactly the
 * first one's keys, in the same order, that {@link wideRowMaker} would copy
 * (at least {@link WIDE_KEYS} keys, no `__proto__`); any other list is left
 * as it is, so the rebuilt answer is the parsed one, value for value.
 *
 * @example
 * ```ts
 * import { packWideLists, unpackWideLists } from "./wide_rows.ts";
 * const row = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`f${i}`, i]));
 * const packed = packWideLists({ data: [row, row], next: null });
 * console.log(packed.lists[0].path, packed.lists[0].values.length); // ["data"] 2
 * const body = unpackWideLists(structuredClone(packed)) as { data: { f129: number }[] };
 * console.log(body.data[1].f129); // 129
 * ```
 */
export function packWideLists(body: unknown): PackedJson {
  const lists: PackedList[] = [];
  const take = (list: unknown, path: string[]): boolean => {
    if (!Array.isArray(list) || list.length === 0) return false;
    const first = list[0];
    if (first === null || typeof first !== "object" || Array.isArray(first)) return false;
    const keys = Object.keys(first);
    if (!packable(keys)) return false;
    const values: unknown[][] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const row = list[i];
      if (row === null || typeof row !== "object" || Array.isArray(row)) return false;
      const own = Object.keys(row);
      if (own.length !== keys.length) return false;
      const vals = new Array(keys.length);
      for (let j = 0; j < keys.length; j++) {
        if (own[j] !== keys[j]) return false;
        vals[j] = (row as Record<string, unknown>)[keys[j]];
      }
      values[i] = vals;
    }
    lists.push({ path, keys, values });
    return true;
  };
  if (take(body, [])) return { body: null, lists };
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const top = body as Record<string, unknown>;
    for (const k of Object.keys(top)) {
      const v = top[k];
      if (take(v, [k])) top[k] = null;
      else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        const inner = v as Record<string, unknown>;
        for (const k2 of Object.keys(inner)) if (take(inner[k2], [k, k2])) inner[k2] = null;
      }
    }
  }
  return { body, lists };
}

/**
 * The answer of {@link packWideLists} rebuilt: each list's rows as compact
 * objects (as {@link wideRowMaker} makes them) put back where they were.
 * Each rebuilt list is marked as holding compact rows all with the same keys
 * ({@link uniformRowKeys}).
 */
export function unpackWideLists(packed: PackedJson): unknown {
  let body = packed.body;
  for (const { path, keys, values } of packed.lists) {
    const make = valuesMaker(keys);
    const rows = values.map(make);
    Object.defineProperty(rows, UNIFORM, { value: keys, enumerable: false, configurable: true });
    if (path.length === 0) body = rows;
    else {
      let at = body as Record<string, unknown>;
      for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
      at[path[path.length - 1]] = rows;
    }
  }
  return body;
}

/**
 * The keys every row of `rows` has, in order, when the list was rebuilt by
 * {@link unpackWideLists} (its rows compact, all with these keys); else
 * undefined.
 */
export function uniformRowKeys(rows: readonly object[]): readonly string[] | undefined {
  return (rows as unknown as { [UNIFORM]?: readonly string[] })[UNIFORM];
}

const makers = new Map<string, (values: unknown[]) => Record<string, unknown>>();

/** Builds a compact row from its values in the order of `keys` (one constructor per key list, cached). */
function valuesMaker(keys: readonly string[]): (values: unknown[]) => Record<string, unknown> {
  const id = JSON.stringify(keys);
  let make = makers.get(id);
  if (make === undefined) {
    const Row = rowConstructor(keys);
    make = new Function(
      "Row",
      `return function (a) { return new Row(${keys.map((_, i) => `a[${i}]`).join(", ")}); };`,
    )(Row) as (values: unknown[]) => Record<string, unknown>;
    if (makers.size >= MAX_CACHED) makers.delete(makers.keys().next().value!);
    makers.set(id, make);
  }
  return make;
}
