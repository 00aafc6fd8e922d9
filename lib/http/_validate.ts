/**
 * Client-side validation: runs the shared zod schemas over the parameters a
 * caller passed and throws one {@link RequestValidationError} listing every
 * problem, before anything is sent.
 *
 * @module
 */
import type { z } from "npm:@hono/zod-openapi@1.6.3";
import { RequestValidationError } from "./errors.ts";
import { showValue, toIssues, type ValidationIssue } from "../shared/schema.ts";

/** Query-string form of typed parameters (lists stay lists, scalars become strings). */
export function asQuery(params: object): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
  );
}

/** Validates `input`; throws with every issue (plus `extra`) when anything is wrong. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  extra: ValidationIssue[] = [],
): z.output<S> {
  const r = schema.safeParse(input);
  const issues = [...(r.success ? [] : toIssues(r.error, input, "", schema)), ...extra];
  if (issues.length) throw new RequestValidationError(issues);
  return (r as { data: z.output<S> }).data;
}

/**
 * The issue of one parameter a client method checks by hand:
 * `<value> is not allowed; allowed: <allowed>`.
 */
export function notAllowed(param: string, value: unknown, allowed: string): ValidationIssue {
  return { param, value, message: `${showValue(value)} is not allowed; allowed: ${allowed}` };
}
