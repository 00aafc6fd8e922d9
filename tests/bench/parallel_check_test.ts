/**
 * A benchmark's parallel case must run in parallel: the windows-alone
 * service's cursors name their range (so the windows stay on), and a pull
 * that falls back to one cursor walk is refused rather than timed as
 * "parallel".
 */
import { deepEqual, equal, ok as assert, throws } from "node:assert/strict";
import {
  InsiderClient,
  type Page,
  useProgressSink,
  WindowedList,
  type WindowSource,
} from "../../mod.ts";
import { DEMO_KEYS, serveStub } from "../../lib/stub/mod.ts";
import { idealPull } from "../../bench/parallel_bench.ts";
import { feedRun, searchRun } from "../../bench/parallel_floor_child.ts";
import {
  assertRanParallel,
  inFlightTrace,
  newWatch,
  watchedFetch,
  watchPull,
} from "../../bench/_parallel_check.ts";

useProgressSink(null);

Deno.test("the windows-alone bench runs its parallel case with windows in flight together", async () => {
  const serial = await idealPull(1, 1, undefined, undefined, 3_000);
  const r = await idealPull(8, 1, undefined, undefined, 3_000);
  equal(r.rows, 3_000);
  equal(serial.maxInFlight, 1);
  assert(r.maxInFlight > 1, `max in flight ${r.maxInFlight}`);
  assert(r.overlapped * 2 >= r.requests, `${r.overlapped} of ${r.requests} overlapped`);
  deepEqual(r.warnings, []);
});

/** A service whose cursors are plain offsets (they do not name the window's range). */
function offsetSource(): {
  src: WindowSource<{ day: string; id: number }>;
  watch: ReturnType<typeof newWatch>;
} {
  const rows: { day: string; id: number }[] = [];
  for (let d = 400; d >= 0; d--) {
    const day = new Date(Date.UTC(2021, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 20; i++) rows.push({ day, id: rows.length });
  }
  const watch = newWatch();
  let now = 0;
  const fetch = async (range: { from?: string; to?: string }, cursor: string | null) => {
    watch.requests++;
    if (now > 0) watch.overlapped++;
    watch.maxInFlight = Math.max(watch.maxInFlight, ++now);
    await new Promise((r) => setTimeout(r, 1));
    now--;
    const inside = rows.filter((r) =>
      (range.from === undefined || r.day >= range.from) &&
      (range.to === undefined || r.day <= range.to)
    );
    const at = Number(cursor ?? 0);
    const page: Page<{ day: string; id: number }> = {
      rows: inside.slice(at, at + 100),
      next: at + 100 < inside.length ? String(at + 100) : null,
      raw: null,
    };
    return page;
  };
  return {
    watch,
    src: { pageSize: 100, order: "desc", day: (r) => r.day, key: (r) => String(r.id), fetch },
  };
}

Deno.test("a parallel pull that fell back to serial is refused, naming why", async () => {
  const { src, watch } = offsetSource();
  const list = new WindowedList((c, s) => src.fetch({}, c, s), src, {
    sink: () => {
      throw new Error("no frame");
    },
  }, { parallel: 8 });
  const got = await watchPull(watch, () => list.take(6_000));
  equal(got.length, 6_000); // the rows are right: only the timing would lie
  throws(() => assertRanParallel("offsets", 8, watch), /offsets at parallel 8 ran serially/);
  // and a pull with one request at a time is refused too
  throws(
    () => assertRanParallel("one at a time", 4, { ...newWatch(), requests: 9, maxInFlight: 1 }),
    /one at a time at parallel 4 ran serially: at most 1 request was in flight/,
  );
  assertRanParallel("serial", 1, { ...newWatch(), requests: 9, maxInFlight: 1 });
});

Deno.test("the loopback floor pulls run in parallel against the emulator, and are refused when not", async () => {
  const ac = new AbortController();
  const { url, server } = await serveStub({ port: 0, seed: 1, scale: 0.3, signal: ac.signal });
  try {
    const s = await searchRun(url, 2_000, 8);
    equal(s.rows, 2_000);
    assert(s.maxInFlight > 1, `search max in flight ${s.maxInFlight}`);
    // the loop thread's longest pause is measured, and lies within the pull
    assert(
      s.longestPauseMs > 0 && s.longestPauseMs <= s.s * 1000 + 1,
      `longest pause ${s.longestPauseMs} ms in a ${s.s} s pull`,
    );
    const f = await feedRun(url, 8);
    assert(f.maxInFlight > 1, `feeds max in flight ${f.maxInFlight}`);
    // a fetch that lets one request through at a time: the bench refuses its "parallel" figure
    const watch = newWatch();
    const counted = watchedFetch(watch);
    let gate = Promise.resolve();
    const oneAtATime: typeof fetch = (input, init) => {
      const go = gate.then(() => counted(input, init));
      gate = go.then(() => {}, () => {});
      return go;
    };
    const insider = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: `${url}/insider`,
      fetch: oneAtATime,
    });
    const df = await watchPull(
      watch,
      () =>
        insider.search({}, { pageSize: 100, parallel: 8 }).frame({
          maxRows: 1_000,
          progress: false,
        }),
    );
    equal(df.height, 1_000);
    throws(
      () => assertRanParallel("a serial walk", 8, watch),
      /a serial walk at parallel 8 ran serially: at most 1 request was in flight/,
    );
  } finally {
    ac.abort();
    await server.finished;
  }
});

Deno.test("the in-flight trace: requests in flight on average and per slice, from each request's span", async () => {
  const watch = newWatch();
  const slow = watchedFetch(watch, async () => {
    await new Promise((r) => setTimeout(r, 30));
    return new Response("{}");
  });
  await Promise.all([slow("http://x/1"), slow("http://x/2")]);
  equal(watch.spans.length, 2);
  assert(watch.spans.every(([a, b]) => b >= a + 25), JSON.stringify(watch.spans));
  // two requests over the same 100 ms, then one alone for half the next slice
  const w = { ...newWatch(), spans: [[0, 100], [0, 100], [100, 150]] as [number, number][] };
  deepEqual(inFlightTrace(w, 200, 100), { mean: 1.25, line: "2.0 0.5" });
  // a request still in flight counts to the end
  deepEqual(inFlightTrace({ ...newWatch(), spans: [[0, 0]] }, 50, 100), { mean: 1, line: "1.0" });
});
