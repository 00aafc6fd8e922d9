/**
 * Flag parsing for the command-line tasks: `node:util` parseArgs, and a
 * usage error that exits with code 2 and a message naming the bad flag.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Prints a usage error naming the problem, then the help, and exits with code 2. */
export function usageError(command: string, message: string, help: string): never {
  console.error(`${command}: ${message}\n\n${help}`);
  Deno.exit(2);
}

/** Parses flags strictly; an unknown flag or missing value exits with code 2. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  help: string,
  options: T,
  args: string[] = Deno.args,
): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>["values"] {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    return usageError(command, (e as Error).message, help);
  }
}
