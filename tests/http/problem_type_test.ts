/** Problem types matched by their last segment (issue 21, Deliver 5). */
import assert from "node:assert/strict";
import {
  BadRequestError,
  errorFor,
  PermissionDeniedError,
  PremiumRequiredError,
  problemTypeIs,
  ServerError,
} from "../../mod.ts";

const init = (status: number, type: string) => ({
  status,
  type,
  title: "t",
  detail: "d",
  method: "GET",
  url: "/x",
});

Deno.test("premium-required matches as the whole type or the last segment of a URI", () => {
  for (
    const t of [
      "premium-required",
      "https://api.example.com/problems/premium-required",
      "https://api.example.com/problems/premium-required/",
      "https://api.example.com/errors#premium-required",
      "https://api.example.com/problems/premium-required?lang=en",
      "urn:example:problem:premium-required",
      "PREMIUM_REQUIRED",
      "/problems/premium-required",
    ]
  ) {
    assert.ok(errorFor(init(403, t)) instanceof PremiumRequiredError, t);
    assert.ok(problemTypeIs(t, "premium-required"), t);
  }
  for (
    const t of [
      "https://api.example.com/premium-required/other",
      "not-premium-required",
      "about:blank",
      "unknown",
    ]
  ) {
    const e = errorFor(init(403, t));
    assert.ok(e instanceof PermissionDeniedError && !(e instanceof PremiumRequiredError), t);
  }
});

Deno.test("unknown problem types still map by status", () => {
  assert.ok(errorFor(init(400, "https://x.test/p/odd-thing")) instanceof BadRequestError);
  assert.ok(errorFor(init(503, "https://x.test/p/premium-required")) instanceof ServerError);
  assert.equal(
    errorFor(init(403, "https://x.test/p/premium-required")).type,
    "https://x.test/p/premium-required",
  );
});
