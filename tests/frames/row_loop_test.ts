import assert from "node:assert/strict";
import fc from "fast-check";
import { buildFrame, type FrameReport } from "../../lib/frames/build.ts";
import type { ColumnSpec } from "../../lib/frames/dtypes.ts";
import { CASES, type CaseType } from "../shared/values_test.ts";
import { rowForm } from "./_case_forms.ts";
import { UNREADABLE } from "../../lib/shared/values/mod.ts";
import { captureWarnings } from "../_warnings.ts";

// The row loop is generated in groups of columns (_row_loop.ts, GROUP_COLUMNS); a
// row one group cannot take is read again by every column's grammar once all
// groups have run. A frame of many columns (several groups), with values of
// every form of every grammar in any column, holds each value as its
// grammar's case table says, and counts each column's unreadable values.

const quiet = <T>(f: () => T): T => {
  const captured = captureWarnings();
  try {
    return f();
  } finally {
    captured.restore();
  }
};

Deno.test("property: a frame of many columns (row loop in groups) reads every value of every column by its grammar", () => {
  const types = Object.keys(CASES) as CaseType[];
  // a column: its type and, per row, one of the grammar's cases (canonical, other forms,
  // unreadable, null) or a missing key
  const column = fc.constantFrom(...types).chain((type) =>
    fc.record({
      type: fc.constant(type),
      picks: fc.array(fc.option(fc.nat(CASES[type].length - 1), { nil: -1, freq: 4 }), {
        minLength: 6,
        maxLength: 6,
      }),
    })
  );
  fc.assert(
    fc.property(fc.array(column, { minLength: 33, maxLength: 100 }), (cols) => {
      const specs: ColumnSpec[] = cols.map((c, j) => ({ name: `c${j}`, type: c.type }));
      const rows = Array.from({ length: 6 }, (_, r) => {
        const row: Record<string, unknown> = {};
        cols.forEach((c, j) => {
          const pick = c.picks[r];
          if (pick === -1) return; // key missing
          row[`c${j}`] = pick === null ? null : CASES[c.type][pick][0];
        });
        return row;
      });
      // and a row every column reads (a column with no value that reads fails the build)
      rows.push(Object.fromEntries(cols.map((c, j) => [`c${j}`, CASES[c.type][0][0]])));
      let report: FrameReport | undefined;
      const df = quiet(() => buildFrame(specs, rows, { onReport: (r) => report = r }));
      cols.forEach((c, j) => {
        const name = `c${j}`;
        const s = df.getColumn(name);
        const want = [
          ...c.picks.map((p) => {
            if (p === -1 || p === null) return null;
            const w = CASES[c.type][p][1];
            return w === UNREADABLE ? null : w;
          }),
          CASES[c.type][0][1],
        ];
        const got = Array.from({ length: df.height }, (_, i) => rowForm(c.type, s.getIndex(i)));
        assert.deepEqual(got, want, `${name} (${c.type})`);
        const bad = c.picks.filter((p) =>
          p !== -1 && p !== null && CASES[c.type][p][1] === UNREADABLE
        );
        const counted = report!.unreadable.find((u) => u.column === name)?.rows ?? 0;
        assert.equal(counted, bad.length, `unreadable values of ${name}`);
      });
    }),
    { numRuns: 60 },
  );
});
