/**
 * The families area: win-rate and return families of transactions in long
 * form, pitch return-floor parsing and bucket loaders, and per-author win
 * rates of pitches.
 *
 * @module
 */
export { forwardReturns, insiderReturns, priorReturns, winRates } from "./transactions.ts";
export {
  authorReturnBuckets,
  type BucketBy,
  type Buckets,
  formatReturnFloor,
  parseAuthorReturn,
  parsePitchReturn,
  pitchReturnBuckets,
  winRateBuckets,
} from "./pitch_buckets.ts";
export {
  type AuthorWinRateOptions,
  type AuthorWinRates,
  authorWinRates,
  PERIOD_DAYS,
  wilsonInterval,
} from "./author_win_rates.ts";
export type { BetaPrior } from "./_beta_binomial.ts";
export { TRADE_CLASSES, type TradeClass, tradeClass, tradeClassOf } from "./trade_class.ts";
