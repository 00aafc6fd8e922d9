/**
 * Environment checks that never block a correct setup: a near miss is a
 * name that would have been read had it been spelt right (the `INSIDER_` and
 * `PITCH_` families with a typo, other separators or case, or a common wrong
 * suffix), and is an error; names of other tools never block. Checked on the
 * named cases and as properties over generated names, both directions.
 * Values: a base URL with a query, fragment or credentials, and a blank key,
 * are errors naming the variable, never printing the value.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ConfigurationError, connect } from "../../mod.ts";
import {
  KEY_SUFFIXES,
  nearMisses,
  SERVICE_VARS,
  type ServiceVars,
  URL_SUFFIXES,
} from "../../lib/connect/env.ts";
import { editDistance } from "../../lib/shared/suggest.ts";

const SECRET = ["sk", "live", "EnvNames", "7Qp2"].join("-");
const SERVICES = [SERVICE_VARS.insider, SERVICE_VARS.catalog];
const KINDS = ["key", "url"] as const;
const FIXED: string[] = SERVICES.flatMap((v) => [v.key, v.url]);
const flat = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "");

/** The near misses of `name`, over both services and both kinds. */
const missesOf = (name: string) =>
  SERVICES.flatMap((v) => KINDS.flatMap((k) => nearMisses([name], v, k)));

async function outcome(env: Record<string, string>): Promise<"offline" | string> {
  try {
    const c = await connect({ env, quiet: true });
    assert.deepEqual(c.offline, { catalog: true, insider: true });
    return "offline";
  } catch (e) {
    assert.ok(e instanceof ConfigurationError, String(e));
    const all = `${e.message} ${e.stack} ${JSON.stringify(e)} ${Deno.inspect(e)}`;
    assert.ok(!all.includes(SECRET), "the value is never printed");
    return e.message;
  }
}

Deno.test("names of other tools never block connect()", async () => {
  for (
    const name of [
      "VSCODE_INSIDERS_HOST",
      "CATALOG_URL",
      "INSIDERS_DB_URL",
      "INSIDER_API_KEY_ID",
      "UNITY_CATALOG_TOKEN",
      "PITCH_SHIFT_HOST",
      "PYICEBERG_CATALOG__DEFAULT__URI",
      "PITCHFORK_TOKEN",
      "INSIDER_TRADES_SEEN",
      "CATALOG_API_KEY",
      "DATABRICKS_CATALOG_URL",
    ]
  ) {
    assert.equal(await outcome({ [name]: SECRET }), "offline", name);
    assert.deepEqual(missesOf(name), [], name);
  }
});

Deno.test("near misses are caught: other case, separators, a typo, a wrong suffix, a family variant", async () => {
  const cases: [string, string][] = [
    ["INSIDER_API", "INSIDER_API_KEY"],
    ["INSIDERTRADES_API_KEY", "INSIDER_API_KEY"],
    ["PITCHCATALOG_KEY", "PITCH_API_KEY"],
    ["insider_api_key", "INSIDER_API_KEY"],
    ["InsiderApiKey", "INSIDER_API_KEY"],
    ["INSIDER-BASE-URL", "INSIDER_BASE_URL"],
    ["INSDIER_API_KEY", "INSIDER_API_KEY"],
    ["PITCH_API_KEYS", "PITCH_API_KEY"],
    ["PITCH_TOKEN", "PITCH_API_KEY"],
    ["INSIDER_URL", "INSIDER_BASE_URL"],
    ["PITCHES_ENDPOINT", "PITCH_BASE_URL"],
    ["INSIDER_TRADES_HOST", "INSIDER_BASE_URL"],
  ];
  for (const [name, meant] of cases) {
    const m = await outcome({ [name]: SECRET });
    assert.match(m, new RegExp(`^${name} is set.*did you mean ${meant}\\?`), name);
  }
});

/** A name spelt from words, each in some case, joined by some separator. */
const spelt = (words: readonly string[]) =>
  fc.tuple(
    fc.array(fc.constantFrom("upper", "lower", "title"), {
      minLength: words.length,
      maxLength: words.length,
    }),
    fc.constantFrom("_", "", "-", "__", "."),
  ).map(([cases, sep]) =>
    words.map((w, i) =>
      cases[i] === "upper"
        ? w
        : cases[i] === "lower"
        ? w.toLowerCase()
        : w[0] + w.slice(1).toLowerCase()
    ).filter(Boolean).join(sep)
  );

const target = fc.constantFrom(...SERVICES.flatMap((v) => KINDS.map((k) => ({ v, k }))));
const nameOf = (t: { v: ServiceVars; k: "key" | "url" }) => t.k === "key" ? t.v.key : t.v.url;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** One edit of a flat name: a letter dropped, added, changed, or two neighbours swapped. */
const typo = (word: string) =>
  fc.tuple(
    fc.constantFrom("drop", "add", "change", "swap"),
    fc.nat({ max: word.length - 1 }),
    fc.constantFrom(...LETTERS),
  ).map(([op, i, c]) => {
    if (op === "drop") return word.slice(0, i) + word.slice(i + 1);
    if (op === "add") return word.slice(0, i) + c + word.slice(i);
    if (op === "change") return word.slice(0, i) + c + word.slice(i + 1);
    const j = Math.min(i + 1, word.length - 1);
    return word.slice(0, Math.min(i, j - 1)) + word[j] + word[Math.min(i, j - 1)] +
      word.slice(j + 1);
  });

Deno.test("property: every spelling, one-edit typo and family+suffix name of a variable is caught, as that variable", () => {
  const nearMiss = target.chain((t) =>
    fc.oneof(
      spelt(nameOf(t).split("_")),
      typo(flat(nameOf(t))).chain((f) => spelt([f.slice(0, 5), f.slice(5)])),
      fc.tuple(
        fc.constantFrom(...t.v.families),
        fc.constantFrom(...(t.k === "key" ? KEY_SUFFIXES : URL_SUFFIXES)),
      ).chain(([fam, suf]) => spelt([fam, suf])),
    ).map((name) => ({ t, name }))
  ).filter(({ name }) => !FIXED.includes(name));
  fc.assert(
    fc.property(nearMiss, ({ t, name }) => {
      assert.deepEqual(nearMisses([name, "PATH"], t.v, t.k), [name], `${name} as ${nameOf(t)}`);
    }),
    { numRuns: 2000 },
  );
});

const FAMILY_WORDS = ["INSIDER", "INSIDERS", "PITCH", "PITCHES", "CATALOG", "TRADES"];
const SUFFIX_WORDS = ["API_KEY", "KEY", "TOKEN", "URL", "URI", "HOST", "BASE_URL", "ENDPOINT", ""];
const TOOLS = ["VSCODE", "UNITY", "PYICEBERG", "AWS", "GITHUB", "AZURE", "DATABRICKS", "HF", "NPM"];
const word = (min: number) => fc.stringMatching(new RegExp(`^[A-Z]{${min},7}$`));

/** What the module doc calls another tool's name (the rule, independent of the code's tables). */
function isForeign(name: string): boolean {
  const f = flat(name);
  return FIXED.every((v) => editDistance(f, flat(v), 2) >= 2) &&
    !SERVICES.some((v) =>
      v.families.some((p) =>
        f.startsWith(p) && [...KEY_SUFFIXES, ...URL_SUFFIXES].includes(f.slice(p.length))
      )
    );
}

Deno.test("property: another tool's word first, or a word of its own after the family, never blocks", async () => {
  const foreign = fc.oneof(
    // a tool's own prefix before the family word: VSCODE_INSIDERS_HOST, UNITY_CATALOG_TOKEN
    fc.tuple(
      fc.oneof(fc.constantFrom(...TOOLS), word(3)),
      fc.constantFrom(...FAMILY_WORDS),
      fc.constantFrom(...SUFFIX_WORDS),
    ).map((ws) => ws.filter(Boolean).join("_")),
    // a word of its own after the family: INSIDERS_DB_URL, PITCH_SHIFT_HOST, INSIDER_API_KEY_ID
    fc.tuple(
      fc.constantFrom(...FAMILY_WORDS, "INSIDER_API_KEY", "PITCH_BASE_URL"),
      fc.oneof(
        fc.constantFrom("DB", "SHIFT", "FORK", "ID", "CACHE", "DIR", "SEEN", "MODE"),
        word(2),
      ),
      fc.constantFrom(...SUFFIX_WORDS),
    ).map((ws) => ws.filter(Boolean).join("_")),
    // CATALOG names: CATALOG_URL, PYICEBERG_CATALOG__DEFAULT__URI
    fc.tuple(fc.constantFrom("", ...TOOLS), fc.constantFrom(...SUFFIX_WORDS))
      .map(([a, b]) => [a, "CATALOG", b].filter(Boolean).join("__")),
  ).filter(isForeign);
  fc.assert(
    fc.property(foreign, (name) => {
      assert.deepEqual(missesOf(name), [], name);
    }),
    { numRuns: 2000 },
  );
  // and connect() agrees on a sample
  const sample = fc.sample(foreign, { numRuns: 40, seed: 7 });
  for (const name of sample) assert.equal(await outcome({ [name]: SECRET }), "offline", name);
});

Deno.test("a base URL with a query, fragment or credentials, or not http(s), is an error naming the variable, never its value", async () => {
  const cases: [string, RegExp][] = [
    [`https://api.example.test/insider?tenant=7`, /^INSIDER_BASE_URL holds a query/],
    [`https://api.example.test/insider#frag`, /^INSIDER_BASE_URL holds a fragment/],
    [`https://u:${SECRET}@api.example.test/insider`, /^INSIDER_BASE_URL holds credentials/],
    [`https://${SECRET}@api.example.test/insider`, /^INSIDER_BASE_URL holds credentials/],
    [`file:///insider`, /^INSIDER_BASE_URL has the scheme "file:"/],
    [`api.example.test/insider`, /^INSIDER_BASE_URL is not an absolute URL/],
    [`   `, /^INSIDER_BASE_URL is blank/],
  ];
  for (const [url, want] of cases) {
    const m = await outcome({ INSIDER_API_KEY: SECRET, INSIDER_BASE_URL: url });
    assert.match(m, want, url);
    assert.ok(!m.includes("api.example.test"), `no URL value printed: ${m}`);
  }
});

Deno.test("a blank key, or one with a newline inside, is an error naming the variable, not a TypeError", async () => {
  const url = "https://api.example.test/catalog";
  assert.match(
    await outcome({ PITCH_API_KEY: "   ", PITCH_BASE_URL: url }),
    /^PITCH_API_KEY is blank/,
  );
  assert.match(await outcome({ PITCH_API_KEY: " \t " }), /^PITCH_API_KEY is blank/);
  assert.match(
    await outcome({ PITCH_API_KEY: `${SECRET}\n${SECRET}`, PITCH_BASE_URL: url }),
    /^PITCH_API_KEY holds a newline inside the key/,
  );
  // CR-LF around the key: accepted, trimmed
  const c = await connect({
    env: { PITCH_API_KEY: `${SECRET}\r\n`, PITCH_BASE_URL: `${url}/` },
    quiet: true,
  });
  assert.equal(c.offline.catalog, false);
});
