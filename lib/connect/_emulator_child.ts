/**
 * The offline emulator as a process of its own, started by `connect()` in a
 * Jupyter kernel (`_emulator_process.ts`): serves both services on a free
 * loopback port, prints its base URL on one line, and exits when its stdin
 * closes (the kernel that started it exited or was restarted).
 *
 * @module
 */
import { serveStub } from "../stub/serve.ts";
import { EMULATOR_ORIGIN } from "./_emulator_process.ts";

if (import.meta.main) {
  const ac = new AbortController();
  const { url, server } = await serveStub({
    port: 0,
    // the in-process emulator's origin: signed document URLs read the same in either
    origin: EMULATOR_ORIGIN,
    // the in-process emulator's bound: this process serves one user's kernel
    keepServedRows: 5_000,
    signal: ac.signal,
  });
  console.log(url);
  // nothing is ever sent on stdin: its end is the parent's
  for await (const _ of Deno.stdin.readable) { /* ignored */ }
  ac.abort();
  await server.finished;
  Deno.exit(0);
}
