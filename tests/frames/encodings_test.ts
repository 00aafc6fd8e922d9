/**
 * Same meaning, same value: every accepted encoding of one value gives the
 * same frame cell (`buildFrame`) and the same typed-row value (`typeRows`)
 * as its canonical form — joined and JSON lists, numbers as text, booleans
 * as text or 0/1, dates as text, as UTC-midnight and as New-York-midnight
 * instants (across every change of New York's offset, 1900–2100), and
 * timestamps in every zone form.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildFrame } from "../../lib/frames/build.ts";
import { rowTyping, typeRows } from "../../lib/frames/typed_rows.ts";
import { GRAMMARS, UNREADABLE, type ValueType } from "../../lib/shared/values/mod.ts";
import { rowForm } from "./_case_forms.ts";
import { insiderHits } from "../../lib/insider/_envelopes.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The cells and typed-row values of `encodings` (one type), as the case tables write them. */
function readAll(type: ValueType, encodings: readonly unknown[]) {
  const rows = encodings.map((x) => ({ x }));
  const df = buildFrame([{ name: "x", type }], rows, { onReport: () => {} });
  const s = df.getColumn("x");
  const cells = encodings.map((_, i) => rowForm(type, s.getIndex(i)));
  const typed = typeRows(rowTyping("GET /x", [["x", type]]), rows).map((r) => r.x);
  return { cells, typed };
}

/** Asserts every encoding reads as the first (the canonical form), in a frame and in typed rows. */
function sameValue(type: ValueType, encodings: readonly unknown[], want: unknown): void {
  const { cells, typed } = readAll(type, encodings);
  encodings.forEach((e, i) => {
    assert.deepEqual(cells[i], want, `${type} frame cell of ${JSON.stringify(e)}`);
    assert.deepEqual(typed[i], want, `${type} typed row of ${JSON.stringify(e)}`);
  });
}

/** New York midnight of a day, found without the grammar: the instant 4 or 5 hours on whose New York clock reads 00:00:00 on that day. */
function newYorkMidnightOf(day: number): number {
  const ymd = new Date(day * DAY).toISOString().slice(0, 10);
  const [y, m, d] = ymd.split("-").map(Number);
  for (const h of [4, 5]) {
    const local = new Date(day * DAY + h * HOUR).toLocaleString("en-US", {
      timeZone: "America/New_York",
      hourCycle: "h23",
    });
    if (local === `${m}/${d}/${y}, 00:00:00`) return day * DAY + h * HOUR;
  }
  throw new Error(`no New York midnight found for ${ymd}`);
}

/** Days 1900-01-01 … 2100-12-31. */
const dayArb = fc.integer({ min: -25_567, max: 47_846 });

Deno.test("property: a date as text, as a UTC-midnight and as a New-York-midnight instant is one date (1900–2100)", () => {
  fc.assert(
    fc.property(fc.array(dayArb, { minLength: 1, maxLength: 8 }), (days) => {
      for (const day of days) {
        const text = new Date(day * DAY).toISOString().slice(0, 10);
        const ny = newYorkMidnightOf(day);
        const encodings: unknown[] = [
          text,
          `${text}T00:00:00.000Z`,
          new Date(ny).toISOString(),
          new Date(ny).toISOString().replace(".000Z", "+00:00"),
          text.split("-").map(Number),
        ];
        // epochs are read from 1973 on (the grammar's cut-offs)
        if (day * DAY >= 1e11) encodings.push(day * DAY, day * 86_400, ny, ny / 1000);
        sameValue("date", encodings, text);
        // the other zone's offset on the same day is no midnight there: refused
        const other = day * DAY + (ny - day * DAY === 4 * HOUR ? 5 : 4) * HOUR;
        assert.equal(GRAMMARS.date.read(new Date(other).toISOString(), () => {}), UNREADABLE);
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("New York midnights on the days its clocks change, and a fixed instant of each era", () => {
  const cases: [string, string][] = [
    ["2024-03-10T05:00:00.000Z", "2024-03-10"], // clocks go forward at 02:00: midnight still EST
    ["2024-03-11T04:00:00.000Z", "2024-03-11"],
    ["2024-11-03T04:00:00.000Z", "2024-11-03"], // clocks go back at 02:00: midnight still EDT
    ["2024-11-04T05:00:00.000Z", "2024-11-04"],
    ["1990-04-02T04:00:00.000Z", "1990-04-02"], // first Sunday of April rule
    ["1990-10-28T04:00:00.000Z", "1990-10-28"],
    ["1943-01-05T04:00:00.000Z", "1943-01-05"], // war time: EDT all year
    ["1918-07-01T04:00:00.000Z", "1918-07-01"],
    ["1900-01-01T05:00:00.000Z", "1900-01-01"],
    ["2100-07-01T04:00:00.000Z", "2100-07-01"],
  ];
  for (const [instant, day] of cases) {
    sameValue("date", [day, instant], day);
  }
  // an hour off either way is not midnight anywhere the grammar knows
  for (
    const bad of [
      "2024-03-10T04:00:00.000Z",
      "2024-03-11T05:00:00.000Z",
      "2024-11-03T05:00:00.000Z",
    ]
  ) {
    assert.equal(GRAMMARS.date.read(bad, () => {}), UNREADABLE, bad);
  }
});

Deno.test("property: two encodings of one value give one frame cell and one typed-row value", () => {
  const int = fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 });
  const listArb = fc.array(fc.integer({ min: 0, max: 2 ** 31 }), { maxLength: 6 });
  const ms = fc.integer({ min: 1e11, max: 4_102_444_800_000 });
  const zone = fc.integer({ min: -18 * 4, max: 18 * 4 }).map((q) => q * 15);
  fc.assert(
    fc.property(
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
      int,
      fc.boolean(),
      listArb,
      fc.constantFrom(",", ";", "|", " ", ", "),
      ms,
      zone,
      (x, n, b, xs, sep, t, off) => {
        sameValue("decimal", [x, String(x), ` ${x} `], x);
        sameValue("integer", [n, String(n), `${n}.000`, `${n}e0`], n);
        sameValue("code", [n, String(n)], String(n));
        sameValue("boolean", [b, String(b), String(b).toUpperCase(), +b, String(+b)], b);
        sameValue("list", [xs, xs.join(sep), JSON.stringify(xs), xs.map(String)], xs);
        const iso = new Date(t).toISOString();
        const local = new Date(t + off * 60_000).toISOString().slice(0, 23);
        const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, "0");
        const mm = String(Math.abs(off) % 60).padStart(2, "0");
        const encodings: unknown[] = [
          iso,
          `${local}${off < 0 ? "-" : "+"}${hh}:${mm}`,
          t,
          String(t),
        ];
        if (t % 1000 === 0) encodings.push(t / 1000, String(t / 1000));
        sameValue("timestamp", encodings, iso);
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("an empty list sent joined is the empty list, as sent plain", () => {
  sameValue("list", [[], "", " ", "[]"], []);
  // a list of text is never read joined: its blank text stays null, an empty list is []
  assert.deepEqual(readAll("text_list", [[], "[]", ""]).cells, [[], [], null]);
});

Deno.test("property: a CIK as a number or as text, zero-padded or not, is one value (ten digits) in frames, typed rows and lookup hits", () => {
  const names = [
    "issuer_cik",
    "reporting_owner_cik",
    "cik",
    "issuerCik",
    "reportingOwnerCik",
    "ISSUER_CIK",
    "CIK",
    "IssuerCik",
  ];
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.nat(10), (n, pad) => {
      const want = String(n).padStart(10, "0");
      const encodings: unknown[] = [want, n, String(n), String(n).padStart(pad, "0"), "0" + want];
      for (const name of names) {
        const rows = encodings.map((x) => ({ [name]: x }));
        const df = buildFrame([{ name, type: "code" }], rows, { onReport: () => {} });
        assert.deepEqual(df.getColumn(name).toArray(), encodings.map(() => want), name);
        const typed = typeRows(rowTyping("GET /x", [[name, "code"]]), rows).map((r) => r[name]);
        assert.deepEqual(typed, encodings.map(() => want), name);
      }
      const hits = insiderHits({
        data: encodings.map((x, i) => ({ cik: x, name: `o${i}`, issuers: [{ cik: x }] })),
      });
      assert.deepEqual(
        hits.map((h) => [h.cik, h.issuers[0].cik]),
        encodings.map(() => [want, want]),
      );
      // a code field that names no CIK keeps its text as sent (`quick`, `xcik`: no CIK either)
      for (const name of ["security_title", "xcik", "quick"]) {
        const other = buildFrame([{ name, type: "code" }], [{ [name]: String(n) }]);
        assert.equal(other.getColumn(name).getIndex(0), String(n), name);
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("a CIK past ten digits, or with any other character, is refused (null, counted), never cut or guessed", () => {
  for (const bad of ["12345678901", "CIK320193", " 320193", "-1", "3.2e5", -1, 1.5, 1e10]) {
    const { cells, typed } = readAllNamed("issuer_cik", [320193, bad]);
    assert.deepEqual([cells, typed], [["0000320193", null], ["0000320193", null]], String(bad));
  }
});

/** `readAll` for a column of this name (a CIK column when it names one). */
function readAllNamed(name: string, encodings: readonly unknown[]) {
  const rows = encodings.map((x) => ({ [name]: x }));
  const df = buildFrame([{ name, type: "code" }], rows, { onReport: () => {} });
  const typed = typeRows(rowTyping("GET /x", [[name, "code"]]), rows);
  return { cells: df.getColumn(name).toArray(), typed: typed.map((r) => r[name]) };
}

Deno.test("an extra (undeclared) column that names a CIK is read as one when all its values read; else kept by the extra-column rule", () => {
  const rows = [{ x: 1, subject_cik: 320193 }, { x: 2, subject_cik: "0000320193" }, {
    x: 3,
    subject_cik: "320193",
  }];
  const df = buildFrame([{ name: "x", type: "integer" }], rows, { onReport: () => {} });
  assert.deepEqual(df.getColumn("subject_cik").toArray(), Array(3).fill("0000320193"));
  const odd = buildFrame(
    [{ name: "x", type: "integer" }],
    [...rows, { x: 4, subject_cik: "N/A" }],
    {
      onReport: () => {},
    },
  );
  assert.deepEqual(odd.getColumn("subject_cik").toArray(), [
    "320193",
    '"0000320193"',
    '"320193"',
    '"N/A"',
  ]);
  // an extra column of numbers that names no CIK stays numbers
  const plain = buildFrame([{ name: "x", type: "integer" }], [{ x: 1, subject_id: 320193 }], {
    onReport: () => {},
  });
  assert.deepEqual(plain.getColumn("subject_id").toArray(), [320193]);
});
