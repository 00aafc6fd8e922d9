/**
 * How `connect()` reads its configuration, and why it never answers a live
 * configuration with demo data.
 *
 * Each service has two variables: `PITCH_API_KEY` / `PITCH_BASE_URL` and
 * `INSIDER_API_KEY` / `INSIDER_BASE_URL`.
 *
 * | key | base URL | result |
 * | - | - | - |
 * | set | set | the live service |
 * | set | unset | {@link ConfigurationError}: signalbook does not guess production addresses |
 * | unset | set | {@link ConfigurationError}: a base URL says "live"; demo data would be wrong in silence |
 * | unset | unset | the offline emulator, unless a near-miss name is set (below) |
 *
 * **Near-miss names.** When a service's key or base URL variable is unset
 * but the environment holds a name close to it, that is a
 * {@link ConfigurationError} naming both (never a value): the same name in
 * another case (`insider_api_key`), with other separators (`INSIDER_APIKEY`,
 * `INSIDER-API-KEY`), within two letters of it (`INSIDR_API_KEY`), or a name
 * whose words are the service's (`INSIDER`; `PITCH` or `CATALOG` for the
 * catalog) and a key word (`KEY`, `TOKEN`, `SECRET`: `INSIDER_KEY`,
 * `CATALOG_API_KEY`) or an address word (`URL`, `URI`, `HOST`,
 * `ENDPOINT`, `BASE`: `INSIDER_URL`). An empty variable counts as unset.
 * This applies whatever `quiet` says: `quiet` silences the emulator notice,
 * never an error.
 *
 * Names are listed from the process environment (`Deno.env.toObject()`, when
 * allowed), or from the keys of an `env` record passed to `connect()`; an
 * `env` function cannot list names, so no near-miss check runs for it.
 *
 * @module
 */
import { SignalbookError } from "../http/errors.ts";

/** The configuration in the environment is incomplete or misspelt (no value is ever printed). */
export class ConfigurationError extends SignalbookError {}

/** The two variables of a service. */
export interface ServiceVars {
  /** The key variable, e.g. `INSIDER_API_KEY`. */
  key: string;
  /** The base URL variable, e.g. `INSIDER_BASE_URL`. */
  url: string;
  /** Words that name the service in a variable (`INSIDER`; `PITCH`, `CATALOG`). */
  words: readonly string[];
}

/** The fixed variables of both services. */
export const SERVICE_VARS: { readonly catalog: ServiceVars; readonly insider: ServiceVars } = {
  catalog: { key: "PITCH_API_KEY", url: "PITCH_BASE_URL", words: ["PITCH", "PITCHES", "CATALOG"] },
  insider: { key: "INSIDER_API_KEY", url: "INSIDER_BASE_URL", words: ["INSIDER", "INSIDERS"] },
};

const ALL_VARS = new Set(Object.values(SERVICE_VARS).flatMap((v) => [v.key, v.url]));
const KEY_WORDS = ["KEY", "TOKEN", "SECRET"];
const URL_WORDS = ["URL", "URI", "HOST", "ENDPOINT", "BASE", "ADDR"];

/** An environment: a lookup, or a record (whose names can be listed). */
export type EnvSource =
  | ((name: string) => string | undefined)
  | Readonly<Record<string, string | undefined>>;

/** A readable environment: values by name, and the names set (when they can be listed). */
export interface Env {
  /** The value of a variable; empty counts as unset. */
  get(name: string): string | undefined;
  /** Names set to a non-empty value, or undefined when they cannot be listed. */
  names: readonly string[] | undefined;
}

/** The environment `connect()` reads (see the module doc). */
export function readEnvironment(source?: EnvSource): Env {
  if (typeof source === "function") {
    return { get: (n) => source(n) || undefined, names: undefined };
  }
  if (source !== undefined) {
    const rec = source;
    return {
      get: (n) => (Object.hasOwn(rec, n) ? rec[n] : undefined) || undefined,
      names: Object.keys(rec).filter((n) => rec[n]),
    };
  }
  let names: string[] | undefined;
  try {
    const all = Deno.env.toObject();
    names = Object.keys(all).filter((n) => all[n]);
  } catch {
    names = undefined; // no permission to list: only the named variables are read
  }
  return {
    get: (n) => {
      try {
        return Deno.env.get(n) || undefined;
      } catch {
        return undefined;
      }
    },
    names,
  };
}

const flat = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "");

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Names in `names` close to `target` (see the module doc), never the fixed
 * variables themselves.
 *
 * @example
 * ```ts
 * import { nearMisses, SERVICE_VARS } from "./env.ts";
 * nearMisses(["INSIDER_APIKEY", "PATH", "insider_key"], SERVICE_VARS.insider, "key");
 * // ["INSIDER_APIKEY", "insider_key"]
 * ```
 */
export function nearMisses(
  names: readonly string[],
  vars: ServiceVars,
  kind: "key" | "url",
): string[] {
  const target = kind === "key" ? vars.key : vars.url;
  const want = flat(target);
  const kindWords = kind === "key" ? KEY_WORDS : URL_WORDS;
  const otherWords = kind === "key" ? URL_WORDS : KEY_WORDS;
  return names.filter((name) => {
    if (ALL_VARS.has(name)) return false;
    const f = flat(name);
    if (f === want || (f.length > 4 && levenshtein(f, want) <= 2)) return true;
    const words = name.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
    if (!words.some((w) => vars.words.includes(w))) return false;
    const has = (list: readonly string[]) => words.some((w) => list.some((k) => w.includes(k)));
    return has(kindWords) && !has(otherWords);
  });
}

/** What `connect()` makes of one service's variables. */
export type ServiceConfig =
  | { live: true; apiKey: string; baseUrl: string }
  | { live: false };

const list = (names: readonly string[]) => names.join(", ");

/**
 * One service's configuration, by the table in the module doc, or a
 * {@link ConfigurationError} naming the variables (never a value).
 *
 * @example
 * ```ts
 * import { readEnvironment, serviceConfig, SERVICE_VARS } from "./env.ts";
 * const env = readEnvironment({ INSIDER_API_KEY: "k", INSIDER_BASE_URL: "https://x.test/insider" });
 * serviceConfig(env, SERVICE_VARS.insider); // { live: true, apiKey: "k", baseUrl: "https://x.test/insider" }
 * serviceConfig(env, SERVICE_VARS.catalog); // { live: false }
 * ```
 */
export function serviceConfig(env: Env, vars: ServiceVars): ServiceConfig {
  const apiKey = env.get(vars.key);
  const baseUrl = env.get(vars.url);
  const near = (kind: "key" | "url") => env.names ? nearMisses(env.names, vars, kind) : [];
  const hint = (kind: "key" | "url") => {
    const n = near(kind);
    return n.length
      ? ` (${list(n)} ${n.length > 1 ? "are" : "is"} set: did you mean ${
        kind === "key" ? vars.key : vars.url
      }?)`
      : "";
  };
  const offlineHow = `unset ${vars.url} and ${vars.key} to use the offline emulator`;
  if (apiKey && baseUrl) return { live: true, apiKey, baseUrl };
  if (apiKey) {
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
  const misses = [...near("key"), ...near("url")];
  if (misses.length) {
    const meant = [near("key").length ? vars.key : "", near("url").length ? vars.url : ""]
      .filter(Boolean).join(" and ");
    const them = misses.length > 1 ? "them" : "it";
    throw new ConfigurationError(
      `${list(misses)} ${misses.length > 1 ? "are" : "is"} set, but signalbook reads ` +
        `${vars.key} and ${vars.url}: did you mean ${meant}? Rename ${them}, or unset ${them} ` +
        `to use the offline emulator.`,
    );
  }
  return { live: false };
}
