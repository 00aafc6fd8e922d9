import assert from "node:assert/strict";
import fc from "fast-check";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { auth, small } from "./_helpers.ts";

const KEYS = [
  "limit",
  "cursor",
  "sort",
  "extraTags",
  "sentiment",
  "companyId",
  "addedOnFrom",
  "filterSetIds",
  "feed_id",
  "fields",
  "q",
  "format",
  "artifact",
  "redirect",
  "snapshot",
  "from",
  "ticker",
  "sector",
  "authorReturn",
  "pitchReturn",
];
const PATHS = [
  "/catalog/api/v1/pitches",
  "/catalog/api/v1/search",
  "/catalog/api/v1/pitches/p_16neb",
  "/catalog/api/v1/pitches/p_16neb/document",
  "/catalog/api/v1/tags",
  "/insider/api/v1/feeds",
  "/insider/api/v1/insiders",
  "/insider/api/v1/transactions/0001225208-26-000097/1",
];

async function checkResponse(res: Response): Promise<void> {
  assert.ok(res.status < 500, `status ${res.status}`);
  if (res.status >= 400) {
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), ["detail", "status", "title", "type"]);
  } else await res.body?.cancel();
}

Deno.test("property: random query strings never yield a 5xx or a non-problem error", async () => {
  const s = small();
  const value = fc.oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.integer().map(String),
    fc.constantFrom("", "-1", "1e400", "NaN", "%", "%E0%A4%A", "../..", "9".repeat(500)),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...PATHS),
      fc.array(fc.tuple(fc.constantFrom(...KEYS, "x"), value), { maxLength: 6 }),
      async (path, pairs) => {
        const qs = pairs.map(([k, v]) =>
          `${encodeURIComponent(k)}=${v.startsWith("%") ? v : encodeURIComponent(v)}`
        ).join("&");
        const key = path.startsWith("/catalog") ? DEMO_KEYS.catalog : DEMO_KEYS.insider;
        await checkResponse(await s.app.request(`${path}?${qs}`, { headers: auth(key) }));
      },
    ),
    { numRuns: 300, seed: 42 },
  );
});

Deno.test("property: random search bodies never yield a 5xx or a non-problem error", async () => {
  const s = small();
  const filterKeys = [
    "tradeType",
    "sector",
    "purchaseMin",
    "position",
    "sortBy",
    "filingDatePreset",
    "filingDateFrom",
    "excludeEspp",
    "insiderReturnMin",
    "cikOrTicker",
    "pageSize",
  ];
  const body = fc.oneof(
    fc.string(),
    fc.json(),
    fc.record({
      filter: fc.dictionary(fc.constantFrom(...filterKeys), fc.jsonValue()),
      pagination: fc.record({
        cursor: fc.oneof(fc.string(), fc.constant(null)),
        pageSize: fc.jsonValue(),
      }, { requiredKeys: [] }),
    }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
  );
  await fc.assert(
    fc.asyncProperty(body, async (b) => {
      const res = await s.app.request("/insider/api/v1/search", {
        method: "POST",
        headers: { ...auth(DEMO_KEYS.insider), "content-type": "application/json" },
        body: b,
      });
      await checkResponse(res);
    }),
    { numRuns: 300, seed: 7 },
  );
});

Deno.test("huge and binary inputs are 4xx problems", async () => {
  const s = small();
  const huge = "a".repeat(200_000);
  const res = await s.app.request(`/catalog/api/v1/pitches?extraTags=${huge}`, {
    headers: auth(DEMO_KEYS.catalog),
  });
  await checkResponse(res);
  const bin = await s.app.request("/insider/api/v1/search", {
    method: "POST",
    headers: auth(DEMO_KEYS.insider),
    body: new Uint8Array([0, 255, 254, 1, 2, 3]),
  });
  await checkResponse(bin);
  assert.equal(bin.status, 400);
});
