/**
 * The inputs of the backtest and result helpers (trades; tables,
 * conclusions, the truth section),
 * checked before use with the one wrong-object wording of
 * lib/shared/wrong_input.ts: the helper's name, what to pass, what it got.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import { describeInput, expectFrame, isFrame, wrongInput } from "../shared/wrong_input.ts";
import { TRADES_FRAME } from "../families/transactions.ts";

/**
 * A trades frame, or the helper's wrong-object error. Only the kind of
 * object is checked here: each helper checks the columns it needs.
 */
export function tradesInput(fn: string, trades: unknown): pl.DataFrame {
  const wanted = { pass: TRADES_FRAME, field: "frame" };
  if (!isFrame(trades)) throw wrongInput(fn, wanted, trades);
  // a frame of no trade columns at all is another kind of object (a frame
  // of no columns goes on to the helper's own checks)
  if (
    trades.width > 0 &&
    !trades.columns.some((c) => /^(transaction_date$|(excess_)?returns_)/.test(c))
  ) {
    throw wrongInput(fn, wanted, trades, ["transaction_date", "returns_<horizon>", "…"]);
  }
  return trades;
}

/** The columns every result helper reads from an `eventStudy` frame. */
const STUDY_COLUMNS = ["group", "horizon", "mean_excess", "ci_low", "ci_high"];

/** An `eventStudy` result, or the helper's wrong-object error. */
export function studyInput(fn: string, stats: unknown): pl.DataFrame {
  return expectFrame(fn, stats, { pass: "the result of eventStudy(...)", columns: STUDY_COLUMNS });
}

/**
 * Portfolio results by name (`{ "CEO buys": portfolioBacktest(...) }`), or
 * the helper's wrong-object error; a single result gets "pass it by name".
 */
export function portfolioInputs<T extends object>(fn: string, results: T): T {
  const pass = `portfolioBacktest(...) results by name: ${fn}({ "CEO buys": result })`;
  const isResult = (v: unknown) =>
    typeof v === "object" && v !== null && isFrame((v as { monthly?: unknown }).monthly) &&
    typeof (v as { stats?: unknown }).stats === "object";
  if (isResult(results)) {
    throw new TypeError(`${fn}: pass ${pass}; got ${describeInput(results)}; pass it by name`);
  }
  const record = typeof results === "object" && results !== null && !Array.isArray(results) &&
    !isFrame(results);
  const bad = record ? Object.entries(results).find(([, v]) => !isResult(v)) : undefined;
  if (!record || bad) {
    const at = bad
      ? `${describeInput(bad[1])} at ${JSON.stringify(bad[0])}`
      : describeInput(results);
    throw new TypeError(`${fn}: pass ${pass}; got ${at}`);
  }
  return results;
}
