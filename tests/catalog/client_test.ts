import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BadRequestError,
  CatalogClient,
  NotFoundError,
  PermissionDeniedError,
  type PitchListParams,
  RequestValidationError,
  sanitizeFilename,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { countingFetch, thrown } from "../_util.ts";
import { fakeCatalog } from "./_fake_catalog.ts";

const stub = createStub({ seed: 1 });
const { fetch: counting, count } = countingFetch(stub);
const catalog = new CatalogClient({
  apiKey: DEMO_KEYS.catalog,
  baseUrl: "http://stub/catalog",
  fetch: counting,
});

Deno.test("search, tags (tree helpers) and filter sets", async () => {
  const co = stub.world.companies[9];
  const hits = await catalog.search(co.name);
  assert.equal(hits.companies[0].companyId, co.companyId);
  const tags = await catalog.tags();
  assert.ok(tags.slugs("sector_industry").includes("sector_technology"));
  assert.ok(tags.slugs("sector_industry").includes("industry_software"));
  assert.equal(tags.slugs("pitch_return").length, 48);
  assert.equal(tags.typeOf("badge_elite"), "badge");
  assert.throws(() => tags.slugs("colour"), /"colour".*allowed: market_cap/);
  const sets = await catalog.filterSets();
  assert.ok(sets.some((s) => s.id === "fs_elite_tech_longs"));
});

Deno.test("pitches: all 18 parameters typed and sent; rows match", async () => {
  const co = stub.world.companies[stub.catalog.pitches[0].company];
  const params: PitchListParams = {
    limit: 50,
    sort: "post_date",
    extraTags: ["sector_" + co.sector],
    extraTagsNoneOf: ["premium"],
    authorBadge: ["elite", "rising"],
    authorReturn: ["1y_abs_gte_0"],
    winRateGte: ["50"],
    pitchReturn: ["6m_abs_gte_pct0"],
    sentiment: ["bullish", "bearish", "neutral"],
    positionDecision: ["initiate_long", "hold"],
    isPremiumPitch: true,
    followingOnly: false,
    authorUsername: "nobody_here",
    companyId: co.companyId,
    addedOnFrom: "2021-01-01",
    addedOnTo: "2026-12-31",
    filterSetIds: ["fs_elite_tech_longs"],
  };
  const page = await catalog.pitches(params).firstPage();
  assert.equal(page.rows.length, 0);
  const rows = await catalog.pitches({ sentiment: ["bearish"], limit: 50 }).take(120);
  assert.equal(rows.length, 120);
  assert.equal(rows.truncated, true);
  for (const r of rows) assert.equal(r.pitch.sentiment, "bearish");
  const cursorStart = await catalog.pitches({ limit: 5 }).firstPage();
  const fromCursor = await catalog.pitches({ limit: 5, cursor: cursorStart.next! }).firstPage();
  assert.notEqual(fromCursor.rows[0].pitch_id, cursorStart.rows[0].pitch_id);
});

Deno.test("iteration gets every row once and stops fetching when the caller stops", async () => {
  const all = [];
  for await (const r of catalog.pitches({ limit: 50 })) all.push(r.pitch_id);
  assert.equal(all.length, stub.catalog.pitches.length);
  assert.equal(new Set(all).size, stub.catalog.pitches.length);
  count.n = 0;
  let n = 0;
  for await (const _ of catalog.pitches({ limit: 10 })) {
    if (++n === 15) break;
  }
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(count.n <= 3, `fetched ${count.n} pages for 15 rows`);
  const small = await catalog.pitches({ companyId: stub.world.companies[1].companyId }).take(
    10_000,
  );
  assert.equal(small.truncated, false);
});

const BAD: [string, PitchListParams, RegExp][] = [
  ["limit 0", { limit: 0 }, /limit: 0 is not allowed; allowed: an integer from 1 to 50/],
  ["limit 51", { limit: 51 }, /limit: 51/],
  ["limit 2.5", { limit: 2.5 }, /limit: "2.5"/],
  ["bad date", { addedOnFrom: "2023-02-29" }, /addedOnFrom: "2023-02-29" is not a calendar date/],
  [
    "from > to",
    { addedOnFrom: "2025-02-01", addedOnTo: "2025-01-01" },
    /addedOnFrom.*after addedOnTo/,
  ],
  ["companyId too big", { companyId: 2 ** 53 }, /companyId: 9007199254740992/],
  [
    "101 filter sets",
    { filterSetIds: Array.from({ length: 101 }, (_, i) => `f${i}`) },
    /filterSetIds: 101 ids is too many/,
  ],
  [
    "bad enum",
    { sentiment: ["bullish", "sideways" as "bullish"] },
    /sentiment: "sideways" is not allowed; allowed: bullish, bearish, neutral/,
  ],
  [
    "bad template",
    { authorReturn: ["1y_abs_gte_5" as "1y_abs_gte_0"] },
    /authorReturn: "1y_abs_gte_5".*period 6m\|1y\|2y/,
  ],
  [
    "pitchReturn floor",
    { pitchReturn: ["1y_abs_gte_x5" as "1y_abs_gte_x2"] },
    /pitchReturn: "1y_abs_gte_x5"/,
  ],
  ["@username", { authorUsername: "@bob" }, /authorUsername: "@bob"/],
  [
    "unknown param",
    { sentimnet: ["bullish"] } as PitchListParams,
    /sentimnet: unknown parameter \(did you mean "sentiment"\?\)/,
  ],
];

Deno.test("bad input throws RequestValidationError naming each value; no request is sent", () => {
  for (const [name, params, re] of BAD) {
    count.n = 0;
    const err = thrown(() => catalog.pitches(params));
    assert.ok(err instanceof RequestValidationError, name);
    assert.match(err.message, re, name);
    assert.equal(count.n, 0, name);
  }
  const many = thrown(() =>
    catalog.pitches({ limit: 0, sentiment: ["x" as "bullish"], addedOnTo: "nope" })
  ) as RequestValidationError;
  assert.deepEqual(many.issues.map((i) => i.param).sort(), ["addedOnTo", "limit", "sentiment"]);
  assert.deepEqual(many.issues.find((i) => i.param === "limit")!.value, "0");
});

Deno.test("pitch detail, locked detail, document JSON form, and document errors typed", async () => {
  const open = stub.catalog.pitches.find((p) =>
    !stub.catalog.locked(p) && p.archive.available && p.archive.formats.includes("pdf")
  )!;
  const d = await catalog.pitch(open.pitch_id);
  assert.equal(d.is_locked, false);
  assert.ok(d.archive?.available);
  const locked = stub.catalog.pitches.find((p) => stub.catalog.locked(p))!;
  assert.equal((await catalog.pitch(locked.pitch_id)).archive, null);
  const doc = await catalog.document(open.pitch_id, { format: "pdf" });
  assert.equal(doc.format, "pdf");
  await assert.rejects(catalog.pitch("p_missing"), NotFoundError);
  await assert.rejects(catalog.document(locked.pitch_id), PermissionDeniedError);
  count.n = 0;
  await assert.rejects(
    catalog.document(open.pitch_id, { format: "pdf", artifact: "attachment" }),
    (e) => e instanceof RequestValidationError && /artifact.*format/.test(e.message),
  );
  await assert.rejects(
    catalog.document(open.pitch_id, { format: "docx" as "pdf" }),
    RequestValidationError,
  );
  await assert.rejects(catalog.pitch(""), RequestValidationError);
  assert.equal(count.n, 0);
  await assert.rejects(catalog.pitches({ cursor: "forged" }).firstPage(), BadRequestError);
});

Deno.test("download saves the signed artifact under dir with the server's filename, never overwriting", async () => {
  const dir = await Deno.makeTempDir();
  const p = stub.catalog.pitches.find((x) =>
    !stub.catalog.locked(x) && x.archive.available && x.archive.formats.includes("pdf")
  )!;
  const path = await catalog.download(p.pitch_id, { dir, format: "pdf" });
  const doc = await catalog.document(p.pitch_id, { format: "pdf" });
  assert.equal(path, join(dir, doc.filename));
  const bytes = await Deno.readFile(path);
  assert.equal(new TextDecoder().decode(bytes.slice(0, 8)), "%PDF-1.4");
  const again = await catalog.download(p.pitch_id, { dir, format: "pdf" });
  assert.notEqual(again, path);
  assert.match(again, /-1\.pdf$/);
  const replaced = await catalog.download(p.pitch_id, { dir, format: "pdf", overwrite: true });
  assert.equal(replaced, path);
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
    [doc.filename, doc.filename.replace(".pdf", "-1.pdf")].sort(),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("download with a hostile filename from a fake server stays inside dir", async () => {
  const root = await Deno.makeTempDir();
  const dir = join(root, "inside");
  for (
    const hostile of [
      "../../escape.pdf",
      "/etc/passwd",
      "..\\..\\win.pdf",
      "a/../../b.pdf",
      "\u0000evil\n.pdf",
      "..",
      ".hidden",
      "x".repeat(400) + ".pdf",
    ]
  ) {
    const { client: c } = fakeCatalog({ filename: hostile }, () => new Response("data"));
    const path = await c.download("p1", { dir });
    assert.ok(path.startsWith(dir + "/"), `${hostile} → ${path}`);
    assert.ok(!path.slice(dir.length + 1).includes("/"));
  }
  const outside = (await Array.fromAsync(Deno.readDir(root))).map((e) => e.name);
  assert.deepEqual(outside, ["inside"]);
  assert.equal(sanitizeFilename("../../etc/passwd"), "passwd");
  assert.equal(sanitizeFilename("a\u0000b.pdf"), "a_b.pdf");
  assert.equal(sanitizeFilename(".."), "document");
  await Deno.remove(root, { recursive: true });
});
