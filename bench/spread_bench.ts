/**
 * Portfolio alpha against the emulator's truth for each way of booking the
 * returns between the service's 1/3/6/12-month points (`spread`): CEO buys,
 * equal weight, no costs, held 1 month, 6 months and 1 year, over N seeds of
 * scale-S worlds. Prints, per spread and horizon, the mean gap (alpha minus
 * the same backtest on noise-free returns), its cross-seed SE and the gap in
 * SEs, then the mean alpha and the mean truth.
 *
 * `deno run -A bench/spread_bench.ts [N=40] [S=0.5]` (about 1–2 minutes).
 *
 * @module
 */
import { createStub } from "../lib/stub/mod.ts";
import { transactionsFrame } from "../lib/insider/transaction_frames.ts";
import { portfolioBacktest } from "../lib/backtest/portfolio.ts";
const seeds = Number(Deno.args[0] ?? 12), scale = Number(Deno.args[1] ?? 0.5);
const res: Record<string, number[]> = {};
for (let seed = 1; seed <= seeds; seed++) {
  const stub = createStub({ seed, scale });
  const rows = stub.insider.trades.map((t) => t.row).filter((r) =>
    r.is_anomalous_transaction === false && r.code === "P" && r.is_ceo === true
  );
  const realized = transactionsFrame(rows);
  const noiseFree = transactionsFrame(rows.map((r) => {
    const out: Record<string, unknown> = { ...r };
    for (const h of ["1w", "1m", "3m", "6m", "1y"] as const) {
      const ret = r[`returns_${h}`] as number | null;
      const ex = r[`excess_returns_${h}`] as number | null;
      const e = stub.truth.expected(r, h);
      if (ret === null || ex === null || e === null) continue;
      out[`excess_returns_${h}`] = e;
      out[`returns_${h}`] = e + (ret - ex);
    }
    return out;
  }));
  for (const spread of ["step", "geometric"] as const) {
    for (const horizon of ["1m", "6m", "1y"] as const) {
      const k = `${spread} ${horizon}`;
      const a = portfolioBacktest(realized, { horizon, spread }).stats.alpha ?? NaN,
        t = portfolioBacktest(noiseFree, { horizon, spread }).stats.alpha ?? NaN;
      (res[k] ??= []).push(a - t);
      (res[k + " alpha"] ??= []).push(a);
      (res[k + " truth"] ??= []).push(t);
    }
  }
}
for (const [k, v] of Object.entries(res)) {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
  console.log(
    k,
    "mean gap",
    m.toFixed(2),
    "SE",
    (sd / Math.sqrt(v.length)).toFixed(2),
    "gap/SE",
    (m / (sd / Math.sqrt(v.length))).toFixed(2),
  );
}
