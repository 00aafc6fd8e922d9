/** createStub's options: a scale outside what a world can be made of is a RangeError naming it. */
import assert from "node:assert/strict";
import { createStub } from "../../lib/stub/mod.ts";

Deno.test("createStub: a scale outside 0.01 to 100 is refused, naming the value", () => {
  for (const scale of [0.001, 0, -1, 101, NaN, "1" as unknown as number]) {
    assert.throws(
      () => createStub({ scale, worldCache: false }),
      (e: Error) =>
        e instanceof RangeError &&
        e.message.includes(
          `scale ${typeof scale === "string" ? `"${scale}"` : String(scale)} is not allowed`,
        ) &&
        e.message.includes("0.01 to 100"),
    );
  }
  assert.equal(createStub({ scale: 0.01, worldCache: false }).world.companies.length > 0, true);
});
