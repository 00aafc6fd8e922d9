/**
 * BlockValues (lib/stub/columns.ts): values read a block of 1,024 at a
 * time, each block once, exactly the values asked for; nothing outside the
 * column is read.
 */
import assert from "node:assert/strict";
import { BLOCK_ROWS, BlockValues } from "../../lib/stub/columns.ts";

function counted(length: number) {
  const all = Float64Array.from({ length }, (_, i) => i * 1.5);
  const loads: [number, number][] = [];
  const v = new BlockValues(length, (from, count) => {
    loads.push([from, count]);
    return all.slice(from, from + count);
  });
  return { all, loads, v };
}

Deno.test("BlockValues: each block is read once, when a value in it is first asked for", () => {
  const { all, loads, v } = counted(2 * BLOCK_ROWS + 5);
  assert.equal(v.blockCount, 3);
  assert.equal(v.blocksRead, 0);
  assert.equal(v.at(3), all[3]);
  assert.equal(v.at(BLOCK_ROWS - 1), all[BLOCK_ROWS - 1]);
  assert.deepEqual(loads, [[0, BLOCK_ROWS]]);
  assert.equal(v.at(2 * BLOCK_ROWS + 4), all[2 * BLOCK_ROWS + 4]);
  assert.deepEqual(loads, [[0, BLOCK_ROWS], [2 * BLOCK_ROWS, 5]]);
  for (let i = 0; i < all.length; i++) assert.equal(v.at(i), all[i]);
  assert.equal(v.blocksRead, 3);
  assert.equal(loads.length, 3);
});

Deno.test("BlockValues: an index outside the column is a RangeError naming it, and reads nothing", () => {
  for (const length of [0, BLOCK_ROWS, 10]) {
    const { loads, v } = counted(length);
    for (const i of [-1, length, length + BLOCK_ROWS, NaN]) {
      assert.throws(
        () => v.at(i),
        (e: Error) => e instanceof RangeError && e.message.includes(`${i}`),
      );
    }
    assert.deepEqual(loads, []);
    assert.equal(v.blocksRead, 0);
  }
});

Deno.test("BlockValues: a load that returns the wrong count is an error, not short values", () => {
  const v = new BlockValues(10, () => new Float64Array(3));
  assert.throws(() => v.at(0), /block 0: 3 values read for 10/);
});
