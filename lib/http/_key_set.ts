/**
 * A set of strings that holds no JS object per key: what a pull keeps of
 * every row's key (the duplicate and loop checks of `paginate.ts` and
 * `windows.ts`). A `Set<string>` of 250,000 keys is 250,000 strings and
 * table entries that every full collection marks again; here the keys'
 * UTF-16 code units sit in one growable byte arena (one byte each when a
 * key has none above U+00FF, else two), found through an open-addressing
 * table of entry numbers indexed by the key's hash. A hash hit is compared
 * unit by unit against the arena, so membership is exact: a distinct key is
 * never taken for one already added.
 *
 * `has`, `add`, `delete`, `clear`, `size` and iteration (in insertion order)
 * behave as `Set<string>`'s. `clear()` also gives the memory back.
 *
 * @module
 */

/** `meta` of a deleted entry (a live one holds length * 2 + wide, below 2^31). */
const DELETED = 0xffffffff;
/** Table slots and entries to start with (and after `clear()`). */
const FIRST = 16;

/** The hash of `key` (FNV-1a over its code units, then a final mix). */
export function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** True when `key` has a code unit above 0xFF (it is then stored in two bytes a unit). */
function isWide(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0xff) return true;
  return false;
}

/**
 * An exact set of strings kept in typed arrays (see the module doc).
 *
 * @example
 * ```ts
 * import { KeySet } from "./_key_set.ts";
 * const keys = new KeySet(["0001-24-000001/1"]);
 * keys.add("0001-24-000001/2");
 * console.log(keys.has("0001-24-000001/2"), keys.has("0001-24-000001/3"), keys.size); // true false 2
 * ```
 */
export class KeySet implements Iterable<string> {
  /** The keys' code units, entry after entry. */
  #arena = new Uint8Array(FIRST * 32);
  #used = 0;
  /** Per entry: where its units start in the arena, length * 2 + wide (or DELETED), hash. */
  #start = new Uint32Array(FIRST);
  #meta = new Uint32Array(FIRST);
  #hash = new Uint32Array(FIRST);
  /** Entries appended (deleted ones too). */
  #entries = 0;
  #size = 0;
  /** Entry number + 1 per slot (0: empty); a deleted entry's slot stays taken until a rebuild. */
  #table = new Uint32Array(FIRST * 2);
  /** The key `has` last looked up and its hash, so `add` right after it hashes once. */
  #lastKey: string | undefined;
  #lastHash = 0;

  /** A set of the strings in `keys` (none when omitted). */
  constructor(keys?: Iterable<string>) {
    if (keys) { for (const key of keys) this.add(key); }
  }

  /** The number of keys in the set. */
  get size(): number {
    return this.#size;
  }

  /** True when `key` is in the set. */
  has(key: string): boolean {
    const h = this.#hashOf(key);
    return this.#table[this.#slot(key, h)] !== 0;
  }

  /** Adds `key` (no change when it is there); returns the set. */
  add(key: string): this {
    const h = this.#hashOf(key);
    const slot = this.#slot(key, h);
    if (this.#table[slot] !== 0) return this;
    this.#append(key, h, slot);
    return this;
  }

  /** Removes `key`; true when it was in the set. */
  delete(key: string): boolean {
    const slot = this.#slot(key, this.#hashOf(key));
    const entry = this.#table[slot];
    if (entry === 0) return false;
    // the slot stays taken (probes go past it); the entry no longer matches any key
    this.#meta[entry - 1] = DELETED;
    this.#size--;
    this.#lastKey = undefined;
    return true;
  }

  /** Removes every key and gives the memory back. */
  clear(): void {
    this.#arena = new Uint8Array(FIRST * 32);
    this.#used = 0;
    this.#start = new Uint32Array(FIRST);
    this.#meta = new Uint32Array(FIRST);
    this.#hash = new Uint32Array(FIRST);
    this.#entries = 0;
    this.#size = 0;
    this.#table = new Uint32Array(FIRST * 2);
    this.#lastKey = undefined;
  }

  /** The keys, in the order they were added. */
  *[Symbol.iterator](): IterableIterator<string> {
    for (let e = 0; e < this.#entries; e++) {
      const meta = this.#meta[e];
      if (meta !== DELETED) yield this.#keyAt(this.#start[e], meta);
    }
  }

  #hashOf(key: string): number {
    if (key === this.#lastKey) return this.#lastHash;
    const h = hashOf(key);
    this.#lastKey = key;
    this.#lastHash = h;
    return h;
  }

  /** The slot holding `key` (hash `h`), or the empty slot where it would go. */
  #slot(key: string, h: number): number {
    const table = this.#table;
    const mask = table.length - 1;
    const meta = key.length * 2 + (isWide(key) ? 1 : 0);
    for (let slot = h & mask;; slot = (slot + 1) & mask) {
      const entry = table[slot];
      if (entry === 0) return slot;
      const e = entry - 1;
      if (
        this.#hash[e] === h && this.#meta[e] === meta && this.#equals(key, this.#start[e], meta)
      ) {
        return slot;
      }
    }
  }

  /** True when the units at `start` (with `meta`) are `key`'s. */
  #equals(key: string, start: number, meta: number): boolean {
    const a = this.#arena;
    if (meta & 1) {
      for (let i = 0, p = start; i < key.length; i++, p += 2) {
        if ((a[p] | (a[p + 1] << 8)) !== key.charCodeAt(i)) return false;
      }
    } else {
      for (let i = 0; i < key.length; i++) if (a[start + i] !== key.charCodeAt(i)) return false;
    }
    return true;
  }

  #keyAt(start: number, meta: number): string {
    const n = meta >>> 1;
    const units = new Uint16Array(n);
    const a = this.#arena;
    for (let i = 0; i < n; i++) {
      units[i] = meta & 1 ? a[start + 2 * i] | (a[start + 2 * i + 1] << 8) : a[start + i];
    }
    let s = "";
    for (let i = 0; i < n; i += 8192) s += String.fromCharCode(...units.subarray(i, i + 8192));
    return s;
  }

  /** Appends `key` (hash `h`) as a new entry, into the empty `slot`. */
  #append(key: string, h: number, slot: number): void {
    const wide = isWide(key);
    const bytes = key.length * (wide ? 2 : 1);
    if (this.#used + bytes > this.#arena.length) {
      const next = new Uint8Array(Math.max(this.#arena.length * 2, this.#used + bytes));
      next.set(this.#arena.subarray(0, this.#used));
      this.#arena = next;
    }
    const a = this.#arena;
    const start = this.#used;
    if (wide) {
      for (let i = 0, p = start; i < key.length; i++, p += 2) {
        const u = key.charCodeAt(i);
        a[p] = u & 0xff;
        a[p + 1] = u >>> 8;
      }
    } else {
      for (let i = 0; i < key.length; i++) a[start + i] = key.charCodeAt(i);
    }
    this.#used += bytes;
    if (this.#entries === this.#start.length) {
      this.#start = grown(this.#start);
      this.#meta = grown(this.#meta);
      this.#hash = grown(this.#hash);
    }
    const e = this.#entries++;
    this.#start[e] = start;
    this.#meta[e] = key.length * 2 + (wide ? 1 : 0);
    this.#hash[e] = h;
    this.#table[slot] = e + 1;
    this.#size++;
    // at most half the slots taken (deleted entries hold theirs until then)
    if (this.#entries * 2 > this.#table.length) this.#rebuild();
  }

  /**
   * Sizes the table for the entries, deleted ones left out of it. Their
   * units stay in the arena until `clear()`: the pulls only delete from a
   * set they no longer add to (a seam's rows already handed out).
   */
  #rebuild(): void {
    let cap = FIRST * 2;
    while (cap < this.#entries * 4) cap *= 2;
    const table = new Uint32Array(cap);
    const mask = cap - 1;
    for (let e = 0; e < this.#entries; e++) {
      if (this.#meta[e] === DELETED) continue;
      let slot = this.#hash[e] & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = e + 1;
    }
    this.#table = table;
    this.#lastKey = undefined;
  }
}

/** `a` in an array twice its length. */
function grown(a: Uint32Array): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(a.length * 2);
  next.set(a);
  return next;
}
