/**
 * Field names by meaning, not by spelling. The specs name fields in
 * snake_case (`win_rate_bullish_3m_wins`) or say "camelCase" without saying
 * how digits are cased, and camelCase libraries disagree: lodash
 * `camelCase`, `camelcase` and pydantic v2 give `winRateBullish3MWins` and
 * `is10B51`, humps, Kysely, postgres.js and pydantic v1 give
 * `winRateBullish3mWins` and `is10b51`. Lower case with underscores removed
 * ({@link normKey}) is the same for all of them, so a key is matched to a
 * declared field by that form.
 *
 * @module
 */
import { wideRowMaker } from "./wide_rows.ts";

/**
 * The spelling-free form of a key: lower case, `_` removed.
 *
 * @example
 * ```ts
 * import { normKey } from "./field_keys.ts";
 * normKey("winRateBullish3MWins") === normKey("win_rate_bullish_3m_wins"); // true
 * ```
 */
export function normKey(key: string): string {
  return key.toLowerCase().replaceAll("_", "");
}

/**
 * A renaming of rows from whatever spelling the service chose to the
 * declared names. The sample row only sets up the fast path (and `found`
 * describes that one row); `apply` reads every row on its
 * own terms: a key is recognised in whichever row it first appears, so rows
 * that leave out their null keys, or a page mixing two spellings, land on the
 * declared names all the same.
 */
export interface KeyMap {
  /** True when every key of the sample row already has its declared name. */
  readonly identity: boolean;
  /** Declared name → the key the sample row used for it (present fields only). */
  readonly found: ReadonlyMap<string, string>;
  /**
   * True when rows are wide (128 keys or more) and `apply`
   * copies them into compact objects (see `wide_rows.ts`), even when
   * `identity`.
   */
  readonly compact: boolean;
  /**
   * The row with declared names: the row itself when its keys already are
   * declared names (checked per row, one memoised look-up a key), a compact
   * copy when `compact` and the row has the sample's keys, else a renamed
   * copy.
   */
  apply(row: Record<string, unknown>): Record<string, unknown>;
}

/** Declared names by their spelling-free form, built once per list of names. */
export class KeyIndex {
  readonly #byNorm = new Map<string, string>();
  readonly #memo = new Map<string, string | null>();
  readonly #names: readonly string[];
  /** Indexes `names`; two names with the same {@link normKey} throw a `RangeError`. */
  constructor(names: readonly string[]) {
    this.#names = names;
    for (const n of names) {
      const k = normKey(n);
      const other = this.#byNorm.get(k);
      if (other !== undefined && other !== n) {
        throw new RangeError(
          `field names ${JSON.stringify(other)} and ${JSON.stringify(n)} collide`,
        );
      }
      this.#byNorm.set(k, n);
    }
  }

  /**
   * `row` with every declared name it lacks set to `null` (in place), for
   * typed objects read from a service that leaves out its null keys: a field
   * typed `T | null` is then `null`, never `undefined`. Not for list rows
   * bound for a frame: the frame build reports declared columns absent from
   * every row (a spelling the client does not know), and a fill would hide it.
   *
   * @example
   * ```ts
   * import { KeyIndex } from "./field_keys.ts";
   * new KeyIndex(["a", "b"]).withNulls({ a: 1 }); // { a: 1, b: null }
   * ```
   */
  withNulls(row: Record<string, unknown>): Record<string, unknown> {
    for (const n of this.#names) if (!Object.hasOwn(row, n)) row[n] = null;
    return row;
  }

  /** The declared name a key means, or undefined. */
  nameOf(key: string): string | undefined {
    let name = this.#memo.get(key);
    if (name === undefined) {
      name = this.#byNorm.get(normKey(key)) ?? null;
      // keys come from services: bound the memo against a hostile stream of new keys
      if (this.#memo.size < 4096) this.#memo.set(key, name);
    }
    return name ?? undefined;
  }

  /**
   * The renaming that a sample row implies (see {@link KeyMap}).
   * `compact: false` never copies wide rows into compact objects (for rows
   * an envelope reader has already made compact).
   *
   * @example
   * ```ts
   * import { KeyIndex } from "./field_keys.ts";
   * const m = new KeyIndex(["returns_1w", "is_10b51"]).mapFor({ returns1W: 2, is10B51: true, x: 1 });
   * m.apply({ returns1W: 2, is10B51: true, x: 1 }); // { returns_1w: 2, is_10b51: true, x: 1 }
   * ```
   */
  mapFor(sample: Record<string, unknown>, opts: { compact?: boolean } = {}): KeyMap {
    const found = new Map<string, string>();
    let identity = true;
    const keys = Object.keys(sample);
    for (const key of keys) {
      const name = this.nameOf(key);
      if (name === undefined || found.has(name)) continue;
      found.set(name, key);
      identity &&= name === key;
    }
    const nameOf = (key: string) => this.nameOf(key);
    const renamed = (row: Record<string, unknown>) => {
      // the first key of each name wins
      const named = new Map<string, unknown>();
      for (const key of Object.keys(row)) {
        const name = nameOf(key) ?? key;
        if (!named.has(name)) named.set(name, row[key]);
      }
      // own data properties, `__proto__` included (a store would set the prototype instead)
      return Object.fromEntries(named);
    };
    // wide rows (V8's dictionary form when parsed) are copied compact, renamed on the way
    // a row keeps its own object when none of its keys needs renaming: decided
    // per row, never from the sample (a row may carry keys the sample lacked)
    const asDeclared = (row: Record<string, unknown>) =>
      Object.keys(row).some((key) => (nameOf(key) ?? key) !== key) ? renamed(row) : row;
    // rows already compact (a second reader of the same rows) are not copied again
    const wide = opts.compact === false
      ? undefined
      : wideRowMaker(keys, keys.map((k) => nameOf(k) ?? k));
    const slow = identity ? asDeclared : renamed;
    return {
      identity,
      found,
      compact: wide !== undefined,
      apply: wide ? (row) => wide(row) ?? slow(row) : slow,
    };
  }
}

const DECLARED = Symbol.for("signalbook.declaredKeys");

/**
 * Marks a list of rows as already keyed by the declared names of `tag` (an
 * envelope reader renamed every row), so a later reader of the same rows
 * (the frame build) skips its own per-row key check. Returns the rows.
 *
 * @example
 * ```ts
 * import { declaredAs, markDeclared } from "./field_keys.ts";
 * const rows = markDeclared([{ returns1w: 1 }], "insider-camel");
 * declaredAs(rows); // "insider-camel"
 * ```
 */
export function markDeclared<T extends object[]>(rows: T, tag: string): T {
  Object.defineProperty(rows, DECLARED, { value: tag, enumerable: false, configurable: true });
  return rows;
}

/** The tag a list of rows was marked with by {@link markDeclared}, or undefined. */
export function declaredAs(rows: readonly object[]): string | undefined {
  return (rows as unknown as { [DECLARED]?: string })[DECLARED];
}
