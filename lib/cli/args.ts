/**
 * Flag parsing and failure reporting for the command-line tasks.
 *
 * - {@link parseFlags}: `node:util` parseArgs (tokens), every problem with
 *   the flags collected — unknown flags (with close matches), missing values,
 *   stray arguments, a flag given twice — so that all bad flags are reported at once.
 * - {@link Flags}: checks of flag values that add to the same list.
 * - {@link usageError}: prints every problem and one line naming `--help`
 *   (not the whole help, which would push the problem off the screen),
 *   exits with code 2.
 * - {@link Flags.run}: runs a command; a runtime failure prints ONE line (what
 *   failed, which flag or path, what to do) and exits with code 1, never a
 *   stack — unless `--debug` is given, which prints the stack too.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closeMatches, didYouMean } from "../shared/suggest.ts";
import { optionProblem } from "../shared/options.ts";
import { isIsoDate } from "../shared/schema.ts";
import { redactKnownKeys, type Redactor, redactorFor } from "../http/_redact.ts";
import { envKeys, readEnvironment, SERVICE_VARS } from "../connect/env.ts";
import {
  AuthenticationError,
  ConnectionError,
  InvalidResponseError,
  PermissionDeniedError,
  PremiumRequiredError,
  ProblemError,
  RequestValidationError,
  TimeoutError,
} from "../http/errors.ts";
import { DiskFullError, isNoSpace } from "../store/disk.ts";
import { DatasetLockedError } from "../store/lock.ts";
import { oneLine } from "../doctor/_diagnosis.ts";

/** How to ask for the help: `Run "deno task backtest --help" for every flag.` */
export function helpHint(command: string): string {
  return `Run "deno task ${command} --help" for every flag.`;
}

/**
 * Prints the problem(s) with the flags, then one line naming `--help`, and
 * exits with code 2. The help itself is not printed: 45 lines of it would
 * push the problem off the screen.
 */
export function usageError(command: string, message: string | string[]): never {
  const lines = Array.isArray(message) ? message : [message];
  console.error(
    `${command}:${lines.length === 1 ? ` ${lines[0]}` : lines.map((l) => `\n  - ${l}`).join("")}\n${
      helpHint(command)
    }`,
  );
  Deno.exit(2);
}

type Options = NonNullable<ParseArgsConfig["options"]>;
/** Parsed flag values, plus the always-accepted `--help` and `--debug`. */
export type Values<T extends Options> =
  & ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>["values"]
  & { help?: boolean; debug?: boolean };

/**
 * Flag values and the problems found so far. Add your own checks with the
 * helpers; {@link Flags.done} exits with code 2 listing every problem.
 */
export class Flags<T extends Options> {
  /** Parsed values (flags with a problem are left out). */
  readonly values: Values<T>;
  /** Every problem found, one line each. */
  readonly issues: string[];
  readonly #command: string;

  /** Wraps parsed values. */
  constructor(command: string, values: Values<T>, issues: string[]) {
    this.#command = command;
    this.values = values;
    this.issues = issues;
  }

  /** Records a problem. */
  fail(message: string): void {
    this.issues.push(message);
  }

  /**
   * A whole number from `lo` to `hi` written in plain decimal digits
   * (`0x10`, `1e3`, `1.0`, ` 5` are refused), or `def` when not given.
   */
  int(name: string, raw: string | undefined, def: number, lo: number, hi: number): number {
    return this.#number(name, raw, def, [lo, hi], true);
  }

  /** A decimal number from `lo` to `hi` (`12`, `2.5`; no hex, exponents or blanks). */
  num(name: string, raw: string | undefined, def: number, lo: number, hi: number): number {
    return this.#number(name, raw, def, [lo, hi], false);
  }

  #number(name: string, raw: string | undefined, def: number, [lo, hi]: number[], int: boolean) {
    if (raw === undefined) return def;
    const n = (int ? /^[0-9]+$/ : /^[0-9]+(\.[0-9]+)?$/).test(raw) ? Number(raw) : NaN;
    if (n >= lo && n <= hi) return n;
    const allowed = int
      ? `an integer from ${lo} to ${hi} in decimal digits`
      : `a number from ${lo} to ${hi}`;
    this.fail(`--${optionProblem(name, raw, allowed)}`);
    return def;
  }

  /** A folder to write into (`--out`, `--dir`), or `def` when not given; a blank one is a problem. */
  dir(name: string, raw: string | undefined, def: string): string {
    if (raw?.trim() === "") this.fail(`--${optionProblem(name, raw, "a directory path")}`);
    return raw ?? def;
  }

  /**
   * `--from` and `--to` dates (`YYYY-MM-DD`, either may be absent), the
   * first not after the second.
   */
  dates(from: string | undefined, to: string | undefined): void {
    for (const [k, v] of [["from", from], ["to", to]] as const) {
      if (v !== undefined && !isIsoDate(v)) {
        this.fail(`--${optionProblem(k, v, "a date YYYY-MM-DD")}`);
      }
    }
    if (from && to && isIsoDate(from) && isIsoDate(to) && from > to) {
      this.fail(`--from ${from} is after --to ${to}; give --from on or before --to`);
    }
  }

  /**
   * A comma-separated list of allowed values; unknown and repeated items are
   * problems (repeats are rejected, not silently de-duplicated).
   */
  list<V extends string>(name: string, raw: string, allowed: readonly V[]): V[] {
    const items = raw.split(",").map((s) => s.trim());
    const seen = new Set<string>();
    for (const item of items) {
      if (!(allowed as readonly string[]).includes(item)) {
        this.fail(notAllowed(`${name}:`, item, allowed));
      } else if (seen.has(item)) {
        this.fail(`--${name}: ${JSON.stringify(item)} is given twice; give each once`);
      }
      seen.add(item);
    }
    return [...seen].filter((i) => (allowed as readonly string[]).includes(i)) as V[];
  }

  /**
   * One of `allowed`, or `def` when not given; anything else is a problem
   * naming the value, what is allowed and the close matches.
   */
  oneOf<V extends string>(name: string, raw: string | undefined, allowed: readonly V[], def: V): V {
    if (raw === undefined) return def;
    if ((allowed as readonly string[]).includes(raw)) return raw as V;
    this.fail(notAllowed(name, raw, allowed));
    return def;
  }

  /**
   * What `read()` returns (a flag read by a parser of its own, such as the
   * emulator's dialects), or `fallback` with the message it throws, after
   * `prefix`, as a problem.
   */
  attempt<V>(read: () => V, fallback: V, prefix = ""): V {
    try {
      return read();
    } catch (e) {
      this.fail(prefix + (e as Error).message);
      return fallback;
    }
  }

  /** Exits with code 2 listing every problem, if there is any. */
  done(): void {
    if (this.issues.length) usageError(this.#command, this.issues);
  }

  /**
   * Runs the command's `main` once the flags hold no problem ({@link Flags.done})
   * and every folder of `paths` (see {@link FailureContext}) is checked
   * writable: a failure prints one line (see {@link describeFailure}) and
   * exits with code 1; with `--debug` the stack follows.
   */
  async run(main: () => Promise<void>, paths?: Record<string, string>): Promise<void> {
    this.done();
    try {
      for (const [flag, path] of Object.entries(paths ?? {})) {
        const bad = await checkWritableDir(flag, path);
        if (bad) throw new CliError(bad);
      }
      await main();
    } catch (e) {
      // the clients already keep their keys out of errors; this also covers any other message
      const clean = redactEnvKeys();
      console.error(clean(describeFailure(this.#command, e, { paths })));
      if (this.values.debug) {
        console.error(clean(String(e instanceof Error ? e.stack : e)));
        if (e instanceof AggregateError) { for (const x of e.errors) console.error(x?.stack ?? x); }
      }
      Deno.exit(1);
    }
  }
}

/**
 * `--name "value" is not allowed; allowed: a, b (did you mean "b"?)`.
 *
 * @example
 * ```ts
 * import { notAllowed } from "./args.ts";
 * notAllowed("entry", "filng", ["trade", "filing"]);
 * // '--entry "filng" is not allowed; allowed: trade, filing (did you mean "filing"?)'
 * ```
 */
export function notAllowed(name: string, raw: string, allowed: readonly string[]): string {
  return `--${optionProblem(name, raw, allowed.join(", "))}${didYouMean(raw, allowed, 3)}`;
}

/**
 * Parses flags; every unknown flag, missing value or stray argument is
 * collected (see {@link Flags}). `--help` and `--debug` are always accepted;
 * `--help` prints `help` and exits 0. With `positionals`, the arguments
 * that are not flags are collected there instead of being problems.
 */
export function parseFlags<T extends Options>(
  command: string,
  help: string,
  options: T,
  args: string[] = Deno.args,
  positionals?: string[],
): Flags<T> {
  // a command may give its own --help (e.g. with a short -h)
  const all: Options = {
    help: { type: "boolean" },
    debug: { type: "boolean" },
    ...options,
  };
  const issues: string[] = [];
  const { tokens } = parseArgs({
    args,
    options: all,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, unknown> = {};
  const names = Object.keys(all);
  // the index of the argument after an unknown `--name`: taken as its value, not a stray
  let valueOfUnknown = -1;
  for (const t of tokens) {
    if (t.kind === "positional" && t.index === valueOfUnknown) continue;
    if (t.kind === "positional") {
      if (positionals) positionals.push(t.value);
      else {
        issues.push(`unexpected argument ${JSON.stringify(t.value)}; flags look like --name value`);
      }
      continue;
    }
    if (t.kind !== "option") continue;
    const spec = all[t.name];
    if (!spec) {
      if (!t.inlineValue) valueOfUnknown = t.index + 1;
      const near = closeMatches(t.name, names, 3);
      issues.push(
        `Unknown option '${t.rawName}'${
          near.length ? `; did you mean ${near.map((n) => `--${n}`).join(" or ")}?` : ""
        }`,
      );
      continue;
    }
    if (spec.type === "string") {
      if (t.value === undefined) {
        issues.push(`Option '--${t.name} <value>' argument missing`);
        continue;
      }
      if (spec.multiple) ((values[t.name] ??= []) as string[]).push(t.value);
      else if (t.name in values) {
        // which one was meant is a guess: the second is refused, not taken in silence
        issues.push(`--${t.name} is given twice (${values[t.name]}, ${t.value}); give it once`);
      } else values[t.name] = t.value;
    } else {
      if (t.value !== undefined) {
        issues.push(
          `Option '--${t.name}' does not take an argument (got ${JSON.stringify(t.value)})`,
        );
        continue;
      }
      values[t.name] = true;
    }
  }
  // --help wins over any other problem: print the help text and stop
  if (values.help) {
    console.log(help);
    Deno.exit(0);
  }
  return new Flags(command, values as Values<T>, issues);
}

/** A failure whose message is already the one line to print (after the command name). */
export class CliError extends Error {}

/** Where a failure is about, to name the flag or variable to fix. */
export interface FailureContext {
  /**
   * Flags whose values are the folders the command writes into, e.g.
   * `{ "--out": "out/" }`: each is checked ({@link checkWritableDir}) before
   * the command starts, and a file system failure names the first (each
   * command has one).
   */
  paths?: Record<string, string>;
}

function keyVarOf(e: ProblemError): string {
  return /\/(pitches|tags|filter-sets)\b/.test(e.url) || /\/catalog\b/.test(e.url)
    ? SERVICE_VARS.catalog.key
    : SERVICE_VARS.insider.key;
}

/**
 * One line describing a failure: what failed, which flag, path or setting,
 * and what to do. An `AggregateError` is shown by its first error and a count
 * (its summary alone when it holds one distinct error).
 */
export function describeFailure(
  command: string,
  error: unknown,
  ctx: FailureContext = {},
): string {
  if (error instanceof AggregateError && error.errors.length) {
    const n = error.errors.length;
    const head = oneLine(error.message);
    const first = describeFailure(command, error.errors[0], ctx).replace(`${command}: `, "");
    return n === 1
      ? `${command}: ${first} (${head})`
      : `${command}: ${first} (first of ${n} failures: ${head})`;
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const fsPath = (e as { path?: string }).path ??
    /'([^']+)'\s*$/.exec(e.message)?.[1]; // Deno: "… (os error 28): writefile '/path'"
  const flag = Object.keys(ctx.paths ?? {})[0]; // each command writes under one folder flag
  // where a file system failure happened: ` /out/x (--out)`, and what to choose instead
  const named = flag ? ` (${flag})` : "";
  const [at, dir] = [`${fsPath ? ` ${fsPath}` : ""}${named}`, flag ?? "directory"];
  const line = e instanceof CliError
    ? e.message
    : e instanceof AuthenticationError
    ? `the service refused the API key (${e.status} ${e.detail}); check ${keyVarOf(e)}`
    : e instanceof PremiumRequiredError
    ? `the Premium membership of ${
      keyVarOf(e)
    } has lapsed (${e.status}); renew it or use another key`
    : e instanceof PermissionDeniedError
    ? `access denied (${e.status} ${e.detail}); check ${keyVarOf(e)} and its plan`
    : e instanceof ProblemError
    ? `the service answered ${e.status} ${e.title}: ${e.detail} (${e.method} ${e.url})${
      e.status >= 500 || e.status === 429 ? "; try again later" : ""
    }`
    : e instanceof TimeoutError
    ? `${oneLine(e.message)}; the service is slow or unreachable, try again later`
    : e instanceof ConnectionError
    ? `${
      oneLine(e.message)
    }; check PITCH_BASE_URL / INSIDER_BASE_URL (host name, port) and the network`
    : e instanceof InvalidResponseError || e instanceof RequestValidationError
    ? oneLine(e.message)
    : e instanceof DiskFullError || e instanceof DatasetLockedError
    ? oneLine(e.message).replace(/^\w+: /, "") // it names the path (and free space or holder)
    : isNoSpace(e)
    ? `the disk is full while writing${at}; free some space or choose another ${dir}`
    : e instanceof Deno.errors.PermissionDenied || /EACCES|os error 13/.test(e.message)
    ? `permission denied writing${at}; choose a writable ${dir}`
    : e instanceof Deno.errors.NotADirectory || /ENOTDIR|os error 20/.test(e.message)
    ? `${fsPath ?? "a path"}${named} is not a directory; choose a directory`
    : oneLine(e.message) || e.name;
  return `${command}: ${line}`;
}

/**
 * A redactor of the API keys in the environment (see `http/_redact.ts`),
 * each as the client reads it (trimmed), and of every key a client of this
 * process was made with.
 */
function redactEnvKeys(): Redactor {
  const keys = envKeys(readEnvironment()).map((k) => redactorFor(k));
  return (text) => keys.reduce((t, r) => r(t), redactKnownKeys(text));
}

/**
 * Checks before any pull that `path` can be a directory we write into:
 * not a file, not a symlink to nothing, creatable, writable. Returns a
 * one-line problem naming `path` (throw it as a {@link CliError}), or
 * undefined.
 */
export async function checkWritableDir(flag: string, path: string): Promise<string | undefined> {
  const named = `${flag} ${JSON.stringify(path)}`;
  const link = await Deno.lstat(path).catch(() => null);
  const target = link?.isSymlink ? await Deno.readLink(path).catch(() => "?") : "";
  try {
    if (link && !(await Deno.stat(path)).isDirectory) {
      return `${named} is a file, not a directory; choose a directory`;
    }
    await Deno.mkdir(path, { recursive: true });
    await Deno.remove(await Deno.makeTempFile({ dir: path, prefix: ".signalbook-write-check-" }));
  } catch (e) {
    const err = e as Error;
    if (
      link?.isSymlink &&
      (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.AlreadyExists)
    ) {
      return `${named} is a symlink to ${JSON.stringify(target)}, which does not exist; ` +
        `choose a directory, or make ${JSON.stringify(target)} first`;
    }
    const why = err instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : err instanceof Deno.errors.NotADirectory || /os error 20/.test(err.message)
      ? "a part of the path is a file"
      : oneLine(err.message);
    return `${named} is not writable (${why}); choose a writable directory`;
  }
  return undefined;
}
