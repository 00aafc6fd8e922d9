/**
 * Notices: informational messages (the offline emulator is in use, …), as
 * opposed to warnings about something wrong.
 *
 * In a Jupyter kernel a notice is printed on stdout, which front ends show
 * as plain text under the cell; stderr would be a red (JupyterLab: pink)
 * block that reads as an error. Elsewhere it goes to stderr, the usual
 * place for a program's remarks, so a script's stdout stays its data.
 * Real warnings keep using `console.warn`.
 *
 * @module
 */
import { inJupyter } from "./jupyter.ts";

/**
 * Prints an informational notice: a quiet note in a notebook, stderr elsewhere.
 *
 * @example
 * ```ts
 * import { notice } from "./notice.ts";
 * notice("signalbook: using the offline emulator (demo data)."); // stderr under deno run
 * ```
 */
export function notice(message: string): void {
  if (inJupyter()) console.log(message);
  else console.error(message);
}
