import assert from "node:assert/strict";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { auth, expectProblem, stub, stubWith } from "./_helpers.ts";

const CATALOG_ROUTES = [
  "/search?q=acme",
  "/tags",
  "/filter-sets",
  "/pitches",
  "/pitches/p_16neb",
  "/pitches/p_16neb/document",
];
const INSIDER_ROUTES: [string, RequestInit?][] = [
  ["/insiders?q=smith"],
  ["/search", { method: "POST", body: "{}" }],
  ["/feeds?feed_id=17"],
  ["/transactions/0001225208-26-000097/1"],
];

Deno.test("catalog auth rule 4: a missing key is 401 on every endpoint", async () => {
  for (const path of CATALOG_ROUTES) {
    await expectProblem(await stub().app.request("/catalog/api/v1" + path), 401, "unauthorized");
  }
});

Deno.test("catalog auth rule 4: an invalid key (or the insider key) is 401", async () => {
  for (const key of ["nope", DEMO_KEYS.insider]) {
    for (const path of CATALOG_ROUTES) {
      const res = await stub().app.request("/catalog/api/v1" + path, { headers: auth(key) });
      await expectProblem(res, 401, "unauthorized");
    }
  }
});

Deno.test("catalog auth rule 5: a lapsed key is 403 premium-required on every endpoint", async () => {
  for (const path of CATALOG_ROUTES) {
    const res = await stub().app.request("/catalog/api/v1" + path, {
      headers: auth(DEMO_KEYS.catalogLapsed),
    });
    await expectProblem(res, 403, "premium-required");
  }
});

Deno.test("insider auth rules 3-4: missing/invalid key 401, lapsed 403", async () => {
  for (const [path, init] of INSIDER_ROUTES) {
    const url = "/insider/api/v1" + path;
    await expectProblem(await stub().app.request(url, init), 401, "unauthorized");
    for (const key of ["nope", DEMO_KEYS.catalog]) {
      const res = await stub().app.request(url, { ...init, headers: auth(key) });
      await expectProblem(res, 401, "unauthorized");
    }
    const res = await stub().app.request(url, { ...init, headers: auth(DEMO_KEYS.insiderLapsed) });
    await expectProblem(res, 403, "premium-required");
  }
});

Deno.test("insider auth rule 5: keys not configured gives 503", async () => {
  const s = stubWith({ insiderKeysConfigured: false });
  const res = await s.app.request("/insider/api/v1/feeds?feed_id=1", {
    headers: auth(DEMO_KEYS.insider),
  });
  await expectProblem(res, 503, "keys-unavailable");
});

Deno.test("the bearer scheme is case-insensitive and the key is never echoed", async () => {
  const res = await stub().app.request("/catalog/api/v1/tags", {
    headers: { authorization: `bearer ${DEMO_KEYS.catalog}` },
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const bad = await stub().app.request("/catalog/api/v1/tags", {
    headers: auth("secret-key-123"),
  });
  const detail = await expectProblem(bad, 401);
  assert.ok(!detail.includes("secret-key-123"));
});

Deno.test("x-hosting-protection-bypass is accepted on every endpoint of both services", async () => {
  const s = stub();
  for (const path of CATALOG_ROUTES) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await s.app.request(`/catalog/api/v1${path}${sep}x-hosting-protection-bypass=tok`, {
      headers: auth(DEMO_KEYS.catalog),
    });
    assert.ok(res.status === 200, `${path}: ${res.status}`);
    await res.body?.cancel();
  }
  for (const [path, init] of INSIDER_ROUTES) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await s.app.request(`/insider/api/v1${path}${sep}x-hosting-protection-bypass=tok`, {
      ...init,
      headers: auth(DEMO_KEYS.insider),
    });
    assert.ok(res.status === 200, `${path}: ${res.status}`);
    await res.body?.cancel();
  }
});

Deno.test("unknown routes and methods are problems, never plain text", async () => {
  await expectProblem(await stub().app.request("/nowhere"), 404, "not-found");
  const res = await stub().app.request("/insider/api/v1/search", {
    headers: auth(DEMO_KEYS.insider),
  });
  await expectProblem(res, 405, "method-not-allowed");
});
