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
 * Most wide rows never exist in dictionary form at all: the transport parses
 * every answer with a {@link WideJson}, which cuts each row of a list it has
 * seen before into pieces of under 128 keys in the text, lets `JSON.parse`
 * read the pieces, and joins them into compact rows. The copy above is for
 * the rest (a route's first answer, rows the cut cannot take exactly, rows
 * renamed by meaning).
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

/** A key as a string literal in generated code. */
const lit = (s: string) => JSON.stringify(s);

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
  const Row = new Function(
    ...names.map((_, i) => `v${i}`),
    names.map((n, i) => `this[${lit(n)}] = v${i};`).join("\n"),
  );
  Row.prototype = Object.prototype;
  return Row;
}

const UNIFORM = Symbol.for("signalbook.uniformWideRows");

/**
 * The keys every row of `rows` has, in order, when the list was decoded by
 * {@link WideJson} (its rows compact, all with these keys); else undefined.
 */
export function uniformRowKeys(rows: readonly object[]): readonly string[] | undefined {
  return (rows as unknown as { [UNIFORM]?: readonly string[] })[UNIFORM];
}

/** The key that leads every piece but a row's first (see {@link WideJson}); no JSON text holds it unescaped. */
const MARK = "\u0000";
/** The mark as it is written in the text; a text that holds this sequence is never split. */
const MARK_TEXT = "\\u0000";
/** Most keys a piece may have, the mark included (V8 builds up to 127 in its fast form). */
const MAX_PIECE_KEYS = WIDE_KEYS - 1;
/** Keys a piece is planned with (the cut moves to a plain key nearby). */
const PIECE_KEYS = 110;
/** Keys a cut may be at: written the same in any JSON text (no escape can spell them otherwise). */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Pages of one route that could not be split, in a row, before its answers are only parsed whole. */
const MAX_MISSES = 2;
/** Routes whose plans one decoder keeps (the oldest goes first). */
const MAX_ROUTES = 16;
/**
 * Longest text that is cut (4 Mi characters; a 100-row search page is about
 * 0.45 MB): the cut text can be up to about 3.3 times its length (a text of
 * nothing but cut keys), so a hostile answer near `maxResponseBytes` is
 * parsed whole instead of being copied that much larger.
 */
export const MAX_CUT_CHARS = 4 * 2 ** 20;

/** Where a list of wide rows is in an answer, and how its text is cut. */
interface SplitPlan {
  /** `[]` the answer itself, `[k]` or `[k, k2]` below it. */
  path: string[];
  /** The keys of every row, in order. */
  keys: string[];
  /** Per cut: the member text it splits at (`,"k":`) and what replaces it. */
  cuts: { needle: string; repl: string }[];
  /** The keys of each piece of a row, in order; every piece after the first led by {@link MARK}. */
  pieces: string[][];
  /** The compact row of the pieces at `list[at]`, `list[at + 1]`, …. */
  make: (list: unknown[], at: number) => Record<string, unknown>;
}

interface RouteState {
  plan: SplitPlan | undefined;
  misses: number;
  /** Set after {@link MAX_MISSES} pages in a row that could not be split: parse whole. */
  off: boolean;
}

/** The outcome of a split parse that was not used. */
const SKIP = 0;
const MISS = 1;

/**
 * A JSON decoder for answers whose lists hold wide rows (128 keys or more):
 * `JSON.parse` still reads every value, but no object it builds has 128 keys,
 * so none is made in V8's slow dictionary form.
 *
 * `JSON.parse` builds an object of 128 keys or more as a hash table: a
 * 100-row page of 174-key search rows parses at a third of the speed of the
 * same rows cut in two, leaves about 1.2 MB of dictionaries behind for the
 * collector, and each row was then copied compact (see {@link wideRowMaker}).
 * This decoder learns, from one answer of a route parsed whole, where the
 * list of wide rows is and its keys; each later answer of that route has
 * every row cut in the text before it is parsed, at a middle key `k`: the
 * member text `,"k":` becomes `},{"\u0000":0,"k":` (one native
 * `replaceAll` per cut), so each row arrives as two objects of about 87 keys, the
 * second led by the mark key `"\u0000"`. The pieces of each row are then
 * joined into one compact object, built by a constructor generated for the
 * keys (as {@link wideRowMaker}'s copies are), and the list is marked as
 * holding compact rows with these keys ({@link uniformRowKeys}).
 *
 * The answer is `JSON.parse`'s, value for value, or the text is parsed
 * whole. Why the cut cannot change it: a cut key is a plain name
 * (`[A-Za-z_$][A-Za-z0-9_$]*`), so `,"k":` in a valid JSON text is always a
 * member `k` of an object, never part of a string; the cut is kept only when
 * every piece has exactly its planned keys in the planned order (a row with
 * a key more or less, in another order, or repeated across pieces is not
 * cut right), when each cut's needle occurs exactly once per row (a nested
 * object with the same key would add one), and when the text holds no
 * `\u0000` escape (so the mark key is surely ours). A text that is not JSON,
 * or whose cut is not valid JSON, is parsed whole, and `JSON.parse`'s own
 * error is what the caller sees. After {@link MAX_MISSES} answers of a route
 * in a row that could not be cut, its answers are parsed whole from then on.
 *
 * @example
 * ```ts
 * import { uniformRowKeys, WideJson } from "./wide_rows.ts";
 * const row = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`f${i}`, i]));
 * const text = JSON.stringify({ data: [row, row], next: null });
 * const json = new WideJson();
 * json.parse(text, "GET /rows"); // parsed whole: learns the list and its keys
 * const body = json.parse(text, "GET /rows") as { data: { f129: number }[] };
 * console.log(body.data[1].f129, uniformRowKeys(body.data)?.length); // 129 130
 * ```
 */
export class WideJson {
  readonly #routes = new Map<string, RouteState>();

  /**
   * The JSON value of `text`, as `JSON.parse(text)` gives it (throwing its
   * error for a text that is not JSON). `route` names the kind of answer
   * (a method and path): answers of one route share a list's place and keys.
   */
  parse(text: string, route = ""): unknown {
    const st = this.#routes.get(route);
    if (st?.plan && !st.off) {
      const got = readSplit(st.plan, text);
      if (typeof got === "object") {
        st.misses = 0;
        return got.body;
      }
      if (got === MISS && ++st.misses >= MAX_MISSES) {
        st.off = true;
        st.plan = undefined;
      }
    }
    const body = JSON.parse(text);
    if (!st?.off) this.#learn(route, st, body);
    return body;
  }

  /** Keeps the plan for the wide list of `body`, when it has one the route has not planned yet. */
  #learn(route: string, st: RouteState | undefined, body: unknown): void {
    const found = wideList(body);
    if (!found) return;
    const old = st?.plan;
    if (
      old && old.path.join("\u0000") === found.path.join("\u0000") &&
      old.keys.length === found.keys.length && old.keys.every((k, i) => k === found.keys[i])
    ) return;
    const plan = splitPlan(found.path, found.keys);
    if (st) {
      st.plan = plan;
      return;
    }
    if (this.#routes.size >= MAX_ROUTES) this.#routes.delete(this.#routes.keys().next().value!);
    this.#routes.set(route, { plan, misses: 0, off: false });
  }
}

/** The first list of wide rows in `body` (itself, one key down or two), and its first row's keys. */
function wideList(
  body: unknown,
  path: string[] = [],
): { path: string[]; keys: string[] } | undefined {
  const isObject = (x: unknown): x is Record<string, unknown> =>
    x !== null && typeof x === "object" && !Array.isArray(x);
  if (Array.isArray(body) && isObject(body[0])) {
    const keys = Object.keys(body[0]);
    return keys.length >= WIDE_KEYS && keys.length <= MAX_KEYS ? { path, keys } : undefined;
  }
  if (path.length === 2 || !isObject(body)) return undefined;
  for (const k of Object.keys(body)) {
    const found = wideList(body[k], [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/** How rows with `keys` are cut (see {@link WideJson}); undefined when they cannot be. */
function splitPlan(path: string[], keys: string[]): SplitPlan | undefined {
  if (keys.includes("__proto__") || keys.includes(MARK)) return undefined;
  const n = keys.length;
  const parts = Math.ceil(n / PIECE_KEYS);
  const at: number[] = [0];
  for (let j = 1; j < parts; j++) {
    const aim = Math.round((j * n) / parts);
    let cut = -1;
    for (let d = 0; d <= 8 && cut < 0; d++) {
      if (PLAIN_KEY.test(keys[aim + d] ?? "")) cut = aim + d;
      else if (PLAIN_KEY.test(keys[aim - d] ?? "")) cut = aim - d;
    }
    if (cut <= at[j - 1]) return undefined;
    at.push(cut);
  }
  at.push(n);
  const pieces: string[][] = [];
  for (let j = 0; j + 1 < at.length; j++) {
    const own = keys.slice(at[j], at[j + 1]);
    pieces.push(j === 0 ? own : [MARK, ...own]);
    if (pieces[j].length > MAX_PIECE_KEYS) return undefined;
  }
  const cuts = at.slice(1, -1).map((i) => {
    const lit = JSON.stringify(keys[i]);
    return { needle: `,${lit}:`, repl: `},{${JSON.stringify(MARK)}:0,${lit}:` };
  });
  let make;
  try {
    make = joiner(keys, pieces);
  } catch {
    return undefined; // code generation not allowed here: answers are parsed whole
  }
  return { path, keys, cuts, pieces, make };
}

/** The generated join: the compact row of a row's pieces, read by constant keys. */
function joiner(keys: readonly string[], pieces: readonly string[][]): SplitPlan["make"] {
  const Row = rowConstructor(keys);
  const reads = pieces.flatMap((p, j) =>
    p.filter((k) => k !== MARK).map((k) => `p${j}[${lit(k)}]`)
  );
  return new Function(
    "Row",
    `return function (list, at) {
  const ${pieces.map((_, j) => `p${j} = list[at + ${j}]`).join(", ")};
  return new Row(${reads.join(", ")});
};`,
  )(Row) as SplitPlan["make"];
}

/**
 * `text` parsed with its rows cut by `plan` (see {@link WideJson}): the
 * answer, or {@link SKIP} when the text has nothing to cut, or {@link MISS}
 * when the cut cannot be used (then the text is parsed whole).
 */
function readSplit(plan: SplitPlan, text: string): { body: unknown } | typeof SKIP | typeof MISS {
  if (text.length > MAX_CUT_CHARS || text.includes(MARK_TEXT)) return SKIP;
  let cut = text;
  let rows = -1;
  for (const { needle, repl } of plan.cuts) {
    const before = cut.length;
    cut = cut.replaceAll(needle, repl);
    // each occurrence grew the text by the same length: their count, without a second scan
    const n = (cut.length - before) / (repl.length - needle.length);
    if (rows < 0 && n === 0) return SKIP;
    if (rows >= 0 && n !== rows) return MISS;
    rows = n;
  }
  let body: unknown;
  try {
    body = JSON.parse(cut);
  } catch {
    return MISS;
  }
  const { path, pieces, make } = plan;
  let holder: Record<string, unknown> | undefined;
  let list: unknown = body;
  for (const k of path) {
    if (list === null || typeof list !== "object" || Array.isArray(list)) return MISS;
    holder = list as Record<string, unknown>;
    list = holder[k];
  }
  const per = pieces.length;
  if (!Array.isArray(list) || list.length !== rows * per) return MISS;
  const out: Record<string, unknown>[] = new Array(rows);
  for (let i = 0, at = 0; i < rows; i++, at += per) {
    for (let j = 0; j < per; j++) {
      const piece = list[at + j];
      if (piece === null || typeof piece !== "object" || Array.isArray(piece)) return MISS;
      // its keys in order (for…in: the object's own keys as Object.keys gives them, without
      // an array per piece; an enumerable key added to Object.prototype makes every piece miss)
      const want = pieces[j];
      let k = 0;
      for (const key in piece) if (key !== want[k++]) return MISS;
      if (k !== want.length) return MISS;
    }
    out[i] = make(list, at);
  }
  Object.defineProperty(out, UNIFORM, { value: plan.keys, enumerable: false, configurable: true });
  if (holder === undefined) return { body: out };
  holder[path[path.length - 1]] = out;
  return { body };
}
