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
