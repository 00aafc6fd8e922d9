/**
 * `405 method-not-allowed` for wrong HTTP methods on real paths, the same way
 * on both services: the problem names the method and the allowed ones, and
 * an `Allow` header lists them. Unknown paths stay `404 not-found`. HEAD is
 * answered like GET (Hono's default) wherever GET is allowed.
 *
 * @module
 */
import type { Hono } from "npm:hono@4.13.19";
import { problem } from "./problem.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/**
 * Registers a `405` handler for every other method on each path.
 *
 * @example
 * ```ts
 * import { Hono } from "npm:hono@4.13.19";
 * import { allowOnly } from "./methods.ts";
 * const app = new Hono();
 * app.get("/api/v1/tags", (c) => c.json({ data: [] }));
 * allowOnly(app, { "/api/v1/tags": ["GET"] });
 * console.log((await app.request("/api/v1/tags", { method: "DELETE" })).status); // 405
 * ```
 */
export function allowOnly(
  // deno-lint-ignore no-explicit-any
  app: Hono<any, any, any>,
  routes: Record<string, readonly ("GET" | "POST")[]>,
): void {
  for (const [path, allowed] of Object.entries(routes)) {
    const others = METHODS.filter((m) => !(allowed as readonly string[]).includes(m));
    const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
    app.on([...others], path, (c) =>
      problem(
        405,
        "method-not-allowed",
        `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(" or ")}`,
        { allow },
      ));
  }
}
