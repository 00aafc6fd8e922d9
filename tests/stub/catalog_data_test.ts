/**
 * Rules the catalog generator follows for every pitch: the market-cap tag
 * from the company's market cap on the pitch day, and a position action
 * that fits the sentiment.
 */
import assert from "node:assert/strict";
import { small } from "./_helpers.ts";

Deno.test("catalog data: each pitch's market-cap tag follows the market cap on its day", () => {
  const { world, catalog } = small();
  const seen = new Set<string>();
  for (const p of catalog.pitches) {
    const mcap = world.price(p.company, p.day) * world.companies[p.company].sharesOutstanding;
    const want = mcap >= 2e11
      ? "market_cap_mega"
      : mcap >= 1e10
      ? "market_cap_large"
      : mcap >= 2e9
      ? "market_cap_mid"
      : mcap >= 3e8
      ? "market_cap_small"
      : "market_cap_micro";
    assert.equal(p.slugs[0], want, `${p.pitch_id}: market cap ${mcap}`);
    seen.add(want);
  }
  assert.ok(seen.size >= 3, [...seen].join(", "));
});

Deno.test("catalog data: a pitch's position action fits its sentiment", () => {
  const allowed: Record<string, string[]> = {
    bullish: ["initiate_long", "increase_long", "hold", "reduce_short", "close_short"],
    bearish: ["initiate_short", "increase_short", "reduce_long", "close_long"],
    neutral: ["hold", "monitor", "pass_idea", "not_specified"],
  };
  const seen = new Set<string>();
  for (const p of small().catalog.pitches) {
    assert.ok(
      allowed[p.sentiment].includes(p.position),
      `${p.pitch_id}: ${p.sentiment} ${p.position}`,
    );
    seen.add(`${p.sentiment} ${p.position}`);
  }
  // every allowed pair is drawn somewhere in the world
  assert.equal(seen.size, Object.values(allowed).flat().length, [...seen].sort().join(", "));
});
