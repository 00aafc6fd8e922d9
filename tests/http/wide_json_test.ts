/**
 * Answers with lists of wide rows decoded without 174-key objects
 * (`WideJson` in lib/shared/wide_rows.ts, used by the transport for every
 * answer): whatever the text, the answer is the one `JSON.parse` gives, value
 * for value and key for key (or its error); rows are cut where the text
 * allows it and parsed whole where it does not; a parallel pull gives the
 * serial pull's frame.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_CUT_CHARS, uniformRowKeys, WIDE_KEYS, WideJson } from "../../lib/shared/wide_rows.ts";
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

/** Equal values and the same keys in the same order at every level, and the same prototypes. */
function assertSameJson(got: unknown, want: unknown): void {
  assert.deepStrictEqual(got, want);
  assert.equal(JSON.stringify(got), JSON.stringify(want));
}

/** `text` parsed by a decoder that learned the route from `learn` first: the answer and whether rows were cut. */
function secondParse(learn: string, text: string): { body: unknown; cut: boolean } {
  const json = new WideJson();
  assertSameJson(json.parse(learn, "r"), JSON.parse(learn));
  const body = json.parse(text, "r");
  const list = body && typeof body === "object"
    ? (Array.isArray(body) ? body : (body as { data?: unknown }).data)
    : undefined;
  return { body, cut: Array.isArray(list) && uniformRowKeys(list) !== undefined };
}

Deno.test("an answer decoded with its rows cut is JSON.parse's: every place a list can be, value for value", () => {
  const rows = Array.from({ length: 30 }, (_, i) => row(i));
  const bodies = [
    rows, // a bare list
    { data: rows, next_cursor: "c", has_more: true },
    { result: { items: rows, total: 30 } }, // one object down
  ];
  for (const body of bodies) {
    const text = jsonText(body);
    const json = new WideJson();
    json.parse(text, "r");
    const got = json.parse(text, "r");
    assertSameJson(got, JSON.parse(text));
    const list = Array.isArray(got)
      ? got
      : (got as { data?: object[]; result?: { items: object[] } }).data ??
        (got as { result: { items: object[] } }).result.items;
    assert.deepEqual(uniformRowKeys(list), KEYS, "rows were cut and joined");
  }
  // -0 survives (deepStrictEqual tells -0 from 0), the prototype is Object.prototype
  const text = jsonText({ data: [row(6), row(7)] });
  const one = secondParse(text, text).body as { data: Record<string, unknown>[] };
  assert.ok(Object.is(one.data[0].k0, 6));
  assert.ok(Object.values(one.data[0]).some((v) => Object.is(v, -0)));
  assert.equal(Object.getPrototypeOf(one.data[0]), Object.prototype);
  // the mark is not data: it never shows in JSON or keys
  assert.equal(JSON.stringify(one), JSON.stringify(JSON.parse(text)));
  assert.equal(uniformRowKeys(JSON.parse(text).data), undefined);
});

Deno.test("rows that cannot be cut exactly are parsed whole: the answer is still JSON.parse's", () => {
  const wide = Array.from({ length: 5 }, (_, i) => row(i));
  const learn = JSON.stringify({ data: wide });
  const mid = "k75"; // where 150 keys are cut
  const reordered = Object.fromEntries(Object.entries(row(9)).reverse());
  const cases: [string, string][] = [
    ["keys in another order", JSON.stringify({ data: [...wide, reordered] })],
    ["one key more", JSON.stringify({ data: [...wide, { ...row(7), extra: 1 }] })],
    ["one key less", JSON.stringify({ data: [...wide, { ...row(7), k3: undefined }] })],
    ["the cut key left out", JSON.stringify({ data: [...wide, { ...row(7), [mid]: undefined }] })],
    [
      "the last key of a piece left out",
      JSON.stringify({ data: [...wide, { ...row(7), k74: undefined }] }),
    ],
    ["an array among the rows", JSON.stringify({ data: [...wide, [1, 2]] })],
    ["null among the rows", JSON.stringify({ data: [...wide, null] })],
    // a key repeated: in the first piece (JSON.parse keeps the last value), across pieces
    [
      "a key repeated in one piece",
      JSON.stringify({ data: wide }).replace(',"k3":', ',"k3":"x","k3":'),
    ],
    [
      "a key repeated across pieces",
      JSON.stringify({ data: wide }).replace(',"k76":', ',"k3":"y","k76":'),
    ],
    [
      "the cut key repeated",
      JSON.stringify({ data: wide }).replace(`,"${mid}":`, `,"${mid}":0,"${mid}":`),
    ],
    // the cut key in a nested object: inside an array (cut into two items) and as a value (not JSON once cut)
    ["the cut key nested in an array", JSON.stringify({ data: wide, meta: [{ a: 1, [mid]: 2 }] })],
    ["the cut key nested in an object", JSON.stringify({ data: wide, meta: { a: 1, [mid]: 2 } })],
    [
      "the cut key in a row's own value",
      JSON.stringify({ data: [{ ...row(1), k2: { a: 1, [mid]: [{ b: 1, [mid]: 2 }] } }] }),
    ],
    // one row's pieces missing, made up by two unrelated objects and a nested cut elsewhere
    [
      "pieces made up elsewhere",
      JSON.stringify({
        data: [
          row(1),
          Object.fromEntries(KEYS.slice(0, 75).map((k) => [k, 1])),
          // as long as a second piece, led by another key than the mark (the cut key
          // written with an escape, so not cut there)
          Object.fromEntries(["zz", ...KEYS.slice(75)].map((k) => [k, 2])),
        ],
        meta: [{ a: 1, [mid]: 3 }],
      }).replace(`{"zz":2,"${mid}":`, '{"zz":2,"k\\u00375":'),
    ],
    [
      "a \\u0000 escape in the text",
      JSON.stringify({ data: [{ ...row(1), k2: "\u0000" }, row(2)] }),
    ],
    [
      "a key written with an escape",
      JSON.stringify({ data: wide }).replaceAll(`"${mid}"`, '"k\\u00375"'),
    ],
    ["whitespace after the comma", JSON.stringify({ data: wide }, null, 1)],
    ["no rows", JSON.stringify({ data: [] })],
    ["__proto__ as data", JSON.stringify({ data: [row(1, [...KEYS.slice(0, 140), "__proto__"])] })],
  ];
  for (const [what, text] of cases) {
    const got = secondParse(learn, text);
    assertSameJson(got.body, JSON.parse(text));
    if (what !== "a key repeated in one piece") assert.equal(got.cut, false, what);
  }
  // a repeat inside a piece is JSON.parse's own business: the cut keeps its last value
  const dup = JSON.stringify({ data: wide }).replace(',"k3":', ',"k3":"x","k3":');
  assert.equal(secondParse(learn, dup).cut, true);
  const proto = secondParse(learn, cases.at(-1)![1]).body as { data: object[] };
  assert.ok(Object.hasOwn(proto.data[0], "__proto__"));
});

Deno.test("rows of three pieces: each cut's key nested elsewhere stops the cut", () => {
  const keys = Array.from({ length: 250 }, (_, i) => `w${i}`);
  const rows = Array.from({ length: 4 }, (_, i) => row(i, keys));
  const learn = JSON.stringify({ data: rows });
  assert.equal(secondParse(learn, learn).cut, true);
  // 250 keys are cut at w83 and w167
  for (const key of ["w83", "w167"]) {
    const text = JSON.stringify({ data: rows, meta: [{ a: 1, [key]: 2 }] });
    const got = secondParse(learn, text);
    assertSameJson(got.body, JSON.parse(text));
    assert.equal(got.cut, false, key);
  }
});

Deno.test("an enumerable key added to Object.prototype stops the cut, not the answer", () => {
  const text = JSON.stringify({ data: [row(1), row(2)] });
  const json = new WideJson();
  json.parse(text, "r");
  Object.defineProperty(Object.prototype, "polluted", {
    value: 1,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  try {
    const got = json.parse(text, "r") as { data: object[] };
    assert.equal(uniformRowKeys(got.data), undefined);
    assertSameJson(got, JSON.parse(text));
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
  assert.ok(uniformRowKeys((json.parse(text, "r") as { data: object[] }).data));
});

Deno.test("a text longer than MAX_CUT_CHARS is parsed whole (the cut would copy it larger)", () => {
  const learn = JSON.stringify({ data: [row(1), row(2)] });
  const rows = Array.from(
    { length: Math.ceil(MAX_CUT_CHARS / learn.length) * 3 },
    (_, i) => row(i),
  );
  const long = JSON.stringify({ data: rows });
  assert.ok(long.length > MAX_CUT_CHARS);
  const got = secondParse(learn, long);
  assert.equal(got.cut, false);
  assert.equal((got.body as { data: unknown[] }).data.length, rows.length);
  // just under the limit: cut
  const short = JSON.stringify({ data: rows.slice(0, 2) });
  assert.equal(secondParse(learn, short).cut, true);
});

Deno.test("a text that is not JSON throws JSON.parse's error, cut or not", () => {
  const learn = JSON.stringify({ data: [row(1), row(2)] });
  const bad = [
    learn.slice(0, -2), // cut short
    learn.replace(',"k75":', ',"k75":}'), // broken right at the cut
    learn.replace('"k2":', '"k2":"\u0001'), // a raw control character in a string
    learn + "x",
  ];
  for (const text of bad) {
    const json = new WideJson();
    json.parse(learn, "r");
    let want: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      want = e;
    }
    assert.ok(want instanceof SyntaxError);
    assert.throws(() => json.parse(text, "r"), (e: Error) => e.message === (want as Error).message);
  }
});

Deno.test("a route whose answers cannot be cut twice in a row is parsed whole from then on", () => {
  const learn = JSON.stringify({ data: [row(1), row(2)] });
  const odd = JSON.stringify({ data: [row(1), { ...row(2), extra: 1 }] });
  const json = new WideJson();
  json.parse(learn, "r");
  assert.ok(uniformRowKeys((json.parse(learn, "r") as { data: object[] }).data), "cut");
  json.parse(odd, "r");
  assert.ok(uniformRowKeys((json.parse(learn, "r") as { data: object[] }).data), "one miss: cut");
  json.parse(odd, "r");
  json.parse(odd, "r");
  assert.equal(uniformRowKeys((json.parse(learn, "r") as { data: object[] }).data), undefined);
  // other routes are their own
  json.parse(learn, "other");
  assert.ok(uniformRowKeys((json.parse(learn, "other") as { data: object[] }).data));
  // narrow rows are never cut
  const narrow = JSON.stringify({ data: [row(1, KEYS.slice(0, WIDE_KEYS - 1))] });
  json.parse(narrow, "n");
  assert.equal(uniformRowKeys((json.parse(narrow, "n") as { data: object[] }).data), undefined);
});

// ---- generated pages -------------------------------------------------------

/** A JSON string literal of `s`, each character written plainly or as a `\u` escape. */
function strText(s: string, escapes: boolean[]): string {
  let out = '"';
  let i = 0;
  for (const ch of s) {
    const plain = JSON.stringify(ch).slice(1, -1);
    const esc = [...ch].map((_, j) => "\\u" + ch.charCodeAt(j).toString(16).padStart(4, "0")).join(
      "",
    );
    out += escapes[i++ % escapes.length] ? esc : plain.replace("/", i % 2 ? "\\/" : "/");
  }
  return out + '"';
}

/** Number texts of every form JSON allows. */
const NUMBERS = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom(
    "-0",
    "0.0",
    "-0.0e0",
    "1e5",
    "1E+5",
    "2e-7",
    "-1.5E-300",
    "12345678901234567890123",
    "1e400",
    "0.1",
    "9007199254740993",
  ),
);

/** Strings that look like the cut, the mark, or JSON structure. */
const TRICKY = fc.constantFrom(
  "},{",
  ',"k70":',
  '},{"\\u0000":0,"k70":',
  "\u0000",
  "\\u0000",
  "\\",
  '"',
  "ü€😀",
  "\u2028",
  "a\nb",
  "",
);

/** A JSON value's text, nested objects and arrays included; strings from `strings`. */
const valueOf = (strings: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.letrec<{ v: string }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      NUMBERS,
      fc.constantFrom("true", "false", "null"),
      fc.tuple(strings, fc.array(fc.boolean(), { minLength: 1 })).map(([s, e]) => strText(s, e)),
      fc.array(tie("v"), { maxLength: 3 }).map((a) => `[${a.join(",")}]`),
      fc.array(
        fc.tuple(fc.oneof(strings, fc.constantFrom("k70", "k71", "__proto__")), tie("v")),
        { maxLength: 3 },
      ).map((m) => `{${m.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    ),
  })).v;

/** Most values: any text but a NUL (which no real page holds and which stops every cut). */
const plainValue = valueOf(fc.string({ unit: "binary" }).filter((s) => !s.includes("\u0000")));
/** A few values a page: strings that look like the cut, the mark or JSON structure. */
const trickyValue = valueOf(fc.oneof(fc.string({ unit: "binary" }), TRICKY));

/** Row keys: plain names, with odd ones (escapes, unicode, `},{`) among them. */
const pageKeys = fc.tuple(
  fc.integer({ min: WIDE_KEYS, max: 300 }),
  fc.array(
    fc.tuple(
      fc.nat(),
      fc.oneof(
        { arbitrary: fc.string({ unit: "binary", minLength: 1 }), weight: 4 },
        { arbitrary: TRICKY, weight: 2 },
        { arbitrary: fc.constant("__proto__"), weight: 1 },
      ),
    ),
    { maxLength: 4 },
  ),
).map(([n, odd]) => {
  const keys = Array.from({ length: n }, (_, i) => `k${i}`);
  for (const [at, k] of odd) if (!keys.includes(k)) keys[at % n] = k;
  return keys;
});

/** A page: its keys, rows of value texts, and a mutation of one row (or none). */
const pages = pageKeys.chain((keys) =>
  fc.record({
    keys: fc.constant(keys),
    rows: fc.array(fc.array(plainValue, { minLength: keys.length, maxLength: keys.length }), {
      minLength: 1,
      maxLength: 4,
    }),
    tricky: fc.array(fc.tuple(fc.nat(), fc.nat(), trickyValue), { maxLength: 3 }),
    keyEscapes: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    mutate: fc.option(
      fc.record({
        kind: fc.constantFrom("drop", "add", "swap", "repeat"),
        row: fc.nat(),
        at: fc.nat(),
        other: fc.nat(),
      }),
      { freq: 2 },
    ),
  })
);

/** The page's JSON text; unmutated and with every key written plainly for the learning page. */
function pageText(
  p: {
    keys: string[];
    rows: string[][];
    tricky: [number, number, string][];
    keyEscapes: boolean[];
    mutate: unknown;
  },
  mutate = true,
): string {
  const values = p.rows.map((r) => [...r]);
  for (const [r, k, v] of p.tricky) values[r % values.length][k % p.keys.length] = v;
  const m = mutate
    ? p.mutate as { kind: string; row: number; at: number; other: number } | null
    : null;
  const rows = values.map((vals, r) => {
    const members: [string, string][] = p.keys.map((k, i) => [k, vals[i]]);
    if (m && m.row % p.rows.length === r) {
      const at = m.at % members.length;
      const other = m.other % members.length;
      if (m.kind === "drop") members.splice(at, 1);
      else if (m.kind === "add") members.splice(at, 0, ["extra_key", "1"]);
      else if (m.kind === "swap") [members[at], members[other]] = [members[other], members[at]];
      else members.splice(at, 0, members[other]);
    }
    // some key texts written with escapes (a cut matches only the plain text)
    const keyText = (k: string, i: number) =>
      mutate && i % 17 === 3 && p.keyEscapes[i % p.keyEscapes.length]
        ? strText(k, [true])
        : JSON.stringify(k);
    return `{${members.map(([k, v], i) => `${keyText(k, i)}:${v}`).join(",")}}`;
  });
  return `{"data":[${rows.join(",")}],"next":${rows.length > 2 ? '"c"' : "null"}}`;
}

Deno.test("generated pages: every answer is JSON.parse's, and rows with the learned keys are cut", () => {
  let cut = 0;
  fc.assert(
    fc.property(pages, (p) => {
      const learn = pageText(p, false);
      const text = pageText(p);
      const json = new WideJson();
      assertSameJson(json.parse(learn, "r"), JSON.parse(learn));
      const got = json.parse(text, "r") as { data: object[] };
      assertSameJson(got, JSON.parse(text));
      // the same text again, unchanged: cut whenever its cut keys are plain names
      const again = json.parse(learn, "r") as { data: object[] };
      assertSameJson(again, JSON.parse(learn));
      if (uniformRowKeys(again.data)) cut++;
    }),
    { numRuns: 150 },
  );
  assert.ok(cut > 50, `only ${cut} of 150 generated pages were cut`);
});

// ---- through the client --------------------------------------------------

Deno.test("a large answer that is not JSON raises the client's usual error, before and after a learned page", async () => {
  let text = JSON.stringify({ data: [row(1), row(2)], nextCursor: null });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://api.test/insider",
    fetch: () => Promise.resolve(new Response(text, { status: 200 })),
    maxRetries: 0,
  });
  await insider.search({}).firstPage(); // learns the route's rows
  text = text.replace(',"k75":', ',"k75":}');
  const e = await insider.search({}).firstPage().catch((e) => e);
  assert.ok(e instanceof InvalidResponseError, String(e));
  assert.match(e.message, /not valid JSON/);
});

Deno.test("a parallel pull gives the serial pull's frame on a whole world: every trade, and cut by maxRows", async () => {
  // scale 1 (about 23k trades): three frame chunks of 8,192 rows and a cut inside the second
  const stub = createStub({ seed: 7, scale: 1 });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: stub.fetch,
  });
  const filter = { excludeAnomalousTransactions: false };
  // every trade of the world, serially, each page parsed whole: the reference
  const plain = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: async (input, init) => {
      // a space after each comma: no row of these answers is cut
      const res = await stub.fetch(input, init);
      return new Response((await res.text()).replaceAll(',"', ', "'), res);
    },
  });
  const serial = await plain.search(filter, { pageSize: 100 }).frame({ progress: false });
  assert.ok(serial.height >= 20_000, `${serial.height} rows`);
  assert.equal(serial.truncated, false);
  for (const maxRows of [undefined, 12_345]) {
    const parallel = await insider.search(filter, { pageSize: 100, parallel: 8 })
      .frame({ maxRows, progress: false });
    // a serial pull cut by maxRows is the first maxRows rows of the whole list
    const want = maxRows === undefined ? serial : serial.head(maxRows);
    assert.equal(parallel.height, want.height);
    assert.equal(parallel.truncated, maxRows !== undefined);
    assert.deepEqual(parallel.schema, want.schema);
    assert.ok(parallel.frameEqual(want, true), `maxRows ${maxRows}: frames differ`);
  }
});

for (const [name, recase] of [["lodash camelCase", lodashCamel], ["snake_case", snake]] as const) {
  Deno.test(`cut rows are renamed by meaning like whole ones: search rows in ${name}`, async () => {
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
    const got = await spelt.search({}, { pageSize: 100, parallel: 4 })
      .frame({ maxRows: 3_000, progress: false });
    assert.deepEqual(got.columns, want.columns);
    assert.equal(got.truncated, true);
    assert.ok(got.frameEqual(want, true), "identical frames");
  });
}
