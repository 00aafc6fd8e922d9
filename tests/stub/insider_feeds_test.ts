import assert from "node:assert/strict";
import { FEED_IDS } from "../../lib/insider/feeds.ts";
import { expectProblem, ins, ok, small } from "./_helpers.ts";

type Feed = {
  data: { accession_number: string; transaction_id: number; filed_at: string }[];
  next_cursor: string | null;
  has_more: boolean;
};
const feed = async (q: string) => await ok<Feed>(await ins(`/feeds?${q}`));

async function all(q: string): Promise<Feed["data"]> {
  const out: Feed["data"] = [];
  let cursor: string | null = null;
  do {
    const page: Feed = await feed(
      `${q}&limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    out.push(...page.data);
    assert.equal(page.has_more, page.next_cursor !== null);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

Deno.test("all 18 feed ids answer rows with accession_number, transaction_id, filed_at", async () => {
  assert.equal(FEED_IDS.length, 18);
  for (const id of FEED_IDS) {
    const page = await feed(`feed_id=${id}`);
    assert.ok(page.data.length > 0, `feed ${id} empty`);
    for (const r of page.data) {
      assert.deepEqual(Object.keys(r).sort(), ["accession_number", "filed_at", "transaction_id"]);
    }
  }
  for (const bad of ["0", "19", "abc"]) {
    const d = await expectProblem(await ins(`/feeds?feed_id=${bad}`), 400);
    assert.ok(d.includes("feed_id") && d.includes(bad), d);
  }
  await expectProblem(await ins(`/feeds`), 400);
});

Deno.test("feed rows belong to the feed; repeated feed_id is the union, newest first", async () => {
  const s = small();
  const key = (r: Feed["data"][number]) => `${r.accession_number}/${r.transaction_id}`;
  const ceo = await all("feed_id=17");
  for (const r of ceo) assert.ok(s.insider.byKey.get(key(r))!.row.feed_ids.includes(17));
  const sells = await all("feed_id=18");
  const both = await all("feed_id=17&feed_id=18");
  assert.equal(both.length, new Set([...ceo, ...sells].map(key)).size);
  assert.equal((await all("feed_id=17,18")).length, both.length);
  for (let i = 1; i < both.length; i++) assert.ok(both[i - 1].filed_at >= both[i].filed_at);
  const expected = s.insider.trades.filter((t) => t.row.feed_ids.includes(17)).length;
  assert.equal(ceo.length, expected);
});

Deno.test("feed limit: default 10, 1..25, others 400", async () => {
  assert.equal((await feed("feed_id=15")).data.length, 10);
  assert.equal((await feed("feed_id=15&limit=25")).data.length, 25);
  assert.equal((await feed("feed_id=15&limit=1")).data.length, 1);
  for (const bad of ["0", "26", "x"]) {
    const d = await expectProblem(await ins(`/feeds?feed_id=15&limit=${bad}`), 400);
    assert.match(d, /limit/);
  }
});

Deno.test("feed cursor is bound to the query; tampering is 400", async () => {
  const p = await feed("feed_id=15");
  await expectProblem(
    await ins(`/feeds?feed_id=16&cursor=${encodeURIComponent(p.next_cursor!)}`),
    400,
  );
  await expectProblem(
    await ins(`/feeds?feed_id=15&cursor=zz${encodeURIComponent(p.next_cursor!)}`),
    400,
  );
});

Deno.test("feed filters: ticker, from/to (inclusive), sector slug or industry id", async () => {
  const s = small();
  const sample = s.insider.trades.find((t) => t.row.feed_ids.includes(13))!;
  const ticker = sample.row.ticker_symbol!;
  const rows = await all(`feed_id=13&ticker=${ticker.toLowerCase()}`);
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.equal(
      s.insider.byKey.get(`${r.accession_number}/${r.transaction_id}`)!.row.ticker_symbol,
      ticker,
    );
  }
  const ranged = await all("feed_id=13&from=2025-01-01&to=2025-06-30");
  assert.ok(ranged.length > 0);
  for (const r of ranged) assert.ok(r.filed_at >= "2025-01-01" && r.filed_at <= "2025-07-01");
  const tech = await all("feed_id=13&sector=technology");
  for (const r of tech) {
    assert.equal(
      s.world.companies[s.insider.byKey.get(`${r.accession_number}/${r.transaction_id}`)!.company]
        .sector,
      "technology",
    );
  }
  const ind = await all("feed_id=13&sector=101");
  for (const r of ind) {
    assert.equal(
      s.insider.byKey.get(`${r.accession_number}/${r.transaction_id}`)!.row.simple_industry_id,
      101,
    );
  }
  await expectProblem(await ins("/feeds?feed_id=13&sector=crypto"), 400);
  await expectProblem(await ins("/feeds?feed_id=13&from=2025-13-01"), 400);
  const d = await expectProblem(await ins("/feeds?feed_id=13&from=2025-02-01&to=2025-01-01"), 400);
  assert.match(d, /from/);
});
