/**
 * One real answer body of the emulator: the text of a 100-row insider
 * search page (174 fields a row), recorded from the in-process stub through
 * the client's injected `fetch`. Shared by the key-scan bench and its
 * property test, which both need a page as the service sends it.
 *
 * @module
 */
import { createStub, DEMO_KEYS, InsiderClient } from "../mod.ts";

/** The text of the emulator's first 100-row insider search page. */
export async function emulatorPage(): Promise<string> {
  const stub = createStub();
  let page = "";
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: async (input, init) => {
      const r = await stub.fetch(input, init);
      page = await r.clone().text();
      return r;
    },
  });
  await insider.search({}, { pageSize: 100 }).take(100);
  return page;
}
