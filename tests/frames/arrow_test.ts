import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pl from "npm:nodejs-polars@0.25.2";
import fc from "fast-check";
import { arrowStream, PlainBuffer, type PlainKind } from "../../lib/frames/_arrow.ts";

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
function filled(kind: PlainKind, vals: unknown[], cuts: number[]): PlainBuffer {
  const b = new PlainBuffer(kind);
  let from = 0;
  for (const cut of [...cuts.filter((c) => c < vals.length).sort((a, z) => a - z), vals.length]) {
    b.add(vals, from, cut);
    from = cut;
  }
  return b;
}

Deno.test("arrowStream: each dtype reads back with its Polars type, values and nulls", () => {
  const text = filled("utf8", ["a", null, "é\ud800x"], [1]);
  const ints = filled("list_i64", [[1, 2], null, []], [2]);
  const words = filled("list_utf8", [["x"], [], null], []);
  const df = read(arrowStream([
    { name: "d", kind: "date", values: new Float64Array([20089, NaN, -1]) },
    { name: "t", kind: "utf8", values: text },
    { name: "f", kind: "f64", values: new Float64Array([1.5, NaN, -0]) },
    { name: "i", kind: "i64", values: new Float64Array([2 ** 53 - 1, NaN, -(2 ** 40) - 3]) },
    { name: "b", kind: "bool", values: new Float64Array([1, NaN, 0]) },
    { name: "ts", kind: "datetime", values: new Float64Array([1700000000123, NaN, -5]) },
    { name: "li", kind: "list_i64", values: ints },
    { name: "ls", kind: "list_utf8", values: words },
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
  const b = filled("utf8", ["a"], []);
  assert.throws(
    () => arrowStream([{ name: "code", kind: "utf8", values: b }], 2),
    /column code holds 1 values, not 2/,
  );
});

Deno.test("property: any column of any dtype, filled page by page, reads back exactly", () => {
  const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  const kinds = {
    f64: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), safe),
    i64: safe,
    bool: fc.constantFrom(0, 1),
    date: fc.integer({ min: -719162, max: 2932896 }),
    datetime: fc.integer({ min: -62135596800000, max: 253402300799999 }),
    utf8: fc.oneof(fc.string(), fc.string({ unit: "binary" })), // ASCII, and any UTF-16
    list_i64: fc.array(safe, { maxLength: 4 }),
    list_utf8: fc.array(fc.string({ unit: "grapheme" }), { maxLength: 3 }),
  } as const;
  const column = fc.constantFrom(...(Object.keys(kinds) as (keyof typeof kinds)[])).chain((kind) =>
    fc.record({
      kind: fc.constant(kind),
      vals: fc.array(fc.option(kinds[kind] as fc.Arbitrary<unknown>, { nil: null }), {
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
        if (c.kind === "utf8" || c.kind === "list_i64" || c.kind === "list_utf8") {
          const b = filled(c.kind, vals, c.cuts);
          if (c.reused) {
            // a reset buffer holds nothing of what it held before (here: no null)
            b.reset();
            b.add(vals.map((v) => v ?? (c.kind === "utf8" ? "held before" : [])), 0, n);
            b.reset();
            b.add(vals, 0, n);
          }
          return { col: { name, kind: c.kind, values: b }, vals };
        }
        const values = Float64Array.from(vals, (v) => v === null ? NaN : v as number);
        return { col: { name, kind: c.kind, values }, vals };
      });
      const df = read(arrowStream(specs.map((s) => s.col), n));
      assert.equal(df.height, n);
      for (const { col, vals } of specs) {
        const want = vals.map((v) =>
          v === null
            ? null
            : col.kind === "bool"
            ? v === 1
            : col.kind === "date"
            ? (v as number) * 86400000
            : col.kind === "utf8"
            ? utf8(v as string)
            : col.kind === "list_utf8"
            ? (v as string[]).map(utf8)
            : v
        );
        assert.deepEqual(plain(df.getColumn(col.name)), want, `${col.kind} ${col.name}`);
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("a chunk's text column past Arrow's 32-bit offsets is refused, not wrapped", () => {
  const b = new PlainBuffer("utf8", 10);
  b.add(["hello", "there"], 0, 2); // 10 bytes: at the limit
  assert.throws(
    () => b.add(["!"], 0, 1),
    (e: Error) => e instanceof RangeError && /would pass 10 bytes/.test(e.message),
  );
  const words = new PlainBuffer("list_utf8", 4);
  assert.throws(() => words.add([["abc", "de"]], 0, 1), /would pass 4 bytes/);
});
