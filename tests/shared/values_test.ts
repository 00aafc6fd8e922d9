/**
 * The value grammars of `lib/shared/values/`, value by value: one case
 * table per type (`[input, expected row value | UNREADABLE, form]`), run
 * here against the grammars themselves and exported as
 * {@link runGrammarCases} so frames, typed rows, details and feeds run the
 * same table through their own readers. Property tests generate accepted
 * encodings of each type and check they read as the plain value.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type Grammar,
  GRAMMARS,
  readValue,
  UNREADABLE,
  type ValueType,
} from "../../lib/shared/values/mod.ts";
import { describeValue } from "../../lib/shared/describe.ts";
import { EPOCH_MS_FROM, EPOCH_MS_TO, EPOCH_S_FROM } from "../../lib/shared/values/timestamp.ts";

/** One case: an input, the row value it reads as (or UNREADABLE), and the form it is. */
export type Case = readonly [input: unknown, expected: unknown, form: string];

/** The types of the case tables: the value types. */
export type CaseType = ValueType;

const T0 = "2025-01-02T02:48:00.000Z";
const T0_MS = Date.parse(T0);

/** One case table per type. */
export const CASES: Record<CaseType, readonly Case[]> = {
  date: [
    ["2025-01-02", "2025-01-02", "canonical"],
    ["2024-02-29", "2024-02-29", "leap day"],
    ["20250102", "2025-01-02", "basic ISO"],
    ["2025/01/02", "2025-01-02", "year first, slashes"],
    ["2025-01-02T00:00:00", "2025-01-02", "midnight, no zone"],
    ["2025-01-02T00:00:00.000Z", "2025-01-02", "midnight UTC"],
    ["2025-01-02T00:00:00-05:00", "2025-01-02", "midnight in its own zone"],
    [1735776000, "2025-01-02", "epoch seconds"],
    [1735776000000, "2025-01-02", "epoch milliseconds"],
    ["1735776000000", "2025-01-02", "epoch milliseconds as text"],
    [[2025, 1, 2], "2025-01-02", "[year, month, day]"],
    ["2024-03-05T05:00:00.000Z", "2024-03-05", "New York midnight, winter"],
    ["2024-07-05T04:00:00Z", "2024-07-05", "New York midnight, summer"],
    ["2024-03-10T05:00:00Z", "2024-03-10", "New York midnight, the day clocks go forward"],
    ["2024-11-04T05:00:00Z", "2024-11-04", "New York midnight, the day after clocks go back"],
    [1709614800, "2024-03-05", "epoch seconds at New York midnight"],
    ["1720152000000", "2024-07-05", "epoch milliseconds as text at New York midnight"],
    ["2024-01-01T00:00:00.000000Z", "2024-01-01", "midnight, zeros past the millisecond"],
    [[9999, 12, 31], "9999-12-31", "the last year"],
    ["", null, "blank is null"],
    ["2025-02-30", UNREADABLE, "not a calendar date"],
    ["2023-02-29", UNREADABLE, "not a leap year"],
    ["2025-13-01", UNREADABLE, "month 13"],
    ["01/02/2025", UNREADABLE, "month or day first"],
    ["Jan 2 2025", UNREADABLE, "month name"],
    ["2025-01-02T10:00:00Z", UNREADABLE, "not midnight"],
    ["2024-03-05T04:00:00.000Z", UNREADABLE, "summer's offset in winter"],
    ["2024-07-05T05:00:00Z", UNREADABLE, "winter's offset in summer"],
    ["2024-03-05T05:00:00", UNREADABLE, "05:00 without a zone"],
    ["2024-01-01T00:00:00.0000001Z", UNREADABLE, "a tenth of a microsecond past midnight"],
    [1704067200.0004, UNREADABLE, "epoch seconds with a fraction"],
    [[12345, 6, 7], UNREADABLE, "year 12345"],
    [[10000, 1, 1], UNREADABLE, "year 10000"],
    [[99, 1, 1], UNREADABLE, "year 99"],
    ["9999-12-31T23:00:00-01:00", UNREADABLE, "an instant in year 10000"],
    [1735812000, UNREADABLE, "epoch not at UTC midnight"],
    [20250102, UNREADABLE, "packed number"],
    [0, UNREADABLE, "zero"],
    [-1, UNREADABLE, "sentinel"],
    [true, UNREADABLE, "boolean"],
    ["null", UNREADABLE, "the word null"],
  ],
  timestamp: [
    [T0, T0, "canonical"],
    ["2025-01-02T02:48:00Z", T0, "no fraction"],
    ["2025-01-02T02:48Z", T0, "no seconds"],
    ["2025-01-02 02:48:00+00:00", T0, "space, offset"],
    ["2025-01-02T08:18:00+05:30", T0, "Kolkata offset"],
    ["2025-01-01T18:48:00-0800", T0, "offset without colon"],
    ["2025-01-02T03:48:00+01", T0, "hour offset"],
    ["2025-01-02 02:48:00 UTC", T0, "trailing UTC"],
    ["2025-01-02T02:48:00", T0, "no zone: UTC"],
    ["2025-01-02T02:48:00.000123", T0, "microseconds, no zone"],
    ["2025-01-02", "2025-01-02T00:00:00.000Z", "date alone"],
    [T0_MS / 1000, T0, "epoch seconds"],
    [T0_MS, T0, "epoch milliseconds"],
    [String(T0_MS / 1000), T0, "epoch seconds as text"],
    [T0_MS / 1000 + 0.0004, T0, "epoch seconds, digits past the millisecond cut"],
    ["  ", null, "blank is null"],
    ["2025-01-02T24:00:00Z", UNREADABLE, "hour 24"],
    ["2025-01-02T23:59:60Z", UNREADABLE, "leap second"],
    ["2025-02-30T00:00:00Z", UNREADABLE, "not a calendar date"],
    ["2025-01-02T02:48:00+19:00", UNREADABLE, "offset past 18 hours"],
    ["Jan 2 2025 02:48", UNREADABLE, "free text"],
    ["01/02/2025 02:48", UNREADABLE, "slashed date"],
    [T0_MS * 1000, UNREADABLE, "microseconds"],
    [T0_MS + 0.5, UNREADABLE, "fractional milliseconds"],
    [0, UNREADABLE, "zero"],
    [-1, UNREADABLE, "sentinel"],
    [false, UNREADABLE, "boolean"],
  ],
  decimal: [
    [412.5, 412.5, "canonical"],
    [0, 0, "zero"],
    ["412.5", 412.5, "text"],
    [" -3e2 ", -300, "exponent text with blanks"],
    [".5", 0.5, "leading point"],
    ["1e-300", 1e-300, "small"],
    ["0.000e-400", 0, "zero written small"],
    ["", null, "blank is null"],
    ["1e-400", UNREADABLE, "non-zero, would read as 0"],
    ["1e400", UNREADABLE, "past a double"],
    ["1,234", UNREADABLE, "thousands separator"],
    ["5%", UNREADABLE, "percent sign"],
    ["$5", UNREADABLE, "currency"],
    ["NaN", UNREADABLE, "NaN text"],
    ["Infinity", UNREADABLE, "Infinity text"],
    ["0x10", UNREADABLE, "hexadecimal"],
    [true, UNREADABLE, "boolean"],
    [{ usd: 5 }, UNREADABLE, "object"],
  ],
  integer: [
    [42, 42, "canonical"],
    [-7, -7, "negative"],
    [9007199254740991, 9007199254740991, "2^53 - 1"],
    ["42", 42, "text"],
    [" 4.2e1 ", 42, "exponent text"],
    ["42.000", 42, "zeros past the point"],
    ["120e-1", 12, "negative exponent, whole"],
    ["+42", 42, "a plus sign"],
    ["-0.0", 0, "negative zero text (0)"],
    ["9007199254740991", 9007199254740991, "2^53 - 1 as text"],
    ["", null, "blank is null"],
    ["4503599627370496.5", UNREADABLE, "a half past 2^52 (Number() rounds it)"],
    ["0.99999999999999999", UNREADABLE, "just below 1 (Number() gives 1)"],
    ["1e-400", UNREADABLE, "tiny (Number() gives 0)"],
    ["1e16", UNREADABLE, "past 2^53 by exponent"],
    [12.5, UNREADABLE, "fraction"],
    ["12.5", UNREADABLE, "fraction as text"],
    [9007199254740992, UNREADABLE, "2^53"],
    ["9007199254740993", UNREADABLE, "past 2^53 as text"],
    ["1,000", UNREADABLE, "thousands separator"],
    [true, UNREADABLE, "boolean"],
  ],
  boolean: [
    [true, true, "canonical true"],
    [false, false, "canonical false"],
    ["true", true, "text"],
    ["false", false, "text false"],
    ["False", false, "Python str(False)"],
    [" TRUE ", true, "upper case with blanks"],
    [1, true, "number 1"],
    [0, false, "number 0"],
    ["1", true, "text 1"],
    ["0", false, "text 0"],
    ["", null, "blank is null"],
    ["yes", UNREADABLE, "yes"],
    ["n", UNREADABLE, "n"],
    ["t", UNREADABLE, "t"],
    [2, UNREADABLE, "number 2"],
    [[], UNREADABLE, "list"],
  ],
  list: [
    [[5, 15, 17], [5, 15, 17], "canonical"],
    [[], [], "empty"],
    ["", [], "empty, joined"],
    [" ", [], "empty, joined, blank"],
    ["[]", [], "empty, JSON text"],
    ["[5, 15, 17]", [5, 15, 17], "JSON text"],
    ["5,15,17", [5, 15, 17], "joined by commas"],
    ["5; 15; 17", [5, 15, 17], "joined by semicolons"],
    ["5|15|17", [5, 15, 17], "joined by bars"],
    ["5 15 17", [5, 15, 17], "joined by blanks"],
    ["5", [5], "one item as text"],
    [["5", 15], [5, 15], "text items"],
    ["5,15;17", UNREADABLE, "two separators"],
    ["5,1.5", UNREADABLE, "fraction item, joined"],
    ["5,,17", UNREADABLE, "empty item"],
    [[5, null], UNREADABLE, "null item"],
    [[5, 1.5], UNREADABLE, "fraction item"],
    [[{ id: 1 }], UNREADABLE, "object item"],
    ["not a list", UNREADABLE, "words"],
    [5, UNREADABLE, "bare number"],
    [{ ids: [5] }, UNREADABLE, "object"],
  ],
  text_list: [
    [["a", "b"], ["a", "b"], "canonical"],
    ['["a", "b"]', ["a", "b"], "JSON text"],
    [["a", 5], ["a", "5"], "number item"],
    ["a,b", UNREADABLE, "joined text (an item may hold a comma)"],
    [[true], UNREADABLE, "boolean item"],
  ],
  code: [
    ["P", "P", "canonical"],
    ["", "", "empty text is text"],
    [" P ", " P ", "blanks kept"],
    [320193, "320193", "number"],
    [9007199254740991, "9007199254740991", "2^53 - 1"],
    [1e21, UNREADABLE, "exponent (would read 1e+21)"],
    [1.5, UNREADABLE, "fraction"],
    [true, UNREADABLE, "boolean"],
    [{ code: "P" }, UNREADABLE, "object"],
    [["P"], UNREADABLE, "list"],
  ],
};

/** The grammar of a case type. */
export function grammarFor(type: CaseType): Grammar<unknown> {
  return GRAMMARS[type] as Grammar<unknown>;
}

/**
 * What a reader made of some values of one type: the row value of each
 * (null where the value did not read), and how many values it counted as
 * outside the grammar.
 */
export interface ReaderResult {
  values: unknown[];
  unreadable: number;
}

/**
 * A reader under test: reads `values` (one type) as a field of some answer
 * and gives back what a caller sees. When no value reads it must throw.
 */
export type CaseReader = (type: CaseType, values: readonly unknown[]) => Promise<ReaderResult>;

/**
 * Runs the case tables through a reader: every accepted case reads as its
 * expected row value; every refused case is null and counted; a field whose
 * every value is refused throws an error naming the field's value
 * (described) — the InvalidResponseError of the grammar.
 */
export async function runGrammarCases(
  t: Deno.TestContext,
  read: CaseReader,
  types: readonly CaseType[] = Object.keys(CASES) as CaseType[],
): Promise<void> {
  for (const type of types) {
    await t.step(type, async () => {
      const cases = CASES[type];
      const got = await read(type, cases.map((c) => c[0]));
      assert.equal(got.values.length, cases.length);
      cases.forEach(([input, want, form], i) => {
        const label = `${type}: ${form} (${describeValue(input)})`;
        assert.deepEqual(got.values[i], want === UNREADABLE ? null : want, label);
      });
      assert.equal(got.unreadable, cases.filter((c) => c[1] === UNREADABLE).length, type);
      // no value reads: loud, naming the field's value (described, never printed)
      const refused = cases.filter((c) => c[1] === UNREADABLE).map((c) => c[0]);
      await assert.rejects(
        () => read(type, refused),
        (e: Error) => {
          assert.equal(e.name, "InvalidResponseError", e.message);
          assert.match(e.message, /no value of the field reads/);
          assert.ok(e.message.includes(describeValue(refused[0])), e.message);
          return true;
        },
      );
    });
  }
}

/** The grammars themselves as a reader (the row form of each value). */
const grammarReader: CaseReader = (type, values) => {
  const g = grammarFor(type);
  let unreadable = 0;
  const out = values.map((v) => {
    const r = readValue(g, v, () => {});
    if (r === UNREADABLE) {
      unreadable++;
      return null;
    }
    return r === null ? null : g.row(r);
  });
  if (unreadable > 0 && out.every((x) => x === null)) {
    const e = new Error(
      `x expected ${type}; got ${describeValue(values[0])} (no value of the field reads)`,
    );
    e.name = "InvalidResponseError";
    return Promise.reject(e);
  }
  return Promise.resolve({ values: out, unreadable });
};

Deno.test("the grammars read every case of their table", async (t) => {
  await runGrammarCases(t, grammarReader);
  // a double past 2^53 has lost its digits (an answer's literal never reaches a grammar so: it
  // comes as its text, shared/json_numbers.ts, and is kept; tests/http/exact_numbers_test.ts)
  assert.equal(readValue(GRAMMARS.code, 12345678901234567890, () => {}), UNREADABLE);
});

/** A day number between 1973-03-04 and 2100-12-31, as `YYYY-MM-DD`, and its forms. */
const dayArb = fc.integer({ min: 1159, max: 47_481 }).map((d) =>
  new Date(d * 86_400_000).toISOString().slice(0, 10)
);

Deno.test("property: every accepted encoding of a date reads as the plain date", () => {
  fc.assert(fc.property(dayArb, fc.integer({ min: 0, max: 6 }), (day, form) => {
    const ms = Date.parse(day + "T00:00:00Z");
    const [y, m, d] = day.split("-").map(Number);
    const enc = [
      day,
      day.replaceAll("-", ""),
      day.replaceAll("-", "/"),
      `${day}T00:00:00`,
      ms / 1000,
      ms,
      [y, m, d],
    ][form];
    const r = GRAMMARS.date.read(enc, () => {});
    assert.notEqual(r, UNREADABLE, JSON.stringify(enc));
    assert.equal(GRAMMARS.date.row(r as number), day);
  }));
});

Deno.test("property: every accepted encoding of a timestamp reads as the plain instant", () => {
  const msArb = fc.integer({ min: EPOCH_MS_FROM, max: 4_102_444_800_000 });
  fc.assert(
    fc.property(msArb, fc.integer({ min: -18 * 4, max: 18 * 4 }), fc.integer({ min: 0, max: 5 }), (
      ms,
      quarter,
      form,
    ) => {
      const iso = new Date(ms).toISOString();
      const off = quarter * 15;
      const local = new Date(ms + off * 60_000).toISOString().slice(0, 23);
      const sign = off < 0 ? "-" : "+";
      const oh = String(Math.floor(Math.abs(off) / 60)).padStart(2, "0");
      const om = String(Math.abs(off) % 60).padStart(2, "0");
      const enc = [
        iso,
        `${local}${sign}${oh}:${om}`,
        iso.slice(0, 23),
        iso.slice(0, 23).replace("T", " ") + " UTC",
        ms,
        ms % 1000 === 0 ? ms / 1000 : ms,
      ][form];
      let noted = "";
      const r = GRAMMARS.timestamp.read(enc, (f) => noted = f);
      assert.notEqual(r, UNREADABLE, JSON.stringify(enc));
      assert.equal(GRAMMARS.timestamp.row(r as number), iso, JSON.stringify(enc));
      if (form === 2) assert.equal(noted, "timestamp without a zone (read as UTC)");
    }),
  );
});

Deno.test("property: numbers, integers, booleans and lists read from their text", () => {
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
    // -0 is written "0" by String(): compare as numbers
    assert.ok(GRAMMARS.decimal.read(String(x), () => {}) === x);
    assert.ok(GRAMMARS.decimal.read(x, () => {}) === x);
  }));
  fc.assert(fc.property(fc.integer({ min: -(2 ** 51), max: 2 ** 51 }), (n) => {
    assert.equal(GRAMMARS.integer.read(String(n), () => {}), n);
    assert.equal(GRAMMARS.integer.read(n + 0.5, () => {}), UNREADABLE);
  }));
  fc.assert(fc.property(fc.maxSafeInteger(), (n) => {
    assert.equal(GRAMMARS.integer.read(String(n), () => {}), n);
    assert.equal(
      GRAMMARS.integer.read(n + 0.5, () => {}),
      Number.isSafeInteger(n + 0.5) ? n + 0.5 : UNREADABLE,
    );
  }));
  fc.assert(
    fc.property(fc.boolean(), fc.constantFrom("lower", "upper", "number", "digit"), (b, f) => {
      const enc = f === "lower"
        ? String(b)
        : f === "upper"
        ? String(b).toUpperCase()
        : f === "number"
        ? +b
        : String(+b);
      assert.equal(GRAMMARS.boolean.read(enc, () => {}), b);
    }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 20 }),
      fc.constantFrom(",", ";", "|", " ", ", "),
      (xs, sep) => {
        assert.deepEqual(GRAMMARS.list.read(xs.join(sep), () => {}), xs);
        assert.deepEqual(GRAMMARS.list.read(JSON.stringify(xs), () => {}), xs);
      },
    ),
  );
});

Deno.test("property: text outside the grammars is refused, never guessed", () => {
  fc.assert(fc.property(fc.string(), (s) => {
    for (const type of ["date", "timestamp"] as const) {
      const r = GRAMMARS[type].read(s, () => {});
      // whatever reads must be one of the documented text forms
      if (r !== UNREADABLE) {
        assert.match(s.trim(), /^\d{4}|^\d{8,}/, `${type} read ${JSON.stringify(s)}`);
      }
    }
    const n = GRAMMARS.decimal.read(s, () => {});
    if (n !== UNREADABLE) assert.equal(n, Number(s.trim()));
  }));
});

Deno.test("epoch seconds: digits past the millisecond are cut and noted, as in text", () => {
  const notes: string[] = [];
  assert.equal(GRAMMARS.timestamp.read(1704067200.0006, (f) => notes.push(f)), 1704067200000);
  assert.equal(GRAMMARS.timestamp.read(1735776000.123, (f) => notes.push(f)), 1735776000123);
  assert.deepEqual(notes, ["epoch seconds, digits past the millisecond cut", "epoch seconds"]);
});

Deno.test("epoch cut-offs: seconds from 10^8, milliseconds from 10^11, nothing from 10^14", () => {
  assert.equal(EPOCH_S_FROM, 1e8);
  assert.equal(EPOCH_MS_FROM, 1e11);
  assert.equal(EPOCH_MS_TO, 1e14);
  const ts = (v: number) => GRAMMARS.timestamp.read(v, () => {});
  assert.equal(ts(1e8 - 1), UNREADABLE);
  assert.equal(ts(1e8), 1e11);
  assert.equal(ts(1e11 - 1), (1e11 - 1) * 1000);
  assert.equal(ts(1e11), 1e11);
  assert.equal(ts(1e14 - 1), 1e14 - 1);
  assert.equal(ts(1e14), UNREADABLE);
});

Deno.test("describeValue never prints text, only its length and shape", () => {
  const key = "sk-live-ABCdef0123456789";
  const d = describeValue(key);
  assert.ok(!d.includes("ABC") && !d.includes("0123"), d);
  assert.equal(d, 'text of 24 characters shaped "aa-aaaa-AAAaaa9999999999"');
  assert.equal(describeValue(1.5e15), "the number 1500000000000000");
  assert.equal(describeValue({ a: 1, b: 2 }), "an object of 2 keys");
  assert.equal(describeValue([1]), "a list of 1");
  assert.equal(describeValue(""), "empty text");
});

Deno.test("docs/clients.md shows the grammars' own table", async () => {
  const { grammarTable } = await import("../../lib/shared/values/mod.ts");
  const cells = (md: string) =>
    md.split("\n").filter((l) => l.startsWith("|") && !/^\|\s*-/.test(l)).map((l) =>
      l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim().replace(/\s+/g, " "))
    );
  const doc = await Deno.readTextFile(new URL("../../docs/clients.md", import.meta.url));
  const start = doc.indexOf("| type ");
  const shown = cells(doc.slice(start, doc.indexOf("\n\n", start)));
  assert.deepEqual(shown, cells(grammarTable()));
});
