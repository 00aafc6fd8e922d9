/**
 * OpenAPI 3.1 registration for the emulated services: each route is
 * described from the same zod schemas its handler validates with, and served
 * at `/api/v1/openapi.json` (version `1.0.0`).
 *
 * @module
 */
import { allowOnly } from "./methods.ts";
import { type OpenAPIHono, z } from "npm:@hono/zod-openapi@1.6.3";
import { DEFAULT_DIALECT, type Dialect } from "./dialect.ts";
import { PROBLEM_TYPES, RATE_LIMIT_HEADERS } from "./dialect_wire.ts";

/** The problem-details schema, its `type` described in the dialect's form. */
export function problemSchema(d: Dialect = DEFAULT_DIALECT): z.ZodObject {
  const example = PROBLEM_TYPES[d.problemTypes]("premium-required");
  return z.object({
    type: z.string().openapi({
      description: d.problemTypes === "name"
        ? "Machine-readable type, a bare name"
        : "Machine-readable type, a URI reference whose last path segment names the problem",
      example,
    }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
  }).openapi("Problem");
}

/** The headers' descriptions: integers, but the policy's text. */
function rateLimitHeaderDocs(d: Dialect): Record<string, { description: string; schema: object }> {
  const headers = Object.entries(RATE_LIMIT_HEADERS[d.rateLimitHeaders]);
  return Object.fromEntries(headers.map(([name, description]) => [name, {
    description,
    schema: { type: name.endsWith("Policy") ? "string" : "integer" },
  }]));
}

const Bypass = z.object({
  "x-hosting-protection-bypass": z.string().optional().openapi({
    description: "Staging protection bypass token",
  }),
});

/** One documented route. */
export interface RouteDoc {
  /** Path below `/api/v1`, with `{param}` placeholders. */
  path: string;
  /** HTTP method (default get). */
  method?: "get" | "post";
  /** One-line summary. */
  summary: string;
  /** Query schema. */
  query?: z.ZodObject;
  /** Path parameter schema. */
  params?: z.ZodObject;
  /** JSON request body schema. */
  requestBody?: z.ZodType;
  /** `200` JSON body schema. */
  body: z.ZodType;
  /** Whether the route can answer `302`. */
  redirect?: boolean;
}

const ERRORS = {
  400: "Invalid query, body or cursor",
  401: "Missing or invalid API key",
  403: "Premium required or no access",
  404: "Not found",
  429: "Rate limited",
  503: "Service unavailable",
} as const;

/**
 * Registers the routes and the description endpoint on a service app, in a
 * dialect, and a `405` for every other method on each of them.
 */
export function registerDocs(
  app: OpenAPIHono,
  title: string,
  routes: RouteDoc[],
  d: Dialect = DEFAULT_DIALECT,
): void {
  const ProblemSchema = problemSchema(d);
  const headers = rateLimitHeaderDocs(d);
  const withHeaders = Object.keys(headers).length ? { headers } : {};
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
  });
  for (const r of routes) {
    const query = !r.query
      ? Bypass
      : "x-hosting-protection-bypass" in r.query.shape
      ? r.query
      : r.query.safeExtend(Bypass.shape);
    app.openAPIRegistry.registerPath({
      method: r.method ?? "get",
      path: "/api/v1" + r.path,
      summary: r.summary,
      security: [{ bearer: [] }],
      request: {
        query,
        params: r.params,
        body: r.requestBody &&
          { content: { "application/json": { schema: r.requestBody } }, required: false },
      },
      responses: {
        200: {
          description: "OK",
          content: { "application/json": { schema: r.body } },
          ...withHeaders,
        },
        ...(r.redirect ? { 302: { description: "Redirect to the signed URL" } } : {}),
        ...Object.fromEntries(
          Object.entries(ERRORS).map(([status, description]) => [status, {
            description,
            content: { "application/problem+json": { schema: ProblemSchema } },
            ...withHeaders,
          }]),
        ),
      },
    });
  }
  app.doc31("/api/v1/openapi.json", {
    openapi: "3.1.0",
    info: { title, version: "1.0.0" },
  });
  // every other method on a documented path is a 405, the same way on both services
  allowOnly(app, {
    ...Object.fromEntries(routes.map((r) => [
      "/api/v1" + r.path.replace(/\{(\w+)\}/g, ":$1"),
      [r.method === "post" ? "POST" : "GET"] as const,
    ])),
    "/api/v1/openapi.json": ["GET"],
  });
}
