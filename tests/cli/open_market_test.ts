import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { tradeClass } from "../../mod.ts";
import { keepOpenMarket } from "../../lib/cli/backtest.ts";

Deno.test("backtest CLI: a :buy feed keeps open-market purchases, a :sell feed sales, and counts the rest", () => {
  const df = tradeClass(pl.DataFrame({
    code: ["P", "M", "S", "S", "A", "M"],
    is_10b51: [false, false, false, true, false, false],
  }));
  const buy = keepOpenMarket(df, "buy");
  assert.deepEqual(buy.frame.getColumn("code").toArray(), ["P"]);
  assert.deepEqual(buy.left, { option_exercise: 2, open_market_sale: 1, plan_sale: 1, award: 1 });
  const sell = keepOpenMarket(df, "sell");
  assert.deepEqual(sell.frame.getColumn("trade_class").toArray(), [
    "open_market_sale",
    "plan_sale",
  ]);
  assert.deepEqual(sell.left, { open_market_purchase: 1, option_exercise: 2, award: 1 });
});

Deno.test("backtest CLI: an empty pull stays an empty frame", () => {
  const empty = tradeClass(
    pl.DataFrame([pl.Series("code", [], pl.String), pl.Series("is_10b51", [], pl.Bool)]),
  );
  const kept = keepOpenMarket(empty, "buy");
  assert.equal(kept.frame.height, 0);
  assert.deepEqual(kept.left, {});
});
