import assert from "node:assert/strict";
import { TRANSACTION_FIELDS } from "../../lib/insider/fields.ts";
import { allTrades, expectProblem, ok, search, small } from "./_helpers.ts";

type Env = {
  data: Record<string, unknown>[];
  nextCursor: string | null;
  prevCursor: string | null;
  hasMore: boolean;
};
type Row = Record<string, unknown>;
const first = async (filter: Row, pageSize = 100) =>
  await ok<Env>(await search({ filter, pagination: { pageSize } }));

Deno.test("pageSize: default 100, 1..100 allowed, others 400 naming the value", async () => {
  assert.equal((await ok<Env>(await search({}))).data.length, 100);
  assert.equal((await ok<Env>(await search(""))).data.length, 100);
  assert.equal((await first({}, 1)).data.length, 1);
  for (const bad of [0, 101, 2.5, "ten"]) {
    const d = await expectProblem(await search({ pagination: { pageSize: bad } }), 400);
    assert.ok(d.includes("pagination.pageSize") && d.includes(JSON.stringify(bad)), d);
  }
});

Deno.test("rows are camelCase with every catalog field", async () => {
  const row = (await first({}, 1)).data[0];
  for (const f of TRANSACTION_FIELDS) assert.ok(f.camel in row, f.camel);
  assert.ok("winRateBullish3mWins" in row && "is10PercentOwner" in row && "feedIds" in row);
  assert.ok(!("accession_number" in row));
});

Deno.test("cursors: next/prev/hasMore; bound to the filter; tampering 400", async () => {
  const a = await first({ tradeType: "purchase" }, 10);
  assert.equal(a.prevCursor, null);
  assert.equal(a.hasMore, true);
  const b = await ok<Env>(
    await search({
      filter: { tradeType: "purchase" },
      pagination: { cursor: a.nextCursor, pageSize: 10 },
    }),
  );
  assert.notEqual(
    b.data[0].accessionNumber + String(b.data[0].transactionId),
    a.data[0].accessionNumber + String(a.data[0].transactionId),
  );
  const back = await ok<Env>(
    await search({
      filter: { tradeType: "purchase" },
      pagination: { cursor: b.prevCursor, pageSize: 10 },
    }),
  );
  assert.deepEqual(back.data, a.data);
  await expectProblem(
    await search({ filter: { tradeType: "sale" }, pagination: { cursor: a.nextCursor } }),
    400,
  );
  await expectProblem(
    await search({
      filter: { tradeType: "purchase", sortDirection: "asc" },
      pagination: { cursor: a.nextCursor },
    }),
    400,
  );
  await expectProblem(
    await search({ filter: { tradeType: "purchase" }, pagination: { cursor: a.nextCursor + "x" } }),
    400,
  );
  const d = await expectProblem(await search({ filter: { cursor: "abc" } }), 400);
  assert.match(d, /filter\.cursor/);
});

Deno.test("a full pull returns every row once, ending with hasMore false", async () => {
  const rows = await allTrades({ excludeAnomalousTransactions: false });
  assert.equal(rows.length, small().insider.trades.length);
  assert.equal(
    new Set(rows.map((r) => `${r.accessionNumber}/${r.transactionId}`)).size,
    rows.length,
  );
});

Deno.test("rule 1 + defaults: omitted fields take the defaults (anomalous excluded, filedAt desc)", async () => {
  const def = await allTrades({});
  const explicit = await allTrades({
    excludeAnomalousTransactions: true,
    filingDatePreset: "All time",
    insiderReturnPeriod: "3M",
    insiderReturnType: "all",
    sortBy: "filedAt",
    sortDirection: "desc",
  });
  assert.equal(def.length, explicit.length);
  assert.ok(def.length < small().insider.trades.length);
  for (const r of def) assert.equal(r.isAnomalousTransaction, false);
  for (let i = 1; i < def.length; i++) {
    assert.ok(String(def[i - 1].filedAt) >= String(def[i].filedAt));
  }
});

Deno.test("rule 6: in-app-only fields and unknown fields are rejected in filter", async () => {
  for (const k of ["issuerCik", "tradingItemId", "pageSize", "cursor", "bogus"]) {
    const d = await expectProblem(await search({ filter: { [k]: "1" } }), 400);
    assert.ok(d.includes(`filter.${k}`), d);
  }
  await expectProblem(await search("{not json"), 400);
  await expectProblem(await search("[1,2]"), 400);
  await expectProblem(await search({ filter: { tradeType: "buy" } }), 400);
});

Deno.test("rule 2: constraints AND together; rule 4: all true position flags must match", async () => {
  const rows = await allTrades({ tradeType: "purchase", position: { ceo: true, director: true } });
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.equal(r.acquiredDisposedCode, "A");
    assert.equal(r.isCeo, true);
    assert.equal(r.isDirector, true);
  }
  const flags: [string, string][] = [
    ["officer", "isOfficer"],
    ["director", "isDirector"],
    ["owner", "is10PercentOwner"],
    ["ceo", "isCeo"],
    ["cfo", "isCfo"],
    ["cto", "isCto"],
    ["coo", "isCoo"],
  ];
  for (const [flag, field] of flags) {
    const got = await first({ position: { [flag]: true } });
    assert.ok(got.data.length > 0, flag);
    for (const r of got.data) assert.equal(r[field], true, flag);
  }
  const off = await allTrades({ position: { ceo: false } });
  assert.equal(off.length, (await allTrades({})).length);
});

Deno.test("rule 3: empty string, false, all and All time mean no constraint", async () => {
  const n = (await allTrades({})).length;
  for (
    const f of [
      { sector: "" },
      { sector: "all" },
      { tradeType: "" },
      { tradeType: "all" },
      { cikOrTicker: "" },
      { onlyReversal: false },
      { filingDatePreset: "All time" },
      { purchaseMin: "" },
    ]
  ) {
    assert.equal((await allTrades(f)).length, n, JSON.stringify(f));
  }
});

Deno.test("rule 5: return bounds apply only with a period and a non-empty bound", async () => {
  const n = (await allTrades({})).length;
  assert.equal((await allTrades({ tradeReturnMin: "10" })).length, n);
  assert.equal((await allTrades({ tradeReturnPeriod: "3M" })).length, n);
  assert.equal(
    (await allTrades({ tradeReturnPeriod: "3M", tradeReturnMin: "", tradeReturnMax: "" })).length,
    n,
  );
  const up = await allTrades({
    tradeReturnPeriod: "3M",
    tradeReturnMin: "10",
    tradeReturnMax: "50%",
  });
  assert.ok(up.length > 0 && up.length < n);
  for (const r of up) assert.ok((r.returns3m as number) >= 10 && (r.returns3m as number) <= 50);
  const ir = await allTrades({
    insiderReturnPeriod: "1Y",
    insiderReturnType: "bullish",
    insiderReturnMin: "5",
  });
  assert.ok(ir.length > 0);
  for (const r of ir) assert.ok((r.insiderReturns1yBullish as number) >= 5);
  const irAll = await allTrades({ insiderReturnPeriod: "AllTime", insiderReturnMax: "-5" });
  for (const r of irAll) assert.ok((r.insiderReturns3m as number) <= -5);
  for (const bad of ["ten", "5 percent", "1e"]) {
    const d = await expectProblem(await search({ filter: { tradeReturnMin: bad } }), 400);
    assert.ok(d.includes(JSON.stringify(bad)));
  }
});

Deno.test("company fields: cikOrTicker (CIK digits or case-insensitive ticker), sector, market cap", async () => {
  const co = small().world.companies[3];
  const byTicker = await allTrades({ cikOrTicker: co.ticker.toLowerCase() });
  assert.ok(byTicker.length > 0, "the default preset (All time) searches the whole history");
  for (const r of byTicker) assert.equal(r.tickerSymbol, co.ticker);
  const byCik = await allTrades({ cikOrTicker: co.cik.replace(/^0+/, "") });
  assert.equal(byCik.length, byTicker.length);
  const ranged = await allTrades({ cikOrTicker: co.ticker, filingDateFrom: "2026-01-01" });
  for (const r of ranged) assert.ok(String(r.filedAt) >= "2026-01-01");
  const tech = await first({ sector: "technology" });
  for (const r of tech.data) assert.ok([101, 102, 103].includes(r.simpleIndustryId as number));
  const ind = await first({ sector: "401" });
  for (const r of ind.data) assert.equal(r.simpleIndustryId, 401);
  await expectProblem(await search({ filter: { sector: "crypto" } }), 400);
  const cap = await allTrades({ marketCapMin: "2b", marketCapMax: "10B" });
  assert.ok(cap.length > 0);
  for (const r of cap) {
    assert.ok((r.marketCapAtFiling as number) >= 2000 && (r.marketCapAtFiling as number) <= 10000);
  }
});

Deno.test("amounts: human forms parse; bad ones are 400 naming the value", async () => {
  const big = await allTrades({ purchaseMin: "1.5m" });
  for (const r of big) assert.ok((r.transactionValue as number) >= 1_500_000);
  const same = await allTrades({ purchaseMin: "$1,500,000" });
  assert.equal(same.length, big.length);
  const small = await allTrades({ purchaseMax: "10k" });
  for (const r of small) assert.ok((r.transactionValue as number) <= 10_000);
  for (const bad of ["lots", "1.5mm", "-5k"]) {
    const d = await expectProblem(await search({ filter: { purchaseMin: bad } }), 400);
    assert.ok(d.includes(`filter.purchaseMin: ${JSON.stringify(bad)}`), d);
  }
});

Deno.test("percentChange bounds are divided by 100", async () => {
  const rows = await allTrades({ percentChangeMin: "50" });
  assert.ok(rows.length > 0);
  for (const r of rows) assert.ok((r.percentChange as number) >= 0.5);
  // a max of 50 keeps changes up to 0.5 (undivided it would let 0.5..50 through)
  const capped = await allTrades({ percentChangeMax: "50" });
  assert.ok(capped.length > 0);
  for (const r of capped) assert.ok((r.percentChange as number) <= 0.5, String(r.percentChange));
});

Deno.test("insider fields: reportingOwnerCik exact", async () => {
  const owner = small().insider.insiders[5];
  const rows = await allTrades({
    reportingOwnerCik: owner.cik,
    excludeAnomalousTransactions: false,
  });
  assert.equal(rows.length, small().insider.trades.filter((t) => t.insider === 5).length);
});

Deno.test("exclude and only flags each do what the spec says", async () => {
  const cases: [string, (r: Row) => boolean][] = [
    ["excludeEspp", (r) => r.isEspp !== true],
    ["exclude10b51", (r) => r.is10b51 !== true],
    ["excludeTaxRelated", (r) => r.isForTaxes !== true],
    ["excludePublicOffering", (r) => r.isPublicOffering !== true],
    ["excludeDividendReinvestment", (r) => r.isDividendReinvestment !== true],
    ["excludeDerivative", (r) => r.isDerivative !== true],
    ["excludeLowSignalTransactions", (r) => r.isHighSignal === true],
    ["onlyMarketTransactions", (r) => (r.pricePerShare as number) > 0],
    ["onlyNewPositions", (r) => r.sharesOwnedFollowingTransaction === r.numberOfShares],
    ["onlyReversal", (r) => r.isReversal === true],
    ["onlyBuyingDip", (r) => r.isBuyingDip === true],
    ["onlySellingRip", (r) => r.isSellingRip === true],
  ];
  const n = (await allTrades({})).length;
  for (const [flag, holds] of cases) {
    const rows = await allTrades({ [flag]: true });
    assert.ok(rows.length > 0 && rows.length < n, flag);
    for (const r of rows) assert.ok(holds(r), flag);
  }
  const cluster = await allTrades({ onlyClusterTrades: true });
  assert.ok(cluster.length > 0 && cluster.length < n);
  const c30 = cluster.filter((r) => r.isClusterTrade30d).length;
  assert.ok(c30 > 0);
  const withAnom = await allTrades({ excludeAnomalousTransactions: false });
  assert.ok(withAnom.some((r) => r.isAnomalousTransaction === true));
  await expectProblem(await search({ filter: { onlyReversal: "yes" } }), 400);
});

Deno.test("filing-date presets count back from today in Eastern Time; custom uses from/to", async () => {
  const today = "2026-11-20";
  const t = await allTrades({ filingDatePreset: "Today", excludeAnomalousTransactions: false });
  const s = small();
  const et = (iso: string) => new Date(Date.parse(iso) - 5 * 3600_000).toISOString().slice(0, 10);
  assert.ok(t.length > 0);
  for (const r of t) assert.equal(et(String(r.filedAt)), today);
  const counts = [];
  for (
    const p of [
      "Today",
      "3 days",
      "7 days",
      "1 month",
      "3 months",
      "6 months",
      "1 year",
      "2 years",
      "5 years",
      "10 years",
      "All time",
    ]
  ) {
    counts.push((await allTrades({ filingDatePreset: p })).length);
  }
  for (let i = 1; i < counts.length; i++) assert.ok(counts[i] >= counts[i - 1]);
  const custom = await allTrades({
    filingDatePreset: "custom",
    filingDateFrom: "2025-03-01",
    filingDateTo: "2025-03-31",
  });
  assert.ok(custom.length > 0);
  for (const r of custom) {
    const d = et(String(r.filedAt));
    assert.ok(d >= "2025-02-28" && d <= "2025-03-31");
  }
  const refined = await allTrades({ filingDatePreset: "1 year", filingDateTo: "2026-06-30" });
  for (const r of refined) {
    assert.ok(et(String(r.filedAt)) >= "2025-11-19" && et(String(r.filedAt)) <= "2026-07-01");
  }
  await expectProblem(await search({ filter: { filingDatePreset: "2 weeks" } }), 400);
  await expectProblem(await search({ filter: { filingDateFrom: "2025-02-30" } }), 400);
  await expectProblem(
    await search({ filter: { filingDateFrom: "2025-03-02", filingDateTo: "2025-03-01" } }),
    400,
  );
  void s;
});

Deno.test("accessionNumber is exact", async () => {
  const acc = small().insider.trades[0].row.accession_number!;
  const rows = await allTrades({ accessionNumber: acc, excludeAnomalousTransactions: false });
  assert.ok(rows.length >= 1);
  for (const r of rows) assert.equal(r.accessionNumber, acc);
});

Deno.test("every sortBy and sortDirection orders rows, nulls last", async () => {
  const keys: [string, (r: Row) => number | null, Row?][] = [
    ["filedAt", (r) => Date.parse(String(r.filedAt))],
    ["transactionValue", (r) => r.transactionValue as number],
    ["percentChange", (r) => r.percentChange === null ? null : Math.abs(r.percentChange as number)],
    ["tradeReturn", (r) => r.returns3m as number | null, { tradeReturnPeriod: "3M" }],
    ["insiderReturn", (r) => r.insiderReturns6mBearish as number | null, {
      insiderReturnPeriod: "6M",
      insiderReturnType: "bearish",
    }],
  ];
  for (const [sortBy, key, extra] of keys) {
    for (const dir of ["asc", "desc"]) {
      const rows = await allTrades({ sortBy, sortDirection: dir, ...(extra ?? {}) });
      const vals = rows.map(key);
      const firstNull = vals.indexOf(null);
      const known = (firstNull === -1 ? vals : vals.slice(0, firstNull)) as number[];
      if (firstNull !== -1) assert.ok(vals.slice(firstNull).every((v) => v === null), sortBy);
      for (let i = 1; i < known.length; i++) {
        assert.ok(
          dir === "asc" ? known[i - 1] <= known[i] : known[i - 1] >= known[i],
          `${sortBy} ${dir}`,
        );
      }
    }
  }
  await expectProblem(await search({ filter: { sortBy: "ticker" } }), 400);
});
