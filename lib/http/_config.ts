/**
 * A client's two settings, checked once when it is made (by the client's
 * constructor with the option names `apiKey` and `baseUrl`, by `connect()`
 * with the variable names), each failure a {@link ConfigurationError} naming
 * the option or variable, never printing the value:
 *
 * - **Key.** Surrounding whitespace is trimmed: a `.env` file saved with
 *   CR-LF, or a key pasted with a trailing space, gives the key the service
 *   knows (the header would be trimmed on the wire anyway, while the
 *   redactor would look for the untrimmed text). A key that is empty or
 *   only whitespace is refused, and so is one with a control character
 *   inside (a newline, CR, tab, NUL, DEL or a C1 control): such a value is
 *   two values pasted together or a file read wrongly, and no header can
 *   carry it. So is a character outside ASCII (a zero-width or no-break
 *   space pasted from a web page, a letter with an accent): API keys are
 *   ASCII, and such a key would fail every request with an obscure
 *   `TypeError` from `fetch`, or be sent as bytes no service issued.
 * - **Base URL.** Surrounding whitespace is trimmed; then it must be an
 *   absolute `http:` or `https:` URL without credentials (`user:pass@`), a
 *   query (`?tenant=7`) or a fragment (`#x`): the client appends
 *   `/api/v1/<path>` and its own query, which any of those would corrupt
 *   (`/insider?tenant=7/api/v1/search`) or leak. A trailing slash is dropped.
 *
 * @module
 */
import { ConfigurationError } from "./errors.ts";

/** A character a key may not hold: C0 controls (newline, CR, tab, NUL, …), DEL, anything past ASCII. */
const NOT_IN_KEY = /[^\x20-\x7e]/u;

const CONTROL_NAMES: Record<number, string> = {
  0: "a NUL",
  9: "a tab",
  10: "a newline",
  13: "a carriage return",
};

/**
 * The key, trimmed, or a {@link ConfigurationError} naming `name`.
 *
 * @example
 * ```ts
 * import { checkApiKey } from "./_config.ts";
 * checkApiKey("sk-live-abc\r\n", "INSIDER_API_KEY"); // "sk-live-abc"
 * ```
 */
export function checkApiKey(value: unknown, name: string): string {
  if (typeof value !== "string") {
    throw new ConfigurationError(
      `${name} is required: a non-empty string (got ${value === null ? "null" : typeof value})`,
    );
  }
  const key = value.trim();
  if (key === "") {
    throw new ConfigurationError(
      `${name} is ${value === "" ? "empty" : "blank (only whitespace)"}; set it to your API key`,
    );
  }
  const c = NOT_IN_KEY.exec(key)?.[0].codePointAt(0);
  if (c !== undefined) {
    const code = `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
    const what = CONTROL_NAMES[c] ??
      (c < 0x20 || (c >= 0x7f && c <= 0x9f)
        ? `a control character (${code})`
        : `a character outside ASCII (${code})`);
    throw new ConfigurationError(
      `${name} holds ${what} inside the key (${key.length} characters); ` +
        `an API key is one line of printable ASCII: check how it was pasted or read`,
    );
  }
  return key;
}

/**
 * The base URL, trimmed and without a trailing slash, or a
 * {@link ConfigurationError} naming `name` (never printing the value).
 *
 * @example
 * ```ts
 * import { checkBaseUrl } from "./_config.ts";
 * checkBaseUrl(" https://api.example.test/insider/ ", "INSIDER_BASE_URL"); // "https://api.example.test/insider"
 * ```
 */
export function checkBaseUrl(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ConfigurationError(
      `${name} is ${
        typeof value === "string" ? "blank" : "missing"
      }; set it to the service's address, e.g. https://host/insider`,
    );
  }
  const raw = value.trim();
  const url = URL.parse(raw);
  if (!url) {
    throw new ConfigurationError(
      `${name} is not an absolute URL (${raw.length} characters); give one like https://host/insider`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(
      `${name} has the scheme ${JSON.stringify(url.protocol)}; allowed: http: or https:`,
    );
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(raw)) {
    throw new ConfigurationError(
      `${name} holds credentials (user:password@); remove them: the key travels in its own variable`,
    );
  }
  const parts = [raw.includes("?") && "a query (?…)", raw.includes("#") && "a fragment (#…)"]
    .filter(Boolean);
  if (parts.length) {
    throw new ConfigurationError(
      `${name} holds ${parts.join(" and ")}; give the service's address alone: ` +
        `the client adds /api/v1/<path> and its own query`,
    );
  }
  return url.href.replace(/\/+$/, "");
}
