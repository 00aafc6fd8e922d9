/**
 * A sync frees the pages it parsed as it goes, not only at a month's end:
 * `pullMonths` runs its release check after each page's rows are in the
 * month's sink, so garbage never piles up for a whole month (or for the
 * windows' first buffered pages) before V8 is asked to collect it.
 */
import assert from "node:assert/strict";
import { offline } from "../_util.ts";
import { pullMonths } from "../../lib/store/_sync_pull.ts";
import { syncMonths } from "../../lib/store/sync.ts";

Deno.test("sync's pull runs its release check after every page, not only at a month's end", async () => {
  const { insider } = await offline({ seed: 1, scale: 0.3 });
  const months = syncMonths("2025-01-01", "2025-04-30", "2026-01-01");
  const events: string[] = [];
  const { failed } = await pullMonths(
    "insider_trades",
    insider,
    months,
    2,
    () => {},
    () => events.push("page"),
    (m, frame) => {
      events.push(`month ${m.month} ${frame.height}`);
      return Promise.resolve();
    },
    () => Promise.resolve(events.push("release")),
  );
  assert.deepEqual(failed, []);
  const pages = events.filter((e) => e === "page").length;
  assert.ok(pages >= 4, `a test of several pages a month (${pages} pages)`);
  // each page's release comes before the next page (a month the page ended is handed over first)
  let unreleased = false;
  events.forEach((e, i) => {
    if (e === "page") assert.ok(!unreleased, `event ${i}: a page before the last one's release`);
    if (e === "page") unreleased = true;
    if (e === "release") unreleased = false;
  });
  assert.ok(!unreleased);
  assert.equal(events.filter((e) => e === "release").length, pages);
  assert.equal(events.filter((e) => e.startsWith("month")).length, 4);
});
