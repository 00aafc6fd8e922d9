/**
 * The headline portfolios' cost: 10 bps a side unless `costBps` is given
 * (`lib/backtest/headline.ts`, the figure the README's headline table and
 * `deno task demo` print). Without the option the results are those of
 * `costBps: 10`, and not those of no cost.
 */
import assert from "node:assert/strict";
import { connect, headlinePortfolios } from "../../mod.ts";

Deno.test("headlinePortfolios costs 10 bps a side by default", async () => {
  const { insider } = await connect({ quiet: true });
  const trades = await insider.search({ onlyMarketTransactions: true }).frame({ maxRows: 3000 });
  const stats = (opts: { costBps?: number }) =>
    JSON.stringify(
      Object.entries(headlinePortfolios(trades, { horizon: "3m", ...opts })).map((
        [name, p],
      ) => [name, p.stats]),
    );
  const byDefault = stats({});
  assert.equal(byDefault, stats({ costBps: 10 }));
  assert.notEqual(byDefault, stats({ costBps: 0 }), "a cost changes the results");
});
