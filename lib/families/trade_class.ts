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
import pl from "npm:nodejs-polars@0.25.2";
import { asFrame, type Frame } from "../frames/list.ts";
import { expectFrame } from "../shared/wrong_input.ts";
import { TRADES_FRAME } from "./transactions.ts";

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
  switch (row.code) {
    case "P":
      return "open_market_purchase";
    case "S":
      return row.is_10b51 === true ? "plan_sale" : "open_market_sale";
    case "A":
      return "award";
    case "M":
    case "X":
      return "option_exercise";
    case "F":
      return "tax_withholding";
    case "G":
      return "gift";
    default:
      return "other";
  }
}

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
  expectFrame("tradeClass", df, {
    pass: TRADES_FRAME,
    columns: ["code", "is_10b51"],
    field: "frame",
  });
  const code = pl.col("code");
  const is = (c: string) => code.eq(pl.lit(c));
  const expr = pl.when(is("P")).then(pl.lit("open_market_purchase"))
    .when(is("S").and(pl.col("is_10b51").eq(pl.lit(true)))).then(pl.lit("plan_sale"))
    .when(is("S")).then(pl.lit("open_market_sale"))
    .when(is("A")).then(pl.lit("award"))
    .when(is("M").or(is("X"))).then(pl.lit("option_exercise"))
    .when(is("F")).then(pl.lit("tax_withholding"))
    .when(is("G")).then(pl.lit("gift"))
    .otherwise(pl.lit("other"))
    .cast(pl.String)
    .alias("trade_class");
  // a cut pull stays marked as cut
  return asFrame(df.withColumns(expr), (df as Partial<Frame>).truncated === true);
}
