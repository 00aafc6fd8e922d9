/**
 * The nine curated feed topics, each with a buy id and a sell id (spec table
 * "Curated feeds"): a named topic and side give its id (`FEED_TOPICS[topic][side]`).
 *
 * @module
 */

/** Curated feed topics, by the names signalbook uses for them. */
export const FEED_TOPICS = {
  "top-trades": { title: "Top Trades", buy: 15, sell: 16 },
  "ceo-trades": { title: "CEO Trades", buy: 17, sell: 18 },
  "unusual-10b5-1": { title: "Unusual 10B5-1", buy: 1, sell: 2 },
  "abnormally-large": { title: "Abnormally Large", buy: 3, sell: 4 },
  "reversals": { title: "Reversals", buy: 5, sell: 6 },
  "weekend-filings": { title: "Weekend Filings", buy: 7, sell: 8 },
  "momentum": { title: "Momentum", buy: 9, sell: 10 },
  "top-insiders": { title: "Top Insiders", buy: 11, sell: 12 },
  "large-trades": { title: "Large trades", buy: 13, sell: 14 },
} as const;

/** A curated feed topic name, e.g. `ceo-trades`. */
export type FeedTopic = keyof typeof FEED_TOPICS;
/** The two sides of every feed topic, in the order of its ids (buy first). */
export const FEED_SIDES = ["buy", "sell"] as const;
/** A feed side. */
export type FeedSide = typeof FEED_SIDES[number];
/** The 18 curated feed ids. */
export type FeedId = typeof FEED_TOPICS[FeedTopic][FeedSide];
/** Every feed topic name. */
export const FEED_TOPIC_NAMES = Object.keys(FEED_TOPICS) as FeedTopic[];
/** Every feed id, ascending. */
export const FEED_IDS: readonly FeedId[] = FEED_TOPIC_NAMES
  .flatMap((t) => [FEED_TOPICS[t].buy, FEED_TOPICS[t].sell])
  .sort((a, b) => a - b);

/** Sector slugs accepted by the insider service (an industry id is accepted too). */
export const INSIDER_SECTORS = [
  "biotech",
  "consumer",
  "energy",
  "financials",
  "healthcare",
  "industrials",
  "materials",
  "realestate",
  "technology",
] as const;
/** An insider-service sector slug. */
export type InsiderSector = typeof INSIDER_SECTORS[number];

/** A feed row: the two ids for the detail call, and the filing time. */
export interface FeedRow {
  /** Filing accession number. */
  accession_number: string;
  /** Transaction id within the filing. */
  transaction_id: number;
  /** Filing timestamp, ISO. */
  filed_at: string;
}
