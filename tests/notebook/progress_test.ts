import assert from "node:assert/strict";
import {
  announceRetry,
  autoSink,
  InsiderClient,
  jupyterSink,
  Progress,
  type ProgressState,
  ttySink,
  useProgressSink,
} from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";

Deno.test("Jupyter progress: one display created, then updated in place by display_id", async () => {
  const msgs: { type: string; content: Record<string, unknown> }[] = [];
  const sink = jupyterSink((type, content) => {
    msgs.push({ type, content });
    return Promise.resolve();
  });
  const p = new Progress("pulling rows", { total: 300, sink, intervalMs: 0 });
  p.update({ rows: 100, pages: 1 });
  announceRetry({ attempt: 1, delayMs: 1, reason: "503", request: "GET /x" });
  p.update({ rows: 300, pages: 3 });
  p.done();
  await Promise.resolve();
  assert.equal(msgs[0].type, "display_data");
  assert.ok(msgs.slice(1).every((m) => m.type === "update_display_data"));
  const ids = new Set(msgs.map((m) => (m.content.transient as { display_id: string }).display_id));
  assert.equal(ids.size, 1);
  const last = (msgs.at(-1)!.content.data as Record<string, string>)["text/plain"];
  assert.match(
    last,
    /^pulling rows: 300\/300 rows · 3 pages · 1 retries · [\d,]+ rows\/s · done in/,
  );
  const mid = (msgs[1].content.data as Record<string, string>)["text/html"];
  assert.match(mid, /<progress value="33.3" max="100"/);
  assert.match((msgs[1].content.data as Record<string, string>)["text/plain"], /ETA \d+ s/);
});

Deno.test("terminal progress redraws one line and ends with a newline", () => {
  let out = "";
  const p = new Progress("hydrating rows", {
    total: 10,
    sink: ttySink((t) => (out += t)),
    intervalMs: 0,
  });
  p.update({ rows: 5 });
  p.done();
  const frames = out.split("\r").filter(Boolean);
  assert.ok(frames.length >= 3);
  assert.ok(frames.every((f) => f.startsWith("\x1b[2K")));
  assert.ok(out.endsWith("\n"));
  assert.match(frames[1], /█{12}░{12} hydrating rows: 5\/10 rows/);
});

Deno.test("no sink: nothing shown, state still kept; retries stop counting after done", () => {
  const p = new Progress("quiet", { sink: null });
  p.update({ rows: 7, pages: 2 });
  announceRetry({ attempt: 1, delayMs: 1, reason: "429", request: "GET /y" });
  p.done();
  announceRetry({ attempt: 2, delayMs: 1, reason: "429", request: "GET /y" });
  const s: ProgressState = p.state;
  assert.equal(s.rows, 7);
  assert.equal(s.retries, 1);
  assert.equal(s.done, true);
});

Deno.test("frame() and hydrate() report progress through the sink when in a notebook", async () => {
  const stub = createStub({ seed: 1, scale: 0.05 });
  const shown: ProgressState[] = [];
  const fake = {
    broadcast: (_t: string, c: Record<string, unknown>) => {
      shown.push(
        { label: String((c.data as Record<string, string>)["text/plain"]) } as ProgressState,
      );
      return Promise.resolve();
    },
  };
  useProgressSink(jupyterSink(fake.broadcast));
  try {
    const client = new InsiderClient({
      apiKey: DEMO_KEYS.insider,
      baseUrl: "http://s/insider",
      fetch: stub.fetch,
    });
    await client.search({}, { pageSize: 50 }).frame({ maxRows: 200 });
    assert.ok(
      shown.some((s) => /^pulling rows: 200\/200 rows · 4 pages/.test(s.label)),
      JSON.stringify(shown.at(-1)),
    );
    const feed = await client.feed("ceo-trades", "buy").take(12);
    await client.hydrate(feed, { concurrency: 4 });
    assert.ok(
      shown.some((s) => /^hydrating rows: 12\/12 rows/.test(s.label)),
      JSON.stringify(shown.slice(-3)),
    );
    const before = shown.length;
    await client.hydrate(feed, { progress: false });
    assert.equal(shown.length, before);
  } finally {
    useProgressSink(undefined);
  }
});

Deno.test("Jupyter progress: a broadcast that throws or rejects never breaks the work", async () => {
  const state: ProgressState = {
    label: "x",
    rows: 1,
    pages: 1,
    retries: 0,
    seconds: 1,
    done: false,
  } as ProgressState;
  let calls = 0;
  const throwing = jupyterSink(() => {
    calls++;
    throw new Error("kernel gone");
  });
  assert.doesNotThrow(() => throwing.show(state, true));
  // a rejection is caught too: an unhandled one would fail this test
  const rejecting = jupyterSink(() => {
    calls++;
    return Promise.reject(new Error("kernel gone"));
  });
  rejecting.show(state, true);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(calls, 2);
});

Deno.test("autoSink: in a kernel (Deno.jupyter.broadcast) the progress is a Jupyter display", async () => {
  const jupyter = Deno as unknown as { jupyter: unknown };
  const types: string[] = [];
  jupyter.jupyter = { broadcast: (type: string) => Promise.resolve(void types.push(type)) };
  try {
    const sink = autoSink();
    assert.ok(sink);
    sink.show({ label: "x", rows: 1, pages: 1, retries: 0, seconds: 1, done: false }, true);
    await Promise.resolve();
    assert.deepEqual(types, ["display_data"]);
  } finally {
    jupyter.jupyter = undefined; // outside the kernel again
  }
});
