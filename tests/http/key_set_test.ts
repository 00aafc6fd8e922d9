/**
 * `KeySet` (lib/http/_key_set.ts) against `Set<string>`: random sequences of
 * `has`/`add`/`delete`/`clear` over keys that collide often (a small
 * alphabet with unicode: Latin-1, BMP, surrogate pairs and lone
 * surrogates, the empty string) agree with a `Set<string>` at every step, in
 * size and in iteration order, across the table's growth and rebuilds.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { hashOf, KeySet } from "../../lib/http/_key_set.ts";

/** Keys from a small alphabet, so sequences hit the same keys again. */
const key = fc.oneof(
  fc.string({
    unit: fc.constantFrom("a", "b", "/", "0", "é", "ÿ", "Ā", "中", "😀", "\ud800"),
    maxLength: 4,
  }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.constant(""),
);

type Op = { op: "has" | "add" | "delete"; key: string } | { op: "clear" };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 60, arbitrary: fc.record({ op: fc.constant("add" as const), key }) },
  { weight: 60, arbitrary: fc.record({ op: fc.constant("has" as const), key }) },
  { weight: 20, arbitrary: fc.record({ op: fc.constant("delete" as const), key }) },
  { weight: 1, arbitrary: fc.constant({ op: "clear" as const }) },
);

Deno.test("KeySet agrees with Set<string> over random operation sequences", () => {
  fc.assert(
    fc.property(fc.array(key, { maxLength: 50 }), fc.array(op, { maxLength: 400 }), (init, ops) => {
      const want = new Set(init);
      const got = new KeySet(init);
      for (const o of ops) {
        if (o.op === "clear") {
          want.clear();
          got.clear();
        } else if (o.op === "add") {
          assert.equal(got.add(o.key), got);
          want.add(o.key);
        } else if (o.op === "delete") {
          assert.equal(got.delete(o.key), want.delete(o.key), `delete ${JSON.stringify(o.key)}`);
        } else {
          assert.equal(got.has(o.key), want.has(o.key), `has ${JSON.stringify(o.key)}`);
        }
        assert.equal(got.size, want.size);
      }
      assert.deepEqual([...got], [...want]);
    }),
    { numRuns: 300 },
  );
});

Deno.test("KeySet stays exact through growth: 200,000 keys, then their neighbours", () => {
  const keys = new KeySet();
  for (let i = 0; i < 200_000; i++) keys.add(`000${i}-24-${i % 977}/${i}`);
  assert.equal(keys.size, 200_000);
  for (let i = 0; i < 200_000; i++) {
    assert.ok(keys.has(`000${i}-24-${i % 977}/${i}`), `key ${i}`);
    // the same units but one, and one unit longer: never taken for a key added
    if (i > 0) assert.ok(!keys.has(`000${i}-24-${i % 977}/${i - 1}`), `neighbour ${i}`);
    assert.ok(!keys.has(`000${i}-24-${i % 977}/${i}0`), `longer ${i}`);
  }
  let n = 0;
  for (const k of keys) assert.equal(k, `000${n}-24-${n % 977}/${n++}`);
  assert.equal(n, 200_000);
});

Deno.test("KeySet tells a key with a unit above U+00FF from its low byte, and keeps the empty string", () => {
  // "Ā" is U+0100 (low byte 0x00), "ā" is U+0101: stored two bytes a unit, never as one
  const keys = new KeySet(["\u0100", "x\u0101"]);
  assert.equal(keys.has("\u0000"), false);
  assert.equal(keys.has("\u0001"), false);
  assert.equal(keys.has("x\u0001"), false);
  assert.equal(keys.has("x\u0101"), true);
  assert.equal(keys.has(""), false);
  keys.add("");
  assert.equal(keys.has(""), true);
  assert.deepEqual([...keys], ["\u0100", "x\u0101", ""]);
});

Deno.test("KeySet: a key deleted and added again goes last, as in a Set, and survives a rebuild", () => {
  const keys = new KeySet(["a", "b", "c"]);
  assert.equal(keys.delete("a"), true);
  assert.equal(keys.delete("a"), false);
  keys.add("a");
  for (let i = 0; i < 100; i++) keys.add(`k${i}`);
  for (let i = 0; i < 100; i += 2) keys.delete(`k${i}`);
  for (let i = 100; i < 200; i++) keys.add(`k${i}`);
  const want = ["b", "c", "a"];
  for (let i = 1; i < 100; i += 2) want.push(`k${i}`);
  for (let i = 100; i < 200; i++) want.push(`k${i}`);
  assert.deepEqual([...keys], want);
  assert.equal(keys.size, want.length);
  for (let i = 0; i < 100; i += 2) assert.equal(keys.has(`k${i}`), false);
});

Deno.test("KeySet: keys whose hashes collide are told apart unit by unit", () => {
  // two keys of the same length and hash whose units differ only in their high bytes (found
  // once by search over units 0x0141..0x0F41), and two narrow keys that share a hash
  const wide = [
    "\u0641\u0941\u0341\u0f41\u0141\u0141\u0141",
    "\u0841\u0c41\u0141\u0141\u0241\u0141\u0141",
  ];
  assert.equal(hashOf(wide[0]), hashOf(wide[1]));
  const keys = new KeySet([wide[0]]);
  assert.equal(keys.has(wide[1]), false);
  keys.add(wide[1]);
  assert.equal(keys.size, 2);
  assert.deepEqual([...keys], wide);
  const narrow = new Map<number, string>();
  const probe = new KeySet();
  let pairs = 0;
  for (let i = 0; pairs < 3; i++) {
    const k = `0000${i}-24-000${i % 89}/${i}`;
    assert.equal(probe.has(k), false, k);
    probe.add(k);
    // count collisions of the hash KeySet uses
    const h = hashOf(k);
    if (narrow.has(h)) pairs++;
    else narrow.set(h, k);
  }
});
