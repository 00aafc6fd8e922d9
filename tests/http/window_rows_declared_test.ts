/**
 * A parallel pull hands out each window's page as the envelope reader left
 * it: the list keeps its `markDeclared` tag (every row already keyed by the
 * declared names), so the frame build takes the rows as they are, as it
 * does for a serial pull, instead of checking each of a row's 174 keys again.
 */
import assert from "node:assert/strict";
import { createStub, DEMO_KEYS, InsiderClient } from "../../mod.ts";
import { KeyIndex } from "../../lib/shared/field_keys.ts";

const stub = createStub({ seed: 5, scale: 0.2 });
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://t/insider",
  fetch: stub.fetch,
});

/** Key lookups (`KeyIndex.nameOf`) made while `f` runs. */
async function lookups(f: () => Promise<unknown>): Promise<number> {
  const nameOf = KeyIndex.prototype.nameOf;
  let n = 0;
  KeyIndex.prototype.nameOf = function (key) {
    n++;
    return nameOf.call(this, key);
  };
  try {
    await f();
  } finally {
    KeyIndex.prototype.nameOf = nameOf;
  }
  return n;
}

Deno.test("a parallel search's rows reach the frame build marked: no per-row key check", async () => {
  const rows = 2000;
  const pull = (parallel?: number) => () =>
    insider.search({}, { pageSize: 100, parallel }).frame({ maxRows: rows, progress: false });
  const serial = await lookups(pull());
  const parallel = await lookups(pull(4));
  // the envelope reader looks up the first row's keys of each page (about 500 lookups a page, and
  // a parallel pull reads more, shorter pages); a per-row check adds 174 (a row's keys) per row
  const perRowCheck = rows * 174;
  assert.ok(serial < perRowCheck / 4, `serial pull: ${serial} key lookups for ${rows} rows`);
  assert.ok(parallel < perRowCheck / 4, `parallel pull: ${parallel} key lookups for ${rows} rows`);
});
