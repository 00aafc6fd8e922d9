/**
 * The default demo world (seed 1, scale 1) exercises every enumerated filter
 * value of both services: each value, enumerated from the vocabularies the
 * client validates with, matches at least one row, so a user can try any of
 * them offline.
 */
import assert from "node:assert/strict";
import {
  AUTHOR_BADGES,
  AUTHOR_RETURNS,
  PITCH_RETURNS,
  POSITION_DECISIONS,
  SENTIMENTS,
  WIN_RATE_FLOORS,
} from "../../lib/catalog/vocab.ts";
import {
  EXCLUDE_FLAGS,
  FILING_DATE_PRESETS,
  INSIDER_RETURN_PERIODS,
  INSIDER_RETURN_TYPES,
  ONLY_FLAGS,
  POSITION_FLAGS,
  TRADE_RETURN_PERIODS,
  TRADE_TYPES,
} from "../../lib/insider/filter.ts";
import { FEED_IDS, INSIDER_SECTORS } from "../../lib/insider/feeds.ts";
import { auth, cat, stub } from "./_helpers.ts";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";

async function pitchCount(query: string): Promise<number> {
  const res = await cat(`/pitches?limit=1&${query}`);
  assert.equal(res.status, 200, query);
  const body = await res.json();
  return body.data.length;
}

async function tradeCount(filter: Record<string, unknown>): Promise<number> {
  const res = await stub().app.request("/insider/api/v1/search", {
    method: "POST",
    headers: { ...auth(DEMO_KEYS.insider), "content-type": "application/json" },
    body: JSON.stringify({ filter, pagination: { pageSize: 1 } }),
  });
  assert.equal(res.status, 200, JSON.stringify(filter));
  return (await res.json()).data.length;
}

async function feedCount(query: string): Promise<number> {
  const res = await stub().app.request(`/insider/api/v1/feeds?limit=1&${query}`, {
    headers: auth(DEMO_KEYS.insider),
  });
  assert.equal(res.status, 200, query);
  return (await res.json()).data.length;
}

async function empty<T>(values: readonly T[], count: (v: T) => Promise<number>): Promise<T[]> {
  const out: T[] = [];
  for (const v of values) if (await count(v) === 0) out.push(v);
  return out;
}

Deno.test("every typed pitch-list value matches at least one pitch", async () => {
  const params: [string, readonly string[]][] = [
    ["authorBadge", AUTHOR_BADGES],
    ["authorReturn", AUTHOR_RETURNS],
    ["winRateGte", WIN_RATE_FLOORS],
    ["pitchReturn", PITCH_RETURNS],
    ["sentiment", SENTIMENTS],
    ["positionDecision", POSITION_DECISIONS],
    ["isPremiumPitch", ["true", "false"]],
    ["followingOnly", ["true"]],
  ];
  const missing: string[] = [];
  for (const [name, values] of params) {
    for (const v of await empty(values, (v) => pitchCount(`${name}=${v}`))) {
      missing.push(`${name}=${v}`);
    }
  }
  assert.deepEqual(missing, [], `no pitch matches ${missing.join(", ")}`);
});

Deno.test("every tag slug of the vocabulary matches at least one pitch", async () => {
  const res = await cat("/tags");
  const walk = (tags: { slug: string; children?: unknown[] }[]): string[] =>
    tags.flatMap((t) => [t.slug, ...walk((t.children ?? []) as typeof tags)]);
  const slugs = (await res.json()).data.flatMap((t: { tags: { slug: string }[] }) =>
    walk(t.tags)
  ) as string[];
  assert.ok(slugs.length > 100, `${slugs.length} slugs`);
  const missing = await empty(slugs, (s) => pitchCount(`extraTags=${s}`));
  assert.deepEqual(missing, [], `no pitch carries ${missing.join(", ")}`);
});

Deno.test("every saved filter set matches at least one pitch", async () => {
  const sets = (await (await cat("/filter-sets")).json()).data as { id: string }[];
  const missing = await empty(sets.map((s) => s.id), (id) => pitchCount(`filterSetIds=${id}`));
  assert.deepEqual(missing, []);
});

Deno.test("every enumerated insider filter value matches at least one trade", async () => {
  const filters: Record<string, unknown>[] = [
    ...INSIDER_SECTORS.map((sector) => ({ sector })),
    ...INSIDER_RETURN_PERIODS.flatMap((insiderReturnPeriod) =>
      INSIDER_RETURN_TYPES.map((insiderReturnType) => ({
        insiderReturnPeriod,
        insiderReturnType,
        insiderReturnMin: "0",
      }))
    ),
    ...TRADE_TYPES.map((tradeType) => ({ tradeType })),
    ...TRADE_RETURN_PERIODS.map((tradeReturnPeriod) => ({
      tradeReturnPeriod,
      ...(tradeReturnPeriod ? { tradeReturnMin: "0" } : {}),
    })),
    ...FILING_DATE_PRESETS.filter((p) => p !== "custom").map((filingDatePreset) => ({
      filingDatePreset,
    })),
    { filingDatePreset: "custom", filingDateFrom: "2025-01-01", filingDateTo: "2025-01-31" },
    ...POSITION_FLAGS.map((p) => ({ position: { [p]: true } })),
    ...[...EXCLUDE_FLAGS, ...ONLY_FLAGS].map((flag) => ({ [flag]: true })),
  ];
  const missing = await empty(filters, tradeCount);
  assert.deepEqual(missing.map((f) => JSON.stringify(f)), []);
});

Deno.test("every curated feed and every sector has rows", async () => {
  const missing = [
    ...(await empty(FEED_IDS, (id) => feedCount(`feed_id=${id}`))).map((id) => `feed_id=${id}`),
    ...(await empty(INSIDER_SECTORS, (s) => feedCount(`feed_id=${FEED_IDS.join(",")}&sector=${s}`)))
      .map((s) => `sector=${s}`),
  ];
  assert.deepEqual(missing, []);
});

Deno.test("other seeds: the ten-bagger keeps a 2-year ×10 pitch in 29 of seeds 1–30 (scale 0.2)", async () => {
  const { createStub } = await import("../../lib/stub/mod.ts");
  const missing: number[] = [];
  for (let seed = 1; seed <= 30; seed++) {
    const s = createStub({ seed, scale: 0.2, worldCache: false });
    const x10 = s.catalog.pitches.some((p) =>
      (p.returns["2y_abs"] ?? -Infinity) >= 900 && (p.returns["2y_excess"] ?? -Infinity) >= 900
    );
    if (!x10) missing.push(seed);
  }
  // the ten-bagger is picked on its volatility, never its path (issue 32), so a seed whose
  // steadiest biotech loses a third after its run-up has no 2-year ×10 pitch: seed 13
  console.log(
    `2-year ×10 pitch in ${30 - missing.length} of 30 seeds; none in ${missing.join(", ")}`,
  );
  assert.deepEqual(missing, [13]);
});
