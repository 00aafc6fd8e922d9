/**
 * Wide rows copied compact (issue 22, peak RSS of parallel pulls): the copy
 * is exact or not made, whatever the keys.
 */
import assert from "node:assert/strict";
import { WIDE_KEYS, wideRowMaker } from "../../lib/shared/wide_rows.ts";
import { KeyIndex } from "../../lib/shared/field_keys.ts";
import { InsiderClient } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

const KEYS = Array.from({ length: 140 }, (_, i) => `field_${i}`);
/** A row as `JSON.parse` gives it, with values of every JSON kind. */
function parsed(keys: readonly string[] = KEYS): Record<string, unknown> {
  const values = [1.5, "text", null, true, [1, 2], { a: 1 }, 7];
  return JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, values[i % 7]]))));
}

Deno.test("a wide row is copied exactly: same keys, values and prototype", () => {
  const row = parsed();
  const copy = wideRowMaker(KEYS)!(row)!;
  assert.notEqual(copy, row);
  assert.deepStrictEqual(copy, row);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal(JSON.stringify(copy), JSON.stringify(row));
  assert.deepEqual(Object.keys(copy), KEYS);
});

Deno.test("a row whose keys are not exactly the sample's is not copied", () => {
  const make = wideRowMaker(KEYS)!;
  const missing = parsed();
  delete missing.field_7;
  assert.equal(make(missing), undefined);
  const extra = { ...parsed(), more: 1 };
  assert.equal(make(extra), undefined);
  const renamedOne = parsed([...KEYS.slice(0, -1), "other"]);
  assert.equal(make(renamedOne), undefined);
});

Deno.test("narrow rows, __proto__ and two keys to one name are left alone", () => {
  assert.equal(wideRowMaker(KEYS.slice(0, WIDE_KEYS - 1)), undefined);
  assert.notEqual(wideRowMaker(KEYS.slice(0, WIDE_KEYS)), undefined);
  assert.equal(wideRowMaker([...KEYS, "__proto__"]), undefined);
  assert.equal(wideRowMaker(KEYS, KEYS.map((k, i) => (i === 1 ? KEYS[0] : k))), undefined);
});

Deno.test("keys that look like code are only ever string literals", () => {
  const odd = [
    `"]; throw new Error("injected"); //`,
    "a\\",
    "line\u2028sep",
    "`${x}`",
    "0",
    "constructor",
    "toString",
    "ünï",
  ];
  const keys = [...odd, ...KEYS];
  const row = parsed(keys);
  const copy = wideRowMaker(keys)!(row)!;
  assert.deepStrictEqual(copy, row);
  assert.equal(copy[odd[0]], row[odd[0]]);
});

Deno.test("KeyIndex renames wide rows by meaning into compact copies", () => {
  const names = KEYS;
  const camel = names.map((n) => n.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()));
  const row = parsed(camel);
  const map = new KeyIndex(names).mapFor(row);
  assert.equal(map.identity, false);
  assert.equal(map.compact, true);
  const out = map.apply(row);
  assert.deepEqual(Object.keys(out), names);
  assert.deepStrictEqual(Object.values(out), Object.values(row));
  // a row of another shape goes the general way, with the same result
  const extra = { ...parsed(camel), extraKey: 1 };
  assert.deepStrictEqual(map.apply(extra), { ...out, extraKey: 1 });
});

Deno.test("renaming keeps keys named like Object.prototype members and __proto__ as data", () => {
  const map = new KeyIndex(["a_b"]).mapFor({ aB: 1 });
  const row = JSON.parse('{"aB": 1, "toString": 2, "__proto__": {"polluted": true}}');
  const out = map.apply(row);
  assert.equal(out.a_b, 1);
  assert.equal(out.toString, 2);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out), ["a_b", "toString", "__proto__"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("search rows are compact copies held once: the page's raw envelope holds the same objects", async () => {
  const stub = createStub({ seed: 1, scale: 0.1 });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: stub.fetch,
  });
  const page = await insider.search({}, { pageSize: 50 }).firstPage();
  const raw = page.raw as { data: unknown[] };
  assert.equal(page.rows.length, 50);
  assert.ok(Object.keys(page.rows[0]).length >= WIDE_KEYS);
  for (let i = 0; i < page.rows.length; i++) assert.equal(raw.data[i], page.rows[i]);
});

Deno.test("search rows reach the caller in V8's fast form, not as dictionaries (what keeps held pages small)", async () => {
  // %HasFastProperties needs --allow-natives-syntax: checked in a child process
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { InsiderClient } from ${
        JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
      };
import { createStub, DEMO_KEYS } from ${
        JSON.stringify(new URL("../../lib/stub/mod.ts", import.meta.url).href)
      };
const stub = createStub({ seed: 1, scale: 0.1 });
const insider = new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://stub/insider", fetch: stub.fetch });
const page = await insider.search({}, { pageSize: 20 }).firstPage();
const parsed = JSON.parse(JSON.stringify(page.rows[0]));
const fast = (o: unknown) => eval("%HasFastProperties(o)");
console.log(JSON.stringify({ keys: Object.keys(page.rows[0]).length, rows: page.rows.map(fast), parsed: fast(parsed) }));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--v8-flags=--allow-natives-syntax", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const got = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
    assert.ok(got.keys >= WIDE_KEYS);
    assert.equal(got.parsed, false, "a parsed wide row is a dictionary (the premise)");
    assert.deepEqual(got.rows, new Array(20).fill(true));
  } finally {
    await Deno.remove(script);
  }
});
