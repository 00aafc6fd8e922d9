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
  const Row = new Function(...vars, names.map((n, i) => `this[${lit(n)}] = v${i};`).join("\n"));
  Row.prototype = Object.prototype;
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
