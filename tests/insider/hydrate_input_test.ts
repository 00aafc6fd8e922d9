/**
 * What hydrate and hydrateFrame take, through the emulator: feed rows,
 * search rows (camelCase) and search frames give the same details as the
 * rows they were built from; anything else is a TypeError naming what was
 * given, before any request.
 */
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { InsiderClient, isDemo, tradeClass, transactionsFrame } from "../../mod.ts";
import { hydrateKeys } from "../../lib/insider/client.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch } from "../_util.ts";

const stub = createStub({ seed: 1 });
const { fetch, count } = countingFetch(stub);
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://s/insider",
  fetch,
});
const opts = { progress: false } as const;
const keyOf = (r: Record<string, unknown>) => `${r.accession_number}/${r.transaction_id}`;

Deno.test("hydrate: search rows, a search frame and their feed-row keys give the same details", async () => {
  const rows = await insider.search({}, { pageSize: 40 }).take(40);
  const frame = transactionsFrame(rows);
  const asFeed = rows.map((r) => ({
    accession_number: r.accessionNumber!,
    transaction_id: r.transactionId!,
    filed_at: String(r.filedAt),
  }));
  const fromFeed = await insider.hydrate(asFeed, opts);
  assert.equal(fromFeed.rows.length, 40);
  assert.equal(fromFeed.failed.length, 0);
  for (const input of [rows, frame]) {
    const got = await insider.hydrate(input, opts);
    assert.equal(got.failed.length, 0, String(got.failed[0]?.error));
    assert.deepEqual(got.rows, fromFeed.rows);
  }
  assert.deepEqual(
    fromFeed.rows.map(keyOf),
    asFeed.map(keyOf),
    "details in input order",
  );
  // hydrateFrame: the same frame from each input
  const want = (await insider.hydrateFrame(asFeed, opts)).frame;
  assert.equal(want.height, 40);
  for (const input of [rows, frame]) {
    const got = await insider.hydrateFrame(input, opts);
    assert.equal(got.failed.length, 0);
    assert.ok(got.frame.frameEqual(want, true), "same frame");
  }
});

Deno.test("hydrate: a failed search row or frame row is reported with its input index and trade keys", async () => {
  const rows = await insider.search({}, { pageSize: 5 }).take(5);
  const broken = rows.map((r, i) =>
    i === 2 ? { ...r, accessionNumber: "0000000000-00-000000" } : r
  );
  const { rows: got, failed } = await insider.hydrate(broken, opts);
  assert.equal(got.length, 4);
  assert.equal(failed.length, 1);
  assert.equal(failed[0].index, 2);
  assert.equal(failed[0].item.accession_number, "0000000000-00-000000");
  assert.equal(failed[0].item.transaction_id, rows[2].transactionId);
  const frame = transactionsFrame(broken);
  const viaFrame = await insider.hydrateFrame(frame, opts);
  assert.equal(viaFrame.frame.height, 4);
  assert.deepEqual(viaFrame.failed.map((f) => [f.index, f.item.accession_number]), [[
    2,
    "0000000000-00-000000",
  ]]);
});

Deno.test("hydrate and hydrateFrame: anything else is a TypeError naming what was given, before any request", async () => {
  const list = insider.search({});
  const cases: [unknown, RegExp][] = [
    [
      list,
      /got an object .*; pass its rows: await list\.take\(n\), or its frame: await list\.frame\(\)$/,
    ],
    [list.take(2), /got an object \{\}; await it first$/],
    [{ rows: [] }, /got an object \{ rows \}$/],
    ["0001-24-1", /got string "0001-24-1"$/],
    [null, /got null$/],
    [[{ ticker: "ACME" }], /got an object \{ ticker \} at row 0 of 1$/],
    [[{ accession_number: "a", transaction_id: 1 }, 7], /got number 7 at row 1 of 2$/],
  ];
  count.n = 0;
  for (const fn of ["hydrate", "hydrateFrame"] as const) {
    for (const [input, re] of cases) {
      await assert.rejects(
        () => insider[fn](input as never, opts),
        (e: Error) => {
          assert.ok(e instanceof TypeError, `${fn}: ${e}`);
          assert.match(
            e.message,
            new RegExp(
              `^${fn}: pass feed rows, search rows \\(take\\(n\\)\\) or a trades frame with accession_number and transaction_id; `,
            ),
          );
          assert.match(e.message, re);
          return true;
        },
      );
    }
  }
  await list.take(0).catch(() => {});
  // a frame without the keys names the missing column
  const frame = transactionsFrame(await insider.search({}).take(3)).drop("transaction_id");
  assert.throws(
    () => hydrateKeys("hydrate", frame),
    (e: Error) =>
      e instanceof TypeError && /hydrate: the frame lacks column "transaction_id"/.test(e.message),
  );
  assert.equal(count.n <= 2, true, `requests: ${count.n} (only the list's own, none for hydrate)`);
});

Deno.test("hydrate: an empty list and an empty frame hydrate to nothing, with no request", async () => {
  count.n = 0;
  assert.deepEqual(await insider.hydrate([], opts), { rows: [], failed: [] });
  const empty = transactionsFrame([]);
  const got = await insider.hydrateFrame(empty, opts);
  assert.equal(got.frame.height, 0);
  assert.equal(count.n, 0);
});

Deno.test("hydrate and hydrateFrame: accession numbers that are not text are refused up front, naming the column and its dtype", async () => {
  const rows = await insider.search({}, { pageSize: 3 }).take(3);
  const frame = transactionsFrame(rows);
  const digits = rows.map((r) => Number(r.accessionNumber!.replaceAll("-", "")));
  const numeric: [unknown, RegExp][] = [
    [
      frame.withColumns(pl.Series("accession_number", digits, pl.Float64)),
      /the column "accession_number" is Float64 \(row 0: number \d+\); /,
    ],
    [
      frame.withColumns(pl.Series("accession_number", digits, pl.Int64)),
      /the column "accession_number" is Int64 \(row 0: number \d+\); /,
    ],
    [
      rows.map((r, i) => ({ ...r, accessionNumber: digits[i] })),
      /accession_number of row 0 of 3 is number \d+; /,
    ],
    [
      [{ accession_number: "0000320193-24-000012", transaction_id: 1 }, {
        accession_number: 320193,
        transaction_id: 2,
      }],
      /accession_number of row 1 of 2 is number 320193; /,
    ],
    [
      [{ accession_number: 12n, transaction_id: 1 }],
      /accession_number of row 0 of 1 is bigint 12n; /,
    ],
  ];
  count.n = 0;
  for (const fn of ["hydrate", "hydrateFrame"] as const) {
    for (const [input, re] of numeric) {
      await assert.rejects(() => insider[fn](input as never, opts), (e: Error) => {
        assert.ok(e instanceof TypeError, `${fn}: ${e}`);
        assert.match(e.message, new RegExp(`^${fn}: `));
        assert.match(e.message, re);
        assert.match(e.message, /allowed: accession numbers as text/);
        return true;
      });
    }
  }
  assert.equal(count.n, 0, "no request");
});

Deno.test("hydrate and hydrateFrame: a transaction id that is no integer is refused up front, naming the column, its dtype and the row", async () => {
  const rows = await insider.search({}, { pageSize: 3 }).take(3);
  const frame = transactionsFrame(rows);
  const cases: [unknown, RegExp][] = [
    [
      frame.withColumns(pl.Series("transaction_id", [1, 2.5, 3], pl.Float64)),
      /the column "transaction_id" is Float64 \(row 1: number 2\.5\); allowed: integers, or their digits as text/,
    ],
    [
      [{ accession_number: "0000320193-24-000012", transaction_id: "7a" }],
      /transaction_id of row 0 of 1 is string "7a"; allowed: integers/,
    ],
  ];
  count.n = 0;
  for (const fn of ["hydrate", "hydrateFrame"] as const) {
    for (const [input, re] of cases) {
      await assert.rejects(() => insider[fn](input as never, opts), (e: Error) => {
        assert.ok(e instanceof TypeError, `${fn}: ${e}`);
        assert.match(e.message, re);
        return true;
      });
    }
  }
  assert.equal(count.n, 0, "no request");
  // integers as Float64, or as their digits, still hydrate
  const asText = frame.withColumns(pl.col("transaction_id").cast(pl.Utf8));
  const asFloat = frame.withColumns(pl.col("transaction_id").cast(pl.Float64));
  for (const input of [asText, asFloat]) {
    const { rows: got, failed } = await insider.hydrate(input as never, opts);
    assert.equal(failed.length, 0, String(failed[0]?.error));
    assert.equal(got.length, 3);
  }
});

Deno.test("hydrate of the emulator's rows is demo data, and so is the frame and the backtest input built from it", async () => {
  const demo = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  const feed = await demo.feed("ceo-trades", "buy").take(5);
  assert.ok(isDemo(feed));
  const got = await demo.hydrate(feed, opts);
  assert.equal(got.rows.length, 5);
  assert.ok(isDemo(got.rows), "hydrate rows");
  assert.ok(isDemo(got), "hydrate result");
  const frame = transactionsFrame(got.rows);
  assert.ok(isDemo(frame), "transactionsFrame of hydrated rows");
  assert.ok(isDemo(tradeClass(frame)), "tradeClass of it");
  // a live client's hydrate stays unmarked (the counting fetch is not the emulator's own)
  assert.equal(isDemo((await insider.hydrate(feed, opts)).rows), false);
});
