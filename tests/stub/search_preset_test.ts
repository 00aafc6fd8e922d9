/**
 * `cikOrTicker` with `filingDatePreset`: both constraints are ANDed (rule 2),
 * so a preset other than `All time` bounds the issuer's history.
 */
import assert from "node:assert/strict";
import { search, small } from "./_helpers.ts";
import { presetStart } from "../../lib/stub/insider/search.ts";
import { dayOf, isoOf } from "../../lib/stub/calendar.ts";

async function all(filter: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const res = await search({
      filter,
      pagination: { pageSize: 100, ...(cursor ? { cursor } : {}) },
    });
    assert.equal(res.status, 200);
    const page = await res.json();
    out.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

Deno.test("cikOrTicker AND filingDatePreset: the preset bounds the issuer's history", async () => {
  const s = small();
  const counts = new Map<number, number>();
  for (const t of s.insider.trades) counts.set(t.company, (counts.get(t.company) ?? 0) + 1);
  const c = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const co = s.world.companies[c];
  const history = await all({ cikOrTicker: co.ticker });
  const allTime = await all({ cikOrTicker: co.ticker, filingDatePreset: "All time" });
  assert.equal(allTime.length, history.length);
  const year = await all({ cikOrTicker: co.ticker, filingDatePreset: "1 year" });
  const cutoff = "2025-11-20"; // one year before the world's as-of date (2026-11-20), Eastern
  const expected = history.filter((r) => String(r.filedAt) >= cutoff);
  assert.ok(year.length < history.length, `${year.length} of ${history.length}`);
  assert.ok(Math.abs(year.length - expected.length) <= 2, `${year.length} vs ${expected.length}`);
  for (const r of year) {
    assert.equal(r.tickerSymbol, co.ticker);
    assert.ok(String(r.filedAt) >= "2025-11-19", String(r.filedAt));
  }
  const byCik = await all({ cikOrTicker: co.cik, filingDatePreset: "1 year" });
  assert.equal(byCik.length, year.length);
  const week = await all({ cikOrTicker: co.ticker, filingDatePreset: "7 days" });
  assert.ok(week.length <= year.length);
  for (const r of week) assert.ok(String(r.filedAt) >= "2026-11-13", String(r.filedAt));
});

Deno.test("cikOrTicker with a preset and explicit dates: the dates narrow the preset", async () => {
  const co = small().world.companies[5];
  const year = await all({ cikOrTicker: co.ticker, filingDatePreset: "1 year" });
  const narrowed = await all({
    cikOrTicker: co.ticker,
    filingDatePreset: "1 year",
    filingDateFrom: "2026-06-01",
  });
  assert.ok(narrowed.length <= year.length);
  for (const r of narrowed) assert.ok(String(r.filedAt) >= "2026-06-01");
});

Deno.test("filingDatePreset: each preset's first filing day, and no bound for All time or an unknown name", () => {
  const today = dayOf("2026-11-20");
  const start = (p: string) => {
    const d = presetStart(p, today);
    return d === undefined ? d : isoOf(d);
  };
  const want: Record<string, string | undefined> = {
    "Today": "2026-11-20",
    "3 days": "2026-11-18",
    "7 days": "2026-11-14",
    "1 month": "2026-10-20",
    "3 months": "2026-08-20",
    "6 months": "2026-05-20",
    "1 year": "2025-11-20",
    "2 years": "2024-11-20",
    "5 years": "2021-11-20",
    "10 years": "2016-11-20",
    "All time": undefined,
    "constructor": undefined,
    "1 week": undefined,
  };
  for (const [p, day] of Object.entries(want)) assert.equal(start(p), day, p);
});
