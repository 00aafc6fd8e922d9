/**
 * A small seeded pseudo-random generator (mulberry32) for the emulator's demo
 * data and faults: the same seed always yields the same world.
 *
 * @module
 */

/** A seeded random source. */
export class Rng {
  #s: number;
  /** Creates a generator from an integer seed. */
  constructor(seed: number) {
    this.#s = (seed >>> 0) ^ 0x9e3779b9;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** A standard normal variate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}
