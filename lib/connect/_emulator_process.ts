/**
 * The offline emulator out of a Jupyter kernel: inside a kernel, `connect()`
 * without keys reaches the default emulator in a process of its own over
 * loopback instead of in the kernel's own process, because a kernel lives
 * long and keeps what it grows: serving rows builds and serializes them
 * (all 174 fields of every trade served, and the world's column blocks they
 * are read from), and hydrating 400 feed rows in the kernel grew it by
 * about 120 MiB. The answers are the same (the same world, read from the
 * same cache, the same origin for signed document URLs); the kernel keeps
 * the in-process emulator object only for what it knows (`stub.truth`,
 * `stub.world`). `SIGNALBOOK_EMULATOR=in-process` keeps it all in the
 * kernel.
 *
 * @module
 */
import type { FetchLike } from "../http/transport.ts";

/** The origin the emulator answers at, in process or not. */
export const EMULATOR_ORIGIN = "http://signalbook.offline";

let base: Promise<string> | undefined;

/** Starts the emulator process (once per process) and resolves with its base URL. */
function start(): Promise<string> {
  return base ??= (async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./_emulator_child.ts", import.meta.url).pathname],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    // the kernel may exit with the child still running: its stdin then closes and it exits
    child.unref();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) {
        base = undefined;
        throw new Error(`the offline emulator process exited before serving: ${text}`);
      }
      text += value;
    }
    await reader.cancel();
    return text.trim();
  })();
}

/**
 * A fetch that sends requests for {@link EMULATOR_ORIGIN} to the emulator
 * process (started at the first request), and any other URL unchanged.
 */
export function emulatorProcessFetch(): FetchLike {
  return async (input, init) => {
    const req = new Request(input, init);
    if (!req.url.startsWith(EMULATOR_ORIGIN + "/")) return fetch(req);
    const url = (await start()) + req.url.slice(EMULATOR_ORIGIN.length);
    return fetch(new Request(url, req));
  };
}

/**
 * Whether `connect()` runs the default emulator in its own process: inside
 * a Jupyter kernel, unless `SIGNALBOOK_EMULATOR` says `in-process` (or
 * `process` outside one).
 */
export function emulatorInProcess(inKernel: boolean, setting: string | undefined): boolean {
  if (setting === "in-process") return true;
  if (setting === "process") return false;
  return !inKernel;
}
