/**
 * No look-ahead: over the whole demo world (seed 1, scale 1) every field that
 * describes the past is recomputed here from the earlier filings alone (and
 * the price windows that had closed by the trade's date), independently of
 * the generator's incremental code, and must match the row.
 */
import assert from "node:assert/strict";
import { createStub, type Trade } from "../../lib/stub/mod.ts";
import { feedIdsOf } from "../../lib/stub/insider/insider_data.ts";

const stub = createStub({ seed: 1 });
const { world } = stub;
const trades = stub.insider.trades;
const W = { "1w": 7, "1m": 30, "3m": 91, "6m": 182, "1y": 365, "2y": 730 } as const;
type Row = Record<string, unknown>;

function groupBy<K>(xs: Trade[], key: (t: Trade) => K): Map<K, Trade[]> {
  const m = new Map<K, Trade[]>();
  for (const t of xs) m.set(key(t), [...(m.get(key(t)) ?? []), t]);
  return m;
}
const byInsider = groupBy(trades, (t) => t.insider);
const byIssuer = groupBy(trades.filter((t) => t.dir !== 0), (t) => t.company);

/** What was public when `t` was filed: the insider's trades from strictly earlier filings. */
function earlierFilings(t: Trade): Trade[] {
  return byInsider.get(t.insider)!.filter((o) => o.filedMs < t.filedMs).sort((a, b) =>
    a.filedMs - b.filedMs || String(a.row.accession_number).localeCompare(
      String(b.row.accession_number),
    ) || a.row.transaction_id! - b.row.transaction_id!
  );
}

function close(
  actual: unknown,
  expected: number | null,
  what: string,
  t: Trade,
  tol = 1e-3,
): void {
  const where = `${what} of ${t.row.accession_number}/${t.row.transaction_id}`;
  if (expected === null) return assert.equal(actual ?? null, null, where);
  assert.ok(typeof actual === "number", `${where}: ${actual} (expected ${expected})`);
  assert.ok(Math.abs(actual - expected) < tol, `${where}: ${actual} vs ${expected}`);
}

Deno.test("no look-ahead: cluster flags and counts use only trades filed by then", () => {
  let flagged = 0;
  for (const t of trades) {
    if (t.dir === 0) {
      assert.equal(t.row.is_cluster_trade_30d, false);
      continue;
    }
    const known = byIssuer.get(t.company)!.filter((o) =>
      o.filedMs <= t.filedMs && o.dir === t.dir && o.day <= t.day
    );
    const in30 = known.filter((o) => o.day >= t.day - 30);
    const in90 = known.filter((o) => o.day >= t.day - 90);
    assert.equal(t.row.cluster_num_trades_30d, in30.length);
    assert.equal(t.row.cluster_insider_count_30d, new Set(in30.map((o) => o.insider)).size);
    assert.equal(t.row.is_cluster_trade_30d, new Set(in30.map((o) => o.insider)).size >= 2);
    assert.equal(t.cluster90, new Set(in90.map((o) => o.insider)).size >= 2);
    if (t.row.is_cluster_trade_30d) flagged++;
  }
  assert.ok(flagged > 100, `${flagged} cluster trades`);
});

Deno.test("no look-ahead: win rates and insider returns use earlier filings with closed windows", () => {
  let nonEmpty = 0;
  for (const t of trades) {
    const r = t.row as unknown as Row;
    const before = earlierFilings(t).filter((o) => o.dir !== 0);
    for (const [w, days] of Object.entries(W)) {
      const closed = before.filter((o) => o.day + days <= t.day);
      for (const [s, keep] of [["", 0], ["bullish_", 1], ["bearish_", -1]] as const) {
        const set = closed.filter((o) => keep === 0 || o.dir === keep);
        const wins = set.filter((o) => o.dir * world.ret(o.company, o.day, o.day + days) > 0);
        assert.equal(r[`win_rate_${s}${w}_wins`], wins.length, `wins ${s}${w}`);
        assert.equal(r[`win_rate_${s}${w}_total`], set.length, `total ${s}${w}`);
        close(
          r[`win_rate_${s}${w}_pct`],
          set.length ? 100 * wins.length / set.length : null,
          `win_rate_${s}${w}_pct`,
          t,
        );
        if (w === "1w") continue;
        const suffix = s === "" ? "" : `_${s.slice(0, -1)}`;
        const rets = set.map((o) => o.dir * world.ret(o.company, o.day, o.day + days));
        const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
        close(r[`insider_returns_${w}${suffix}`], mean(rets), `insider_returns_${w}${suffix}`, t);
        if (w === "3m" || (w === "1y" && s === "")) {
          const ex = set.map((o) =>
            o.dir * (world.ret(o.company, o.day, o.day + days) -
              world.marketRet(o.day, o.day + days))
          );
          close(r[`insider_excess_returns_${w}${suffix}`], mean(ex), `excess ${w}${suffix}`, t);
        }
      }
    }
    if ((r.win_rate_1w_total as number) > 0) nonEmpty++;
  }
  assert.ok(nonEmpty > 1000, `${nonEmpty} trades with a 1w track record`);
});

Deno.test("no look-ahead: value medians and z-scores use earlier filings inside the window", () => {
  let scored = 0;
  for (const t of trades) {
    const r = t.row as unknown as Row;
    for (const [w, days] of [["3m", 91], ["6m", 182], ["1y", 365]] as const) {
      const vals = earlierFilings(t).filter((o) =>
        (o.row.transaction_value ?? 0) > 0 && o.day >= t.day - days && o.day <= t.day
      ).map((o) => o.row.transaction_value!).sort((a, b) => a - b);
      const n = vals.length;
      const median = n === 0 ? null : n % 2 ? vals[n >> 1] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
      // medians are rounded to cents
      close(r[`transaction_value_median_${w}`], median, `median ${w}`, t, 0.006);
      let z: number | null = null;
      const v = t.row.transaction_value ?? 0;
      if (n >= 3 && v > 0) {
        const mean = vals.reduce((a, b) => a + b, 0) / n;
        const sd = Math.sqrt(vals.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
        if (sd > 0) z = (v - mean) / sd;
      }
      close(r[`transaction_value_zscore_${w}`], z, `zscore ${w}`, t);
      if (z !== null) scored++;
    }
  }
  assert.ok(scored > 1000, `${scored} z-scores`);
});

Deno.test("no look-ahead: streaks and reversals follow the earlier filings in filing order", () => {
  let reversals = 0;
  for (const t of trades) {
    if (t.dir === 0) {
      assert.equal(t.row.is_reversal, false);
      continue;
    }
    const dirs = earlierFilings(t).filter((o) => o.dir !== 0).map((o) => o.dir);
    let i = dirs.length - 1;
    let streak = 1;
    for (; i >= 0 && dirs[i] === t.dir; i--) streak++;
    const prevDir = i >= 0 ? dirs[i] : 0;
    let prev = 0;
    for (; i >= 0 && dirs[i] === prevDir; i--) prev++;
    assert.equal(t.row.streak_length, streak);
    assert.equal(t.row.previous_streak_length, prevDir ? prev : null);
    assert.equal(
      t.row.previous_streak_direction,
      prevDir > 0 ? "buy" : prevDir < 0 ? "sell" : null,
    );
    assert.equal(t.row.is_reversal, streak === 1 && prev >= 2);
    if (t.row.is_reversal) reversals++;
  }
  assert.ok(reversals > 50, `${reversals} reversals`);
});

Deno.test("no look-ahead: feed membership is a function of the point-in-time fields", () => {
  const counts = new Map<number, number>();
  for (const t of trades) {
    assert.deepEqual(t.row.feed_ids, feedIdsOf(t.row));
    for (const f of t.row.feed_ids) counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  // every feed that depends on history (win rate, z-score, reversal) is populated
  for (const f of [3, 5, 6, 11, 12]) assert.ok((counts.get(f) ?? 0) > 0, `feed ${f} is empty`);
});
