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
 * - the client's own key, in each of its forms (`_key_forms.ts`: as is,
 *   URL-encoded in five ways, JSON-escaped, as an identifier, hex and hex
 *   dumps, base64 at each alignment), each in any case, found by one
 *   matcher (`_key_match.ts`): anywhere when the key has at least
 *   `KEY_MIN_LENGTH` (16) characters, only as a whole token when it is
 *   shorter (a toy key like `"k"` must not blank every letter k). A key is
 *   taken without its surrounding whitespace (a `.env` saved with CR-LF); a
 *   key with a control character inside is refused when the client is made
 *   (`_config.ts`);
 * - any `Bearer <token>` whose token looks like a credential (8 or more
 *   token characters), whoever's token it is.
 *
 * Answer bodies are scanned for the key before they are parsed (the
 * transport, with `KeyMatcher.scrub`: a whole value that is the key is
 * replaced, an answer holding it inside a longer value is refused, and data
 * that merely holds its characters is left alone); see `_key_match.ts`.
 *
 * Errors built above the transport from server data (a malformed row, an
 * unknown envelope) never pass through a client's redactor, so every
 * transport also registers its key in the process's {@link KeyRegistry}
 * ({@link knownKeys}), and every `SignalbookError` message is passed through
 * {@link redactKnownKeys} when it is built. Only keys of `KEY_MIN_LENGTH` or
 * more are registered: a shorter key would blank ordinary words of every
 * message of the process, so the client warns once that it cannot protect
 * it there.
 *
 * @module
 */
import { KEY_MIN_LENGTH, type KeyMatcher, keyMatcher, REDACTED } from "./_key_match.ts";

/** Turns a text into the same text without secrets. */
export type Redactor = (text: string) => string;

/** `Bearer` and a credential-like token of 8 or more characters ("Bearer <API_KEY>" stays). */
const BEARER = /\b(bearer)(\s+|%20|\+)[A-Za-z0-9._~+/=-]{8,}/gi;
const withoutBearer = (text: string) => text.replace(BEARER, `$1$2${REDACTED}`);

/**
 * The redactor of one key (see the module doc).
 *
 * @example
 * ```ts
 * import { redactorFor } from "./_redact.ts";
 * const redact = redactorFor("sk-live-1234567890");
 * redact("invalid API key Bearer sk-live-1234567890"); // "invalid API key Bearer [redacted]"
 * redact("key=SK-LIVE-1234567890&x=1"); // "key=[redacted]&x=1"
 * ```
 */
export function redactorFor(key: string | KeyMatcher): Redactor {
  const own = typeof key === "string" ? keyMatcher(key) : key;
  return (text) => typeof text !== "string" || text === "" ? text : own.redact(withoutBearer(text));
}

/**
 * The keys of the clients of a process: what hides them in errors built
 * far from any client (see the module doc). Keys shorter than
 * `KEY_MIN_LENGTH` are not kept; the first time one is given, a warning
 * (without the key) says so.
 *
 * @example
 * ```ts
 * import { KeyRegistry } from "./_redact.ts";
 * const keys = new KeyRegistry();
 * keys.register("sk-test-abcdef1234567");
 * keys.redact('row 3 has "pitch": "sk-test-abcdef1234567"'); // 'row 3 has "pitch": "[redacted]"'
 * keys.holds('{"echo":"sk-test-abcdef1234567"}'); // true
 * ```
 */
export class KeyRegistry {
  #keys = new Map<string, KeyMatcher>();
  /** Short keys already warned about. */
  #warned = new Set<string>();

  /** Remembers `key` (trimmed; see the class doc); returns its matcher. */
  register(key: string, warn: (message: string) => void = console.warn): KeyMatcher {
    const k = typeof key === "string" ? key.trim() : "";
    const matcher = this.#keys.get(k) ?? keyMatcher(k);
    if (matcher.scansData) this.#keys.set(k, matcher);
    else if (k !== "" && !this.#warned.has(k)) {
      this.#warned.add(k);
      warn(
        `signalbook: the API key has ${k.length} characters, fewer than ${KEY_MIN_LENGTH}: ` +
          "answers are not searched for it (a key this short could match real data), and it " +
          "is hidden only in this client's own errors, where it stands as a whole word",
      );
    }
    return matcher;
  }

  /** `text` without any key registered, nor any credential-like bearer token. */
  redact(text: string): string {
    if (typeof text !== "string" || text === "") return text;
    return [...this.#keys.values()].reduce((out, m) => m.redact(out), withoutBearer(text));
  }

  /** Whether an answer body holds a registered key (as the body scan finds it). */
  holds(text: string): boolean {
    return [...this.#keys.values()].some((m) => m.holds(text));
  }
}

/** The process's keys: every transport registers its own here. */
export const knownKeys: KeyRegistry = new KeyRegistry();

/**
 * `text` without any key a client of this process was built with, nor any
 * credential-like bearer token ({@link knownKeys}).
 *
 * @example
 * ```ts
 * import { knownKeys, redactKnownKeys } from "./_redact.ts";
 * knownKeys.register("sk-test-abcdef1234567");
 * redactKnownKeys('row 3 has "pitch": "sk-test-abcdef1234567"'); // 'row 3 has "pitch": "[redacted]"'
 * ```
 */
export function redactKnownKeys(text: string): string {
  return knownKeys.redact(text);
}

/** Objects whose contents are bytes or pending values, not text of an error: not walked. */
function isData(v: object): boolean {
  return ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Promise ||
    typeof (v as { then?: unknown }).then === "function";
}

/**
 * A regular expression whose source holds the key, or bytes that hold it as
 * UTF-8 text (`Deno.inspect` prints both): replaced by a placeholder, as
 * {@link isOpaque}'s objects are. Bytes are decoded whole, however many.
 */
function printsKey(v: object, redact: Redactor): boolean {
  if (v instanceof RegExp) return redact(v.source) !== v.source;
  if (!ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) return false;
  const text = new TextDecoder().decode(v);
  return redact(text) !== text;
}

/**
 * An object with an own property holding the key that cannot be changed (a
 * frozen object, a property defined read-only, enumerable or not, which
 * `Deno.inspect` with `showHidden` prints): replaced whole, as
 * {@link isOpaque}'s objects are.
 */
function keepsKey(v: object, redact: Redactor): boolean {
  try {
    return Object.values(Object.getOwnPropertyDescriptors(v)).some((d) =>
      typeof d.value === "string" && !d.writable && !d.configurable && redact(d.value) !== d.value
    );
  } catch {
    return false; // a hostile proxy: walked as far as it lets
  }
}

/** Objects that print their hidden contents (headers, requests): replaced by a placeholder. */
function isOpaque(v: object): boolean {
  return v instanceof Headers || v instanceof Request || v instanceof Response ||
    v instanceof URLSearchParams || v instanceof URL;
}

/**
 * `error` with every secret the redactor knows removed, in place, from
 * every string it shows: its own properties, enumerable or not (`message`,
 * `stack`, problem fields, `cursor`, …), and those of everything reachable
 * from them — `cause` chains of any depth (an `Error`, a string, a plain
 * object such as an axios-style `config.headers`), `AggregateError.errors`,
 * nested objects and arrays, the keys and values of a `Map` and the members
 * of a `Set` — each object once, however many there are (no count past which
 * a key survives). A `Headers`, `Request`, `Response`, `URL` or
 * `URLSearchParams` found there (whose inspection would show the key) is
 * replaced by a placeholder string, and so is an object whose property
 * holding the key cannot be changed (frozen, or read-only and hidden from
 * enumeration). Accessor properties (such as `partial`)
 * are not invoked: each is wrapped so that what it gives is cleaned the
 * same way when it is read. Returns `error`.
 */
export function redactError<E>(error: E, redact: Redactor): E {
  const seen = new Set<object>();
  const queue: object[] = [];
  const clean = (v: unknown) =>
    shown(v, redact, (o) => {
      if (seen.has(o)) return;
      seen.add(o);
      queue.push(o);
    });
  clean(error);
  for (let next = 0; next < queue.length; next++) {
    try {
      cleanObject(queue[next], clean, redact);
    } catch {
      // a frozen or hostile object (a throwing proxy): the rest is still cleaned
    }
  }
  return error;
}

/**
 * `v` as an error may show it: a string redacted; an object that would
 * print the key (see {@link isOpaque}, {@link printsKey}) as a placeholder;
 * any other object (not bytes or a promise) handed to `walk`, as it is.
 */
function shown(v: unknown, redact: Redactor, walk: (o: object) => void): unknown {
  if (typeof v === "string") return redact(v);
  if (typeof v !== "object" || v === null) return v;
  if (isOpaque(v) || printsKey(v, redact) || keepsKey(v, redact)) {
    return `[${v.constructor?.name ?? "Object"} redacted]`;
  }
  if (!isData(v)) walk(v);
  return v;
}

/** One object of a {@link redactError} walk: its stack, entries, members and own properties. */
function cleanObject(o: object, clean: (v: unknown) => unknown, redact: Redactor): void {
  if (o instanceof Error) {
    // V8's `stack` is an accessor pair: read it and set it back clean
    const stack = o.stack;
    if (typeof stack === "string" && redact(stack) !== stack) o.stack = redact(stack);
  }
  if (o instanceof Map || o instanceof Set) {
    // a Set's entries are [member, member]: one rule for both
    const was: [unknown, unknown][] = [...o.entries()];
    const now = was.map(([k, v]) => [clean(k), clean(v)]);
    if (now.some(([k, v], i) => k !== was[i][0] || v !== was[i][1])) {
      o.clear();
      for (const [k, v] of now) {
        if (o instanceof Map) o.set(k, v);
        else o.add(v);
      }
    }
  }
  for (const k of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    if (!d || (o instanceof Error && k === "stack")) continue;
    if (d.get && d.configurable) {
      const get = d.get;
      const walked = new WeakSet<object>(); // what the getter gave is walked once
      Object.defineProperty(o, k, {
        ...d,
        get() {
          return shown(get.call(this), redact, (o) => {
            if (walked.has(o)) return;
            walked.add(o);
            redactError(o, redact);
          });
        },
      });
    }
    if (!("value" in d)) continue;
    const v = clean(d.value);
    if (v === d.value) continue;
    if (d.configurable) Object.defineProperty(o, k, { ...d, value: v });
    else if (d.writable) (o as Record<PropertyKey, unknown>)[k] = v;
  }
}
