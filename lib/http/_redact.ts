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
 * - the client's own key wherever it appears, when it is at least
 *   {@link MIN_ANYWHERE} characters long (shorter keys only where they stand
 *   alone, as a whole token, so a toy key like `"k"` does not blank every
 *   letter k of a message), in each of its encodings
 *   ({@link keyForms}), each matched in any case (a service that echoes
 *   the key upper-cased, or hex in capitals, is caught): as is; as hex of
 *   its UTF-8 bytes, packed or as a dump writes it (`73 6b …`, `73:6b`,
 *   `\x73\x6b`, `0x73 0x6b`); as an identifier (each character other than
 *   a letter or digit as `_`, as a column named after the key spells it); URL-encoded by `encodeURIComponent`, by Python's
 *   `quote()`/`quote_plus()`, as a form field or with every byte escaped;
 *   JSON-escaped, with `/` as `\/` too (PHP); base64 and base64url at any
 *   of the three byte alignments, so the key inside a longer base64 text (a
 *   `Basic` header, an encoded cursor) is found too (the few characters at
 *   its two ends that share bits with the text around it stay). The same
 *   forms of the key upper-cased and lower-cased are searched too (their
 *   hex and base64 differ from the key's). A key is taken without its
 *   surrounding whitespace (a `.env` saved with CR-LF); a key with a control
 *   character inside is refused when the client is made (`_config.ts`);
 * - any `Bearer <token>` whose token looks like a credential (8 or more
 *   token characters), whoever's token it is.
 *
 * Answer bodies: a service may echo the key inside a normal `200` answer
 * (a value, a field's name, a cursor). The transport runs
 * {@link bodyScrubberFor} once on every successful answer's text, before
 * it is parsed, and replaces each occurrence, in every form above, by
 * `[redacted]`, with one warning giving the count: the key reaches no row,
 * frame, column name, display, event, parquet file or cache entry. Before
 * parsing, not after, because one text scan costs less than walking the
 * parsed rows and it covers field names and cursors too; on a 100-row
 * search page of 174 fields (0.45 MB) the decode and scan of a clean page
 * take 0.28 + 0.11 ms beside 1.9 ms of `JSON.parse`
 * (`bench/body_scrub_bench.ts`; {@link holdsKey} says how the scan is
 * kept cheap). The response cache still refuses a body
 * holding a key (what it is given is the answer as received).
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
 * redact("key=SK-LIVE-123456&x=1"); // "key=[redacted]&x=1"
 * ```
 */
export function redactorFor(key: string): Redactor {
  const own = keyPattern(key, "g");
  return (text) => {
    if (typeof text !== "string" || text === "") return text;
    const out = text.replace(BEARER, `$1$2${REDACTED}`);
    return own ? out.replace(own, REDACTED) : out;
  };
}

/** One pattern for every form of `key` (any case), or null for an empty key (exported for the key-scan test's reference). */
export function keyPattern(key: string, flags: "g" | "", withDumps = true): RegExp | null {
  const k = typeof key === "string" ? key.trim() : "";
  if (k === "") return null;
  const dumps = withDumps && k.length >= MIN_ANYWHERE ? caseVariants(k).map(hexDump) : [];
  const alternatives = [...keyForms(k).map(escapeRe), ...dumps].join("|");
  return k.length >= MIN_ANYWHERE
    ? new RegExp(alternatives, `i${flags}`)
    : new RegExp(`(?<![${TOKEN_CHARS}])(?:${alternatives})(?![${TOKEN_CHARS}])`, `i${flags}`);
}

/** `k`, upper-cased and lower-cased, without repeats: the spellings whose forms are searched. */
export function caseVariants(k: string): string[] {
  return [...new Set([k, k.toUpperCase(), k.toLowerCase()])];
}

/** What may stand between two bytes of a hex dump: up to two separators, then `\\x` or `0x`. */
const DUMP_GAP = "[\\s:,;-]{0,2}(?:\\\\x|0x)?";

/** The hex of `k`'s UTF-8 bytes, a pair of digits a byte. */
function hexPairs(k: string): string[] {
  return [...new TextEncoder().encode(k)].map((b) => b.toString(16).padStart(2, "0"));
}

/**
 * A pattern for the hex of `k`'s bytes as a dump writes it: each byte
 * (either case) after up to two separators (space, `:`, `,`, `;`, `-`) and
 * a `\x` or `0x`, or after nothing: `73 6b 2d …`, `73:6b:2d`, `\x73\x6b`,
 * `0x73, 0x6b`.
 */
export function hexDump(k: string): string {
  return hexPairs(k).join(DUMP_GAP);
}

/**
 * A test of whether a text holds `key` in any form a redactor hides (see
 * the module doc): what the response cache asks before it writes a body,
 * and the body scrubber before it replaces anything.
 *
 * A clean answer is the common case, so a key of {@link MIN_ANYWHERE} or
 * more characters is not searched for with one pattern of every form (a
 * regular expression of some forty alternatives in any case, tried at
 * every offset of a 0.45 MB page), but by probes: each form, and each
 * case variant's hex dump, is given one of its ASCII characters, chosen
 * so that few characters serve every form and those are rare in JSON
 * answers ({@link probePlan}); the text is searched for each chosen
 * character in both cases (`indexOf`, which skips through a text at
 * memory speed), and only where one stands is the form it was chosen for
 * tested there, with a sticky pattern (a dump's bytes before it by
 * lookbehind). The answer is the same as the patterns', character for
 * character: any match of a form holds its probe character, in one of its
 * two cases, where the probe looks. A key with a character outside ASCII
 * (whose case folding V8 applies in ways of its own when it merges
 * alternatives) has its forms other than dumps searched for with the one
 * pattern of them, as before.
 *
 * @example
 * ```ts
 * import { holdsKey } from "./_redact.ts";
 * holdsKey("sk-live-123456")('{"echo":"SK-LIVE-123456"}'); // true
 * holdsKey("sk-live-123456")('{"data":[]}'); // false
 * ```
 */
export function holdsKey(key: string): (text: string) => boolean {
  const own = keyPattern(key, "", false);
  const k = key.trim();
  if (own === null) return () => false;
  if (k.length < MIN_ANYWHERE) return (text) => typeof text === "string" && own.test(text);
  const { groups, rest } = probePlan(k, own);
  return (text) => {
    if (typeof text !== "string") return false;
    for (const { chars, targets, next, prev, gated } of groups) {
      for (const ch of chars) {
        for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) {
          // the characters beside the hit turn most hits away before any form is checked
          if (gated && next[text.charCodeAt(i + 1)] !== 1 && prev[text.charCodeAt(i - 1)] !== 1) {
            continue;
          }
          for (const t of targets) if (t(text, i)) return true;
        }
      }
    }
    return rest !== null && rest.test(text);
  };
}

/** Whether a form stands at a text where its probe character was found (at the given offset). */
type ProbeTarget = (text: string, at: number) => boolean;

/**
 * A probe: the character searched for (both cases), the forms checked
 * where it stands, and the characters one of them needs right after or
 * before it (`gated`: every form names one).
 */
interface Group {
  chars: string[];
  targets: ProbeTarget[];
  next: Uint8Array;
  prev: Uint8Array;
  gated: boolean;
}

/**
 * Hits of each character in 1,000 characters of a JSON answer, roughly (a
 * search page of the emulator, rounded into tiers; other ASCII: 0.2).
 */
const JSON_FREQUENCY: [number, string][] = [
  [50, '":,etaoinsrl'],
  [15, "ucmwhdfypg0123456."],
  [5, "789bvkx -_/ABCDEFILMNOPRSTWZ"],
  [1, "qzjGHJKQUVXY{}[]"],
];
const FREQUENCY = new Map(JSON_FREQUENCY.flatMap(([n, cs]) => [...cs].map((c) => [c, n])));
const frequency = (c: string) => FREQUENCY.get(c) ?? 0.2;

/** What one pass of `indexOf` over a text costs, in hits per 1,000 characters. */
const PASS_COST = 1;

/** `c` and, for an ASCII letter, its other case: the characters a probe for `c` searches. */
const bothCases = (c: string) => /[a-z]/i.test(c) ? [c.toLowerCase(), c.toUpperCase()] : [c];

/** What searching a text for `c` in both cases costs (hits per 1,000 characters). */
const probeCost = (c: string) => bothCases(c).reduce((sum, x) => sum + PASS_COST + frequency(x), 0);

/**
 * A check of up to 3 characters of `form` (ASCII) next to offset `at` (any
 * case for letters), without a pattern: most hits of a probe character are
 * turned away by it. Gives [offset from `at`, lower-cased code] pairs.
 */
function nearChars(form: string, at: number): [number, number][] {
  const out: [number, number][] = [];
  for (const step of [1, -1]) {
    for (let j = at + step; j >= 0 && j < form.length && out.length < 3; j += step) {
      const c = form.charCodeAt(j);
      out.push([j - at, /[A-Z]/.test(form[j]) ? c | 0x20 : c]);
    }
  }
  return out;
}

/** Whether `text` has the characters `near` describes around `at` (letters in any case). */
function nearMatch(text: string, at: number, near: [number, number][]): boolean {
  for (let n = 0; n < near.length; n++) {
    const code = near[n][1];
    const c = text.charCodeAt(at + near[n][0]);
    if (code >= 97 && code <= 122 ? (c | 0x20) !== code : c !== code) return false;
  }
  return true;
}

/** Whether `c` (a character code) may stand between two bytes of a dump ({@link DUMP_GAP}'s first part). */
function isDumpSeparator(c: number): boolean {
  return c === 58 || c === 44 || c === 59 || c === 45 ||
    (c <= 32
      ? c === 32 || (c >= 9 && c <= 13)
      : c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 ||
        c === 8239 || c === 8287 || c === 12288 || c === 65279);
}

/**
 * Whether a dump's next byte (`pair`: {@link nearChars} of its two hex
 * digits from offset -1) follows at `s` after what {@link DUMP_GAP} allows:
 * up to two separators, then `\\x`, `0x` or nothing (any case).
 */
function afterGap(text: string, s: number, pair: [number, number][]): boolean {
  for (let a = 0; a <= 2; a++) {
    if (a > 0 && !isDumpSeparator(text.charCodeAt(s + a - 1))) return false;
    const p = s + a;
    if (nearMatch(text, p - 1, pair)) return true;
    const c = text.charCodeAt(p);
    if (
      (c === 92 || c === 48) && (text.charCodeAt(p + 1) | 0x20) === 120 &&
      nearMatch(text, p + 1, pair)
    ) {
      return true;
    }
  }
  return false;
}

/**
 * The probes of a key of {@link MIN_ANYWHERE} or more characters (see
 * {@link holdsKey}): groups of a character (both cases) and the checks of
 * the forms it was chosen for, and the pattern still run on every text
 * (`own`, the forms other than dumps, for a key outside ASCII; else null).
 * Characters are chosen by greedy cover: first the one with the least cost
 * for each form it would newly serve.
 */
function probePlan(k: string, own: RegExp): { groups: Group[]; rest: RegExp | null } {
  const variants = caseVariants(k);
  // a packed hex form is a dump without separators: the dump's probe serves it
  const packed = new Set(variants.map((v) => hexPairs(v).join("")));
  const ascii = !/[\x80-\uffff]/.test(k);
  const literal = ascii
    ? [...new Set(keyForms(k).map((f) => f.toLowerCase()))].filter((f) => !packed.has(f))
    : [];
  type Item = { text: string; make: (at: number) => [ProbeTarget, [number, number][]] };
  const items: Item[] = literal.map((f) => {
    const re = new RegExp(escapeRe(f), "iy");
    return {
      text: f,
      make: (at) => {
        const near = nearChars(f, at);
        return [(text, i) => {
          if (i < at || !nearMatch(text, i, near)) return false;
          re.lastIndex = i - at;
          return re.test(text);
        }, near];
      },
    };
  });
  for (const v of variants) {
    const pairs = hexPairs(v);
    items.push({
      text: pairs.slice(0, -1).join(""), // the probe stands in a byte that has a next one
      make: (at) => {
        const j = at >> 1; // the byte whose pair holds the probe
        const before = pairs.slice(0, j).map((p) => p + DUMP_GAP).join("");
        const re = new RegExp(
          `${before ? `(?<=${before})` : ""}${pairs.slice(j).join(DUMP_GAP)}`,
          "iy",
        );
        const near = nearChars(pairs[j], at & 1);
        const next = nearChars(pairs[j + 1], -1);
        return [(text, i) => {
          const s = i - (at & 1);
          if (!nearMatch(text, i, near) || !afterGap(text, s + 2, next)) return false;
          re.lastIndex = s;
          return re.test(text);
        }, near];
      },
    });
  }
  const groups = new Map<string, Group>();
  let open = items;
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  while (open.length) {
    let best = "";
    let bestScore = Infinity;
    for (const c of new Set(open.flatMap((it) => [...fold(it.text)]))) {
      const served = open.filter((it) => fold(it.text).includes(c)).length;
      const hits = bothCases(c).reduce((sum, x) => sum + frequency(x), 0);
      // a new character costs its passes; each form served costs a check at every hit
      const score = ((groups.has(c) ? 0 : probeCost(c)) + hits * served) / served;
      if (score < bestScore) [best, bestScore] = [c, score];
    }
    const g = groups.get(best) ?? {
      chars: bothCases(best),
      targets: [],
      next: new Uint8Array(128),
      prev: new Uint8Array(128),
      gated: true,
    };
    groups.set(best, g);
    open = open.filter((it) => {
      const at = fold(it.text).indexOf(best);
      if (at === -1) return true;
      const [check, near] = it.make(at);
      g.targets.push(check);
      // the character next to the probe a form needs (either case), or any where it names none
      const [d, code] = near.find(([d]) => d === 1 || d === -1) ?? [0, 0];
      for (const c of d === 0 ? [] : bothCases(String.fromCharCode(code))) {
        (d === 1 ? g.next : g.prev)[c.charCodeAt(0)] = 1;
      }
      if (d === 0) g.gated = false;
      return false;
    });
  }
  return {
    groups: [...groups.values()],
    rest: ascii ? null : own,
  };
}

/** Shortest key whose occurrences are replaced in answer bodies ({@link bodyScrubberFor}). */
export const MIN_BODY_KEY = 8;

/** What {@link bodyScrubberFor} gives back: the text without the key, and how many were replaced. */
export interface Scrubbed {
  /** The text, each occurrence of the key (any form) replaced by `[redacted]`. */
  text: string;
  /** Occurrences replaced (0: `text` is the text given). */
  count: number;
}

/**
 * The body scrubber of one key: what the transport runs once on every
 * successful answer's text, before it is parsed, so that a service echoing
 * the key in a 200 body (a value, a field's name, a cursor) gets it into no
 * row, frame, display, event, parquet file or cache entry. Every form a
 * redactor hides ({@link keyForms}, any case, hex dumps) is replaced by
 * `[redacted]` (which is valid inside a JSON string, so the answer still
 * parses); a key found outside any string (a key of digits echoed as a bare
 * JSON number, `"id":12345678901`) takes its whole token with it and
 * becomes the string `"[redacted]"`, so the answer still parses and the
 * value reads as text, never as a number the service did not send; bearer tokens that are not the key are left alone (a body's
 * words are data). A clean text is found by {@link holdsKey}'s scan and
 * given back as is (`holds`: that scan, when the caller has already built
 * it for `key`). Keys shorter than {@link MIN_BODY_KEY} characters
 * (test and demo toys) are not searched for in bodies: as whole tokens
 * they would blank ordinary field names and values.
 *
 * @example
 * ```ts
 * import { bodyScrubberFor } from "./_redact.ts";
 * const scrub = bodyScrubberFor("sk-live-123456");
 * scrub('{"echo":"SK-LIVE-123456","x":"736b2d6c6976652d313233343536"}');
 * // { text: '{"echo":"[redacted]","x":"[redacted]"}', count: 2 }
 * ```
 */
export function bodyScrubberFor(
  key: string,
  holds?: (text: string) => boolean,
): (text: string) => Scrubbed {
  const k = typeof key === "string" ? key.trim() : "";
  if (k.length < MIN_BODY_KEY) return (text) => ({ text, count: 0 });
  holds ??= holdsKey(k);
  const every = keyPattern(k, "g")!;
  return (text) => {
    if (typeof text !== "string" || !holds(text)) return { text, count: 0 };
    let count = 0;
    let out = "";
    let done = 0; // text before this is in `out`
    const inString = jsonStringState(text);
    every.lastIndex = 0;
    for (let m = every.exec(text); m !== null; m = every.exec(text)) {
      if (m[0] === "") {
        every.lastIndex++;
        continue;
      }
      let start = m.index;
      let end = start + m[0].length;
      let placeholder = REDACTED;
      if (NUMBER_ONLY.test(m[0]) && !inString(start)) {
        // outside any JSON string: a key of a number's characters (digits, a sign, a point,
        // an exponent) echoed as a bare number; the whole number becomes a quoted
        // placeholder, so the answer still parses
        while (start > done && NUMBER_PART.test(text[start - 1])) start--;
        while (end < text.length && NUMBER_PART.test(text[end])) end++;
        placeholder = JSON.stringify(REDACTED);
        every.lastIndex = end;
      }
      out += text.slice(done, start) + placeholder;
      done = end;
      count++;
    }
    return { text: out + text.slice(done), count };
  };
}

/** Characters of a JSON number around a key of digits found outside a string. */
const NUMBER_PART = /[0-9.eE+-]/;
/** A match made of a JSON number's characters only (found outside a string: a bare number). */
const NUMBER_ONLY = /^[0-9.eE+-]+$/;

/**
 * Whether offset `at` of `text` (a JSON text) lies inside a string, asked
 * for increasing offsets: one pass over the text in all, only for a text
 * holding the key.
 */
function jsonStringState(text: string): (at: number) => boolean {
  let pos = 0;
  let inside = false;
  return (at) => {
    for (; pos < at; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 34) inside = !inside; // "
      else if (c === 92 && inside) pos++; // \ escapes the next character
    }
    return inside;
  };
}

const PY_SAFE = /[A-Za-z0-9_.~-]/;

/** Percent-encoding of `text`'s UTF-8 bytes, leaving the characters `safe` matches. */
function percent(text: string, safe: (c: string) => boolean, space = "%20"): string {
  let out = "";
  for (const c of text) {
    if (c === " ") out += space;
    else if (safe(c)) out += c;
    else {
      for (const b of new TextEncoder().encode(c)) {
        out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
      }
    }
  }
  return out;
}

/** Base64 of bytes (standard alphabet, with padding). */
function base64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * The parts of base64 texts that hold `key` whatever its byte offset in
 * the encoded text: for each of the 3 alignments, the characters made of
 * the key's bits alone (standard and URL alphabets).
 */
function base64Forms(key: string): string[] {
  const bytes = new TextEncoder().encode(key);
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    const text = base64(padded).replace(/=+$/, "");
    // characters before: those sharing bits with the shift bytes; after: those past the key's last full 6 bits
    const head = Math.ceil((shift * 8) / 6);
    const tail = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = text.slice(head, tail);
    if (core.length >= 8) out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/**
 * Every encoding of `key` a redactor looks for (see the module doc),
 * longest first; a redactor matches each in any case.
 *
 * @example
 * ```ts
 * import { keyForms } from "./_redact.ts";
 * console.log(keyForms("sk/live+key").includes("sk%2Flive%2Bkey")); // true
 * console.log(keyForms("sk/live+key").includes("736b2f6c6976652b6b6579")); // true (hex)
 * ```
 */
export function keyForms(key: string): string[] {
  const forms: string[] = [];
  for (const k of caseVariants(key)) {
    const json = JSON.stringify(k).slice(1, -1);
    const bytes = new TextEncoder().encode(k);
    forms.push(
      k,
      encodeURIComponent(k),
      percent(k, (c) => PY_SAFE.test(c) || c === "/"), // Python quote()
      percent(k, (c) => PY_SAFE.test(c), "+"), // Python quote_plus()
      percent(k, () => false), // every byte escaped
      new URLSearchParams({ k }).toString().slice(2), // a form field
      json,
      json.replace(/\//g, "\\/"), // PHP json_encode
      [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""), // hex
      k.replace(/[^A-Za-z0-9]/g, "_"), // as an identifier (a column named after the key)
      ...(k.length >= MIN_ANYWHERE ? base64Forms(k) : []),
    );
  }
  return [...new Set(forms)].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/** Most objects a {@link redactError} walk visits (a hostile error graph cannot make it run long). */
export const MAX_WALK = 10_000;

/** Objects whose contents are data, not text of an error: not walked. */
function isData(v: object): boolean {
  return ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Map ||
    v instanceof Set || v instanceof Promise ||
    typeof (v as { then?: unknown }).then === "function";
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
 * nested objects and arrays — at most {@link MAX_WALK} objects, each once.
 * A `Headers`, `Request`, `Response`, `URL` or `URLSearchParams` found
 * there (whose inspection would show the key) is replaced by a placeholder
 * string; accessor properties (such as `partial`) are not invoked. Returns
 * `error`.
 */
export function redactError<E>(error: E, redact: Redactor): E {
  const seen = new Set<object>();
  const queue: object[] = [];
  const visit = (v: unknown) => {
    if (typeof v === "object" && v !== null && !seen.has(v) && seen.size < MAX_WALK && !isData(v)) {
      seen.add(v);
      queue.push(v);
    }
  };
  visit(error);
  while (queue.length) {
    const o = queue.shift()!;
    if (o instanceof Error) {
      // V8's `stack` is an accessor pair: read it and set it back clean
      try {
        const stack = o.stack;
        if (typeof stack === "string" && redact(stack) !== stack) o.stack = redact(stack);
      } catch {
        // a frozen or odd error: its other fields are still cleaned below
      }
    }
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k);
      if (!d || !("value" in d)) continue; // accessors are not invoked
      const v = d.value;
      let clean: unknown = v;
      if (typeof v === "string") clean = redact(v);
      else if (typeof v === "object" && v !== null && isOpaque(v)) {
        clean = `[${v.constructor.name} redacted]`;
      } else visit(v);
      if (clean === v) continue;
      if (d.configurable) Object.defineProperty(o, k, { ...d, value: clean });
      else if (d.writable) (o as Record<PropertyKey, unknown>)[k] = clean;
    }
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
  if (typeof key !== "string") return;
  key = key.trim();
  if (key.length < 8) return;
  known.delete(key);
  known.set(key, redactorFor(key));
  holders.set(key, holdsKey(key));
  if (known.size > MAX_KNOWN_KEYS) {
    const oldest = known.keys().next().value!;
    known.delete(oldest);
    holders.delete(oldest);
  }
}

const holders = new Map<string, (text: string) => boolean>();

/**
 * Whether `text` holds, in any form a redactor hides, a key some client of
 * this process was built with (see {@link registerKey}).
 *
 * @example
 * ```ts
 * import { holdsKnownKey, registerKey } from "./_redact.ts";
 * registerKey("sk-test-holds-0001");
 * holdsKnownKey('{"echo":"sk-test-holds-0001"}'); // true
 * ```
 */
export function holdsKnownKey(text: string): boolean {
  for (const h of holders.values()) if (h(text)) return true;
  return false;
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
