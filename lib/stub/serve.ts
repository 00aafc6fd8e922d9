/**
 * Serving the emulator over loopback.
 *
 * @module
 */
import { createStub, type StubOptions } from "./app.ts";

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
  const stub = createStub(opts);
  const server = Deno.serve({
    port: opts.port ?? 8787,
    hostname: opts.hostname ?? "127.0.0.1",
    signal: opts.signal,
    onListen: () => {},
  }, stub.app.fetch);
  const { hostname, port } = server.addr;
  return Promise.resolve({ url: `http://${hostname}:${port}`, server });
}
