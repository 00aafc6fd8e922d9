/**
 * Large answers parsed off the loop thread during parallel pulls (issue 34,
 * "large pulls at the floor"): the answer rebuilt on the loop thread is the
 * one `JSON.parse` gives, value for value and key for key; a parallel pull
 * gives the serial pull's frame (rows, order, `truncated`); workers live only
 * while a pull holds the pool; what is not JSON raises the usual error.
 */
import assert from "node:assert/strict";
import {
  holdParsePool,
  OFF_LOOP_BYTES,
  parseOffLoop,
  parseWorkers,
  setParseWorkers,
} from "../../lib/http/parse_pool.ts";
import {
  packWideLists,
  uniformRowKeys,
  unpackWideLists,
  WIDE_KEYS,
} from "../../lib/shared/wide_rows.ts";
import { InsiderClient, InvalidResponseError } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { lodashCamel, rekey, rewriting, snake } from "../_rewrite.ts";

const KEYS = Array.from({ length: 150 }, (_, i) => `k${i}`);
/** "MZ" is written as `-0` in the JSON text (JSON.stringify writes -0 as 0). */
const VALUES = [1.5, "text", null, true, [1, 2], { a: { b: [null] } }, "MZ", 0, "", 1e300, "ü€😀"];

/** The JSON text of `body`, with -0 where "MZ" is. */
function jsonText(body: unknown): string {
  return JSON.stringify(body).replaceAll('"MZ"', "-0");
}

/** A wide row of every JSON kind, seeded by `n`. */
function row(n: number, keys: readonly string[] = KEYS): Record<string, unknown> {
  return Object.fromEntries(keys.map((k, i) => [k, i === 0 ? n : VALUES[(i + n) % VALUES.length]]));
}

/** `packWideLists` then a structured clone (what postMessage does) then `unpackWideLists`. */
function roundTrip(text: string): unknown {
  return unpackWideLists(structuredClone(packWideLists(JSON.parse(text))));
}

/** Equal values and the same keys in the same order at every level. */
function assertSameJson(got: unknown, want: unknown): void {
  assert.deepStrictEqual(got, want);
  assert.equal(JSON.stringify(got), JSON.stringify(want));
}

Deno.test("packed and rebuilt, an answer is JSON.parse's: every place a list can be, value for value", () => {
  const rows = Array.from({ length: 30 }, (_, i) => row(i));
  const bodies = [
    rows, // a bare list
    { data: rows, next_cursor: "c", has_more: true },
    { result: { items: rows, total: 30 }, meta: { rows } }, // one object down, twice
    { a: { b: { c: rows } } }, // deeper than readers look: left as is
  ];
  for (const body of bodies) {
    const text = jsonText(body);
    const got = roundTrip(text);
    assertSameJson(got, JSON.parse(text));
  }
  // -0 survives (deepStrictEqual tells -0 from 0)
  const one = roundTrip(jsonText({ data: [row(6)] })) as { data: Record<string, unknown>[] };
  assert.ok(Object.is(one.data[0].k0, 6));
  assert.ok(Object.values(one.data[0]).some((v) => Object.is(v, -0)));
  assert.equal(Object.getPrototypeOf(one.data[0]), Object.prototype);
});

Deno.test("lists that are not uniform wide rows are left exactly as parsed", () => {
  const wide = Array.from({ length: 5 }, (_, i) => row(i));
  const reordered = Object.fromEntries(Object.entries(row(9)).reverse());
  const cases: unknown[] = [
    [...wide, reordered], // one row with the keys in another order
    [...wide, { ...row(7), extra: 1 }], // one more key
    [...wide, [1, 2]], // an array among the rows
    [...wide, null],
    Array.from({ length: 5 }, (_, i) => row(i, KEYS.slice(0, WIDE_KEYS - 1))), // narrow
    [row(1, [...KEYS.slice(0, 140), "__proto__"])], // __proto__ as data
  ];
  for (const list of cases) {
    const text = JSON.stringify({ data: list });
    const packed = packWideLists(JSON.parse(text));
    assert.equal(packed.lists.length, 0);
    assertSameJson(unpackWideLists(structuredClone(packed)), JSON.parse(text));
  }
  const proto = JSON.parse(
    JSON.stringify({ data: [row(1, [...KEYS.slice(0, 140), "__proto__"])] }),
  );
  assert.ok(Object.hasOwn(proto.data[0], "__proto__"));
});

Deno.test("rebuilt lists are marked uniform with their keys; parsed ones are not", () => {
  const text = JSON.stringify({ data: Array.from({ length: 3 }, (_, i) => row(i)) });
  const got = roundTrip(text) as { data: object[] };
  assert.deepEqual(uniformRowKeys(got.data), KEYS);
  assert.equal(uniformRowKeys(JSON.parse(text).data), undefined);
  // the mark is not data: it never shows in JSON or keys
  assert.equal(JSON.stringify(got), text);
});

Deno.test("parseOffLoop parses large answers in a worker only while a pull holds the pool", async () => {
  const big = new TextEncoder().encode(
    JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => row(i)), next: null }),
  );
  assert.ok(big.length >= OFF_LOOP_BYTES);
  assert.equal(await parseOffLoop(big), undefined, "no holder: the loop thread parses");
  // a pool of no workers (the default below 4 cores): every answer on the loop thread
  const before = setParseWorkers(0);
  const none = holdParsePool();
  assert.equal(parseWorkers(), 0);
  assert.equal(await parseOffLoop(big), undefined);
  none();
  setParseWorkers(1);
  const release = holdParsePool();
  try {
    assert.ok(parseWorkers() >= 1);
    const got = await parseOffLoop(big);
    assert.ok(got);
    assertSameJson(got.body, JSON.parse(new TextDecoder().decode(big)));
    // small answers: a round trip to a worker costs more than parsing them
    assert.equal(await parseOffLoop(new TextEncoder().encode('{"data":[]}')), undefined);
    // not JSON: left to the loop thread, which raises its usual error
    const bad = new Uint8Array(big.length).fill(0x7b);
    assert.equal(await parseOffLoop(bad), undefined);
  } finally {
    release();
    setParseWorkers(before);
  }
  assert.equal(parseWorkers(), 0, "the last holder let go: no worker is left");
  release(); // a second call is a no-op
  assert.equal(parseWorkers(), 0);
});

Deno.test("a large answer that is not JSON raises the same error with the pool held as without", async () => {
  const text = '{"data": [' + '{"a": 1},'.repeat(20_000) + "oops]}";
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://api.test/insider",
    fetch: () => Promise.resolve(new Response(text, { status: 200 })),
    maxRetries: 0,
  });
  const message = async () => {
    const e = await insider.search({}).firstPage().catch((e) => e);
    assert.ok(e instanceof InvalidResponseError, String(e));
    return e.message;
  };
  const without = await message();
  const before = setParseWorkers(1);
  const release = holdParsePool();
  try {
    assert.equal(await message(), without);
  } finally {
    release();
    setParseWorkers(before);
  }
  assert.match(without, /not valid JSON/);
});

Deno.test("a parallel pull gives the serial pull's frame on a whole world: every trade, and cut by maxRows", async () => {
  // scale 1 (about 23k trades): three frame chunks of 8,192 rows and a cut inside the second,
  // which is what the worker path has to keep in order; a larger world tests nothing more
  const stub = createStub({ seed: 7, scale: 1 });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: stub.fetch,
  });
  const filter = { excludeAnomalousTransactions: false };
  const before = setParseWorkers(0);
  try {
    // every trade of the world, serially: the reference
    const serial = await insider.search(filter, { pageSize: 100 }).frame({ progress: false });
    assert.ok(serial.height >= 20_000, `${serial.height} rows`);
    assert.equal(serial.truncated, false);
    // the whole list parsed in a worker, a cut one on the loop thread (whatever the cores)
    for (const [maxRows, workers] of [[undefined, 1], [12_345, 0]]) {
      setParseWorkers(workers!);
      const parallel = await insider.search(filter, { pageSize: 100, parallel: 8 })
        .frame({ maxRows, progress: false });
      // a serial pull cut by maxRows is the first maxRows rows of the whole list
      const want = maxRows === undefined ? serial : serial.head(maxRows);
      assert.equal(parallel.height, want.height);
      assert.equal(parallel.truncated, maxRows !== undefined);
      assert.deepEqual(parallel.schema, want.schema);
      assert.ok(parallel.frameEqual(want, true), `maxRows ${maxRows}: frames differ`);
      assert.equal(parseWorkers(), 0, "no worker outlives its pull");
    }
  } finally {
    setParseWorkers(before);
  }
  assert.equal(parseWorkers(), 0);
});

Deno.test("setParseWorkers refuses a size outside 0 to 8, naming it", () => {
  for (const bad of [-1, 1.5, 9, NaN]) {
    assert.throws(() => setParseWorkers(bad), (e: Error) => e.message.includes(String(bad)));
  }
});

for (const [name, recase] of [["lodash camelCase", lodashCamel], ["snake_case", snake]] as const) {
  Deno.test(`rows parsed in a worker are renamed by meaning like parsed ones: search rows in ${name}`, async () => {
    const stub = createStub({ seed: 3, scale: 0.5 });
    const r = rewriting(stub, (path, b) => {
      const body = b as Record<string, unknown>;
      return path === "/search" ? { ...body, data: rekey(body.data, recase) } : b;
    });
    const spelt = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://s/insider",
      fetch: r.fetch,
    });
    const plain = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://s/insider",
      fetch: stub.fetch,
    });
    const want = await plain.search({}, { pageSize: 100 }).frame({
      maxRows: 3_000,
      progress: false,
    });
    const before = setParseWorkers(1);
    try {
      const got = await spelt.search({}, { pageSize: 100, parallel: 4 })
        .frame({ maxRows: 3_000, progress: false });
      assert.deepEqual(got.columns, want.columns);
      assert.equal(got.truncated, true);
      assert.ok(got.frameEqual(want, true), "identical frames");
    } finally {
      setParseWorkers(before);
    }
  });
}
