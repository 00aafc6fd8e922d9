/**
 * OpenAPI 3.1 registration for the emulated services: each route is
 * described from the same zod schemas its handler validates with, and served
 * at `/api/v1/openapi.json` (version `1.0.0`).
 *
 * @module
 */
import { type OpenAPIHono, z } from "npm:@hono/zod-openapi@1.6.3";

/** The problem-details schema. */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
}).openapi("Problem");

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

/** Registers the routes and the description endpoint on a service app. */
export function registerDocs(app: OpenAPIHono, title: string, routes: RouteDoc[]): void {
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
        ...(r.params ? { params: r.params } : {}),
        ...(r.requestBody
          ? {
            body: { content: { "application/json": { schema: r.requestBody } }, required: false },
          }
          : {}),
      },
      responses: {
        200: { description: "OK", content: { "application/json": { schema: r.body } } },
        ...(r.redirect ? { 302: { description: "Redirect to the signed URL" } } : {}),
        ...Object.fromEntries(
          Object.entries(ERRORS).map(([status, description]) => [status, {
            description,
            content: { "application/problem+json": { schema: ProblemSchema } },
          }]),
        ),
      },
    });
  }
  app.doc31("/api/v1/openapi.json", {
    openapi: "3.1.0",
    info: { title, version: "1.0.0" },
  });
}
