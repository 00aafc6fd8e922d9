/**
 * Each service's status table is applied once, in its `_envelopes.ts`: when
 * the problem `type` is unknown or `about:blank`, the status decides, per
 * service (insider: 401 key, 403 Premium required, 404 transaction not
 * found, 503 key service; catalog: 403 premium-required by type, else no
 * access to a paywalled pitch).
 */
import assert from "node:assert/strict";
import {
  AuthenticationError,
  CatalogClient,
  createStub,
  DEMO_KEYS,
  InsiderClient,
  NotFoundError,
  PermissionDeniedError,
  PremiumRequiredError,
  ServerError,
} from "../../mod.ts";
import { catalogProblem } from "../../lib/catalog/_envelopes.ts";
import { insiderProblem } from "../../lib/insider/_envelopes.ts";
import type { FetchLike } from "../../mod.ts";

const init = (status: number, type: string, url = "http://t/insider/api/v1/search") => ({
  status,
  type,
  title: "T",
  detail: "d",
  method: "POST",
  url,
});

Deno.test("insider: a 403 is PremiumRequiredError whatever its type", () => {
  for (
    const type of [
      "about:blank",
      "unknown",
      "forbidden",
      "https://x.test/p/forbidden",
      "premium-required",
    ]
  ) {
    const e = insiderProblem(init(403, type));
    assert.ok(e instanceof PremiumRequiredError, `${type}: ${e.name}`);
    assert.match(e.message, /Premium required/);
  }
});

Deno.test("insider: 401, 404 and 503 carry the spec's meaning", () => {
  const k = insiderProblem(init(401, "about:blank"));
  assert.ok(k instanceof AuthenticationError);
  assert.match(k.message, /check INSIDER_API_KEY/);
  const tx = insiderProblem(init(404, "about:blank", "http://t/insider/api/v1/transactions/a/1"));
  assert.ok(tx instanceof NotFoundError);
  assert.equal(tx.meaning, "transaction not found");
  const route = insiderProblem(init(404, "about:blank"));
  assert.match(route.meaning ?? "", /check INSIDER_BASE_URL/);
  const svc = insiderProblem(init(503, "about:blank"));
  assert.ok(svc instanceof ServerError);
  assert.match(svc.message, /key service unavailable/);
});

Deno.test("catalog: a 403 is Premium by type only; about:blank or unknown is a paywalled pitch", () => {
  const url = "http://t/catalog/api/v1/pitches/p1";
  for (const type of ["about:blank", "unknown", "https://x.test/probs/paywalled"]) {
    const e = catalogProblem({ ...init(403, type, url), method: "GET" });
    assert.ok(e instanceof PermissionDeniedError && !(e instanceof PremiumRequiredError), type);
    assert.match(e.message, /paywalled pitch/);
  }
  const p = catalogProblem({ ...init(403, "https://x.test/probs/premium-required", url) });
  assert.ok(p instanceof PremiumRequiredError);
  assert.match(catalogProblem(init(401, "about:blank", url)).message, /check PITCH_API_KEY/);
  assert.equal(catalogProblem(init(404, "about:blank", url)).meaning, "pitch or archive not found");
});

Deno.test("through the emulator (problemTypes=about-blank): a lapsed insider key is PremiumRequiredError", async () => {
  const stub = createStub({ seed: 1, scale: 0.1, dialect: "problemTypes=about-blank" });
  const mk = (key: string) =>
    new InsiderClient({ apiKey: key, baseUrl: "http://t/insider", fetch: stub.fetch as FetchLike });
  await assert.rejects(mk(DEMO_KEYS.insiderLapsed).search({}).take(1), PremiumRequiredError);
  await assert.rejects(mk("sk-wrong").search({}).take(1), AuthenticationError);
  await assert.rejects(
    mk(DEMO_KEYS.insider).transaction("0000000000-00-000000", 1),
    (e: unknown) => e instanceof NotFoundError && e.meaning === "transaction not found",
  );
  // the catalog spec needs the type for Premium: about:blank reads as no access
  const cat = new CatalogClient({
    apiKey: DEMO_KEYS.catalogLapsed,
    baseUrl: "http://t/catalog",
    fetch: stub.fetch as FetchLike,
  });
  await assert.rejects(
    cat.pitches({ limit: 1 }).take(1),
    (e: unknown) => e instanceof PermissionDeniedError && !(e instanceof PremiumRequiredError),
  );
});
