/**
 * The calibrated price model and the truth the emulator publishes
 * (`createStub(...).truth`).
 */
import assert from "node:assert/strict";
import { createStub, INSIDER_SKILL, PRICE_MODEL, type Stub } from "../../lib/stub/mod.ts";

const worlds: Stub[] = [11, 12, 13, 14].map((seed) => createStub({ seed, scale: 0.5 }));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** The ten-bagger landmark's issuer: its re-rating is in the truth but is no insider's signal. */
const landmarkOf = (s: Stub) =>
  s.world.companies.findIndex((c) =>
    s.world.effect(c.idx, s.world.asOf) !== s.world.abnormal(c.idx, s.world.asOf)
  );
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

Deno.test("prices: uninformed trades' mean excess is about 0 and the median is negative", () => {
  const pooled: number[] = [];
  const err: number[] = [];
  for (const s of worlds) {
    for (const t of s.insider.trades) {
      const x = t.row.excess_returns_1y;
      if (x === null) continue;
      // awards, exercises, tax withholding and gifts carry no information of their own
      if (t.dir === 0) pooled.push(x);
      err.push(x - s.truth.expected(t.row, "1y")!);
    }
  }
  // the mean of 1-year excess returns of uninformed trades; their sd is about 45 points and
  // trades cluster by issuer (≈ 800 issuers here), so the standard error is about 2 points
  assert.ok(Math.abs(mean(pooled)) < 5, `uninformed mean ${mean(pooled)}`);
  // every trade, net of the effect built in: about 0
  assert.ok(Math.abs(mean(err)) < 4, `mean excess − truth ${mean(err)}`);
  // log drift −σ²/2: the typical stock lags the market
  assert.ok(median(pooled) < -2 && median(pooled) > -15, `median ${median(pooled)}`);
});

Deno.test("prices: idiosyncratic volatility 25–60 %/yr with fat-tailed daily returns", () => {
  const w = worlds[0].world;
  const vols: number[] = [];
  let kurtSum = 0;
  for (let c = 0; c < w.companies.length; c++) {
    const r: number[] = [];
    for (let d = w.firstDay + 1; d <= w.asOf; d++) {
      const stock = Math.log(w.price(c, d) / w.price(c, d - 1));
      const mkt = Math.log(w.market(d) / w.market(d - 1));
      r.push(stock - w.beta(c) * mkt);
    }
    const m = mean(r);
    const v = mean(r.map((x) => (x - m) ** 2));
    vols.push(Math.sqrt(v * 365));
    kurtSum += mean(r.map((x) => (x - m) ** 4)) / (v * v) - 3;
  }
  vols.sort((a, b) => a - b);
  const p05 = vols[Math.floor(vols.length * 0.05)];
  const p95 = vols[Math.floor(vols.length * 0.95)];
  assert.ok(p05 > 0.25 && p95 < 0.6, `5th–95th percentile ${p05}–${p95}`);
  // a normal has excess kurtosis 0; the jumps give fat tails
  assert.ok(kurtSum / vols.length > 2, `mean excess kurtosis ${kurtSum / vols.length}`);
  assert.ok(PRICE_MODEL.volLo < PRICE_MODEL.volHi);
});

Deno.test("truth: per-trade expectations follow the built-in skill; null when the window is open", () => {
  const s = worlds[0];
  let open = 0;
  for (const t of s.insider.trades) {
    for (const h of s.truth.horizons) {
      const e = s.truth.expected(t.row, h);
      const x = (t.row as unknown as Record<string, number | null>)[`excess_returns_${h}`];
      assert.equal(e === null, x === null, `${h} of ${t.row.accession_number}`);
      if (e === null) open++;
    }
  }
  assert.ok(open > 0);
  assert.equal(s.truth.expected({ accession_number: "nope", transaction_id: 1 }, "1y"), null);
  assert.equal(s.truth.mean([], "1y"), null);
  // an informed buy carries its insider's skill (≈ e^skill − 1 at 1 year, times market growth);
  // the landmark's issuer is left out: its re-rating is in its truth, on top of the signals
  const informed = s.insider.trades.filter((t) =>
    t.signal > 0 && t.row.excess_returns_1y !== null && t.company !== landmarkOf(s)
  );
  const own = mean(informed.map((t) => 100 * (Math.exp(t.signal) - 1)));
  const got = s.truth.mean(informed.map((t) => t.row), "1y")!;
  assert.ok(Math.abs(got - own * 1.07) < 1.5, `${got} vs ${own}`);
  assert.ok(informed.every((t) => !t.row.is_10b51 && t.row.code === "P"));
});

Deno.test("truth: sized to the literature by role, skill and plan", () => {
  for (const s of worlds) {
    const row = (dimension: string, group: string, side: string) =>
      s.truth.table().find((r) =>
        r.dimension === dimension && r.group === group && r.side === side && r.horizon === "1y"
      )!;
    // the table covers every effect, the landmark's re-rating included: its "all buys" is the
    // mean truth of every clean purchase
    const clean = s.insider.trades.filter((t) => !t.row.is_anomalous_transaction);
    const buys = clean.filter((t) => t.dir > 0 && t.row.excess_returns_1y !== null);
    const tableAll = row("all", "all", "buy");
    assert.equal(tableAll.n, buys.length);
    assert.ok(
      Math.abs(tableAll.expected_excess - s.truth.mean(buys.map((t) => t.row), "1y")!) < 1e-9,
    );
    // the insiders' signals, sized to the literature: the landmark's issuer left out
    const away = clean.filter((t) => t.company !== landmarkOf(s));
    const skill = (t: (typeof away)[number]) => s.insider.insiders[t.insider].skill;
    const groups: Record<string, (t: (typeof away)[number]) => boolean> = {
      "all|all|buy": (t) => t.dir > 0,
      "all|all|sell": (t) => t.dir < 0,
      "role|ceo|buy": (t) => t.dir > 0 && t.row.is_ceo === true,
      "skill|unskilled|buy": (t) => t.dir > 0 && !(skill(t) > 0),
      "skill|10b5-1|sell": (t) => t.dir < 0 && t.row.is_10b51 === true,
      "size|$1m+|buy": (t) => t.dir > 0 && (t.row.transaction_value ?? 0) >= 1_000_000,
      "size|under $100k|buy": (t) => t.dir > 0 && (t.row.transaction_value ?? 0) < 100_000,
    };
    const at = (dimension: string, group: string, side: string) =>
      s.truth.mean(away.filter(groups[`${dimension}|${group}|${side}`]).map((t) => t.row), "1y")!;
    const ceo = at("role", "ceo", "buy");
    const all = at("all", "all", "buy");
    // a few points a year for purchases, more for CEOs (Jeng, Metrick & Zeckhauser 2003; Seyhun 1986)
    assert.ok(all > 1.5 && all < 7, `all purchases ${all}`);
    assert.ok(ceo > all + 1.5 && ceo < 12, `CEO buys ${ceo} vs ${all}`);
    // no information in unskilled trades or 10b5-1 plan sales (Cohen, Malloy & Pomorski 2012)
    assert.ok(Math.abs(at("skill", "unskilled", "buy")) < 1.5);
    assert.ok(Math.abs(at("skill", "10b5-1", "sell")) < 1.5);
    // informed sales are rarer than informed buys: sales as a group carry less
    assert.ok(at("all", "all", "sell") > -all, `sales ${at("all", "all", "sell")}`);
    // bigger trades carry more information
    assert.ok(at("size", "$1m+", "buy") > at("size", "under $100k", "buy"));
    const dims = new Set(s.truth.table().map((r) => r.dimension));
    assert.deepEqual([...dims].sort(), ["all", "feed", "role", "size", "skill"]);
  }
  assert.equal(INSIDER_SKILL.informedSaleShare, 1 / 3);
});

Deno.test("truth: deterministic for a seed", () => {
  const a = createStub({ seed: 11, scale: 0.5 }).truth.table();
  assert.deepEqual(a, worlds[0].truth.table());
});

Deno.test("truth: each table row is its group's mean truth, over the trades whose horizon closed", () => {
  const s = worlds[0];
  const clean = s.insider.trades.filter((t) => t.dir !== 0 && !t.row.is_anomalous_transaction);
  const value = (t: (typeof clean)[number]) => t.row.transaction_value ?? 0;
  const groups: Record<string, (t: (typeof clean)[number]) => boolean> = {
    "skill|10b5-1|sell": (t) => t.dir < 0 && t.row.is_10b51 === true,
    "role|director (any)|buy": (t) => t.dir > 0 && t.row.is_director === true && !t.row.is_ceo,
    "feed|feed 17|buy": (t) => t.dir > 0 && t.row.feed_ids.includes(17),
    "size|$100k-$1m|sell": (t) => t.dir < 0 && value(t) >= 100_000 && value(t) < 1_000_000,
  };
  const table = s.truth.table();
  for (const [key, inGroup] of Object.entries(groups)) {
    const rows = clean.filter(inGroup).map((t) => t.row);
    for (const h of s.truth.horizons) {
      const got = table.find((r) =>
        `${r.dimension}|${r.group}|${r.side}` === key && r.horizon === h
      );
      const closed = rows.filter((r) => s.truth.expected(r, h) !== null);
      assert.equal(got?.n, closed.length || undefined, `${key} ${h}`);
      if (got) assert.ok(Math.abs(got.expected_excess - s.truth.mean(rows, h)!) < 1e-9, key);
    }
  }
});
