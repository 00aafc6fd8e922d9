/**
 * Keeping API keys out of every message. A service may echo the request's
 * `Authorization` header (or the key alone) in a problem's `detail`, a proxy
 * may put it in an HTML error page, an injected `fetch` may put it in an
 * exception: the transport passes every error it throws through
 * {@link redactError} with its own key's {@link redactorFor}, so the key
 * never reaches `error.message`, `detail`, `title`, the stack, the causes,
 * the CLI's one-line errors or progress and retry lines built from them.
 *
 * What is replaced by `[redacted]`:
 * - the client's own key wherever it appears, as is, URL-encoded or
 *   JSON-escaped, when it is at least {@link MIN_ANYWHERE} characters long
 *   (shorter keys only where they stand alone, as a whole token, so a toy key
 *   like `"k"` does not blank every letter k of a message);
 * - any `Bearer <token>` whose token looks like a credential (8 or more
 *   token characters), whoever's token it is.
 *
 * Errors built above the transport from server data (a malformed row, an
 * unknown envelope) never pass through a client's redactor, so every
 * transport also registers its key here ({@link registerKey}, at most
 * {@link MAX_KNOWN_KEYS} keys, the latest kept), and every `SignalbookError`
 * message is passed through {@link redactKnownKeys} when it is built.
 *
 * @module
 */

/** Keys at least this long are replaced wherever they appear. */
export const MIN_ANYWHERE = 6;

/** Turns a text into the same text without secrets. */
export type Redactor = (text: string) => string;

const REDACTED = "[redacted]";
const TOKEN_CHARS = "A-Za-z0-9._~+/=-";
/** `Bearer` and a credential-like token of 8 or more characters ("Bearer <API_KEY>" stays). */
const BEARER = new RegExp(`\\b(bearer)(\\s+|%20|\\+)[${TOKEN_CHARS}]{8,}`, "gi");

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The redactor of one key (see the module doc).
 *
 * @example
 * ```ts
 * import { redactorFor } from "./_redact.ts";
 * const redact = redactorFor("sk-live-123456");
 * redact("invalid API key Bearer sk-live-123456"); // "invalid API key Bearer [redacted]"
 * redact("key=sk-live-123456&x=1"); // "key=[redacted]&x=1"
 * ```
 */
export function redactorFor(key: string): Redactor {
  const forms = [...new Set([key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)])]
    .filter((f) => f.length > 0)
    .sort((a, b) => b.length - a.length);
  const alternatives = forms.map(escapeRe).join("|");
  const own = key.length >= MIN_ANYWHERE
    ? new RegExp(alternatives, "g")
    : new RegExp(`(?<![${TOKEN_CHARS}])(?:${alternatives})(?![${TOKEN_CHARS}])`, "g");
  return (text) => {
    if (typeof text !== "string" || text === "") return text;
    return text.replace(BEARER, `$1$2${REDACTED}`).replace(own, REDACTED);
  };
}

/** The string fields of an error that may carry server text. */
const FIELDS = ["message", "stack", "detail", "title", "type", "url"] as const;

/**
 * `error` (and its causes) with every secret the redactor knows removed from
 * its message, stack and problem fields, in place; returns `error`.
 */
export function redactError<E>(error: E, redact: Redactor): E {
  const seen = new Set<unknown>();
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && !seen.has(e) && depth < 8; depth++) {
    seen.add(e);
    const rec = e as unknown as Record<string, unknown>;
    for (const f of FIELDS) {
      const v = rec[f];
      if (typeof v !== "string") continue;
      const clean = redact(v);
      if (clean !== v) {
        Object.defineProperty(e, f, {
          value: clean,
          writable: true,
          configurable: true,
          enumerable: f !== "message" && f !== "stack",
        });
      }
    }
    e = e.cause;
  }
  return error;
}

/** Keys remembered for {@link redactKnownKeys} (the most recent ones). */
export const MAX_KNOWN_KEYS = 64;
const known = new Map<string, Redactor>();

/**
 * Remembers a client's key, so that {@link redactKnownKeys} hides it. Keys
 * shorter than 8 characters are toys (tests, demos) and are not remembered:
 * hiding them in every message of the process would blank ordinary words.
 */
export function registerKey(key: string): void {
  if (typeof key !== "string" || key.length < 8) return;
  known.delete(key);
  known.set(key, redactorFor(key));
  if (known.size > MAX_KNOWN_KEYS) known.delete(known.keys().next().value!);
}

/**
 * `text` without any key a client of this process was built with, nor any
 * credential-like bearer token.
 *
 * @example
 * ```ts
 * import { redactKnownKeys, registerKey } from "./_redact.ts";
 * registerKey("sk-test-abcdef123");
 * redactKnownKeys('row 3 has "pitch": "sk-test-abcdef123"'); // 'row 3 has "pitch": "[redacted]"'
 * ```
 */
export function redactKnownKeys(text: string): string {
  if (typeof text !== "string" || text === "") return text;
  let out = text.replace(BEARER, `$1$2${REDACTED}`);
  for (const r of known.values()) out = r(out);
  return out;
}
