/**
 * Serving the emulator over loopback.
 *
 * @module
 */
import { createStub, type StubOptions } from "./app.ts";

/**
 * Search rows' texts a served emulator keeps by default: every row of the
 * default world (about 23,000), at most about 110 MB of text in a larger one.
 */
export const SERVER_KEPT_ROWS = 25_000;

/** Options of {@link serveStub}. */
export interface ServeOptions extends StubOptions {
  /** Port (default 8787; 0 picks a free one). */
  port?: number;
  /** Hostname (default 127.0.0.1). */
  hostname?: string;
  /** Abort to stop serving. */
  signal?: AbortSignal;
}

/**
 * Serves both services over HTTP and resolves with the base URL once listening.
 *
 * @example
 * ```ts
 * import { serveStub } from "./serve.ts";
 * const ac = new AbortController();
 * const { url } = await serveStub({ port: 0, signal: ac.signal });
 * console.log(url); // e.g. http://127.0.0.1:40123
 * ac.abort();
 * ```
 */
export function serveStub(
  opts: ServeOptions = {},
): Promise<{ url: string; server: Deno.HttpServer<Deno.NetAddr> }> {
  const ready: { stub?: ReturnType<typeof createStub> } = {};
  const server = Deno.serve({
    port: opts.port ?? 8787,
    hostname: opts.hostname ?? "127.0.0.1",
    signal: opts.signal,
    onListen: () => {},
  }, (req) => ready.stub!.app.fetch(req));
  const { hostname, port } = server.addr;
  const host = hostname === "0.0.0.0" ? "127.0.0.1" : hostname === "::" ? "::1" : hostname;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  // signed document URLs point at this server (or the configured origin), never at a Host header
  // a server process of its own keeps more served rows' texts (see StubOptions.keepServedRows)
  ready.stub = createStub({
    ...opts,
    origin: opts.origin ?? url,
    keepServedRows: opts.keepServedRows ?? SERVER_KEPT_ROWS,
  });
  return Promise.resolve({ url, server });
}
