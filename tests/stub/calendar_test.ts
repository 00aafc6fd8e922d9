/**
 * The emulator's Eastern Time (lib/stub/calendar.ts): filing instants and
 * Eastern days from New York's offsets in the tz database, checked on the
 * days clocks change (2024-03-10 and 2024-11-03, at 02:00) and against
 * `Intl` for every trade of a generated world.
 */
import assert from "node:assert/strict";
import { dayOf, easternDayOf, easternToUtcMs, isoOf } from "../../lib/stub/calendar.ts";
import { assembleWorld, generateWorld } from "../../lib/stub/world.ts";
import { makeInsiderData } from "../../lib/stub/insider/insider_data.ts";

const at = (day: string, hh: number, mm = 0) =>
  new Date(easternToUtcMs(dayOf(day), hh * 60 + mm)).toISOString();

Deno.test("calendar: an Eastern wall-clock time on the days around each clock change", () => {
  assert.equal(at("2024-03-09", 6), "2024-03-09T11:00:00.000Z"); // EST
  assert.equal(at("2024-03-10", 6), "2024-03-10T10:00:00.000Z"); // EDT from 02:00
  assert.equal(at("2024-07-01", 21, 59), "2024-07-02T01:59:00.000Z");
  assert.equal(at("2024-11-02", 6), "2024-11-02T10:00:00.000Z"); // EDT
  assert.equal(at("2024-11-03", 6), "2024-11-03T11:00:00.000Z"); // EST from 02:00
});

Deno.test("calendar: the Eastern day of an instant, at each side of New York's midnight", () => {
  const day = (iso: string) => isoOf(easternDayOf(Date.parse(iso)));
  assert.equal(day("2024-03-10T04:59:59.999Z"), "2024-03-09"); // 23:59 EST
  assert.equal(day("2024-03-10T05:00:00.000Z"), "2024-03-10");
  assert.equal(day("2024-03-11T03:59:59.999Z"), "2024-03-10"); // 23:59 EDT
  assert.equal(day("2024-03-11T04:00:00.000Z"), "2024-03-11");
  assert.equal(day("2024-11-03T03:59:59.999Z"), "2024-11-02");
  assert.equal(day("2024-11-03T04:00:00.000Z"), "2024-11-03"); // midnight EDT
  assert.equal(day("2024-11-04T04:59:59.999Z"), "2024-11-03"); // 23:59 EST
  assert.equal(day("2024-11-04T05:00:00.000Z"), "2024-11-04");
});

Deno.test("calendar: every generated filing is at an Eastern hour from 06:00 to 21:59, on its Eastern day", () => {
  const world = assembleWorld(generateWorld({ seed: 5, scale: 0.1 }));
  const eastern = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
    weekday: "short",
  });
  for (const t of makeInsiderData(world).trades) {
    const p = Object.fromEntries(eastern.formatToParts(t.filedMs).map((x) => [x.type, x.value]));
    const what = `${t.row.accession_number} filed ${t.row.filed_at}`;
    assert.equal(isoOf(t.etDay), `${p.year}-${p.month}-${p.day}`, what);
    assert.ok(Number(p.hour) >= 6 && Number(p.hour) <= 21, `${what}: ${p.hour} h Eastern`);
    assert.equal(t.row.is_weekend_filing, p.weekday === "Sat" || p.weekday === "Sun", what);
  }
});
