import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { TRADE_CLASSES, tradeClass, tradeClassOf } from "../../mod.ts";
import { offline } from "../_util.ts";

Deno.test("tradeClass: every Form 4 code lands in its class; 10b5-1 sales are plan sales", () => {
  const df = pl.DataFrame({
    code: ["P", "S", "S", "A", "M", "X", "F", "G", "J", null],
    is_10b51: [false, false, true, false, false, false, false, false, false, null],
  });
  const out = tradeClass(df);
  assert.deepEqual(out.getColumn("trade_class").toArray(), [
    "open_market_purchase",
    "open_market_sale",
    "plan_sale",
    "award",
    "option_exercise",
    "option_exercise",
    "tax_withholding",
    "gift",
    "other",
    "other",
  ]);
  assert.ok(out.getColumn("trade_class").dtype.equals(pl.String));
  // the row function agrees with the frame function
  (df.toRecords() as { code: string | null; is_10b51: boolean | null }[]).forEach((r, i) =>
    assert.equal(tradeClassOf(r), out.getColumn("trade_class").get(i))
  );
  assert.deepEqual(
    [...new Set(out.getColumn("trade_class").toArray())].sort(),
    [...TRADE_CLASSES].sort(),
  );
});

Deno.test("tradeClass: a frame without code or is_10b51 is an error naming the column", () => {
  assert.throws(
    () => tradeClass(pl.DataFrame({ code: ["P"] })),
    /tradeClass: the frame lacks column "is_10b51"/,
  );
  assert.throws(
    () => tradeClass(pl.DataFrame({ kode: ["P"], is_10b51: [false] })),
    /lacks column "code" \(did you mean "kode"\?\)/,
  );
});

Deno.test("tradeClass: 'purchases' pulled by tradeType include option exercises; open-market ones do not", async () => {
  const { insider } = await offline({ seed: 3, scale: 0.1 });
  const pulled = await insider.search({ tradeType: "purchase", onlyMarketTransactions: true })
    .frame({ maxRows: 2000 });
  const classed = tradeClass(pulled);
  const classes = classed.getColumn("trade_class").toArray() as string[];
  const exercises = classes.filter((c) => c === "option_exercise").length;
  assert.ok(exercises > 0, "acquired-with-a-price rows include exercises (code M)");
  const buys = classed.filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
  assert.deepEqual([...new Set(buys.getColumn("code").toArray())], ["P"]);
  assert.equal(classed.truncated, pulled.truncated);
});
