/**
 * Problem-details responses (`application/problem+json`) with exactly the
 * fields `type`, `title`, `status` and `detail`.
 *
 * Problem `type` values (the spec shows only `premium-required`):
 * `invalid-request` (400), `unauthorized` (401), `premium-required` (403),
 * `author-access-required` (403, paywalled author's document),
 * `invalid-signature` / `url-expired` (403, signed document URLs),
 * `not-found` (404), `archive-not-found` (404), `method-not-allowed` (405),
 * `body-too-large` (413, a request body over 1 MB, refused before parsing),
 * `rate-limited` (429), `service-unavailable` (503), `signing-failed` (503),
 * `keys-unavailable` (503), `internal-error` (500, never expected).
 *
 * @module
 */
import { HTTPException } from "npm:hono@4.13.19/http-exception";
import { showValue } from "../shared/schema.ts";

/**
 * Problem titles: HTTP's reason phrases (RFC 9110) of the statuses the
 * emulator answers. Written out rather than read from `node:http`'s
 * `STATUS_CODES`: that import cost every process that imports signalbook
 * about 4 ms and 0.6 MiB at start-up for nine strings (and names 413
 * "Payload Too Large", RFC 7231's phrase).
 */
const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Content Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The body of a problem response. */
export interface ProblemBody {
  /** Machine-readable type. */
  type: string;
  /** Short title. */
  title: string;
  /** HTTP status. */
  status: number;
  /** Explanation for a human. */
  detail: string;
}

/** A problem+json response. */
export function problem(
  status: number,
  type: string,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const body: ProblemBody = { type, title: TITLES[status] ?? "Error", status, detail };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

/**
 * Ends the request with a problem: thrown as Hono's `HTTPException` holding
 * the problem response, which Hono (and the app's error handler) answers as
 * it is.
 */
export function fail(status: number, type: string, detail: string): never {
  const res = problem(status, type, detail);
  throw new HTTPException(status as ConstructorParameters<typeof HTTPException>[0], { res });
}

/** Ends the request with a 400 `invalid-request` problem (thrown, see {@link fail}). */
export function badRequest(detail: string): never {
  return fail(400, "invalid-request", detail);
}

/**
 * Ends the request with a 400 naming the values of parameter `param` the
 * service does not know (`extraTags: unknown tag slug "x"; allowed: …`).
 */
export function unknownValues(param: string, what: string, bad: string[], allowed: string): never {
  return badRequest(
    `${param}: unknown ${what} ${bad.map(showValue).join(", ")}; allowed: ${allowed}`,
  );
}
