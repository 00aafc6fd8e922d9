import assert from "node:assert/strict";
import SwaggerParser from "@apidevtools/swagger-parser";
import { stub } from "./_helpers.ts";
import { createStub } from "../../lib/stub/mod.ts";

for (const service of ["catalog", "insider"]) {
  Deno.test(`${service} OpenAPI 3.1 description is valid, public, version 1.0.0, covers every route`, async () => {
    const res = await stub().app.request(`/${service}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, "1.0.0");
    await SwaggerParser.validate(structuredClone(doc));
    const paths = Object.keys(doc.paths).sort();
    const want = service === "catalog"
      ? [
        "/api/v1/filter-sets",
        "/api/v1/pitches",
        "/api/v1/pitches/{id}",
        "/api/v1/pitches/{id}/document",
        "/api/v1/search",
        "/api/v1/tags",
      ]
      : [
        "/api/v1/feeds",
        "/api/v1/insiders",
        "/api/v1/search",
        "/api/v1/transactions/{accessionNumber}/{transactionId}",
      ];
    assert.deepEqual(paths, want);
    for (
      const path of Object.values(doc.paths) as Record<
        string,
        { parameters?: { name: string }[] }
      >[]
    ) {
      for (const op of Object.values(path)) {
        assert.ok(op.parameters?.some((p) => p.name === "x-hosting-protection-bypass"));
      }
    }
  });
}

Deno.test("the pitch list description carries every one of the 18 parameters with its enums", async () => {
  const doc = await (await stub().app.request("/catalog/api/v1/openapi.json")).json();
  const params = doc.paths["/api/v1/pitches"].get.parameters as {
    name: string;
    schema: Record<string, unknown>;
  }[];
  const names = params.map((p) => p.name).filter((n) => n !== "x-hosting-protection-bypass");
  assert.equal(names.length, 18);
  const sentiment = params.find((p) => p.name === "sentiment")!.schema as {
    items: { enum: string[] };
  };
  assert.deepEqual(sentiment.items.enum, ["bullish", "bearish", "neutral"]);
});

Deno.test("the description documents the dialect's rate-limit headers on every answer, with their types", async () => {
  const want: Record<string, Record<string, string>> = {
    none: {},
    "x-ratelimit": {
      "X-RateLimit-Limit": "integer",
      "X-RateLimit-Remaining": "integer",
      "X-RateLimit-Reset": "integer",
    },
    ratelimit: {
      "RateLimit-Limit": "integer",
      "RateLimit-Remaining": "integer",
      "RateLimit-Reset": "integer",
      "RateLimit-Policy": "string",
    },
  };
  for (const [choice, headers] of Object.entries(want)) {
    const s = createStub({ seed: 1, scale: 0.05, dialect: `rateLimitHeaders=${choice}` });
    const doc = await (await s.app.request("/insider/api/v1/openapi.json")).json();
    for (const status of ["200", "400", "429"]) {
      const got = doc.paths["/api/v1/feeds"].get.responses[status].headers ?? {};
      const types = Object.fromEntries(
        Object.entries(got).map(([k, h]) => [k, (h as { schema: { type: string } }).schema.type]),
      );
      assert.deepEqual(types, headers, `${choice} ${status}`);
    }
  }
});
