import assert from "node:assert/strict";
import {
  connect,
  FEED_TOPICS,
  type FeedRow,
  InsiderClient,
  type InsiderFilter,
  NotFoundError,
  RequestValidationError,
  TRANSACTION_FIELD_NAMES,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch, thrown } from "../_util.ts";

const stub = createStub({ seed: 1, scale: 0.2 });
const { fetch: counting, count } = countingFetch(stub);
const insider = new InsiderClient({
  apiKey: DEMO_KEYS.insider,
  baseUrl: "http://stub/insider",
  fetch: counting,
});

Deno.test("insiders(q, { limit }) resolves owners to CIKs", async () => {
  const owner = stub.insider.insiders[4];
  const hits = await insider.insiders(owner.name, { limit: 3 });
  assert.ok(hits.length <= 3);
  assert.equal(hits[0].cik, owner.cik);
  await assert.rejects(insider.insiders("x", { limit: 0 }), /limit: 0/);
  await assert.rejects(insider.insiders(""), RequestValidationError);
});

Deno.test("search with a typed filter pages camelCase rows; pageSize is honoured", async () => {
  const rows = await insider.search({ tradeType: "purchase", position: { ceo: true } }, {
    pageSize: 7,
  }).take(20);
  assert.equal(rows.length, 20);
  for (const r of rows) {
    assert.equal(r.acquiredDisposedCode, "A");
    assert.equal(r.isCeo, true);
  }
  const first = await insider.search({}, { pageSize: 7 }).firstPage();
  assert.equal(first.rows.length, 7);
  const owner = stub.insider.insiders[2];
  const mine = [];
  for await (
    const r of insider.search({ reportingOwnerCik: owner.cik, excludeAnomalousTransactions: false })
  ) mine.push(r);
  assert.equal(mine.length, stub.insider.trades.filter((t) => t.insider === 2).length);
});

const BAD: [string, InsiderFilter, number | undefined, RegExp][] = [
  ["pageSize 0", {}, 0, /pagination.pageSize: 0 is not allowed; allowed: an integer from 1 to 100/],
  ["pageSize 101", {}, 101, /pagination.pageSize: 101/],
  ["enum", { tradeType: "buy" as "purchase" }, undefined, /filter.tradeType: "buy" is not allowed/],
  ["amount", { purchaseMin: "lots" }, undefined, /filter.purchaseMin: "lots" is not an amount/],
  [
    "percent",
    { insiderReturnMin: "ten" },
    undefined,
    /filter.insiderReturnMin: "ten" is not a percent/,
  ],
  [
    "bound without period",
    { tradeReturnMin: "10" },
    undefined,
    /filter.tradeReturnMin: "10".*tradeReturnPeriod/,
  ],
  [
    "min > max",
    { purchaseMin: "2m", purchaseMax: "1m" },
    undefined,
    /filter.purchaseMin: "2m".*at most filter.purchaseMax/,
  ],
  ["bad date", { filingDateFrom: "2025-02-30" }, undefined, /filter.filingDateFrom: "2025-02-30"/],
  [
    "from > to",
    { filingDateFrom: "2025-03-02", filingDateTo: "2025-03-01" },
    undefined,
    /filingDateFrom.*after filingDateTo/,
  ],
  [
    "in-app field",
    { issuerCik: "1" } as InsiderFilter,
    undefined,
    /filter.issuerCik: unknown parameter/,
  ],
  [
    "position flag",
    { position: { boss: true } } as unknown as InsiderFilter,
    undefined,
    /filter.position.boss: unknown parameter/,
  ],
  [
    "typo'd parameter",
    { tradeTyp: "purchase" } as unknown as InsiderFilter,
    undefined,
    /filter.tradeTyp: unknown parameter \(did you mean "tradeType"/,
  ],
  [
    "typo'd position flag",
    { position: { ceoo: true } } as unknown as InsiderFilter,
    undefined,
    /filter.position.ceoo: unknown parameter \(did you mean "ceo"/,
  ],
  [
    "preset",
    { filingDatePreset: "2 weeks" as "7 days" },
    undefined,
    /filter.filingDatePreset: "2 weeks"/,
  ],
  ["sector", { sector: "crypto" as "energy" }, undefined, /filter.sector: "crypto"/],
];

Deno.test("bad filters throw RequestValidationError naming each value; no request is sent", () => {
  for (const [name, filter, pageSize, re] of BAD) {
    count.n = 0;
    const err = thrown(() => insider.search(filter, { pageSize }));
    assert.ok(err instanceof RequestValidationError, name);
    assert.match(err.message, re, name);
    assert.equal(count.n, 0, name);
  }
});

Deno.test('sector: the filter takes a slug, an industry id, "" or all; feeds a slug or an id', () => {
  for (const sector of ["", "all", "biotech", "4510"] as const) {
    insider.search({ sector }); // checked now: no throw
  }
  for (const sector of ["biotech", "4510"] as const) insider.feeds({ feedIds: [1], sector });
  for (const sector of ["", "all", "45x"]) {
    const err = thrown(() => insider.feeds({ feedIds: [1], sector: sector as "energy" }));
    assert.ok(err instanceof RequestValidationError, sector);
  }
});

Deno.test("feeds by id and by name; feed(topic, side) maps to the table ids", async () => {
  for (const [topic, ids] of Object.entries(FEED_TOPICS)) {
    for (const side of ["buy", "sell"] as const) {
      const rows = await insider.feed(topic as keyof typeof FEED_TOPICS, side, { limit: 25 }).take(
        30,
      );
      assert.ok(rows.length > 0, `${topic} ${side}`);
      for (const r of rows) {
        assert.ok(
          stub.insider.byKey.get(`${r.accession_number}/${r.transaction_id}`)!.row.feed_ids
            .includes(ids[side]),
        );
      }
    }
  }
  const both = await insider.feeds({ feedIds: [17], feeds: [["ceo-trades", "sell"]], limit: 25 })
    .take(1000);
  const expected =
    stub.insider.trades.filter((t) => t.row.feed_ids.includes(17) || t.row.feed_ids.includes(18))
      .length;
  assert.equal(both.length, expected);
  const dated = await insider.feed("large-trades", "buy", {
    from: "2025-01-01",
    to: "2025-12-31",
    limit: 25,
  }).take(1000);
  for (const r of dated) assert.ok(r.filed_at >= "2025-01-01" && r.filed_at < "2026-01-02");
});

Deno.test("bad feed parameters are caught before the network", () => {
  const cases: [() => unknown, RegExp][] = [
    [() => insider.feeds({ feedIds: [19 as 1] }), /feed_id: 19 is not a feed id/],
    [() => insider.feeds({}), /feed_id: is required/],
    [() => insider.feed("ceo-trades", "buy", { limit: 26 }), /limit: 26/],
    [() => insider.feed("ceo-trades", "buy", { limit: 0 }), /limit: 0/],
    [
      () => insider.feed("penny-stocks" as "ceo-trades", "buy"),
      /topic: "penny-stocks" is not a feed topic; allowed: top-trades/,
    ],
    [
      // a mistyped named feed is the whole story: no "feed_id is required" for the list it emptied
      () => insider.feeds({ feeds: [["penny-stocks" as "ceo-trades", "buy"]] }),
      /^(?![\s\S]*feed_id)[\s\S]*feeds\.0: "penny-stocks" is not a feed topic/,
    ],
    [() => insider.feed("ceo-trades", "hold" as "buy"), /side: "hold" is not allowed/],
    [
      () => insider.feed("ceo-trades", "buys" as "buy"),
      /side: "buys" is not allowed \(did you mean "buy"\?\); allowed: buy, sell/,
    ],
    [
      () => insider.feed("ceo-trade" as "ceo-trades", "buy"),
      /topic: "ceo-trade" is not a feed topic \(did you mean "ceo-trades"/,
    ],
    [
      () => insider.feed("ceo-trades", "buy", { from: "2025-06-01", to: "2025-01-01" }),
      /from.*after to/,
    ],
    [() => insider.feed("ceo-trades", "buy", { sector: "crypto" as "energy" }), /sector: "crypto"/],
    [
      // JS callers: a cursor among the feed's parameters would be dropped; the list option resumes
      () =>
        insider.feed("ceo-trades", "buy", { cursor: "garbage-cursor" } as unknown as { limit: 10 }),
      /cursor: "garbage-cursor" is not allowed; allowed: the list option \{ cursor \}/,
    ],
  ];
  for (const [f, re] of cases) {
    count.n = 0;
    const err = thrown(f);
    assert.ok(err instanceof RequestValidationError, String(re));
    assert.match(err.message, re);
    assert.equal(count.n, 0);
  }
});

Deno.test("transaction(accession, id, { fields }): full set, a selection, bad names rejected early", async () => {
  const t = stub.insider.trades[10].row;
  const full = await insider.transaction(t.accession_number!, t.transaction_id!);
  assert.deepEqual(Object.keys(full).sort(), [...TRANSACTION_FIELD_NAMES].sort());
  const some = await insider.transaction(t.accession_number!, String(t.transaction_id), {
    fields: ["transaction_value", "win_rate_1y_pct"],
  });
  assert.deepEqual(Object.keys(some), ["transaction_value", "win_rate_1y_pct", "feed_ids"]);
  await assert.rejects(insider.transaction(t.accession_number!, 999), NotFoundError);
  count.n = 0;
  await assert.rejects(
    insider.transaction(t.accession_number!, 1, { fields: ["colour" as "code"] }),
    /fields: "colour"/,
  );
  await assert.rejects(insider.transaction("", 1), /accessionNumber/);
  assert.equal(count.n, 0);
});

Deno.test("hydrate keeps order, bounds concurrency, and returns failures instead of throwing", async () => {
  const feed = await insider.feed("top-trades", "buy", { limit: 25 }).take(60);
  const broken = new Set([
    feed[3].accession_number + "/" + feed[3].transaction_id,
    feed[40].accession_number + "/" + feed[40].transaction_id,
  ]);
  let inFlight = 0;
  let peak = 0;
  const flaky = async (input: Request | URL | string, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const key = url.pathname.split("/transactions/")[1];
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, 2));
    try {
      if (key && broken.has(decodeURIComponent(key))) {
        return new Response(
          JSON.stringify({ type: "not-found", title: "Not Found", status: 404, detail: "gone" }),
          { status: 404, headers: { "content-type": "application/problem+json" } },
        );
      }
      return await stub.fetch(input, init);
    } finally {
      inFlight--;
    }
  };
  const c = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: flaky,
  });
  let progress = 0;
  const { rows, failed } = await c.hydrate(feed, {
    concurrency: 5,
    onProgress: (d) => (progress = d),
  });
  assert.equal(progress, 60);
  assert.ok(peak <= 5 && peak >= 2, `peak ${peak}`);
  assert.equal(rows.length, 58);
  assert.deepEqual(failed.map((f) => f.index), [3, 40]);
  assert.ok(failed.every((f) => f.error instanceof NotFoundError));
  const expected = feed.filter((_, i) => i !== 3 && i !== 40).map((r: FeedRow) =>
    `${r.accession_number}/${r.transaction_id}`
  );
  assert.deepEqual(rows.map((r) => `${r.accession_number}/${r.transaction_id}`), expected);
  await assert.rejects(c.hydrate(feed, { concurrency: 0 }), /concurrency: 0/);
});

Deno.test("hydrate retries per row through the transport at fail-rate 0.3", async () => {
  const flaky = createStub({ seed: 1, scale: 0.05, failRate: 0.3 });
  const c = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: flaky.fetch,
    maxRetries: 6,
  });
  const feed = flaky.insider.trades.filter((t) => t.row.feed_ids.length).slice(0, 40).map((t) => ({
    accession_number: t.row.accession_number!,
    transaction_id: t.row.transaction_id!,
    filed_at: t.row.filed_at!,
  }));
  const { rows, failed } = await c.hydrate(feed, { concurrency: 8, fields: ["code"] });
  assert.equal(failed.length, 0);
  assert.equal(rows.length, 40);
});

Deno.test("connect(): no keys → the offline emulator, said once; keys → the given services", async () => {
  const errors: string[] = [];
  const orig = console.error;
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  try {
    await connect({ env: () => undefined });
    await connect({ env: () => undefined });
  } finally {
    console.error = orig;
  }
  assert.equal(errors.length, 1);
  assert.match(errors[0], /PITCH_API_KEY and INSIDER_API_KEY not set; using the offline emulator/);
  const none = await connect({ env: () => undefined, quiet: true });
  assert.deepEqual(none.offline, { catalog: true, insider: true });
  assert.equal(none.offlineToday, "2026-11-20");
  assert.equal((await none.catalog.pitches({ limit: 3 }).firstPage()).rows.length, 3);
  const withKeys = await connect({
    env: (n) =>
      ({
        PITCH_API_KEY: "pk-secret",
        PITCH_BASE_URL: "https://pitches.example/",
        INSIDER_API_KEY: "ik-secret",
        INSIDER_BASE_URL: "https://insider.example",
      } as Record<string, string>)[n],
  });
  assert.deepEqual(withKeys.offline, { catalog: false, insider: false });
  assert.equal(withKeys.offlineToday, undefined);
  assert.equal(withKeys.catalog.baseUrl, "https://pitches.example");
  assert.equal(withKeys.insider.baseUrl, "https://insider.example");
  assert.ok(!Deno.inspect(withKeys).includes("secret"));
  await assert.rejects(
    connect({ env: (n) => n === "PITCH_API_KEY" ? "k" : undefined }),
    /PITCH_BASE_URL/,
  );
});
