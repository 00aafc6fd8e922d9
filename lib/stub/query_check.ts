/**
 * Request validation for the emulator's handlers: raw query objects (a
 * repeated parameter becomes a list) checked with the shared zod schemas, and
 * every problem reported in one `400` problem naming each bad parameter.
 *
 * @module
 */
import type { Context } from "npm:hono@4.13.19";
import type { z } from "npm:@hono/zod-openapi@1.6.3";
import { describeIssues, toIssues } from "../shared/schema.ts";
import { badRequest } from "./problem.ts";

/** The query string as an object; a repeated parameter becomes a list. */
export function rawQuery(c: Context): Record<string, string | string[]> {
  const params = new URL(c.req.url).searchParams;
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** `input` validated with `schema`; on failure a `400` problem listing every issue is thrown. */
export function check<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  return r.success ? r.data : badRequest(describeIssues(toIssues(r.error, input)));
}
