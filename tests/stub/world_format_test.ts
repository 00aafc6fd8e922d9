/**
 * The world file's declared layout (lib/stub/_world_format.ts): what the
 * writer lays out the reader reads back, value for value, for generated
 * metas and arrays (fast-check); an array that does not match the layout is
 * not written; and a file cut short, of another format or version, with a
 * header whose lengths lie, or with a byte changed in any part, is refused
 * naming what is wrong.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ARRAY_TYPES,
  type ArrayType,
  encodeWorldFile,
  planOf,
  type Typed,
  WorldFile,
  WorldFileChanged,
  type WorldMeta,
} from "../../lib/stub/_world_format.ts";
import { BLOCK_ROWS } from "../../lib/stub/columns.ts";

const TYPES = Object.keys(ARRAY_TYPES) as ArrayType[];

/** A generated world's shape: small, but with columns over more than one block. */
const metaArb: fc.Arbitrary<WorldMeta> = fc.record({
  trades: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 * BLOCK_ROWS + 7 })),
  days: fc.integer({ min: 1, max: 40 }),
  companies: fc.integer({ min: 0, max: 5 }),
  abnormal: fc.integer({ min: 0, max: 3 }),
  rows: fc.array(fc.record({ type: fc.constantFrom(...TYPES), nulls: fc.boolean() }), {
    maxLength: 5,
  }),
  catalogBytes: fc.option(fc.integer({ min: 0, max: 300 })),
}).map((g) => ({
  world: {
    seed: 1,
    scale: 0.01,
    asOf: 1000 + g.days - 1,
    start: 1000,
    firstDay: 1000,
    companies: Array.from({ length: g.companies }, (_, c) => ({ ticker: `T${c}` })),
    betas: [],
    vols: [],
    landmark: -1,
    withAbnormal: Array.from({ length: g.abnormal }, (_, k) => k),
  },
  insiders: [{ name: "A" }],
  trades: g.trades,
  rows: g.rows.map((r, k) => ({ name: `col${k}`, kind: "num" as const, ...r })),
  catalogBytes: g.catalogBytes,
}));

/** Deterministic values for an array (a different pattern per array). */
function valuesOf(section: string, name: string, type: ArrayType, length: number): Typed {
  const salt = [...`${section}/${name}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7);
  const a = new ARRAY_TYPES[type](length);
  for (let i = 0; i < length; i++) a[i] = ((i * 2654435761 + salt) >>> 0) % 250 - 100 + 0.5;
  return a;
}

const reader = (bytes: Uint8Array) => (pos: number, len: number) =>
  bytes.slice(pos, Math.min(pos + len, bytes.length));
const open = (bytes: Uint8Array, version = 3) =>
  WorldFile.open({ size: bytes.length, read: reader(bytes) }, version, 0.01);

Deno.test("world format: every declared array reads back as written, by section and by block", () => {
  fc.assert(
    fc.property(metaArb, (meta) => {
      const bytes = encodeWorldFile(meta, 3, valuesOf);
      const f = open(bytes);
      assert.deepEqual(f.meta, JSON.parse(JSON.stringify(meta)));
      const read = reader(bytes);
      for (const section of ["index", "prices", "catalog"] as const) {
        for (const [name, a] of f.section(section, read)) {
          assert.deepEqual(a, valuesOf(section, name, a.constructor.name as ArrayType, a.length));
        }
      }
      for (const p of f.plan.places.values()) {
        if (p.section !== "rows") continue;
        const want = valuesOf("rows", p.name, p.type, p.length);
        for (let from = 0; from < p.length; from += BLOCK_ROWS) {
          const count = Math.min(BLOCK_ROWS, p.length - from);
          assert.deepEqual(f.block(p, from, count, read), want.slice(from, from + count));
        }
      }
    }),
    { numRuns: 60 },
  );
});

Deno.test("world format: a byte changed anywhere is refused as changed, naming the part", () => {
  fc.assert(
    fc.property(metaArb, fc.nat(), (meta, at) => {
      const bytes = encodeWorldFile(meta, 3, valuesOf);
      const bad = bytes.slice();
      const pos = at % bytes.length;
      bad[pos] ^= 0x01;
      const readAll = () => {
        const f = open(bad);
        const read = reader(bad);
        for (const s of ["index", "prices", "catalog"] as const) f.section(s, read);
        for (const p of f.plan.places.values()) {
          if (p.section !== "rows") continue;
          for (let from = 0; from < p.length; from += BLOCK_ROWS) {
            f.block(p, from, Math.min(BLOCK_ROWS, p.length - from), read);
          }
        }
      };
      // the tag, the lengths, a digest or any byte of the header or body: each is caught
      assert.throws(
        readAll,
        (e) =>
          e instanceof Error &&
          /not a world file|over the cap|it states|changed bytes in/.test(e.message),
        `byte ${pos}`,
      );
    }),
    { numRuns: 200 },
  );
});

Deno.test("world format: a file cut short, of another format or of another version is refused", () => {
  const meta = fc.sample(metaArb, { seed: 5, numRuns: 1 })[0];
  const bytes = encodeWorldFile(meta, 3, valuesOf);
  assert.throws(
    () => open(bytes.slice(0, 20)),
    (e) => e instanceof WorldFileChanged && /cut short \(20 bytes\)/.test(e.message),
  );
  assert.throws(
    () => open(bytes.slice(0, -8)),
    (e) => e instanceof WorldFileChanged && /is \d+ bytes, not the \d+ it states/.test(e.message),
  );
  const foreign = bytes.slice();
  foreign.set(new TextEncoder().encode("SBW2"));
  assert.throws(() => open(foreign), /is not a world file of this version/);
  assert.throws(() => open(bytes, 4), /is another version's/);
  assert.throws(
    () => WorldFile.open({ size: 65 << 20, read: reader(bytes) }, 3, 0.5),
    /is 68157440 bytes, over the cap of 67108864/,
  );
});

Deno.test("world format: an array that is not the declared type or length is not written, naming it", () => {
  const meta = fc.sample(metaArb, { seed: 9, numRuns: 1 })[0];
  meta.trades = 10;
  assert.throws(
    () =>
      encodeWorldFile(
        meta,
        3,
        (s, n, type, length) =>
          s === "index" && n === "dir" ? new Int32Array(length) : valuesOf(s, n, type, length),
      ),
    /index dir is a Int32Array of 10, not the Int8Array of 10 the layout declares/,
  );
  assert.throws(
    () =>
      encodeWorldFile(
        meta,
        3,
        (s, n, type, length) =>
          s === "prices" && n === "market"
            ? new Float64Array(length + 1)
            : valuesOf(s, n, type, length),
      ),
    /prices market is a Float64Array of \d+, not the Float64Array of \d+/,
  );
});

Deno.test("world format: the plan lays arrays end to end, 8-byte aligned, digests one per array or block", () => {
  fc.assert(
    fc.property(metaArb, (meta) => {
      const plan = planOf(meta);
      let offset = 0;
      let digest = 0;
      for (const p of plan.places.values()) {
        assert.equal(p.offset, offset);
        assert.equal(p.offset % 8, 0);
        assert.ok(p.bytes >= p.length * ARRAY_TYPES[p.type].BYTES_PER_ELEMENT && p.bytes % 8 === 0);
        assert.equal(p.digest, digest);
        assert.equal(p.unit, p.section === "rows" ? BLOCK_ROWS : Math.max(1, p.length));
        offset += p.bytes;
        digest += Math.max(1, Math.ceil(p.length / p.unit));
      }
      assert.equal(plan.tableAt, offset);
      assert.equal(plan.bodyBytes, offset + 16 * digest);
    }),
  );
});
