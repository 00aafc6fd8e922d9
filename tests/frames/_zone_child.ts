/**
 * Child of zone_test.ts: the filing times of one search, read from an
 * emulator that sends them without a zone and from the plain one, as the
 * frame and the rows hold them, printed as JSON. Run under a TZ.
 */
import { InsiderClient } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

async function read(dialect?: string) {
  const stub = createStub({ seed: 1, scale: 0.05, dialect });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  const list = insider.search({ tradeType: "purchase" }, { pageSize: 30 });
  const df = await list.frame({ maxRows: 30, progress: false });
  const rows = await list.take(30);
  const feed = await insider.feeds({ feedIds: [15] }).take(5);
  return {
    frame: (df.getColumn("filed_at").toArray() as unknown as Date[]).map((d) => d.toISOString()),
    rows: rows.map((r) => r.filedAt),
    feed: feed.map((r) => r.filed_at),
  };
}

console.warn = () => {};
console.log(JSON.stringify({
  zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  offsetMinutes: new Date("2025-01-02T00:00:00Z").getTimezoneOffset(),
  naive: await read("timestamps=naive"),
  plain: await read(),
}));
