/**
 * Trades classified as researchers do (Form 4 transaction codes, SEC
 * Form 4 General Instructions 8): `tradeClass(df)` adds a String column
 * `trade_class`:
 *
 * | `trade_class`          | rule                                            |
 * | ---------------------- | ----------------------------------------------- |
 * | `open_market_purchase` | code `P`                                        |
 * | `open_market_sale`     | code `S`, not under a Rule 10b5-1 plan          |
 * | `plan_sale`            | code `S` with `is_10b51` (a pre-planned sale)    |
 * | `award`                | code `A` (grant or award)                       |
 * | `option_exercise`      | code `M` or `X` (exercise or conversion of a derivative) |
 * | `tax_withholding`      | code `F` (shares withheld for tax or exercise price) |
 * | `gift`                 | code `G`                                        |
 * | `other`                | every other code, or none                       |
 *
 * Why it matters: the service's `tradeType: "purchase"` means "acquired"
 * (code `A` in `acquired_disposed_code`), and `onlyMarketTransactions`
 * keeps rows with a positive price, so "purchases" pulled that way include
 * option exercises (code `M`, which have an exercise price) — 17–19 % of
 * them in the audit. The insider-trading literature (Seyhun 1986; Jeng,
 * Metrick & Zeckhauser 2003; Cohen, Malloy & Pomorski 2012) studies
 * open-market purchases (`P`) and sales (`S`) only: exercises, awards and
 * withholdings are compensation events, not trading decisions.
 *
 * @module
 */
import pl from "../frames/_polars.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import { needTrades } from "./transactions.ts";

/** Every `trade_class` value. */
export const TRADE_CLASSES = [
  "open_market_purchase",
  "open_market_sale",
  "award",
  "option_exercise",
  "tax_withholding",
  "gift",
  "plan_sale",
  "other",
] as const;
/** A trade class. */
export type TradeClass = typeof TRADE_CLASSES[number];

/**
 * The class of one row (`code` and `is_10b51`).
 *
 * @example
 * ```ts
 * import { tradeClassOf } from "./trade_class.ts";
 * tradeClassOf({ code: "S", is_10b51: true }); // "plan_sale"
 * tradeClassOf({ code: "M", is_10b51: false }); // "option_exercise"
 * ```
 */
export function tradeClassOf(row: { code?: unknown; is_10b51?: unknown }): TradeClass {
  if (row.code === "S" && row.is_10b51 === true) return "plan_sale";
  return CLASS_OF_CODE.get(row.code) ?? "other";
}

/** The class of each code (a sale under a 10b5-1 plan is a `plan_sale`); any other is `other`. */
const CLASS_OF_CODE = new Map<unknown, TradeClass>([
  ["P", "open_market_purchase"],
  ["S", "open_market_sale"],
  ["A", "award"],
  ["M", "option_exercise"],
  ["X", "option_exercise"],
  ["F", "tax_withholding"],
  ["G", "gift"],
]);

/**
 * Adds the String column `trade_class` (see the module doc) to a
 * transactions frame; needs `code` and `is_10b51`.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { connect, tradeClass } from "../../mod.ts";
 * const { insider } = await connect();
 * const trades = tradeClass(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 500 }));
 * const buys = trades.filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
 * console.log(trades.height, buys.height);
 * ```
 */
export function tradeClass(df: pl.DataFrame): Frame {
  needTrades(df, ["code", "is_10b51"], "tradeClass");
  const code = pl.col("code");
  const expr = pl.when(code.eq(pl.lit("S")).and(pl.col("is_10b51").eq(pl.lit(true))))
    .then(pl.lit("plan_sale"))
    .otherwise(
      code.replaceStrict(
        [...CLASS_OF_CODE.keys()] as string[],
        [...CLASS_OF_CODE.values()],
        "other",
        pl.String,
      ),
    )
    .cast(pl.String)
    .alias("trade_class");
  // a cut pull stays marked as cut
  return asFrame(df.withColumns(expr), (df as Partial<Frame>).truncated === true);
}
