import assert from "node:assert/strict";
import { allPitches, cat, expectProblem, ok, type PitchRow, stub } from "./_helpers.ts";

type Page = {
  data: PitchRow[];
  has_more: boolean;
  next_cursor: string | null;
  head_cursor: string;
};
const page = async (q: string) => await ok<Page>(await cat(`/pitches?${q}`));

Deno.test("limit: default 20, 1 and 50 allowed, others 400 naming the value", async () => {
  assert.equal((await page("")).data.length, 20);
  assert.equal((await page("limit=1")).data.length, 1);
  assert.equal((await page("limit=50")).data.length, 50);
  for (const bad of ["0", "51", "-1", "abc", "1.5", ""]) {
    const detail = await expectProblem(await cat(`/pitches?limit=${bad}`), 400, "invalid-request");
    assert.match(detail, /limit/);
    assert.ok(detail.includes(JSON.stringify(bad)) || detail.includes(bad), detail);
  }
});

Deno.test("cursor paging returns every matching pitch exactly once", async () => {
  const rows = await allPitches("");
  assert.equal(rows.length, stub().catalog.pitches.length);
  assert.equal(new Set(rows.map((r) => r.pitch_id)).size, rows.length);
});

Deno.test("cursor: tampered, garbage, other sort or other filters give 400", async () => {
  const first = await page("limit=5&sentiment=bullish");
  const cursor = first.next_cursor!;
  const flipped = cursor.slice(0, -2) + (cursor.endsWith("A") ? "BB" : "AA");
  for (
    const q of [
      `sentiment=bullish&cursor=${encodeURIComponent(flipped)}`,
      `sentiment=bullish&cursor=garbage`,
      `sentiment=bullish&sort=pitch_returns&cursor=${encodeURIComponent(cursor)}`,
      `sentiment=bearish&cursor=${encodeURIComponent(cursor)}`,
    ]
  ) {
    const detail = await expectProblem(await cat(`/pitches?limit=5&${q}`), 400, "invalid-request");
    assert.match(detail, /cursor/);
  }
  const again = await page(`limit=5&sentiment=bullish&cursor=${encodeURIComponent(cursor)}`);
  assert.notEqual(again.data[0].pitch_id, first.data[0].pitch_id);
});

Deno.test("head_cursor restarts the same query from the top", async () => {
  const first = await page("limit=3&sort=pitch_returns");
  const second = await page(
    `limit=3&sort=pitch_returns&cursor=${encodeURIComponent(first.next_cursor!)}`,
  );
  const top = await page(
    `limit=3&sort=pitch_returns&cursor=${encodeURIComponent(second.head_cursor)}`,
  );
  assert.deepEqual(top.data.map((r) => r.pitch_id), first.data.map((r) => r.pitch_id));
});

Deno.test("sort: post_date by added_on desc; pitch_returns and investor_returns really applied", async () => {
  const s = stub();
  const byId = s.catalog.byId;
  const post = await allPitches("sort=post_date");
  for (let i = 1; i < post.length; i++) assert.ok(post[i - 1].added_on >= post[i].added_on);
  const pr = await allPitches("sort=pitch_returns");
  const keys = pr.map((r) => byId.get(r.pitch_id)!.returns["1y_abs"]);
  const known = keys.filter((k) => k !== undefined);
  assert.ok(known.length > 100);
  for (let i = 1; i < known.length; i++) assert.ok(known[i - 1] >= known[i]);
  assert.ok(
    keys.indexOf(undefined as unknown as number) === -1 ||
      keys.slice(keys.indexOf(undefined as unknown as number)).every((k) => k === undefined),
  );
  const ir = await allPitches("sort=investor_returns");
  const a = ir.map((r) => s.catalog.authors[byId.get(r.pitch_id)!.author].returns["1y_abs"]).filter(
    (k) => k !== undefined,
  );
  for (let i = 1; i < a.length; i++) assert.ok(a[i - 1] >= a[i]);
  await expectProblem(await cat("/pitches?sort=newest"), 400);
});

const ENUM_PARAMS: [string, string, string][] = [
  ["authorBadge", "elite", "gold"],
  ["authorReturn", "1y_excess_gte_25", "1y_excess_gte_30"],
  ["winRateGte", "60", "55"],
  ["pitchReturn", "2y_abs_gte_x2", "2y_abs_gte_x5"],
  ["sentiment", "bearish", "bear"],
  ["positionDecision", "initiate_short", "short"],
  ["isPremiumPitch", "true", "yes"],
  ["followingOnly", "true", "1"],
  ["extraTagsNoneOf", "sentiment", "sentiment_bullish"],
  ["sort", "investor_returns", "returns"],
];

Deno.test("every enumerated parameter accepts its values and rejects others by name", async () => {
  for (const [param, good, bad] of ENUM_PARAMS) {
    assert.equal((await cat(`/pitches?limit=1&${param}=${good}`)).status, 200, `${param}=${good}`);
    const detail = await expectProblem(await cat(`/pitches?${param}=${bad}`), 400);
    assert.ok(detail.includes(param) && detail.includes(JSON.stringify(bad)), detail);
    assert.match(detail, /allowed/);
  }
});

Deno.test("typed quality parameters compile to extraTags slugs", async () => {
  const pairs: [string, string][] = [
    ["sentiment=bullish", "extraTags=sentiment_bullish"],
    ["authorBadge=elite", "extraTags=badge_elite"],
    ["authorReturn=1y_abs_gte_10", "extraTags=col_author_return_1y_abs_gte_10"],
    ["pitchReturn=1y_excess_gte_pct25", "extraTags=col_pitch_return_1y_excess_gte_pct25"],
    ["winRateGte=75", "extraTags=win_rate_gte_75"],
    ["positionDecision=hold", "extraTags=position_decision_hold"],
    ["isPremiumPitch=false", "extraTags=premium_false"],
  ];
  for (const [typed, slug] of pairs) {
    const a = (await allPitches(typed)).map((r) => r.pitch_id);
    const b = (await allPitches(slug)).map((r) => r.pitch_id);
    assert.ok(a.length > 0, typed);
    assert.deepEqual(a, b, typed);
  }
});

Deno.test("rule 1: every constraint is ANDed (company, author, dates, tags)", async () => {
  const s = stub();
  const p = s.catalog.pitches[10];
  const company = s.world.companies[p.company].companyId;
  const author = s.catalog.authors[p.author].username;
  const rows = await allPitches(`companyId=${company}&authorUsername=${author}`);
  assert.ok(rows.some((r) => r.pitch_id === p.pitch_id));
  for (const r of rows) {
    const full = s.catalog.byId.get(r.pitch_id)!;
    assert.equal(full.company, p.company);
    assert.equal(full.author, p.author);
  }
  const narrowed = await allPitches(
    `companyId=${company}&sentiment=${
      p.sentiment === "bullish" ? "bearish" : "bullish"
    }&authorUsername=${author}`,
  );
  assert.ok(!narrowed.some((r) => r.pitch_id === p.pitch_id));
});

Deno.test("rule 2: OR within a type, AND across types", async () => {
  const bull = await allPitches("sentiment=bullish");
  const bear = await allPitches("sentiment=bearish");
  const both = await allPitches("sentiment=bullish&sentiment=bearish");
  const comma = await allPitches("extraTags=sentiment_bullish,sentiment_bearish");
  assert.equal(both.length, bull.length + bear.length);
  assert.equal(comma.length, both.length);
  const tech = await allPitches("extraTags=sector_technology&sentiment=bearish");
  assert.ok(tech.length > 0);
  for (const r of tech) assert.equal(r.pitch.sentiment, "bearish");
  for (const r of tech) {
    assert.ok(stub().catalog.byId.get(r.pitch_id)!.slugs.includes("sector_technology"));
  }
});

Deno.test("rule 3: extraTagsNoneOf flips the listed types", async () => {
  const all = stub().catalog.pitches.length;
  const bull = await allPitches("sentiment=bullish");
  const notBull = await allPitches("sentiment=bullish&extraTagsNoneOf=sentiment");
  assert.equal(bull.length + notBull.length, all);
  for (const r of notBull) assert.notEqual(r.pitch.sentiment, "bullish");
  await expectProblem(await cat("/pitches?extraTagsNoneOf=sector_technology"), 400);
});

Deno.test("rules 4-5: filter sets use per-type rules with noneOf, ORed together, ANDed with the rest", async () => {
  const s = stub();
  const small = await allPitches("filterSetIds=fs_small_caps_no_shorts");
  assert.ok(small.length > 0);
  for (const r of small) {
    const p = s.catalog.byId.get(r.pitch_id)!;
    assert.ok(p.slugs.includes("market_cap_small") || p.slugs.includes("market_cap_micro"));
    assert.notEqual(p.sentiment, "bearish");
  }
  const health = await allPitches("filterSetIds=fs_healthcare_biotech");
  const union = await allPitches(
    "filterSetIds=fs_small_caps_no_shorts&filterSetIds=fs_healthcare_biotech",
  );
  const ids = new Set([...small, ...health].map((r) => r.pitch_id));
  assert.equal(union.length, ids.size);
  const commaForm = await allPitches("filterSetIds=fs_small_caps_no_shorts,fs_healthcare_biotech");
  assert.equal(commaForm.length, union.length);
  const anded = await allPitches("filterSetIds=fs_healthcare_biotech&sentiment=neutral");
  for (const r of anded) assert.equal(r.pitch.sentiment, "neutral");
  assert.ok(anded.length < health.length);
  await expectProblem(await cat("/pitches?filterSetIds=fs_nope"), 400);
  const many = Array.from({ length: 101 }, (_, i) => `fs_${i}`).join(",");
  const detail = await expectProblem(await cat(`/pitches?filterSetIds=${many}`), 400);
  assert.match(detail, /filterSetIds.*101.*at most 100/);
});

Deno.test("rule 6: locked pitches are returned with cleared fields and only the sector slug", async () => {
  const rows = await allPitches("isPremiumPitch=true");
  const locked = rows.filter((r) => r.pitch.is_locked);
  const open = rows.filter((r) => !r.pitch.is_locked);
  assert.ok(locked.length > 0 && open.length > 0);
  for (const r of locked) {
    for (const f of ["pitch_title", "pitch_summary", "ticker_symbol", "company_name"]) {
      assert.equal(r.pitch[f], null, f);
    }
    assert.equal(r.pitch.slugs.length, 1);
    assert.match(r.pitch.slugs[0], /^sector_/);
    assert.equal(r.pitch.is_premium_pitch, true);
  }
  for (const r of open) assert.equal(typeof r.pitch.pitch_title, "string");
});

Deno.test("followingOnly keeps only followed authors", async () => {
  const s = stub();
  const rows = await allPitches("followingOnly=true");
  assert.ok(rows.length > 0);
  for (const r of rows) assert.ok(s.catalog.following.has(s.catalog.byId.get(r.pitch_id)!.author));
  assert.equal((await allPitches("followingOnly=false")).length, s.catalog.pitches.length);
});

Deno.test("addedOn dates: one bound means that day; calendar checks; from <= to", async () => {
  const day = stub().catalog.pitches[5];
  const iso = new Date(day.addedDay * 86_400_000).toISOString().slice(0, 10);
  for (const q of [`addedOnFrom=${iso}`, `addedOnTo=${iso}`]) {
    const rows = await allPitches(q);
    assert.ok(rows.length > 0);
    for (const r of rows) assert.equal(r.added_on, iso);
  }
  const range = await allPitches("addedOnFrom=2025-01-01&addedOnTo=2025-03-31");
  assert.ok(range.length > 0);
  for (const r of range) assert.ok(r.added_on >= "2025-01-01" && r.added_on <= "2025-03-31");
  for (const bad of ["2023-02-29", "2024-13-01", "20240101", "yesterday"]) {
    const detail = await expectProblem(await cat(`/pitches?addedOnFrom=${bad}`), 400);
    assert.ok(detail.includes(`addedOnFrom: "${bad}"`), detail);
  }
  const detail = await expectProblem(
    await cat("/pitches?addedOnFrom=2025-02-01&addedOnTo=2025-01-01"),
    400,
  );
  assert.match(detail, /addedOnFrom.*addedOnTo/);
});

Deno.test("companyId: integers up to 2^53-1; above, negative or non-integers are 400", async () => {
  assert.equal((await cat("/pitches?companyId=9007199254740991")).status, 200);
  for (const bad of ["9007199254740992", "99999999999999999999", "-5", "12.5", "abc"]) {
    const detail = await expectProblem(await cat(`/pitches?companyId=${bad}`), 400);
    assert.match(detail, /companyId/);
  }
});

Deno.test("authorUsername without @; unknown slugs and parameters are 400", async () => {
  const detail = await expectProblem(await cat("/pitches?authorUsername=@value_hawk1"), 400);
  assert.match(detail, /authorUsername.*"@value_hawk1"/);
  const slug = await expectProblem(await cat("/pitches?extraTags=sector_atlantis"), 400);
  assert.match(slug, /"sector_atlantis"/);
  const unknown = await expectProblem(await cat("/pitches?sentimnet=bullish"), 400);
  assert.match(unknown, /sentimnet/);
});

Deno.test("a list row is pitch_id, pitch_date, added_on (the pitch's own), then the pitch", async () => {
  const body = await (await cat("/pitches?limit=5")).json();
  for (const row of body.data) {
    assert.deepEqual(Object.keys(row), ["pitch_id", "pitch_date", "added_on", "pitch"]);
    for (const k of ["pitch_id", "pitch_date", "added_on"]) assert.equal(row[k], row.pitch[k], k);
  }
});
