/**
 * `keepServedRows`: how many serialized search rows the insider service keeps
 * for pages asked for again. It changes what the emulator spends (CPU or
 * memory), never what it answers.
 */
import assert from "node:assert/strict";
import { createStub } from "../../lib/stub/mod.ts";
import { search } from "./_helpers.ts";

/** Every page of a whole-list walk, twice over (the second walk meets the kept rows, or not). */
async function walkTwice(keepServedRows?: number): Promise<string[]> {
  const s = createStub({ seed: 2, scale: 0.05, keepServedRows });
  const bodies: string[] = [];
  for (let walk = 0; walk < 2; walk++) {
    let cursor: string | null = null;
    do {
      const res = await search({ filter: {}, pagination: { pageSize: 100, cursor } }, s);
      assert.equal(res.status, 200);
      const text = await res.text();
      bodies.push(text);
      cursor = (JSON.parse(text) as { nextCursor: string | null }).nextCursor;
    } while (cursor);
  }
  return bodies;
}

Deno.test("keepServedRows changes nothing in the answers: none, the default and every row kept give the same bytes", async () => {
  const kept = await walkTwice();
  assert.ok(kept.length >= 20, `${kept.length} pages`);
  assert.deepEqual(kept.slice(0, kept.length / 2), kept.slice(kept.length / 2));
  assert.deepEqual(await walkTwice(0), kept);
  assert.deepEqual(await walkTwice(Infinity), kept);
  assert.deepEqual(await walkTwice(7), kept);
});

Deno.test("keepServedRows refuses what is not a number ≥ 0, naming the value", () => {
  for (const bad of [-1, NaN, "all" as unknown as number]) {
    assert.throws(
      () => createStub({ seed: 2, scale: 0.05, keepServedRows: bad }),
      (e: Error) =>
        e instanceof RangeError &&
        e.message.includes(
          `keepServedRows ${typeof bad === "string" ? `"${bad}"` : String(bad)}`,
        ) &&
        e.message.includes("allowed"),
    );
  }
});
