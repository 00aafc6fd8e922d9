import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pl from "npm:nodejs-polars@0.25.2";
import fc from "fast-check";
import { arrowStream, PlainBuffer, type PlainType } from "../../lib/frames/_arrow.ts";
import { polarsType } from "../../lib/frames/dtypes.ts";
import { VALUE_TYPES } from "../../lib/shared/values/mod.ts";

const read = (bytes: Uint8Array) =>
  pl.readIPCStream(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));

/** What Polars holds for a JS string: its UTF-8 (a lone surrogate as U+FFFD). */
const utf8 = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));

/** A column's values as plain JS values, comparable across dtypes. */
function plain(s: pl.Series): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < s.length; i++) {
    const v = s.getIndex(i) as unknown;
    out.push(
      v instanceof Date
        ? v.getTime()
        : typeof v === "bigint"
        ? Number(v)
        : Array.isArray(v)
        ? v.map((x) => typeof x === "bigint" ? Number(x) : x)
        : v,
    );
  }
  return out;
}

/** A plain buffer filled with `vals` in the given cuts, as a frame's pages fill it. */
function filled(type: PlainType, vals: unknown[], cuts: number[]): PlainBuffer {
  const b = new PlainBuffer(type);
  let from = 0;
  for (const cut of [...cuts.filter((c) => c < vals.length).sort((a, z) => a - z), vals.length]) {
    b.add(vals, from, cut);
    from = cut;
  }
  return b;
}

Deno.test("arrowStream: each dtype reads back with its Polars type, values and nulls", () => {
  const text = filled("code", ["a", null, "é\ud800x"], [1]);
  const ints = filled("list", [[1, 2], null, []], [2]);
  const words = filled("text_list", [["x"], [], null], []);
  const df = read(arrowStream([
    { name: "d", type: "date", values: new Float64Array([20089, NaN, -1]) },
    { name: "t", type: "code", values: text },
    { name: "f", type: "decimal", values: new Float64Array([1.5, NaN, -0]) },
    { name: "i", type: "integer", values: new Float64Array([2 ** 53 - 1, NaN, -(2 ** 40) - 3]) },
    { name: "b", type: "boolean", values: new Float64Array([1, NaN, 0]) },
    { name: "ts", type: "timestamp", values: new Float64Array([1700000000123, NaN, -5]) },
    { name: "li", type: "list", values: ints },
    { name: "ls", type: "text_list", values: words },
  ], 3));
  // the declared dtypes of the frames, exactly (text: Polars' String, what pl.Utf8 builds)
  assert.deepEqual(Object.fromEntries(Object.entries(df.schema).map(([k, v]) => [k, String(v)])), {
    d: "DataType(Date)",
    t: "DataType(String)",
    f: "DataType(Float64)",
    i: "DataType(Int64)",
    b: "DataType(Bool)",
    ts: "DataType(Datetime(ms,UTC))",
    li: "DataType(List(DataType(Int64)))",
    ls: "DataType(List(DataType(String)))",
  });
  // the Arrow view and the Polars view of the value types agree, for every type
  const col = { d: "date", t: "code", f: "decimal", i: "integer", b: "boolean", ts: "timestamp" };
  const cols: Record<string, string> = { ...col, li: "list", ls: "text_list" };
  assert.deepEqual(Object.values(cols).sort(), [...VALUE_TYPES].sort());
  for (const [name, t] of Object.entries(cols)) {
    assert.ok(df.schema[name].equals(polarsType(t as typeof VALUE_TYPES[number])), t);
  }
  assert.deepEqual(plain(df.getColumn("d")), [20089 * 86400000, null, -86400000]);
  assert.deepEqual(plain(df.getColumn("t")), ["a", null, "é\ufffdx"]);
  assert.deepEqual(plain(df.getColumn("f")), [1.5, null, -0]);
  assert.deepEqual(plain(df.getColumn("i")), [2 ** 53 - 1, null, -(2 ** 40) - 3]);
  assert.deepEqual(plain(df.getColumn("b")), [true, null, false]);
  assert.deepEqual(plain(df.getColumn("ts")), [1700000000123, null, -5]);
  assert.deepEqual(plain(df.getColumn("li")), [[1, 2], null, []]);
  assert.deepEqual(plain(df.getColumn("ls")), [["x"], [], null]);
});

Deno.test("arrowStream refuses a text column whose length is not the rows'", () => {
  const b = filled("code", ["a"], []);
  assert.throws(
    () => arrowStream([{ name: "code", type: "code", values: b }], 2),
    /column code holds 1 values, not 2/,
  );
});

Deno.test("property: any column of any dtype, filled page by page, reads back exactly", () => {
  const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  const kinds = {
    decimal: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), safe),
    integer: safe,
    boolean: fc.constantFrom(0, 1),
    date: fc.integer({ min: -719162, max: 2932896 }),
    timestamp: fc.integer({ min: -62135596800000, max: 253402300799999 }),
    code: fc.oneof(fc.string(), fc.string({ unit: "binary" })), // ASCII, and any UTF-16
    list: fc.array(safe, { maxLength: 4 }),
    text_list: fc.array(fc.string({ unit: "grapheme" }), { maxLength: 3 }),
  } as const;
  const column = fc.constantFrom(...(Object.keys(kinds) as (keyof typeof kinds)[])).chain((type) =>
    fc.record({
      type: fc.constant(type),
      vals: fc.array(fc.option(kinds[type] as fc.Arbitrary<unknown>, { nil: null }), {
        maxLength: 40,
      }),
      cuts: fc.array(fc.nat(40), { maxLength: 4 }),
      reused: fc.boolean(),
    })
  );
  fc.assert(
    fc.property(fc.array(column, { minLength: 1, maxLength: 4 }), (cols) => {
      const n = Math.min(...cols.map((c) => c.vals.length));
      const specs = cols.map((c, j) => {
        const vals = c.vals.slice(0, n);
        const name = `c${j}`;
        if (c.type === "code" || c.type === "list" || c.type === "text_list") {
          const b = filled(c.type, vals, c.cuts);
          if (c.reused) {
            // a reset buffer holds nothing of what it held before (here: no null)
            b.reset();
            b.add(vals.map((v) => v ?? (c.type === "code" ? "held before" : [])), 0, n);
            b.reset();
            b.add(vals, 0, n);
          }
          return { col: { name, type: c.type, values: b }, vals };
        }
        const values = Float64Array.from(vals, (v) => v === null ? NaN : v as number);
        return { col: { name, type: c.type, values }, vals };
      });
      const df = read(arrowStream(specs.map((s) => s.col), n));
      assert.equal(df.height, n);
      for (const { col, vals } of specs) {
        const want = vals.map((v) =>
          v === null
            ? null
            : col.type === "boolean"
            ? v === 1
            : col.type === "date"
            ? (v as number) * 86400000
            : col.type === "code"
            ? utf8(v as string)
            : col.type === "text_list"
            ? (v as string[]).map(utf8)
            : v
        );
        assert.deepEqual(plain(df.getColumn(col.name)), want, `${col.type} ${col.name}`);
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("a chunk's text column past Arrow's 32-bit offsets is refused, not wrapped", () => {
  const b = new PlainBuffer("code", 10);
  b.add(["hello", "there"], 0, 2); // 10 bytes: at the limit
  assert.throws(
    () => b.add(["!"], 0, 1),
    (e: Error) => e instanceof RangeError && /would pass 10 bytes/.test(e.message),
  );
  const words = new PlainBuffer("text_list", 4);
  assert.throws(() => words.add([["abc", "de"]], 0, 1), /would pass 4 bytes/);
});
