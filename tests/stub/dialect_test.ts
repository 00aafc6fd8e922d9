/**
 * Emulator dialects (lib/stub/dialect.ts): each point's choices as served,
 * the default dialect unchanged, composition and validation of dialect
 * specs, and OpenAPI descriptions that describe what each dialect sends.
 */
import assert from "node:assert/strict";
import SwaggerParser from "@apidevtools/swagger-parser";
import { z } from "zod";
import {
  createStub,
  DEFAULT_DIALECT,
  DEMO_KEYS,
  describeDialect,
  DIALECT_POINTS,
  type DialectPoint,
  DIALECTS,
  resolveDialect,
  type Stub,
} from "../../lib/stub/mod.ts";
import { TRANSACTION_FIELDS } from "../../lib/insider/fields.ts";
import { auth, startStubTask } from "./_helpers.ts";

const stubs = new Map<string, Stub>();
/** A small stub (scale 0.1) per dialect spec, built once. */
function dialectStub(spec: string): Stub {
  let s = stubs.get(spec);
  if (!s) stubs.set(spec, s = createStub({ seed: 1, scale: 0.1, dialect: spec }));
  return s;
}

async function get(s: Stub, service: "catalog" | "insider", path: string, key?: string) {
  const k = key ?? (service === "catalog" ? DEMO_KEYS.catalog : DEMO_KEYS.insider);
  return await s.app.request(`/${service}/api/v1${path}`, { headers: auth(k) });
}

async function body(s: Stub, service: "catalog" | "insider", path: string): Promise<unknown> {
  const res = await get(s, service, path);
  assert.equal(res.status, 200, path);
  return await res.json();
}

async function searchPage(s: Stub, pageSize = 2): Promise<Record<string, unknown>> {
  const res = await s.app.request("/insider/api/v1/search", {
    method: "POST",
    headers: auth(DEMO_KEYS.insider),
    body: JSON.stringify({ pagination: { pageSize } }),
  });
  return await res.json();
}

const PATHS: ["catalog" | "insider", string][] = [
  ["insider", "/feeds?feed_id=17&limit=3"],
  ["insider", "/insiders?q=smith&limit=2"],
  ["catalog", "/tags"],
  ["catalog", "/filter-sets"],
  ["catalog", "/pitches?limit=2"],
];

Deno.test("the default dialect, however spelled, answers byte for byte as no dialect", async () => {
  assert.equal(describeDialect(resolveDialect(undefined)), "default");
  const plain = dialectStub("");
  for (const spec of ["default", "default,default"]) {
    const other = dialectStub(spec);
    for (const [service, path] of PATHS) {
      const a = await (await get(plain, service, path)).text();
      const b = await (await get(other, service, path)).text();
      assert.equal(b, a, `${spec}: ${path}`);
    }
    assert.equal(JSON.stringify(await searchPage(other)), JSON.stringify(await searchPage(plain)));
  }
  const res = await get(plain, "catalog", "/tags", DEMO_KEYS.catalogLapsed);
  assert.equal((await res.json()).type, "premium-required");
  assert.equal(res.headers.get("x-ratelimit-limit"), null);
});

Deno.test("searchKeys=camel-upper-digits spells row keys as lodash camelCase does", async () => {
  const row =
    ((await searchPage(dialectStub("upper-digits"))).data as Record<string, unknown>[])[0];
  for (const k of ["returns1W", "winRateBullish3MWins", "is10B51", "has20DSmaCrossover"]) {
    assert.ok(k in row, `${k} missing`);
  }
  assert.equal(Object.keys(row).length, TRANSACTION_FIELDS.length);
  const plain = ((await searchPage(dialectStub(""))).data as Record<string, unknown>[])[0];
  assert.ok("returns1w" in plain && "is10b51" in plain && "has20dSmaCrossover" in plain);
  // same values under the other spelling, in the same order
  assert.deepEqual(Object.values(row), Object.values(plain));
});

Deno.test("feed dialects: another container, no has-more flag, no cursor on the last page", async () => {
  const s = dialectStub("feed-items,feedLastCursor=absent");
  const first = await body(s, "insider", "/feeds?feed_id=17&limit=25") as Record<string, unknown>;
  assert.deepEqual(Object.keys(first).sort(), ["items", "next_cursor"]);
  let page = first;
  let rows = (first.items as unknown[]).length;
  while (typeof page.next_cursor === "string") {
    page = await body(
      s,
      "insider",
      `/feeds?feed_id=17&limit=25&cursor=${page.next_cursor}`,
    ) as Record<string, unknown>;
    rows += (page.items as unknown[]).length;
  }
  assert.deepEqual(Object.keys(page), ["items"]);
  const all = s.insider.trades.filter((t) => t.row.feed_ids.includes(17)).length;
  assert.equal(rows, all);
  for (const container of DIALECT_POINTS.feedContainer) {
    const b = await body(
      dialectStub(`feedContainer=${container}`),
      "insider",
      "/feeds?feed_id=17",
    ) as Record<string, unknown>;
    assert.equal((b[container] as unknown[]).length, 10, container);
  }
});

Deno.test("lookup dialects: bare list or another envelope, other field names", async () => {
  const plain = (await body(dialectStub(""), "insider", "/insiders?q=smith") as {
    data: Record<string, unknown>[];
  }).data;
  assert.ok(plain.length > 0);
  const bare = await body(dialectStub("lookup-bare"), "insider", "/insiders?q=smith") as Record<
    string,
    unknown
  >[];
  assert.ok(Array.isArray(bare));
  assert.deepEqual(
    bare.map((h) => [h.reportingOwnerCik, h.reportingOwnerName, h.tradeCount, h.latestFiledAt]),
    plain.map((h) => [h.cik, h.name, h.trade_count, h.latest_filed_at]),
  );
  const results = await body(
    dialectStub("lookupEnvelope=results,lookupFields=reporting-owner"),
    "insider",
    "/insiders?q=smith",
  ) as { results: Record<string, unknown>[] };
  assert.deepEqual(
    results.results.map((h) => [h.reporting_owner_cik, h.reporting_owner_name]),
    plain.map((h) => [h.cik, h.name]),
  );
});

Deno.test("tag dialects: the same vocabulary grouped, as a bare list of groups, of tags, or by type key", async () => {
  const grouped = (await body(dialectStub(""), "catalog", "/tags") as {
    data: { tagTypeKey: string; tags: { slug: string }[] }[];
  }).data;
  const groups = await body(dialectStub("tags=groups"), "catalog", "/tags");
  assert.deepEqual(groups, grouped);
  const flat = await body(dialectStub("tags-bare"), "catalog", "/tags") as {
    slug: string;
    tagTypeKey: string;
  }[];
  assert.deepEqual(flat, grouped.flatMap((g) => g.tags));
  const byType = await body(dialectStub("tags=by-type"), "catalog", "/tags");
  assert.deepEqual(byType, Object.fromEntries(grouped.map((g) => [g.tagTypeKey, g.tags])));
});

Deno.test("filter-set dialects: under data, filterSets, items, or bare", async () => {
  const plain = (await body(dialectStub(""), "catalog", "/filter-sets") as { data: unknown[] })
    .data;
  for (const choice of DIALECT_POINTS.filterSets) {
    const b = await body(dialectStub(`filterSets=${choice}`), "catalog", "/filter-sets");
    assert.deepEqual(
      choice === "bare" ? b : Object.keys(b as object),
      choice === "bare" ? plain : [choice],
    );
    if (choice !== "bare") assert.deepEqual((b as Record<string, unknown>)[choice], plain);
  }
});

Deno.test("entity search dialects: lists at the top or under data, items camelCase or snake_case", async () => {
  const plainStub = dialectStub("");
  let authors = 0;
  let companies = 0;
  for (
    const q of [plainStub.catalog.authors[0].username, plainStub.world.companies[0].name]
  ) {
    const path = `/search?q=${encodeURIComponent(q)}`;
    const plain = await body(plainStub, "catalog", path) as {
      authors: Record<string, unknown>[];
      companies: Record<string, unknown>[];
    };
    const wrapped = await body(dialectStub("entity-search-wrapped"), "catalog", path) as {
      data: typeof plain;
    };
    assert.deepEqual(Object.keys(wrapped), ["data"]);
    assert.deepEqual(
      wrapped.data.authors.map((a) => [a.user_id, a.username, a.display_name, a.tier, a.badge]),
      plain.authors.map((a) => [a.userId, a.username, a.displayName, a.tier, a.badge]),
    );
    assert.deepEqual(
      wrapped.data.companies.map((c) => [c.companyId, c.ticker, c.alternate_names]),
      plain.companies.map((c) => [c.companyId, c.ticker, c.alternateNames]),
    );
    authors += plain.authors.length;
    companies += plain.companies.length;
  }
  assert.ok(authors > 0 && companies > 0, `${authors} authors, ${companies} companies`);
});

Deno.test("pitch detail dialects: wrapped under data, keys (and the archive's) in camelCase", async () => {
  const plainStub = dialectStub("");
  const open = plainStub.catalog.pitches.find((p) => !plainStub.catalog.locked(p))!;
  const plain = await body(plainStub, "catalog", `/pitches/${open.pitch_id}`) as Record<
    string,
    unknown
  >;
  const got = await body(
    dialectStub("detail-wrapped-camel"),
    "catalog",
    `/pitches/${open.pitch_id}`,
  ) as { data: Record<string, unknown> };
  assert.deepEqual(Object.keys(got), ["data"]);
  const camel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  assert.deepEqual(Object.keys(got.data), Object.keys(plain).map(camel));
  assert.equal(got.data.pitchId, plain.pitch_id);
  const a = plain.archive as Record<string, unknown>;
  assert.deepEqual(got.data.archive, {
    available: a.available,
    formats: a.formats,
    hasAttachment: a.has_attachment,
    requested: a.requested,
    snapshots: a.snapshots,
  });
});

Deno.test("problemTypes: every problem of both services carries its type as a URI or path", async () => {
  for (
    const [spec, want] of [
      ["problem-uri", "https://problems.signalbook.invalid/premium-required"],
      ["problemTypes=path", "/problems/premium-required"],
    ]
  ) {
    const s = dialectStub(spec);
    const lapsed = await get(s, "catalog", "/tags", DEMO_KEYS.catalogLapsed);
    assert.equal(lapsed.status, 403);
    assert.equal(lapsed.headers.get("content-type"), "application/problem+json");
    const p = await lapsed.json();
    assert.deepEqual(Object.keys(p).sort(), ["detail", "status", "title", "type"]);
    assert.equal(p.type, want);
    const insider = await get(s, "insider", "/feeds?feed_id=17", DEMO_KEYS.insiderLapsed);
    assert.equal((await insider.json()).type, want);
    const bad = await get(s, "insider", "/feeds?feed_id=99");
    assert.equal((await bad.json()).type, want.replace("premium-required", "invalid-request"));
    const missing = await s.app.request("/nowhere");
    assert.equal((await missing.json()).type, want.replace("premium-required", "not-found"));
  }
});

Deno.test("rateLimitHeaders: X-RateLimit-* or the IETF draft's RateLimit-* on every answer", async () => {
  let t = 1_000_000;
  const x = createStub({
    seed: 1,
    scale: 0.1,
    dialect: "rate-limit-headers",
    now: () => t,
    rateLimit: { limit: 3, windowMs: 10_000 },
  });
  const seen = [];
  for (let i = 0; i < 4; i++) {
    const res = await get(x, "catalog", "/filter-sets");
    seen.push([
      res.status,
      res.headers.get("x-ratelimit-limit"),
      res.headers.get("x-ratelimit-remaining"),
      res.headers.get("x-ratelimit-reset"),
    ]);
  }
  assert.deepEqual(seen, [
    [200, "3", "2", "1010"],
    [200, "3", "1", "1010"],
    [200, "3", "0", "1010"],
    [429, "3", "0", "1010"],
  ]);
  t += 4_000;
  const ietf = createStub({ seed: 1, scale: 0.1, dialect: "rateLimitHeaders=ratelimit" });
  const res = await get(ietf, "insider", "/feeds?feed_id=1");
  assert.equal(res.headers.get("ratelimit-limit"), "600");
  assert.equal(res.headers.get("ratelimit-remaining"), "599");
  assert.equal(res.headers.get("ratelimit-policy"), "600;w=60");
  assert.match(res.headers.get("ratelimit-reset")!, /^\d+$/);
});

Deno.test("dialect specs compose: a name, a comma list, a list, point=choice and an object agree", () => {
  const want = resolveDialect({
    searchKeys: "camel-upper-digits",
    feedContainer: "items",
    feedHasMore: "none",
    feedLastCursor: "absent",
    problemTypes: "uri",
  });
  assert.deepEqual(resolveDialect("upper-digits,feed-items,problem-uri"), want);
  assert.deepEqual(resolveDialect(["upper-digits", "feed-items", "problemTypes=uri"]), want);
  assert.deepEqual(
    resolveDialect(
      " upper-digits , feedContainer=items,feedHasMore=none,feedLastCursor=absent,problem-uri",
    ),
    want,
  );
  assert.equal(
    describeDialect(want),
    "searchKeys=camel-upper-digits,feedContainer=items,feedHasMore=none,feedLastCursor=absent,problemTypes=uri",
  );
  assert.deepEqual(resolveDialect(describeDialect(want)), want);
  const all = resolveDialect("all");
  for (const d of Object.values(DIALECTS)) {
    for (const [p, c] of Object.entries(d)) assert.equal(all[p as DialectPoint], c);
  }
  // a name and a point=choice agreeing with it are fine
  assert.deepEqual(resolveDialect("feed-items,feedContainer=items"), resolveDialect("feed-items"));
  assert.deepEqual(resolveDialect({}), DEFAULT_DIALECT);
});

Deno.test("a bad dialect is a RangeError naming the bad value, what is allowed and close matches", () => {
  const cases: [unknown, RegExp][] = [
    [
      "uper-digits",
      /"uper-digits" is not a dialect; allowed: default, upper-digits.*did you mean "upper-digits"/,
    ],
    [["feed-items", "tags-bair"], /"tags-bair" is not a dialect.*did you mean "tags-bare"/],
    [
      "feedContaner=items",
      /point "feedContaner" does not exist; allowed: searchKeys.*did you mean "feedContainer"/,
    ],
    [
      "feedContainer=itemz",
      /feedContainer: "itemz" is not allowed; allowed: data, items, feeds, results \(did you mean "items"\?\)/,
    ],
    [
      { tags: "flatt" },
      /tags: "flatt" is not allowed; allowed: grouped, groups, flat, by-type.*"flat"/,
    ],
    [{ problemType: "uri" }, /point "problemType" does not exist.*did you mean "problemTypes"/],
    [
      "feed-items,feedContainer=results",
      /"feed-items" and "feedContainer=results" choose different feedContainer \(items, results\); keep one/,
    ],
    [42, /dialect: 42 is not allowed; allowed: a name/],
    [[7], /dialect: 7 is not a dialect name/],
  ];
  for (const [spec, re] of cases) {
    assert.throws(
      () => createStub({ seed: 1, scale: 0.01, dialect: spec as never }),
      (e: Error) => e instanceof RangeError && re.test(e.message),
      JSON.stringify(spec),
    );
  }
});

// deno-lint-ignore no-explicit-any
type Doc = Record<string, any>;

/** The 200 JSON schema of a route in a dereferenced description. */
function schemaOf(doc: Doc, path: string, method: string): Doc {
  return doc.paths[path][method].responses["200"].content["application/json"].schema;
}

const ODD = "lookupEnvelope=results,lookupFields=reporting-owner,tags=by-type,filterSets=bare," +
  "feedLastCursor=absent,rateLimitHeaders=ratelimit,problemTypes=path,entityFields=snake," +
  "detailKeys=camel";

Deno.test("each dialect's OpenAPI description is valid and describes what it sends", async () => {
  for (const spec of ["", "all", ODD]) {
    const s = dialectStub(spec);
    for (const service of ["catalog", "insider"] as const) {
      const raw = await (await s.app.request(`/${service}/api/v1/openapi.json`)).json();
      await SwaggerParser.validate(structuredClone(raw));
      const doc = await SwaggerParser.dereference(structuredClone(raw)) as Doc;
      const check = (docPath: string, method: string, got: unknown) => {
        const schema = schemaOf(doc, docPath, method);
        const r = (z.fromJSONSchema(schema) as z.ZodType).safeParse(got);
        assert.ok(r.success, `${spec || "default"} ${service} ${docPath}: ${r.error?.message}`);
        if (schema.type === "object" && schema.properties) {
          for (const k of Object.keys(got as object)) {
            assert.ok(k in schema.properties, `${spec} ${docPath}: ${k} undocumented`);
          }
        }
      };
      // problem types and rate-limit headers as documented
      const lapsed = await get(
        s,
        service,
        "/filter-sets",
        service === "catalog" ? DEMO_KEYS.catalogLapsed : DEMO_KEYS.insiderLapsed,
      );
      assert.equal(
        raw.components.schemas.Problem.properties.type.example,
        (await lapsed.json()).type,
      );
      const probe = service === "catalog" ? "/filter-sets" : "/feeds?feed_id=1";
      const sent = [...(await get(s, service, probe)).headers.keys()]
        .filter((h) => h.includes("ratelimit")).sort();
      const docPath = service === "catalog" ? "/api/v1/filter-sets" : "/api/v1/feeds";
      const documented = Object.keys(raw.paths[docPath].get.responses["200"].headers ?? {})
        .map((h) => h.toLowerCase()).sort();
      assert.deepEqual(documented, sent, `${spec} ${service} rate-limit headers`);
      if (service === "catalog") {
        check("/api/v1/tags", "get", await body(s, service, "/tags"));
        check("/api/v1/filter-sets", "get", await body(s, service, "/filter-sets"));
        check("/api/v1/pitches", "get", await body(s, service, "/pitches?limit=2"));
        check("/api/v1/search", "get", await body(s, service, "/search?q=tech"));
        const id = s.catalog.pitches.find((p) => !s.catalog.locked(p))!.pitch_id;
        check("/api/v1/pitches/{id}", "get", await body(s, service, `/pitches/${id}`));
      } else {
        check("/api/v1/feeds", "get", await body(s, service, "/feeds?feed_id=17&limit=2"));
        // one page only: the last one
        check(
          "/api/v1/feeds",
          "get",
          await body(s, service, "/feeds?feed_id=17&limit=25&to=2021-12-31"),
        );
        check("/api/v1/insiders", "get", await body(s, service, "/insiders?q=smith"));
        check("/api/v1/search", "post", await searchPage(s));
      }
    }
  }
});

Deno.test("deno task stub --dialect: a bad name exits 2 naming it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "stub", "--dialect", "feed-items,problem-uir"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(
    new TextDecoder().decode(out.stderr),
    /^stub: --dialect: "problem-uir" is not a dialect; allowed: .*did you mean "problem-uri"/,
  );
});

Deno.test({
  name: "deno task stub --dialect serves the dialect over loopback and says which on stderr",
  sanitizeResources: false,
  fn: async () => {
    const { base, stop } = await startStubTask(
      ["--port", "0", "--scale", "0.05", "--dialect", "feed-items"],
      true,
    );
    let err = "";
    try {
      const res = await fetch(`${base}/insider/api/v1/feeds?feed_id=17&limit=2`, {
        headers: auth(DEMO_KEYS.insider),
      });
      assert.deepEqual(Object.keys(await res.json()), ["items", "next_cursor"]);
    } finally {
      err = await stop();
    }
    assert.match(
      err,
      /^stub: dialect feedContainer=items,feedHasMore=none,feedLastCursor=absent\n/,
    );
  },
});
