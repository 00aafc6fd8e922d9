import assert from "node:assert/strict";
import {
  AUTHOR_RETURNS,
  PITCH_RETURNS,
  QUALITY_TYPE_KEYS,
  TAG_TYPE_KEYS,
} from "../../lib/catalog/vocab.ts";
import { cat, expectProblem, ok, stub } from "./_helpers.ts";

type Tag = { slug: string; tagTypeKey: string; label: string; children?: Tag[] };
type TagType = { tagTypeKey: string; closed: boolean; tags: Tag[] };

Deno.test("search: fuzzy over usernames, display names, tickers, legal and alternate names", async () => {
  const s = stub();
  const author = s.catalog.authors[7];
  const company = s.world.companies[42];
  type R = { authors: { username: string }[]; companies: { companyId: number; ticker: string }[] };
  const byUser = await ok<R>(await cat(`/search?q=${author.username}`));
  assert.equal(byUser.authors[0].username, author.username);
  const typo = author.username.slice(0, 3) + "x" + author.username.slice(4);
  assert.ok(
    (await ok<R>(await cat(`/search?q=${typo}`))).authors.some((a) =>
      a.username === author.username
    ),
  );
  const byName = await ok<R>(await cat(`/search?q=${encodeURIComponent(company.name)}`));
  assert.equal(byName.companies[0].companyId, company.companyId);
  const alt = company.alternateNames[0];
  const altTypo = alt.slice(0, 2) + alt.slice(3);
  const byAlt = await ok<R>(await cat(`/search?q=${encodeURIComponent(altTypo)}`));
  assert.ok(byAlt.companies.some((c) => c.companyId === company.companyId), altTypo);
  const byTicker = await ok<R>(await cat(`/search?q=${company.ticker}`));
  assert.ok(byTicker.companies.some((c) => c.ticker === company.ticker));
  await expectProblem(await cat("/search"), 400);
  await expectProblem(await cat("/search?q="), 400);
});

Deno.test("search does not match pitch titles", async () => {
  const r = await ok<{ authors: unknown[]; companies: unknown[] }>(
    await cat("/search?q=underappreciated"),
  );
  assert.equal(r.companies.length + r.authors.length, 0);
});

Deno.test("tags: every type key, sector→industry nesting, closed quality lists with prefixes", async () => {
  const { data } = await ok<{ data: TagType[] }>(await cat("/tags"));
  assert.deepEqual(data.map((t) => t.tagTypeKey).sort(), [...TAG_TYPE_KEYS].sort());
  const sectors = data.find((t) => t.tagTypeKey === "sector_industry")!;
  assert.ok(sectors.tags.every((t) => t.children && t.children.length > 0));
  const q = Object.fromEntries(data.map((t) => [t.tagTypeKey, t]));
  for (const k of QUALITY_TYPE_KEYS) assert.equal(q[k].closed, true);
  assert.equal(q.author_return.tags.length, 24);
  assert.deepEqual(
    q.author_return.tags.map((t: Tag) => t.slug),
    AUTHOR_RETURNS.map((v) => "col_author_return_" + v),
  );
  assert.equal(q.pitch_return.tags.length, 48);
  assert.deepEqual(
    q.pitch_return.tags.map((t: Tag) => t.slug),
    PITCH_RETURNS.map((v) => "col_pitch_return_" + v),
  );
  assert.equal(q.position_decision.tags.length, 12);
  assert.equal(q.win_rate.tags.length, 3);
  assert.equal(q.badge.tags.length, 2);
  assert.equal(q.sentiment.tags.length, 3);
  assert.equal(q.premium.tags.length, 2);
});

Deno.test("filter sets: id, displayName, criteria with tags.any or tagsByType plus noneOf", async () => {
  type FS = {
    id: string;
    displayName: string;
    criteria: { tags?: { any: string[] }; tagsByType?: Record<string, string[]>; noneOf: string[] };
  };
  const { data } = await ok<{ data: FS[] }>(await cat("/filter-sets"));
  assert.ok(data.length >= 3);
  for (const f of data) {
    assert.ok(f.id && f.displayName);
    assert.ok(Array.isArray(f.criteria.noneOf));
    assert.ok(f.criteria.tags?.any || f.criteria.tagsByType);
  }
  assert.ok(data.some((f) => f.criteria.noneOf.length > 0));
});

Deno.test("pitch detail: archive object when unlocked; locked is 200 with is_locked and archive null", async () => {
  const s = stub();
  const open = s.catalog.pitches.find((p) => !s.catalog.locked(p))!;
  const d = await ok(await cat(`/pitches/${open.pitch_id}`));
  assert.equal(d.is_locked, false);
  const a = d.archive as Record<string, unknown>;
  for (const k of ["available", "formats", "has_attachment", "requested", "snapshots"]) {
    assert.ok(k in a, k);
  }
  const locked = s.catalog.pitches.find((p) => s.catalog.locked(p))!;
  const l = await ok(await cat(`/pitches/${locked.pitch_id}`));
  assert.equal(l.is_locked, true);
  assert.equal(l.archive, null);
  for (const f of ["pitch_title", "pitch_summary", "ticker_symbol", "company_name"]) {
    assert.equal(l[f], null);
  }
  await expectProblem(await cat(`/pitches/p_nope`), 404, "not-found");
  await expectProblem(await cat(`/pitches/..%2F..%2Fetc%2Fpasswd`), 404);
});
