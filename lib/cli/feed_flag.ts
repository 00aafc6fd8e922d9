/**
 * The `--feed TOPIC:SIDE` flag of `deno task backtest`: parsed, or one line
 * naming the bad part, what is allowed and the close matches
 * (`--feed "ceo-trade:buy": topic "ceo-trade" is not allowed; allowed: … (did you mean "ceo-trades"?)`).
 *
 * @module
 */
import { FEED_SIDES, FEED_TOPIC_NAMES, type FeedSide, type FeedTopic } from "../insider/feeds.ts";
import { notAllowed } from "./args.ts";

/** A parsed `--feed` value. */
export interface FeedFlag {
  /** The feed topic, e.g. `ceo-trades`. */
  topic: FeedTopic;
  /** `buy` or `sell`. */
  side: FeedSide;
  /** `topic:side`, the feed's name in the output. */
  label: string;
}

/**
 * Parses one `--feed` value: a {@link FeedFlag}, or the problem as one line.
 * Topic and side typos get close matches; a missing side is said as such.
 *
 * @example
 * ```ts
 * import { parseFeedFlag } from "./feed_flag.ts";
 * parseFeedFlag("ceo-trades:buy"); // { topic: "ceo-trades", side: "buy", label: "ceo-trades:buy" }
 * parseFeedFlag("ceo-trade:buy"); // '--feed "ceo-trade:buy": topic "ceo-trade" is not allowed; … (did you mean "ceo-trades"?)'
 * ```
 */
export function parseFeedFlag(raw: string): FeedFlag | string {
  // `--feed "ceo-trade:buy": topic "ceo-trade" is not allowed; …`, as notAllowed says it of any flag
  const at = `feed ${JSON.stringify(raw)}:`;
  const parts = raw.split(":");
  const [topic, side] = parts;
  if (!(FEED_TOPIC_NAMES as readonly string[]).includes(topic)) {
    return notAllowed(`${at} topic`, topic, FEED_TOPIC_NAMES);
  }
  if (parts.length === 1 || side === "") {
    return `--${at} the side is missing; write TOPIC:SIDE, e.g. ${topic}:buy or ${topic}:sell`;
  }
  if (parts.length > 2 || !(FEED_SIDES as readonly string[]).includes(side)) {
    return notAllowed(`${at} side`, parts.slice(1).join(":"), FEED_SIDES);
  }
  return { topic: topic as FeedTopic, side: side as FeedSide, label: `${topic}:${side}` };
}
