/**
 * How `connect()` reads its configuration, and why it never answers a live
 * configuration with demo data. Every variable signalbook reads is in one
 * table, `ENV_VARS` (`shared/env.ts`); this module holds the rules of the
 * two services' variables.
 *
 * Each service has two variables: `PITCH_API_KEY` / `PITCH_BASE_URL` and
 * `INSIDER_API_KEY` / `INSIDER_BASE_URL`.
 *
 * | key | base URL | result |
 * | - | - | - |
 * | set | set | the live service, once both values pass the checks below |
 * | set | unset | {@link ConfigurationError}: signalbook does not guess production addresses |
 * | unset | set | {@link ConfigurationError}: a base URL says "live"; demo data would be wrong in silence |
 * | unset | unset | the offline emulator, unless a near-miss name is set (below) |
 *
 * **Values** (`http/_config.ts`), each failure a {@link ConfigurationError}
 * naming the variable, never its value: the key is trimmed (a `.env` saved
 * with CR-LF works), and refused when blank (only whitespace) or holding a
 * newline, NUL, other control character or non-ASCII character inside; the base URL must be an
 * absolute `http(s)` URL without a query, fragment or credentials. An empty
 * variable counts as unset.
 *
 * **Near-miss names.** When a service's key or base URL variable is unset
 * and the environment holds a name that would have been read had it been
 * spelt right, that is a {@link ConfigurationError} naming both (never a
 * value). A name is a near miss of `INSIDER_API_KEY` (likewise for the
 * other three) when, compared in capitals without separators (`_`, `-`,
 * `.`, …):
 * - it is the same name: another case or other separators
 *   (`insider_api_key`, `INSIDER-API-KEY`, `INSIDER_APIKEY`, `InsiderApiKey`);
 * - it is one edit from it: a letter dropped, added or changed, or two
 *   neighbours swapped (`INSIDR_API_KEY`, `INSIDER_API_KEYS`, `INSDIER_API_KEY`);
 * - it is the service's family ({@link ServiceVars.families}: `INSIDER`,
 *   `INSIDERS`, `INSIDERTRADES`, …; `PITCH`, `PITCHES`, `PITCHCATALOG`, …)
 *   followed by nothing but a common suffix of that kind
 *   ({@link KEY_SUFFIXES}: `KEY`, `API`, `TOKEN`, `SECRET`, …;
 *   {@link URL_SUFFIXES}: `URL`, `HOST`, `ENDPOINT`, …): `INSIDER_API`,
 *   `INSIDERTRADES_API_KEY`, `PITCHCATALOG_KEY`, `INSIDER_URL`.
 *
 * Anything else is another tool's and never blocks: a family word after
 * another word (`VSCODE_INSIDERS_HOST`, `UNITY_CATALOG_TOKEN`), a family
 * followed by a word of its own (`INSIDERS_DB_URL`, `PITCH_SHIFT_HOST`,
 * `INSIDER_API_KEY_ID`, two edits away), and `CATALOG_…` names
 * (`CATALOG_URL`, `PYICEBERG_CATALOG__DEFAULT__URI`): "catalog" alone is
 * too common a word to claim. This applies whatever `quiet` says: `quiet`
 * silences the emulator notice, never an error.
 *
 * Names are listed from the process environment (`Deno.env.toObject()`, when
 * allowed), or from the keys of an `env` record passed to `connect()`; an
 * `env` function cannot list names, so no near-miss check runs for it.
 *
 * @module
 */
import { ConfigurationError } from "../http/errors.ts";
import { checkApiKey, checkBaseUrl } from "../http/_config.ts";
import { type Env, type EnvSource, readEnvironment } from "../shared/env.ts";
import { editDistance } from "../shared/suggest.ts";

export { ConfigurationError, readEnvironment };
export type { Env, EnvSource };

/** The two variables of a service. */
export interface ServiceVars {
  /** The key variable, e.g. `INSIDER_API_KEY`. */
  key: "INSIDER_API_KEY" | "PITCH_API_KEY";
  /** The base URL variable, e.g. `INSIDER_BASE_URL`. */
  url: "INSIDER_BASE_URL" | "PITCH_BASE_URL";
  /**
   * How the service's variables begin, in capitals without separators
   * (`INSIDER`, `INSIDERTRADES`; `PITCH`, `PITCHCATALOG`): a family followed
   * by a common suffix is a near miss (see the module doc).
   */
  families: readonly string[];
}

/** The fixed variables of both services. */
export const SERVICE_VARS: { readonly catalog: ServiceVars; readonly insider: ServiceVars } = {
  catalog: {
    key: "PITCH_API_KEY",
    url: "PITCH_BASE_URL",
    families: ["PITCH", "PITCHES", "PITCHCATALOG", "PITCHCATALOGUE", "PITCHESCATALOG"],
  },
  insider: {
    key: "INSIDER_API_KEY",
    url: "INSIDER_BASE_URL",
    families: ["INSIDER", "INSIDERS", "INSIDERTRADE", "INSIDERTRADES", "INSIDERTRADING"],
  },
};

/** Common suffixes of a key variable, in capitals without separators. */
export const KEY_SUFFIXES: readonly string[] = [
  "KEY",
  "APIKEY",
  "API",
  "TOKEN",
  "APITOKEN",
  "SECRET",
  "APISECRET",
  "SECRETKEY",
  "ACCESSKEY",
  "ACCESSTOKEN",
  "AUTHTOKEN",
  "BEARERTOKEN",
];

/** Common suffixes of an address variable, in capitals without separators. */
export const URL_SUFFIXES: readonly string[] = [
  "URL",
  "URI",
  "BASEURL",
  "BASEURI",
  "BASE",
  "APIURL",
  "APIURI",
  "APIBASEURL",
  "HOST",
  "APIHOST",
  "ENDPOINT",
  "APIENDPOINT",
  "ADDR",
  "ADDRESS",
  "SERVER",
  "SERVERURL",
  "SERVICEURL",
];

const FIXED = new Set<string>(Object.values(SERVICE_VARS).flatMap((v) => [v.key, v.url]));

/** A name in capitals without separators: `insider-api_key` → `INSIDERAPIKEY`. */
const flat = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "");

/**
 * The API keys set in `env` (both services', catalog first), each as the
 * client reads it (trimmed; blank ones left out): what a redactor of the
 * environment's keys hides.
 *
 * @example
 * ```ts
 * import { envKeys, readEnvironment } from "./env.ts";
 * envKeys(readEnvironment({ INSIDER_API_KEY: " sk-1234 \r\n", PITCH_API_KEY: " " })); // ["sk-1234"]
 * ```
 */
export function envKeys(env: Env): string[] {
  return Object.values(SERVICE_VARS).map((v) => env.get(v.key)?.trim())
    .filter((k): k is string => k !== undefined && k.length > 0);
}

/**
 * Names in `names` that would have been read as `vars`' key (or base URL)
 * had they been spelt right (see the module doc), never the fixed
 * variables themselves.
 *
 * @example
 * ```ts
 * import { nearMisses, SERVICE_VARS } from "./env.ts";
 * nearMisses(["INSIDER_APIKEY", "PATH", "insider_key", "INSIDER_API_KEY_ID"], SERVICE_VARS.insider, "key");
 * // ["INSIDER_APIKEY", "insider_key"]
 * ```
 */
export function nearMisses(
  names: readonly string[],
  vars: ServiceVars,
  kind: "key" | "url",
): string[] {
  const want = flat(kind === "key" ? vars.key : vars.url);
  const suffixes = kind === "key" ? KEY_SUFFIXES : URL_SUFFIXES;
  return names.filter((name) => {
    if (FIXED.has(name)) return false;
    const f = flat(name);
    if (editDistance(f, want, 1) <= 1) return true;
    return vars.families.some((p) => f.startsWith(p) && suffixes.includes(f.slice(p.length)));
  });
}

/** What `connect()` makes of one service's variables. */
export type ServiceConfig =
  | { live: true; apiKey: string; baseUrl: string }
  | { live: false };

/**
 * One service's configuration, by the table in the module doc, or a
 * {@link ConfigurationError} naming the variables (never a value).
 *
 * @example
 * ```ts
 * import { readEnvironment, serviceConfig, SERVICE_VARS } from "./env.ts";
 * const env = readEnvironment({ INSIDER_API_KEY: "k\r\n", INSIDER_BASE_URL: "https://x.test/insider" });
 * serviceConfig(env, SERVICE_VARS.insider); // { live: true, apiKey: "k", baseUrl: "https://x.test/insider" }
 * serviceConfig(env, SERVICE_VARS.catalog); // { live: false }
 * ```
 */
export function serviceConfig(env: Env, vars: ServiceVars): ServiceConfig {
  const apiKey = env.get(vars.key);
  const baseUrl = env.get(vars.url);
  const kinds = ["key", "url"] as const;
  const near = Object.fromEntries(kinds.map((k) => [k, nearMisses(env.names ?? [], vars, k)]));
  const areSet = (names: string[]) => `${names.join(", ")} ${names.length > 1 ? "are" : "is"} set`;
  const hint = (k: "key" | "url") =>
    near[k].length ? ` (${areSet(near[k])}: did you mean ${vars[k]}?)` : "";
  const offlineHow = `unset ${vars.url} and ${vars.key} to use the offline emulator`;
  if (apiKey && baseUrl) {
    return {
      live: true,
      apiKey: checkApiKey(apiKey, vars.key),
      baseUrl: checkBaseUrl(baseUrl, vars.url),
    };
  }
  if (apiKey) {
    checkApiKey(apiKey, vars.key);
    throw new ConfigurationError(
      `${vars.key} is set but ${vars.url} is not; set both${hint("url")}. ` +
        `signalbook does not guess production addresses.`,
    );
  }
  if (baseUrl) {
    throw new ConfigurationError(
      `${vars.url} is set but ${vars.key} is not${hint("key")}; set both, or ${offlineHow}. ` +
        `A base URL asks for the live service, so signalbook will not answer with demo data.`,
    );
  }
  const misses = [...near.key, ...near.url];
  if (misses.length) {
    const meant = kinds.filter((k) => near[k].length).map((k) => vars[k]).join(" and ");
    const them = misses.length > 1 ? "them" : "it";
    throw new ConfigurationError(
      `${areSet(misses)}, but signalbook reads ` +
        `${vars.key} and ${vars.url}: did you mean ${meant}? Rename ${them}, or unset ${them} ` +
        `to use the offline emulator.`,
    );
  }
  return { live: false };
}
