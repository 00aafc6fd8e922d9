/**
 * Eastern dates of filing timestamps, cached per UTC hour (issue 34: the
 * `Intl` format was a quarter of the loop thread's time in a parallel
 * search pull): the cached answer is `Intl`'s for every instant.
 */
import assert from "node:assert/strict";
import { easternDate } from "../../lib/insider/_windows.ts";

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
