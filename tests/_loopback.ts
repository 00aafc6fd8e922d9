/** A loopback HTTP server for tests that need real sockets (compression, streaming, CLIs). */

/** A running loopback server. */
export interface Loopback {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  base: string;
  /** Stops the server and waits until it has. */
  close(): Promise<void>;
}

/** Serves `handler` on a free loopback port. */
export function loopback(handler: (req: Request) => Response | Promise<Response>): Loopback {
  const ac = new AbortController();
  const srv = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    handler,
  );
  return {
    base: `http://127.0.0.1:${srv.addr.port}`,
    async close() {
      ac.abort();
      await srv.finished;
    },
  };
}
