/**
 * One request budget per client (issue 22): never more in flight than the
 * budget across lists, windows and hydration; AIMD on 429 with the server's
 * Retry-After; an optional rate cap; a 429 storm loses and duplicates
 * nothing; the client lists pulled in parallel equal their serial pulls.
 */
import assert from "node:assert/strict";
import { CatalogClient, InsiderClient, RequestValidationError } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { RequestLimiter } from "../../lib/http/limiter.ts";
import { httpEvents } from "../../lib/http/events.ts";
import { captureWarnings } from "../_warnings.ts";

const stub = createStub({ seed: 3, scale: 0.1 });

function clients(
  fetch: typeof stub.fetch,
  opts: { maxInFlight?: number; requestsPerSecond?: number } = {},
) {
  return {
    insider: new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://stub/insider",
      fetch,
      ...opts,
    }),
    catalog: new CatalogClient({
      apiKey: DEMO_KEYS.catalog,
      baseUrl: "http://stub/catalog",
      fetch,
      ...opts,
    }),
  };
}

/** A fetch that counts requests in flight (with a little delay so they overlap). */
function counting(inner: typeof stub.fetch, delayMs = 2) {
  const c = { now: 0, max: 0, total: 0 };
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    c.total++;
    c.max = Math.max(c.max, ++c.now);
    try {
      await new Promise((r) => setTimeout(r, delayMs));
      return await inner(input as Request, init);
    } finally {
      c.now--;
    }
  };
  return { c, fetch: fetch as typeof stub.fetch };
}

const key = (r: { accessionNumber: string | null; transactionId: number | null }) =>
  `${r.accessionNumber}/${r.transactionId}`;
const fkey = (r: { accession_number: string; transaction_id: number }) =>
  `${r.accession_number}/${r.transaction_id}`;

Deno.test("parallel equals serial for search (both directions, small pages: days spanning pages), feeds and pitches", async () => {
  const { insider, catalog } = clients(stub.fetch);
  const captured = captureWarnings();
  const warnings = captured.lines;
  try {
    await pullsEqual(insider, catalog);
  } finally {
    captured.restore();
  }
  // the client reads the emulator's dates as it filters them: no seam was undone
  assert.deepEqual(warnings, []);
});

async function pullsEqual(insider: InsiderClient, catalog: CatalogClient) {
  for (
    const [filter, pageSize] of [[{}, 100], [{ sortDirection: "asc" as const }, 7], [{
      tradeType: "purchase" as const,
    }, 3]] as const
  ) {
    const serial = (await insider.search(filter, { pageSize }).take(1e9)).map(key);
    for (const parallel of [2, 5, 8]) {
      const got = (await insider.search(filter, { pageSize, parallel }).take(1e9)).map(key);
      assert.deepEqual(
        got,
        serial,
        `search ${JSON.stringify(filter)} pageSize ${pageSize} parallel ${parallel}`,
      );
    }
  }
  const feedIds = [15, 16, 17, 18] as const;
  const serialFeed = (await insider.feeds({ feedIds: [...feedIds], limit: 25 }).take(1e9)).map(
    fkey,
  );
  for (const parallel of [3, 8]) {
    const got = await insider.feeds({ feedIds: [...feedIds], limit: 25 }, { parallel }).take(1e9);
    assert.deepEqual(got.map(fkey), serialFeed, `feeds parallel ${parallel}`);
  }
  const ranged = { from: "2025-01-01", to: "2026-06-30", limit: 5 };
  const serialCeo = (await insider.feed("ceo-trades", "buy", ranged).take(1e9)).map(fkey);
  assert.deepEqual(
    (await insider.feed("ceo-trades", "buy", ranged, { parallel: 4 }).take(1e9)).map(fkey),
    serialCeo,
  );
  const serialPitches = (await catalog.pitches({ limit: 10 }).take(1e9)).map((r) => r.pitch_id);
  for (const parallel of [2, 8]) {
    const got = await catalog.pitches({ limit: 10 }, { parallel }).take(1e9);
    assert.deepEqual(got.map((r) => r.pitch_id), serialPitches, `pitches parallel ${parallel}`);
  }
  const one = { addedOnFrom: "2025-03-01", addedOnTo: "2025-09-30", limit: 3 };
  assert.deepEqual(
    (await catalog.pitches(one, { parallel: 4 }).take(1e9)).map((r) => r.pitch_id),
    (await catalog.pitches(one).take(1e9)).map((r) => r.pitch_id),
  );
}

Deno.test(".frame({ maxRows }) in parallel: the serial frame's rows, truncated exact", async () => {
  const { insider } = clients(stub.fetch);
  for (const maxRows of [1, 99, 100, 101, 777]) {
    const a = await insider.search({}, { pageSize: 20 }).frame({ maxRows, progress: false });
    const b = await insider.search({}, { pageSize: 20, parallel: 6 }).frame({
      maxRows,
      progress: false,
    });
    assert.deepEqual(
      b.getColumn("accession_number").toArray(),
      a.getColumn("accession_number").toArray(),
    );
    assert.equal(b.truncated, a.truncated);
  }
});

Deno.test("a 429 storm: the client slows down, nothing is lost, duplicated or reordered", async () => {
  // a storm that does not depend on the machine's speed: of every 7 requests the server
  // receives, the 4th to 6th are refused (429, retry-after-ms 5), so no request can meet
  // more than 3 refusals in a row, within the transport's 4 retries
  let received = 0;
  let refused = 0;
  const limited = (async (input: Request | URL | string, init?: RequestInit) => {
    if ([3, 4, 5].includes(received++ % 7)) {
      refused++;
      return Response.json({
        type: "rate-limited",
        title: "Too Many Requests",
        status: 429,
        detail: "slow down",
      }, {
        status: 429,
        headers: {
          "retry-after-ms": "5",
          "content-type": "application/problem+json",
        },
      });
    }
    return await stub.fetch(input as Request, init);
  }) as typeof stub.fetch;
  const { insider } = clients(stub.fetch);
  const serial = (await insider.search({}, { pageSize: 25 }).take(1e9)).map(key);
  const { insider: throttledClient } = clients(limited);
  const got = (await throttledClient.search({}, { pageSize: 25, parallel: 8 }).take(1e9)).map(key);
  assert.ok(refused > 20, `${refused} refusals`);
  assert.equal(new Set(got).size, got.length);
  assert.deepEqual(got, serial);
  const state =
    (throttledClient as unknown as { transport: { limiter: RequestLimiter } }).transport.limiter
      .state;
  assert.equal(state.throttled, refused);
  assert.ok(state.learnedRate !== undefined, "a rate was learned from the 429s");
});

Deno.test("one budget per client: windows and hydration together never exceed maxInFlight", async () => {
  const { c, fetch } = counting(stub.fetch);
  const { insider } = clients(fetch, { maxInFlight: 3 });
  const feed = await insider.feeds({ feedIds: [15, 16, 17, 18], limit: 25 }).take(60);
  await Promise.all([
    insider.search({}, { pageSize: 50, parallel: 8 }).take(1500),
    insider.hydrate(feed, { concurrency: 16, progress: false }),
  ]);
  assert.equal(c.max, 3);
});

Deno.test("limiter: AIMD halves on 429 once per round, grows by one per round of successes, honours Retry-After", async () => {
  let now = 0;
  const l = new RequestLimiter({ maxInFlight: 8 }, () => now);
  const slots = await Promise.all(Array.from({ length: 8 }, () => l.acquire()));
  l.throttled(slots[0], 1000);
  l.throttled(slots[1], 1000); // sent before the decrease: not halved again
  assert.equal(l.state.limit, 4);
  assert.equal(l.state.throttled, 2);
  assert.equal(l.state.paused, true);
  for (const s of slots) s.release();
  let granted = false;
  const next = l.acquire().then((s) => (granted = true, s));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(granted, false, "no start during the Retry-After pause");
  now = 1001;
  (await next).release();
  assert.equal(granted, true);
  for (let i = 0; i < 4; i++) l.succeeded();
  assert.equal(l.state.limit, 5);
  for (let i = 0; i < 5; i++) l.succeeded();
  assert.equal(l.state.limit, 6);
});

Deno.test("limiter: the rate cap spaces starts; a waiting request aborts; bad options name themselves", async () => {
  const l = new RequestLimiter({ requestsPerSecond: 100 });
  const t0 = performance.now();
  for (let i = 0; i < 6; i++) (await l.acquire()).release();
  assert.ok(performance.now() - t0 >= 45, "6 starts at 100/s span at least 50 ms");
  const full = new RequestLimiter({ maxInFlight: 1 });
  const held = await full.acquire();
  const ac = new AbortController();
  const waiting = full.acquire(ac.signal);
  ac.abort(new DOMException("stop", "AbortError"));
  assert.equal((await waiting.catch((e) => e)).name, "AbortError");
  assert.equal(full.state.waiting, 0);
  held.release();
  assert.throws(
    () => new RequestLimiter({ maxInFlight: 0 }),
    /maxInFlight 0 is not allowed; allowed: an integer from 1 to 256/,
  );
  assert.throws(
    () => new InsiderClient({ apiKey: "k", baseUrl: "http://x", requestsPerSecond: -1 }),
    /requestsPerSecond -1 is not allowed/,
  );
  const { insider, catalog } = clients(stub.fetch);
  for (const bad of [0, 1.5, 33, "4", NaN]) {
    const e = (() => {
      try {
        insider.search({}, { parallel: bad as number });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    assert.ok(e instanceof RequestValidationError);
    assert.equal(e.issues[0].param, "parallel");
    // the message names the bad value as given (NaN, not JSON's null)
    assert.ok(
      e.message.includes(`parallel: ${typeof bad === "string" ? `"${bad}"` : bad} is not allowed`),
      e.message,
    );
  }
  assert.throws(() => catalog.pitches({}, { parallel: 0 }), RequestValidationError);
});

Deno.test("the progress display shows requests in flight, waiting and throttled", async () => {
  const { Progress } = await import("../../lib/http/progress_hook.ts");
  const { describe } = await import("../../lib/notebook/progress.ts");
  const shown: string[] = [];
  const p = new Progress("pulling rows", {
    sink: { show: (s) => shown.push(describe(s)) },
    intervalMs: 0,
  });
  let first = true;
  const once429 = (async (input: Request | URL | string, init?: RequestInit) => {
    if (first) {
      first = false;
      return new Response('{"type":"rate-limited","title":"T","status":429,"detail":"d"}', {
        status: 429,
        headers: { "retry-after-ms": "5", "content-type": "application/problem+json" },
      });
    }
    await new Promise((r) => setTimeout(r, 2));
    return await stub.fetch(input as Request, init);
  }) as typeof stub.fetch;
  await clients(once429).insider.search({}, { pageSize: 20, parallel: 4 }).take(300);
  p.done();
  assert.ok(shown.some((t) => /\d+ in flight/.test(t)), shown.slice(0, 3).join("\n"));
  assert.ok(shown.some((t) => /1 throttled \(429\)/.test(t)));
});

Deno.test("progress sees requests in flight and throttled ones", async () => {
  const states: { inFlight: number; throttled: number }[] = [];
  const on = (e: Event) => states.push((e as CustomEvent).detail);
  httpEvents.addEventListener("limiter", on);
  try {
    const { fetch } = counting(stub.fetch);
    const { insider } = clients(fetch);
    await insider.search({}, { pageSize: 20, parallel: 4 }).take(400);
  } finally {
    httpEvents.removeEventListener("limiter", on);
  }
  assert.ok(states.some((s) => s.inFlight > 1));
});

Deno.test("limiter: a 429 learns the rate accepted before it (a window of 20/s: cap 19) and stays below it for 30 s", async () => {
  let now = 0;
  const l = new RequestLimiter({ maxInFlight: 64 }, () => now);
  const slots = [];
  // 40 requests/s against a server whose window opened at 0 and accepts 20 a second
  for (let i = 0; i < 30; i++) {
    now = i * 25;
    slots.push(await l.acquire());
  }
  now = 900;
  for (const s of slots.slice(0, 20)) {
    s.release();
    l.succeeded(s);
  }
  // the 21st, sent at 500 ms, is refused; the 9 sent after it are not counted either way
  slots[20].release();
  l.throttled(slots[20], 1000);
  for (const s of slots.slice(21)) {
    s.release();
    l.throttled(s, 1000);
  }
  assert.ok(Math.abs(l.state.learnedRate! - 19) < 1e-9, `${l.state.learnedRate}`);
  assert.equal(l.state.throttled, 10);
  now += 3_000;
  l.succeeded();
  assert.ok(Math.abs(l.state.learnedRate! - 19) < 1e-9, "no probe above the refused rate");
  now += 27_500;
  l.succeeded();
  // then 5 %, at least 1 request/s, every 3 s
  assert.ok(Math.abs(l.state.learnedRate! - 20) < 1e-9, `${l.state.learnedRate}`);
});
