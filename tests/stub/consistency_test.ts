import assert from "node:assert/strict";
import { createStub } from "../../lib/stub/mod.ts";
import { feedIdsOf } from "../../lib/stub/insider/insider_data.ts";
import { STAR_PITCHES } from "../../lib/stub/catalog/catalog_data.ts";
import { WIN_RATE_SCOPES, WIN_RATE_WINDOWS } from "../../lib/insider/fields.ts";
import { small } from "./_helpers.ts";
import { generateWorld } from "../../lib/stub/world.ts";

type Num = Record<string, number | null>;
const close = (a: number, b: number, tol = 0.02) => Math.abs(a - b) <= tol;

Deno.test("the demo data are deterministic for a seed and differ across seeds", () => {
  const a = createStub({ seed: 5, scale: 0.05 });
  const b = createStub({ seed: 5, scale: 0.05 });
  const c = createStub({ seed: 6, scale: 0.05 });
  assert.deepEqual(a.insider.trades.map((t) => t.row), b.insider.trades.map((t) => t.row));
  assert.deepEqual(a.catalog.pitches, b.catalog.pitches);
  assert.notDeepEqual(
    a.insider.trades.slice(0, 20).map((t) => t.row),
    c.insider.trades.slice(0, 20).map((t) => t.row),
  );
});

Deno.test("default scale has about 3,000 pitches by 150 authors (and the star author's 3) on 400 companies, 25,000 trades by 2,000 insiders", () => {
  const s = createStub({ seed: 1 });
  assert.equal(s.world.companies.length, 400);
  assert.equal(s.catalog.authors.length, 150 + 1);
  assert.equal(s.catalog.pitches.length, 3000 + STAR_PITCHES);
  assert.equal(s.insider.insiders.length, 2000);
  assert.ok(Math.abs(s.insider.trades.length - 25_000) < 2_500, String(s.insider.trades.length));
});

Deno.test("win rate pct = 100·wins/total, wins <= total, scopes add up", () => {
  for (const t of small().insider.trades) {
    const r = t.row as unknown as Num;
    for (const w of WIN_RATE_WINDOWS) {
      for (const s of WIN_RATE_SCOPES) {
        const wins = r[`win_rate_${s}${w}_wins`]!;
        const total = r[`win_rate_${s}${w}_total`]!;
        const pct = r[`win_rate_${s}${w}_pct`];
        assert.ok(wins <= total);
        if (total === 0) assert.equal(pct, null);
        else assert.ok(close(pct!, (100 * wins) / total, 1e-9));
      }
      assert.equal(
        r[`win_rate_${w}_total`],
        r[`win_rate_bullish_${w}_total`]! + r[`win_rate_bearish_${w}_total`]!,
      );
    }
  }
});

Deno.test("value = shares · price; codes agree with A/D; derivatives have their fields", () => {
  for (const t of small().insider.trades) {
    const r = t.row;
    assert.ok(close(r.transaction_value!, r.number_of_shares! * r.price_per_share!, 0.01));
    assert.equal(r.acquired_disposed_code, ["P", "A", "M"].includes(r.code!) ? "A" : "D");
    assert.equal(r.is_derivative, r.code === "M");
    assert.equal(r.is_for_taxes, r.code === "F");
    if (r.code === "M") {
      assert.ok(r.underlying_security_title && r.expiration_date && r.conversion_or_exercise_price);
    }
    assert.equal(r.ticker_symbol, r.filing_ticker_symbol);
  }
});

Deno.test("forward, excess and prior returns follow the price path and the market index", () => {
  const s = small();
  const DAYS: Record<string, number> = { "1w": 7, "1m": 30, "3m": 91, "6m": 182, "1y": 365 };
  for (const t of s.insider.trades.slice(0, 500)) {
    const r = t.row as unknown as Num;
    for (const [w, n] of Object.entries(DAYS)) {
      const ret = r[`returns_${w}`];
      if (t.day + n > s.world.asOf) {
        assert.equal(ret, null);
        continue;
      }
      assert.ok(close(ret!, s.world.ret(t.company, t.day, t.day + n), 1e-3));
      assert.ok(close(r[`excess_returns_${w}`]!, ret! - s.world.marketRet(t.day, t.day + n), 2e-3));
    }
    assert.ok(close(r.returns_1m_ago!, s.world.ret(t.company, t.day - 30, t.day), 1e-3));
  }
});

Deno.test("win rates are point-in-time: only earlier trades whose window ended count", () => {
  const s = small();
  const byInsider = new Map<number, typeof s.insider.trades>();
  for (const t of s.insider.trades) {
    byInsider.set(t.insider, [...(byInsider.get(t.insider) ?? []), t]);
  }
  let checked = 0;
  for (const list of [...byInsider.values()].slice(0, 150)) {
    for (const t of list) {
      const done = list.filter((p) => p.dir !== 0 && p.day + 91 <= t.day);
      const wins = done.filter((p) => p.dir * s.world.ret(p.company, p.day, p.day + 91) > 0).length;
      assert.equal(t.row.win_rate_3m_total, done.length);
      assert.equal(t.row.win_rate_3m_wins, wins);
      checked++;
    }
  }
  assert.ok(checked > 100);
});

Deno.test("cluster, streak and feed fields agree with the trades they describe", () => {
  const s = small();
  for (const t of s.insider.trades) {
    const r = t.row;
    assert.deepEqual(r.feed_ids, feedIdsOf(r));
    if (t.dir === 0) {
      assert.equal(r.is_cluster_trade_30d, false);
      continue;
    }
    const same = s.insider.trades.filter((o) =>
      o.company === t.company && o.dir === t.dir && o.day <= t.day && o.day >= t.day - 30 &&
      o.filedMs <= t.filedMs
    );
    assert.equal(r.cluster_num_trades_30d, same.length);
    assert.equal(r.cluster_insider_count_30d, new Set(same.map((o) => o.insider)).size);
    assert.equal(r.is_cluster_trade_30d, r.cluster_insider_count_30d! >= 2);
    assert.ok(r.streak_length! >= 1);
    if (r.is_reversal) assert.ok(r.streak_length === 1 && r.previous_streak_length! >= 2);
  }
});

Deno.test("some insiders and authors have skill: skilled insiders' buys beat unskilled ones", () => {
  const s = createStub({ seed: 1 });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const buys = s.insider.trades.filter((t) => t.dir > 0 && t.row.excess_returns_3m !== null);
  const skilled = buys.filter((t) => s.insider.insiders[t.insider].skill > 0).map((t) =>
    t.row.excess_returns_3m!
  );
  const none = buys.filter((t) => s.insider.insiders[t.insider].skill === 0).map((t) =>
    t.row.excess_returns_3m!
  );
  assert.ok(mean(skilled) > mean(none) + 2, `${mean(skilled)} vs ${mean(none)}`);
});

Deno.test("author win rates and returns are consistent with their pitches", () => {
  const s = createStub({ seed: 1, scale: 0.3 });
  s.catalog.authors.forEach((a, i) => {
    const y = s.catalog.pitches.filter((p) => p.author === i).map((p) => p.returns["1y_abs"])
      .filter((v) => v !== undefined);
    if (y.length < 8) assert.equal(a.winRate1y, null);
    else assert.ok(close(a.winRate1y!, (100 * y.filter((v) => v > 0).length) / y.length, 0.01));
  });
});

Deno.test("an insider's title is named by its first role (CEO, CFO, COO, CTO, officer, 10% owner, director)", () => {
  const { insider } = small();
  const officers = ["EVP, Operations", "SVP, Sales", "General Counsel", "Chief Accounting Officer"];
  const seen = new Set<string>();
  for (const ins of insider.insiders) {
    const r = ins.roles;
    const want = r.ceo
      ? ["Chief Executive Officer"]
      : r.cfo
      ? ["Chief Financial Officer"]
      : r.coo
      ? ["Chief Operating Officer"]
      : r.cto
      ? ["Chief Technology Officer"]
      : r.officer
      ? officers
      : r.owner
      ? ["10% Owner"]
      : r.director
      ? ["Director"]
      : ["Other"];
    assert.ok(want.includes(ins.title), `${ins.name}: ${ins.title} for ${JSON.stringify(r)}`);
    seen.add(officers.includes(ins.title) ? "officer" : ins.title);
  }
  // every branch (and "Other") is met in the small world
  assert.equal(seen.size, 8, [...seen].join(", "));
});

Deno.test("every company of a world has a ticker of its own", () => {
  for (const seed of [1, 2]) {
    const tickers = generateWorld({ seed, scale: 1 }).companies.map((c) => c.ticker);
    assert.equal(new Set(tickers).size, tickers.length, `seed ${seed}`);
    assert.ok(tickers.every((t) => /^[A-Z]{3,5}$/.test(t)), `seed ${seed}`);
  }
});

Deno.test("returns are rounded: pitches' and authors' to 2 decimals, trades' to 4", () => {
  const s = createStub({ seed: 4, scale: 0.05, worldCache: false });
  const decimals = (x: number, n: number) => Math.abs(x * 10 ** n - Math.round(x * 10 ** n)) < 1e-6;
  const catalog = [...s.catalog.pitches, ...s.catalog.authors].flatMap((x) =>
    Object.values(x.returns)
  );
  assert.ok(catalog.length > 100 && catalog.every((x) => decimals(x, 2)), "catalog returns");
  assert.ok(catalog.some((x) => !decimals(x, 1)), "two decimals used");
  const trades = s.insider.trades.flatMap((t) => [t.row.returns_1m, t.row.excess_returns_3m]);
  const given = trades.filter((x) => x !== null) as number[];
  assert.ok(given.length > 100 && given.every((x) => decimals(x, 4)), "trade returns");
  assert.ok(given.some((x) => !decimals(x, 3)), "four decimals used");
});
