/**
 * The families area: win-rate and return families of transactions in long
 * form, and pitch return-floor parsing and bucket loaders.
 *
 * @module
 */
export {
  forwardReturns,
  insiderReturns,
  priorReturns,
  WINDOW_DAYS,
  winRates,
} from "./transactions.ts";
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
export { TRADE_CLASSES, type TradeClass, tradeClass, tradeClassOf } from "./trade_class.ts";
