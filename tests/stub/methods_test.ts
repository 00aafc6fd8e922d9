/** Wrong HTTP methods on real paths: `405 method-not-allowed` on both services, the same way. */
import assert from "node:assert/strict";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { auth, expectProblem, small } from "./_helpers.ts";

const ROUTES: [string, string, string][] = [
  // [path, allowed method, key]
  ["/catalog/api/v1/search?q=acme", "GET", DEMO_KEYS.catalog],
  ["/catalog/api/v1/tags", "GET", DEMO_KEYS.catalog],
  ["/catalog/api/v1/filter-sets", "GET", DEMO_KEYS.catalog],
  ["/catalog/api/v1/pitches", "GET", DEMO_KEYS.catalog],
  ["/catalog/api/v1/pitches/some-id", "GET", DEMO_KEYS.catalog],
  ["/catalog/api/v1/pitches/some-id/document", "GET", DEMO_KEYS.catalog],
  ["/catalog/api/v1/openapi.json", "GET", DEMO_KEYS.catalog],
  ["/insider/api/v1/insiders?name=smith", "GET", DEMO_KEYS.insider],
  ["/insider/api/v1/search", "POST", DEMO_KEYS.insider],
  ["/insider/api/v1/feeds?feed_id=17", "GET", DEMO_KEYS.insider],
  ["/insider/api/v1/transactions/0001209191-26-000001/1", "GET", DEMO_KEYS.insider],
  ["/insider/api/v1/openapi.json", "GET", DEMO_KEYS.insider],
];

Deno.test("405 method-not-allowed for every wrong method on every real path of both services", async () => {
  const s = small();
  for (const [path, allowed, key] of ROUTES) {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      if (method === allowed) continue;
      const res = await s.app.request(path, { method, headers: auth(key) });
      const detail = await expectProblem(res, 405, "method-not-allowed");
      assert.ok(
        detail.includes(method) && detail.includes(allowed),
        `${method} ${path}: ${detail}`,
      );
      const allow = res.headers.get("allow") ?? "";
      assert.ok(allow.split(", ").includes(allowed), `${method} ${path}: Allow ${allow}`);
    }
  }
});

Deno.test("the allowed method still works, and unknown paths stay 404 on both services", async () => {
  const s = small();
  const tags = await s.app.request("/catalog/api/v1/tags", { headers: auth(DEMO_KEYS.catalog) });
  assert.equal(tags.status, 200);
  await tags.body?.cancel();
  const head = await s.app.request("/insider/api/v1/feeds?feed_id=17", {
    method: "HEAD",
    headers: auth(DEMO_KEYS.insider),
  });
  assert.equal(head.status, 200);
  await head.body?.cancel();
  for (
    const [path, key] of [
      ["/catalog/api/v1/nothing-here", DEMO_KEYS.catalog],
      ["/insider/api/v1/nothing-here", DEMO_KEYS.insider],
    ]
  ) {
    for (const method of ["GET", "DELETE"]) {
      const res = await s.app.request(path, { method, headers: auth(key) });
      const detail = await expectProblem(res, 404, "not-found");
      assert.ok(detail.includes(path.split("/").pop()!), detail);
    }
  }
});

Deno.test("a wrong method without a key is still 401 first, on both services", async () => {
  const s = small();
  for (const path of ["/catalog/api/v1/pitches", "/insider/api/v1/search"]) {
    const res = await s.app.request(path, { method: "PUT" });
    await expectProblem(res, 401);
  }
});
