/**
 * Typed errors of the clients, in the manner of openai-node: a problem-details
 * answer becomes a {@link ProblemError} subclass chosen by status (and by
 * `type` for `premium-required`, matched by its last segment: see
 * {@link problemTypeIs}); transport failures are
 * {@link ConnectionError} or {@link TimeoutError}; bad input caught before the
 * network is a {@link RequestValidationError}. No error ever carries the API
 * key or request headers.
 *
 * @module
 */
import type { ValidationIssue } from "../shared/schema.ts";
import { redactError, redactKnownKeys } from "./_redact.ts";

/**
 * Base class of every signalbook error. Its message never holds a client's
 * key, nor does anything its cause reaches (any depth, see `redactError`).
 */
export class SignalbookError extends Error {
  /** Creates an error. */
  constructor(message: string, options?: ErrorOptions) {
    super(redactKnownKeys(message), options);
    this.name = new.target.name;
    if (options?.cause !== undefined) redactError(this, redactKnownKeys);
  }
}

/**
 * A client's configuration is incomplete, misspelt or malformed: a key or
 * base URL refused when the client is made, or environment variables that
 * do not add up (see `connect/env.ts`). The message names the variable or
 * option, never its value.
 */
export class ConfigurationError extends SignalbookError {}

/** What a problem error knows about the failed call. */
export interface ProblemInit {
  /** HTTP status. */
  status: number;
  /** Problem `type` (machine-readable), or `"unknown"` when the body had none. */
  type: string;
  /** Problem title. */
  title: string;
  /** Problem detail. */
  detail: string;
  /** HTTP method. */
  method: string;
  /** URL without credentials. */
  url: string;
  /** Seconds the server asked to wait (429/503), if it said. */
  retryAfter?: number;
  /**
   * What the status means for this service, from its spec's status table
   * (`"Premium required"`), when the client knows; part of the message.
   */
  meaning?: string;
}

/**
 * One service's reading of an error answer: its spec's status table applied
 * (see each service's `_envelopes.ts`), {@link errorFor} for the rest.
 */
export type ProblemReader = (init: ProblemInit) => ProblemError;

/**
 * An error answer from a service, carrying its problem details.
 *
 * @example
 * ```ts
 * import { ProblemError } from "./errors.ts";
 * try {
 *   // await catalog.pitch("nope");
 * } catch (e) {
 *   if (e instanceof ProblemError) console.log(e.status, e.type, e.detail);
 * }
 * ```
 */
export class ProblemError extends SignalbookError {
  /** HTTP status. */
  readonly status!: number;
  /** Problem type. */
  readonly type!: string;
  /** Problem title. */
  readonly title!: string;
  /** Problem detail. */
  readonly detail!: string;
  /** HTTP method. */
  readonly method!: string;
  /** URL (no credentials). */
  readonly url!: string;
  /** Seconds the server asked to wait, if it said. */
  readonly retryAfter?: number;
  /** What the status means for this service (its spec's status table), when known. */
  readonly meaning?: string;
  /** Creates the error from problem details (each becomes the field of its name). */
  constructor(init: ProblemInit) {
    const meaning = init.meaning && !init.detail.includes(init.meaning) ? `; ${init.meaning}` : "";
    super(`${init.status} ${init.title}: ${init.detail}${meaning} (${init.method} ${init.url})`);
    Object.assign(this, init);
  }
}

/** `400`: the service rejected the query, body or cursor. */
export class BadRequestError extends ProblemError {}
/** `401`: missing or invalid API key. */
export class AuthenticationError extends ProblemError {}
/** `403` other than `premium-required`: no access (e.g. a paywalled author). */
export class PermissionDeniedError extends ProblemError {}
/** `403` with type `premium-required`: the Premium membership lapsed. */
export class PremiumRequiredError extends PermissionDeniedError {}
/** `404`: not found. */
export class NotFoundError extends ProblemError {}
/** `429`: rate limited (after the retries ran out). */
export class RateLimitError extends ProblemError {}
/** `5xx`: the service failed (after the retries ran out). */
export class ServerError extends ProblemError {}

/**
 * Whether a problem `type` names `name`, as the whole type or as its last
 * segment: RFC 9457 types are usually URIs, so `premium-required`,
 * `https://api.example.com/problems/premium-required`,
 * `…/errors#premium-required` and `urn:example:premium-required` all match.
 * The comparison ignores case and the separators `-`, `_` and `.`
 * (`PREMIUM_REQUIRED` matches too); a query string is ignored.
 *
 * @example
 * ```ts
 * import { problemTypeIs } from "./errors.ts";
 * problemTypeIs("https://x.test/probs/premium-required", "premium-required"); // true
 * problemTypeIs("about:blank", "premium-required"); // false
 * ```
 */
export function problemTypeIs(type: string, name: string): boolean {
  const flat = (s: string) => s.toLowerCase().replace(/[-_.\s]/g, "");
  const want = flat(name);
  // the type without its query: the part before the first `#`, and the fragment if any
  const [, path, fragment] = /^([^#]*)(?:#(.*))?$/s.exec(type.split("?")[0])!;
  const last = path.split(/[/:]/).filter((x) => x !== "").pop() ?? "";
  return [type, fragment, last].some((s) => s !== undefined && flat(s) === want);
}

/** The subclass of each status with one of its own (5xx: {@link ServerError}). */
const BY_STATUS: Record<number, typeof ProblemError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  429: RateLimitError,
};

/**
 * The subclass of {@link ProblemError} for a status and problem type.
 * Unknown types map by status; `premium-required` (whole type or last
 * segment of a URI, see {@link problemTypeIs}) on a `403` is a
 * {@link PremiumRequiredError}.
 *
 * @example
 * ```ts
 * import { errorFor } from "./errors.ts";
 * const e = errorFor({ status: 403, type: "premium-required", title: "Forbidden", detail: "lapsed", method: "GET", url: "/x" });
 * console.log(e.name); // "PremiumRequiredError"
 * ```
 */
export function errorFor(init: ProblemInit): ProblemError {
  const s = init.status;
  const premium = s === 403 && problemTypeIs(init.type, "premium-required");
  const Class = premium
    ? PremiumRequiredError
    : BY_STATUS[s] ?? (s >= 500 ? ServerError : ProblemError);
  return new Class(init);
}

/** The request never got an answer (DNS, refused connection, reset). */
export class ConnectionError extends SignalbookError {}

/** An attempt took longer than `timeoutMs`. */
export class TimeoutError extends ConnectionError {}

/**
 * Bad input caught before any request was sent: every bad parameter with its
 * value and what is allowed.
 *
 * @example
 * ```ts
 * import { RequestValidationError } from "./errors.ts";
 * try {
 *   // catalog.pitches({ limit: 500 });
 * } catch (e) {
 *   if (e instanceof RequestValidationError) console.log(e.issues.map((i) => i.param));
 * }
 * ```
 */
export class RequestValidationError extends SignalbookError {
  /**
   * Creates the error from its issues.
   *
   * @param issues Every problem found.
   */
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(
      `invalid request (nothing was sent):\n` +
        issues.map((i) => `  - ${i.param}: ${i.message}`).join("\n"),
    );
  }
}

/** What an {@link InvalidResponseError} knows, beyond its message. */
export interface InvalidResponseDetail {
  /** The endpoint (`GET /feeds`), when known. */
  endpoint?: string;
  /** The field (column) whose values could not be read. */
  field?: string;
  /** What was expected there, in words (`a date (YYYY-MM-DD, …)`). */
  expected?: string;
  /** What came instead, described by `describeValue` (never the value itself). */
  got?: string;
  /** Index of the row it came in (0-based, in the order read). */
  row?: number;
}

/**
 * A `2xx` answer the client cannot use: not JSON, cut short, not an object,
 * a list field that is not a list, a field none of whose values reads by
 * its grammar (`shared/values/`), or a redirect where none is expected.
 * Not retried (the same request would get the same answer). A grammar
 * failure carries structured fields (`field`, `expected`, `got`, `row`) and
 * is built by {@link InvalidResponseError.unreadable}.
 *
 * @example
 * ```ts
 * import { InvalidResponseError } from "./errors.ts";
 * const e = InvalidResponseError.unreadable({
 *   endpoint: "GET /feeds", field: "filed_at", expected: "a timestamp", got: "the boolean true", row: 3,
 * });
 * console.log(e.message); // GET /feeds: filed_at expected a timestamp; got the boolean true (row 3; no value of the field reads)
 * ```
 */
export class InvalidResponseError extends SignalbookError {
  /** The endpoint, when known. */
  readonly endpoint?: string;
  /** The field that could not be read, for a grammar failure. */
  readonly field?: string;
  /** What was expected. */
  readonly expected?: string;
  /** What came, described. */
  readonly got?: string;
  /** The row it came in. */
  readonly row?: number;
  /** Creates the error; `detail` sets the structured fields. */
  constructor(message: string, detail: InvalidResponseDetail = {}, options?: ErrorOptions) {
    super(message, options);
    Object.assign(this, detail);
  }

  /** The error for a field none of whose values reads: one wording everywhere. */
  static unreadable(
    d: Required<Omit<InvalidResponseDetail, "endpoint">> & { endpoint?: string },
  ): InvalidResponseError {
    return new InvalidResponseError(
      `${d.endpoint ? d.endpoint + ": " : ""}${d.field} expected ${d.expected}; got ${d.got} ` +
        `(row ${d.row}; no value of the field reads)`,
      d,
    );
  }
}

/** Why a {@link PaginationError} stopped a pull. */
export type PaginationReason =
  | "repeated-cursor"
  | "empty-pages"
  | "repeated-rows"
  | "early-end"
  | "empty-month"
  | "skipped-rows";

/**
 * A list whose paging went wrong on the server's side: a cursor sent again
 * (`reason: "repeated-cursor"`, A→A or A→B→A), a run of empty pages that
 * still claimed more (`"empty-pages"`), a page whose every row was already
 * sent in this pull under a new cursor (`"repeated-rows"`: a loop with
 * fresh cursor names), or a date window of a parallel pull that ended
 * (has-more false) although rows exist after its last row in its range
 * (`"early-end"`: going on would leave a hole), or, in `sync`, a month
 * without a row between months with at least a page each (`"empty-month"`),
 * or rows sent again that are not the rows just before them (`"skipped-rows"`:
 * the pages are not consecutive slices of one list, rows between them may
 * never come; see `WalkCheck` in `paginate.ts`).
 * Thrown instead of paging
 * forever or returning less in silence;
 * on `take()` and `.frame()` it carries the rows read so far as
 * `error.partial` (see `partialOf`), and `cursor` is the cursor the pull
 * stopped at.
 *
 * @example
 * ```ts
 * import { PaginationError } from "./errors.ts";
 * const e = new PaginationError("looped", "repeated-cursor", "c2");
 * console.log(e instanceof Error, e.reason); // true "repeated-cursor"
 * ```
 */
export class PaginationError extends InvalidResponseError {
  /** The cursor the pull stopped at. */
  readonly cursor: string;
  /**
   * Creates the error.
   *
   * @param reason What went wrong.
   */
  constructor(message: string, readonly reason: PaginationReason, cursor: string) {
    super(message);
    // redacted like the message: a cursor that holds a key must not carry it on
    this.cursor = redactKnownKeys(cursor);
  }
}

/**
 * A URL whose scheme the client refuses to read, such as a document URL of
 * `file:` or `data:` (only `http:` and `https:` are allowed). Nothing was read.
 */
export class UnsupportedUrlError extends SignalbookError {
  /**
   * Creates the error.
   *
   * @param scheme The refused scheme, e.g. `"file:"`.
   */
  constructor(message: string, readonly scheme: string) {
    super(message);
  }
}
