/**
 * Eastern dates of filing timestamps, cached per UTC hour (issue 34: the
 * `Intl` format was a quarter of the loop thread's time in a parallel
 * search pull): the cached answer is `Intl`'s for every instant.
 */
import assert from "node:assert/strict";
import { easternDate } from "../../lib/insider/_windows.ts";
import { GRAMMARS, IGNORE, isoDay, UNREADABLE } from "../../lib/shared/values/mod.ts";

const eastern = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

Deno.test("easternDate is Intl's Eastern date at both ends of every UTC hour, 2000–2030, DST edges included", () => {
  const HOUR = 3_600_000;
  let checked = 0;
  for (let h = Date.UTC(2000, 0, 1) / HOUR; h < Date.UTC(2030, 0, 1) / HOUR; h++) {
    // the hour's last millisecond first, then its first (the cache is filled by either)
    for (const ms of [h * HOUR + HOUR - 1, h * HOUR, h * HOUR + 1_799_999]) {
      const iso = new Date(ms).toISOString();
      const want = eastern.format(ms);
      if (easternDate(iso) !== want) assert.equal(easternDate(iso), want, iso);
      checked++;
    }
  }
  assert.ok(checked > 700_000);
});

Deno.test("easternDate before 1884 (local mean time, not whole hours) and odd input", () => {
  // New York's local mean time was UTC−4:56:02: near midnight the hour's ends differ
  for (
    const iso of ["1850-06-01T04:50:00.000Z", "1850-06-01T04:59:00.000Z", "1883-11-18T16:59:59Z"]
  ) {
    assert.equal(easternDate(iso), eastern.format(Date.parse(iso)), iso);
  }
  assert.equal(easternDate("2025-03-09"), "2025-03-09");
  assert.equal(easternDate("2025-03-09T06:59:59.999Z"), "2025-03-09");
  assert.equal(easternDate("2025-03-09T07:00:00.000-05:00"), "2025-03-09");
  assert.equal(easternDate("not a date"), undefined);
  assert.equal(easternDate(null), undefined);
  assert.equal(easternDate(42), undefined);
});

/** easternDate before the canonical fast path: the full timestamp grammar for every form. */
function byGrammar(iso: unknown): string | undefined {
  if (iso === null || iso === undefined) return undefined;
  if (typeof iso === "string" && !Number.isNaN(isoDay(iso))) return iso;
  const ms = GRAMMARS.timestamp.read(iso, IGNORE);
  return ms === UNREADABLE ? undefined : eastern.format(ms);
}

Deno.test("easternDate answers as the full grammar on generated timestamps: canonical, offsets, fractions, no zone, and damaged text", async () => {
  const { default: fc } = await import("fast-check");
  const instant = fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) })
    .map((ms) => new Date(ms).toISOString());
  const offset = fc.oneof(
    fc.constantFrom("Z", "z", " UTC", "", "+00:00"),
    fc.tuple(
      fc.constantFrom("+", "-"),
      fc.integer({ min: 0, max: 19 }),
      fc.integer({ min: 0, max: 61 }),
    )
      .map(([s, h, m]) => `${s}${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`),
  );
  // another spelling of an instant: separator, fraction (none to nine digits), zone
  const spelt = fc.tuple(
    instant,
    fc.constantFrom("T", " ", "t"),
    fc.integer({ min: -1, max: 9 }),
    offset,
  )
    .map(([iso, sep, frac, zone]) =>
      iso.slice(0, 10) + sep + iso.slice(11, 19) +
      (frac < 0 ? "" : "." + (iso.slice(20, 23) + "123456").slice(0, frac)) + zone
    );
  // one character of a canonical text replaced: digits past a field's range (`13` as a month,
  // `:60`, `02-30`), letters, blanks, a missing `Z`
  const damaged = fc.tuple(instant, fc.nat(23), fc.constantFrom(..."0123456789:-TZ .x+"))
    .map(([iso, at, c]) => iso.slice(0, at) + c + iso.slice(at + 1));
  fc.assert(
    fc.property(fc.oneof(instant, spelt, damaged), (iso) => easternDate(iso) === byGrammar(iso)),
    { numRuns: 20_000 },
  );
  for (
    const odd of [
      "2025-02-30T10:00:00.000Z", // no such day
      "2024-02-29T23:59:59.999Z", // a leap day
      "2025-01-02T24:00:00.000Z",
      "2025-01-02T10:60:00.000Z",
      "2025-01-02T10:00:60.000Z",
      "0099-01-02T10:00:00.000Z", // a two-digit year's range
      " 2025-01-02T10:00:00.00Z", // 24 characters, a blank first
      "2025-01-02T10:00:00.0a0Z",
      "2025-01-02 10:00:00+0500", // 24 characters, an offset
      "2025-01-02T10:00:00.000Y",
    ]
  ) assert.equal(easternDate(odd), byGrammar(odd), odd);
  assert.equal(easternDate("2025-02-30T10:00:00.000Z"), undefined);
  assert.equal(easternDate("2025-01-02 10:00:00+0500"), "2025-01-02");
});
