/**
 * A set of strings that holds no JS object per key: what a pull keeps of
 * every row's key (the duplicate and loop checks of `paginate.ts` and
 * `windows.ts`). A `Set<string>` of 250,000 keys is 250,000 strings and
 * table entries that every full collection marks again; here the keys are
 * joined, `CHUNK` (4,096) at a time, into one flat string (V8 keeps it one
 * byte a unit when no key of it has a unit above U+00FF), so 250,000 keys
 * are 62 strings, found through an open-addressing table of entry numbers
 * indexed by the key's hash. A hash hit is compared with the text at the
 * entry's place (`startsWith`), so membership is exact: a distinct key is
 * never taken for one already added.
 *
 * `has`, `add`, `delete`, `clear`, `size` and iteration (in insertion order)
 * behave as `Set<string>`'s. `clear()` also gives the memory back.
 *
 * @module
 */

/** `length` of a deleted entry (a live one holds its key's length, below 2^30). */
const DELETED = 0xffffffff;
/** Table slots and entries to start with (and after `clear()`). */
const FIRST = 16;
/** Keys joined into one string (the keys of the chunk being filled stay apart until then). */
const CHUNK = 4096;

/** The hash of `key` (FNV-1a over its code units, then a final mix). */
export function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * An exact set of strings kept in a few long strings (see the module doc).
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
  /** The keys of entries `c * CHUNK` to `(c + 1) * CHUNK - 1`, joined, per full chunk `c`. */
  #chunks: string[] = [];
  /** The keys of the chunk being filled, and their length so far. */
  #pending: string[] = [];
  #pendingLength = 0;
  /** Per entry: where its key starts in its chunk, its length (or DELETED), its hash. */
  #start = new Uint32Array(FIRST);
  #length = new Uint32Array(FIRST);
  #hash = new Uint32Array(FIRST);
  /** Entries appended (deleted ones too). */
  #entries = 0;
  #size = 0;
  /** Entry number + 1 per slot (0: empty); a deleted entry's slot stays taken until a rebuild. */
  #table = new Uint32Array(FIRST * 2);

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
    return this.#table[this.#slot(key, hashOf(key))] !== 0;
  }

  /** Adds `key` (no change when it is there); returns the set. */
  add(key: string): this {
    const h = hashOf(key);
    const slot = this.#slot(key, h);
    if (this.#table[slot] === 0) this.#append(key, h, slot);
    return this;
  }

  /** Removes `key`; true when it was in the set. */
  delete(key: string): boolean {
    const entry = this.#table[this.#slot(key, hashOf(key))];
    if (entry === 0) return false;
    // the slot stays taken (probes go past it); the entry no longer matches any key
    this.#length[entry - 1] = DELETED;
    this.#size--;
    return true;
  }

  /** Removes every key and gives the memory back. */
  clear(): void {
    this.#chunks = [];
    this.#pending = [];
    this.#pendingLength = 0;
    this.#start = new Uint32Array(FIRST);
    this.#length = new Uint32Array(FIRST);
    this.#hash = new Uint32Array(FIRST);
    this.#entries = 0;
    this.#size = 0;
    this.#table = new Uint32Array(FIRST * 2);
  }

  /** The keys, in the order they were added. */
  *[Symbol.iterator](): IterableIterator<string> {
    for (let e = 0; e < this.#entries; e++) {
      if (this.#length[e] !== DELETED) yield this.#keyAt(e);
    }
  }

  /** The key of entry `e` (a live one). */
  #keyAt(e: number): string {
    const chunk = this.#chunks[Math.floor(e / CHUNK)];
    if (chunk === undefined) return this.#pending[e % CHUNK];
    return chunk.slice(this.#start[e], this.#start[e] + this.#length[e]);
  }

  /** The slot holding `key` (hash `h`), or the empty slot where it would go. */
  #slot(key: string, h: number): number {
    const table = this.#table;
    const mask = table.length - 1;
    for (let slot = h & mask;; slot = (slot + 1) & mask) {
      const e = table[slot] - 1;
      if (e === -1) return slot;
      if (this.#hash[e] !== h || this.#length[e] !== key.length) continue;
      const chunk = this.#chunks[Math.floor(e / CHUNK)];
      if (
        chunk === undefined
          ? this.#pending[e % CHUNK] === key
          : chunk.startsWith(key, this.#start[e])
      ) return slot;
    }
  }

  /** Appends `key` (hash `h`) as a new entry, into the empty `slot`. */
  #append(key: string, h: number, slot: number): void {
    if (this.#entries === this.#start.length) {
      this.#start = grown(this.#start);
      this.#length = grown(this.#length);
      this.#hash = grown(this.#hash);
    }
    const e = this.#entries++;
    this.#start[e] = this.#pendingLength;
    this.#length[e] = key.length;
    this.#hash[e] = h;
    this.#pending.push(key);
    this.#pendingLength += key.length;
    if (this.#pending.length === CHUNK) {
      this.#chunks.push(this.#pending.join(""));
      this.#pending = [];
      this.#pendingLength = 0;
    }
    this.#table[slot] = e + 1;
    this.#size++;
    // at most half the slots taken (deleted entries hold theirs until then)
    if (this.#entries * 2 > this.#table.length) this.#rebuild();
  }

  /**
   * Sizes the table for the entries, deleted ones left out of it. Their
   * keys stay in their chunk until `clear()`: the pulls only delete from a
   * set they no longer add to (a seam's rows already handed out).
   */
  #rebuild(): void {
    let cap = FIRST * 2;
    while (cap < this.#entries * 4) cap *= 2;
    const table = new Uint32Array(cap);
    const mask = cap - 1;
    for (let e = 0; e < this.#entries; e++) {
      if (this.#length[e] === DELETED) continue;
      let slot = this.#hash[e] & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = e + 1;
    }
    this.#table = table;
  }
}

/** `a` in an array twice its length. */
function grown(a: Uint32Array): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(a.length * 2);
  next.set(a);
  return next;
}
