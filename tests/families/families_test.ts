import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  authorReturnBuckets,
  CatalogClient,
  formatReturnFloor,
  forwardReturns,
  insiderReturns,
  parseAuthorReturn,
  parsePitchReturn,
  PITCH_RETURNS,
  pitchReturnBuckets,
  priorReturns,
  RequestValidationError,
  transactionsFrame,
  WIN_RATE_FIELDS,
  winRateBuckets,
  winRates,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch } from "../_util.ts";

const stub = createStub({ seed: 1, scale: 0.3 });
const trades = transactionsFrame(stub.insider.trades.slice(0, 400).map((t) => t.row));

Deno.test("family field lists are generated from the types: 54 win-rate fields", () => {
  assert.equal(WIN_RATE_FIELDS.length, 54);
  assert.ok(WIN_RATE_FIELDS.includes("win_rate_bullish_3m_wins"));
});

Deno.test("winRates: trade × scope × window with pct, wins, total and a mismatch flag", () => {
  const long = winRates(trades);
  assert.equal(long.height, 400 * 3 * 6);
  for (
    const c of [
      "accession_number",
      "transaction_id",
      "scope",
      "window",
      "window_order",
      "window_days",
      "pct",
      "wins",
      "total",
      "pct_mismatch",
    ]
  ) {
    assert.ok(long.columns.includes(c), c);
  }
  assert.equal(long.filter(pl.col("pct_mismatch")).height, 0);
  const order = long.filter(
    pl.col("transaction_id").eq(trades.getColumn("transaction_id").getIndex(0)).and(
      pl.col("accession_number").eq(pl.lit(trades.getColumn("accession_number").getIndex(0))),
    ),
  ).filter(pl.col("scope").eq(pl.lit("all"))).sort("window_order");
  assert.deepEqual(order.getColumn("window").toArray(), ["1w", "1m", "3m", "6m", "1y", "2y"]);
  const broken = trades.withColumns(pl.lit(99).cast(pl.Float64).alias("win_rate_1y_pct"));
  const flagged = winRates(broken).filter(pl.col("pct_mismatch"));
  assert.ok(flagged.height > 0);
  assert.ok(flagged.getColumn("window").toArray().every((w) => w === "1y"));
});

Deno.test("forwardReturns: six horizons in time order; latest has no excess", () => {
  const long = forwardReturns(trades);
  assert.equal(long.height, 400 * 6);
  const first = long.head(1).getColumn("horizon").getIndex(0);
  assert.equal(first, "1w");
  const latest = long.filter(pl.col("horizon").eq(pl.lit("latest")));
  assert.equal(latest.getColumn("excess_return").nullCount(), latest.height);
  const y = long.filter(pl.col("horizon").eq(pl.lit("1y"))).getColumn("return").toArray();
  assert.deepEqual(y, trades.getColumn("returns_1y").toArray());
});

Deno.test("insiderReturns and priorReturns: long forms with ordered windows", () => {
  const ir = insiderReturns(trades);
  assert.equal(ir.height, 400 * 5 * 3);
  const ex = ir.filter(
    pl.col("window").eq(pl.lit("3m")).and(pl.col("direction").eq(pl.lit("bullish"))),
  );
  assert.deepEqual(
    ex.getColumn("excess_return").toArray(),
    trades.getColumn("insider_excess_returns_3m_bullish").toArray(),
  );
  const pr = priorReturns(trades);
  assert.equal(pr.height, 400 * 5);
  assert.deepEqual(
    pr.getColumn("window").unique().sort().toArray(),
    ["1d", "1m", "1w", "3m", "6m"].sort(),
  );
});

Deno.test("a frame missing a needed column is an error naming it", () => {
  assert.throws(() => winRates(trades.drop("win_rate_1y_pct")), /lacks column "win_rate_1y_pct"/);
  assert.throws(() => forwardReturns(pl.DataFrame({})), /got a frame \(0 rows × 0 columns\)/);
  assert.throws(
    () => insiderReturns(trades.drop("insider_returns_2y_bearish")),
    /lacks column "insider_returns_2y_bearish"/,
  );
  assert.throws(() => priorReturns(trades.drop("returns_6m_ago")), /lacks column "returns_6m_ago"/);
});

Deno.test("return-floor values parse and format; bad ones name the value", () => {
  for (const v of PITCH_RETURNS) assert.equal(formatReturnFloor(parsePitchReturn(v)), v);
  assert.deepEqual(parseAuthorReturn("1y_excess_gte_25"), {
    period: "1y",
    kind: "excess",
    floor: "25",
  });
  assert.throws(
    () => parseAuthorReturn("1y_excess_gte_x2"),
    (e) => e instanceof RequestValidationError && /"1y_excess_gte_x2"/.test(e.message),
  );
  // the same words as the pitch list's own check of the parameter
  assert.throws(
    () => parseAuthorReturn("1y_excess_gte_x2"),
    (e) =>
      e instanceof RequestValidationError &&
      e.issues[0].message === '"1y_excess_gte_x2" is not allowed; allowed: ' +
          "{period}_{kind}_gte_{floor} with period 6m|1y|2y, kind abs|excess, floor 0|10|25|50",
  );
  assert.throws(() => parsePitchReturn("3y_abs_gte_pct0"), /period 6m\|1y\|2y/);
});

const { fetch: counting, count } = countingFetch(stub);
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://s/catalog",
  fetch: counting,
});

Deno.test("pitchReturnBuckets: the highest floor each pitch meets, locked ones included; requests reported", async () => {
  count.n = 0;
  const { frame, requests: reported } = await pitchReturnBuckets(catalog, {}, {
    period: "1y",
    kind: "abs",
  });
  assert.equal(reported, count.n);
  assert.equal(frame.height, stub.catalog.pitches.length);
  const byId = new Map(
    frame.select("pitch_id", "pitch_return_bucket").rows().map((
      [id, b],
    ) => [id as string, b as string]),
  );
  for (const p of stub.catalog.pitches) {
    const r = p.returns["1y_abs"];
    const want = r === undefined || r < 0
      ? "below 0"
      : r >= 900
      ? "x10"
      : r >= 300
      ? "x4"
      : r >= 200
      ? "x3"
      : r >= 100
      ? "x2"
      : r >= 50
      ? "pct50"
      : r >= 25
      ? "pct25"
      : "pct0";
    assert.equal(byId.get(p.pitch_id), want, `${p.pitch_id} ${r} locked=${stub.catalog.locked(p)}`);
  }
  const pages = Math.ceil(stub.catalog.pitches.length / 50);
  assert.ok(reported < pages * 2, `${reported} requests for ${pages} base pages`);
});

Deno.test("authorReturnBuckets and winRateBuckets agree with the authors' figures", async () => {
  const a = await authorReturnBuckets(catalog, { sentiment: ["bullish"] }, {
    period: "1y",
    kind: "excess",
  });
  const ab = new Map(
    a.frame.select("pitch_id", "author_return_bucket").rows().map((
      [id, b],
    ) => [id as string, b as string]),
  );
  for (const p of stub.catalog.pitches.filter((x) => x.sentiment === "bullish")) {
    const r = stub.catalog.authors[p.author].returns["1y_excess"];
    const want = r === undefined || r < 0
      ? "below 0"
      : r >= 50
      ? "50"
      : r >= 25
      ? "25"
      : r >= 10
      ? "10"
      : "0";
    assert.equal(ab.get(p.pitch_id), want);
  }
  const w = await winRateBuckets(catalog, {});
  const wb = new Map(
    w.frame.select("pitch_id", "win_rate_bucket").rows().map((
      [id, b],
    ) => [id as string, b as string]),
  );
  for (const p of stub.catalog.pitches) {
    const r = stub.catalog.authors[p.author].winRate1y;
    const want = r === null || r < 50 ? "below 50" : r >= 75 ? "75" : r >= 60 ? "60" : "50";
    assert.equal(wb.get(p.pitch_id), want);
  }
  assert.ok(w.requests >= 4);
});
