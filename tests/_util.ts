/** Small helpers shared by the client tests. */
import type { Stub } from "../lib/stub/mod.ts";

/** The error `f` throws synchronously, or undefined. */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** A fetch into the stub that counts the requests it serves. */
export function countingFetch(stub: Stub): {
  fetch: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  count: { n: number };
} {
  const count = { n: 0 };
  return {
    count,
    fetch: (input, init) => {
      count.n++;
      return stub.fetch(input, init);
    },
  };
}

/**
 * The shared test setup: an in-process emulator and both clients on it
 * (demo keys), so test files do not repeat the wiring. `wrap` can decorate
 * the emulator's fetch (to count or fail requests).
 */
export async function offline(
  stubOptions: import("../lib/stub/mod.ts").StubOptions = { seed: 1, scale: 0.1 },
  wrap: (f: Stub["fetch"]) => Stub["fetch"] = (f) => f,
): Promise<{
  stub: Stub;
  insider: import("../mod.ts").InsiderClient;
  catalog: import("../mod.ts").CatalogClient;
}> {
  const { createStub, DEMO_KEYS } = await import("../lib/stub/mod.ts");
  const { CatalogClient, InsiderClient } = await import("../mod.ts");
  const stub = createStub(stubOptions);
  const fetch = wrap(stub.fetch);
  return {
    stub,
    insider: new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://s/insider", fetch }),
    catalog: new CatalogClient({ apiKey: DEMO_KEYS.catalog, baseUrl: "http://s/catalog", fetch }),
  };
}

/**
 * The first line a child process prints on `stdout` (what it printed until
 * then if it closes first), and the reader, to cancel once done.
 */
export async function firstLine(
  stdout: ReadableStream<Uint8Array>,
): Promise<{ line: string; reader: ReadableStreamDefaultReader<string> }> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!said.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    said += value;
  }
  return { line: said.split("\n")[0], reader };
}

/**
 * What Jupyter shows for `x`: the MIME bundle its `Symbol.for("Jupyter.display")`
 * method returns (values are strings, but for nodejs-polars' own JSON: pass `unknown`).
 */
export function displayBundle<V = string>(x: unknown): Record<string, V> {
  return (x as Record<symbol, () => Record<string, V>>)[Symbol.for("Jupyter.display")]();
}
