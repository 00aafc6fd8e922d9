/**
 * Every environment variable signalbook reads, in one table
 * ({@link ENV_VARS}), and the one way to read them ({@link readEnvironment}).
 * `connect/env.ts` holds the rules of the two services' variables.
 *
 * | variable | read by | default |
 * | - | - | - |
 * | `PITCH_API_KEY`, `PITCH_BASE_URL` | `connect()`, the CLIs | unset: the offline emulator |
 * | `INSIDER_API_KEY`, `INSIDER_BASE_URL` | `connect()`, the CLIs | unset: the offline emulator |
 * | `SIGNALBOOK_PYTHON` | notebook execution | `/usr/bin/python3` |
 * | `INIT_CWD` | `deno task notebooks` (the folder the task was started in) | the current folder |
 * | `XDG_CACHE_HOME`, `LOCALAPPDATA`, `HOME` | the emulator's world cache folder (`stub/world_cache.ts`, only where reading needs no prompt) | no cache folder |
 *
 * A variable set to the empty string counts as unset. A process without
 * permission to read the environment reads every variable as unset.
 *
 * @module
 */

/** The variables signalbook reads, with their defaults (see the module doc). */
export const ENV_VARS = {
  PITCH_API_KEY: { default: undefined, about: "the pitch catalog's API key" },
  PITCH_BASE_URL: { default: undefined, about: "the pitch catalog's address" },
  INSIDER_API_KEY: { default: undefined, about: "the insider-trades service's API key" },
  INSIDER_BASE_URL: { default: undefined, about: "the insider-trades service's address" },
  SIGNALBOOK_PYTHON: { default: "/usr/bin/python3", about: "the python3 that has nbclient" },
  INIT_CWD: { default: undefined, about: "the folder `deno task` was started in" },
  XDG_CACHE_HOME: { default: undefined, about: "where the emulator caches its worlds" },
  LOCALAPPDATA: { default: undefined, about: "where the emulator caches its worlds (Windows)" },
  HOME: { default: undefined, about: "where the emulator caches its worlds (~/.cache)" },
} as const satisfies Record<string, { default: string | undefined; about: string }>;

/** A variable of {@link ENV_VARS}. */
export type EnvVar = keyof typeof ENV_VARS;

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

/**
 * An environment to read (default the process environment, tolerant of a
 * missing permission).
 *
 * @example
 * ```ts
 * import { readEnvironment } from "./env.ts";
 * readEnvironment({ INSIDER_API_KEY: "k", X: "" }).names; // ["INSIDER_API_KEY"]
 * ```
 */
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

/**
 * One variable of {@link ENV_VARS} from the process environment, or its default.
 *
 * @example
 * ```ts
 * import { envVar } from "./env.ts";
 * envVar("SIGNALBOOK_PYTHON"); // "/usr/bin/python3" unless set
 * ```
 */
export function envVar<V extends EnvVar>(
  name: V,
  env: Env = readEnvironment(),
): string | (typeof ENV_VARS)[V]["default"] {
  return env.get(name) ?? ENV_VARS[name].default;
}
