/**
 * One type vocabulary: `ValueType` (lib/shared/values/_grammar.ts) is the one
 * list of column kinds, and every view of it is a total map the compiler
 * checks. Here: the maps cover every type at run time (grammar, Polars
 * dtype, frame builder and Arrow writer; the doctor has no view of its own:
 * it reads the builder's report), and at the type level the grammar
 * table's keys are exactly the value types.
 */
import assert from "node:assert/strict";
import {
  type Grammar,
  GRAMMARS,
  VALUE_TYPES,
  type ValueOf,
  type ValueType,
} from "../../lib/shared/values/mod.ts";
import { type ColumnSpec, polarsType } from "../../lib/frames/dtypes.ts";
import { buildFrame } from "../../lib/frames/build.ts";

/** True only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
const sameKeys: Equal<keyof typeof GRAMMARS, ValueType> = true;
const sameList: Equal<typeof VALUE_TYPES[number], ValueType> = true;
const sameValues: Equal<keyof ValueOf, ValueType> = true;

/** One canonical value of each type, as a row carries it. */
const SAMPLE: { [K in ValueType]: unknown } = {
  date: "2025-01-02",
  timestamp: "2025-01-02T02:48:00.000Z",
  decimal: 1.5,
  integer: 42,
  boolean: true,
  code: "P",
  list: [5, 15],
  text_list: ["a", "b"],
};

Deno.test("every value type has a grammar, a dtype and a frame column", () => {
  assert.ok(sameKeys && sameList && sameValues);
  assert.deepEqual([...VALUE_TYPES].sort(), Object.keys(SAMPLE).sort());
  for (const t of VALUE_TYPES) {
    const g: Grammar<unknown> = GRAMMARS[t] as Grammar<unknown>;
    assert.equal(g.type, t, `GRAMMARS.${t}.type`);
    assert.ok(g.forms.length > 0 && g.refused.length > 0, t);
  }
  // the builder's inline reader and the Arrow writer, for every type at once
  const specs: ColumnSpec[] = VALUE_TYPES.map((t) => ({ name: t, type: t }));
  const row = Object.fromEntries(VALUE_TYPES.map((t) => [t, SAMPLE[t]]));
  let report;
  const df = buildFrame(specs, [row, {}], { onReport: (r) => report = r, reportMissing: false });
  for (const t of VALUE_TYPES) {
    assert.ok(df.getColumn(t).dtype.equals(polarsType(t)), `${t}: ${df.getColumn(t).dtype}`);
    assert.equal(df.getColumn(t).nullCount(), 1, t);
  }
  assert.deepEqual(report!, { ...report!, coerced: [], unreadable: [] });
});
