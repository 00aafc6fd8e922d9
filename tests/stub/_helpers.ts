/** Shared helpers for the emulator tests: one stub per test file, request shortcuts. */
import assert from "node:assert/strict";
import { createStub, DEMO_KEYS, type Stub, type StubOptions } from "../../lib/stub/mod.ts";

let shared: Stub | undefined;

/** The default stub (seed 1), built once per test module. */
export function stub(): Stub {
  return shared ??= createStub({ seed: 1 });
}

let smallShared: Stub | undefined;

/** A small stub (seed 1, scale 0.2: ~5,000 trades) for tests that pull everything. */
export function small(): Stub {
  return smallShared ??= createStub({ seed: 1, scale: 0.2 });
}

/** A fresh stub with options. */
export function stubWith(opts: StubOptions): Stub {
  return createStub({ seed: 1, ...opts });
}

/** Bearer header of a key. */
export function auth(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** GET on the catalog with the active demo key. */
export async function cat(path: string, s: Stub = stub()): Promise<Response> {
  return await s.app.request("/catalog/api/v1" + path, { headers: auth(DEMO_KEYS.catalog) });
}

/** GET on the insider service with the active demo key. */
export async function ins(path: string, s: Stub = small()): Promise<Response> {
  return await s.app.request("/insider/api/v1" + path, { headers: auth(DEMO_KEYS.insider) });
}

/** POST /search on the insider service. */
export async function search(body: unknown, s: Stub = small()): Promise<Response> {
  return await s.app.request("/insider/api/v1/search", {
    method: "POST",
    headers: { ...auth(DEMO_KEYS.insider), "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Asserts a response is a problem with that status (and type); returns its detail. */
export async function expectProblem(res: Response, status: number, type?: string): Promise<string> {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}`);
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), ["detail", "status", "title", "type"]);
  assert.equal(body.status, status);
  assert.equal(typeof body.title, "string");
  assert.equal(typeof body.detail, "string");
  if (type) assert.equal(body.type, type);
  return body.detail as string;
}

/** JSON body of a 200 response. */
export async function ok<T = Record<string, unknown>>(res: Response): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, 200, text.slice(0, 400));
  return JSON.parse(text) as T;
}

/** Every page of a catalog pitch query, following `next_cursor`. */
export async function allPitches(query: string, s: Stub = stub()): Promise<PitchRow[]> {
  const out: PitchRow[] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? "&" : "";
    const body: { data: PitchRow[]; next_cursor: string | null; has_more: boolean } = await ok(
      await cat(
        `/pitches?limit=50${sep}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        s,
      ),
    );
    out.push(...body.data);
    assert.equal(body.has_more, body.next_cursor !== null);
    cursor = body.next_cursor;
  } while (cursor);
  return out;
}

/** A pitch list row. */
export interface PitchRow {
  pitch_id: string;
  pitch_date: string;
  added_on: string;
  pitch: Record<string, unknown> & { slugs: string[]; is_locked: boolean; sentiment: string };
}

/** Every row of an insider search. */
export async function allTrades(
  filter: Record<string, unknown>,
  s: Stub = small(),
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const body: { data: Record<string, unknown>[]; nextCursor: string | null } = await ok(
      await search({ filter, pagination: { cursor, pageSize: 100 } }, s),
    );
    out.push(...body.data);
    cursor = body.nextCursor;
  } while (cursor);
  return out;
}

/** A `deno task stub` child process, once it printed its ready line. */
export interface StubTask {
  /** The base URL from the ready line. */
  base: string;
  /** The child process (stderr piped when asked). */
  child: Deno.ChildProcess;
  /** Stops the child; resolves with what it wrote on stderr (when piped). */
  stop(): Promise<string>;
}

/** Starts `deno task stub` with `args` and waits for `stub listening on …`. */
export async function startStubTask(args: string[], pipeStderr = false): Promise<StubTask> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "stub", ...args],
    stdout: "piped",
    stderr: pipeStderr ? "piped" : "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let m: RegExpExecArray | null = null;
  while (!(m = /stub listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(text))) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  const stop = async () => {
    child.kill("SIGTERM");
    const err = pipeStderr ? await new Response(child.stderr).text() : "";
    await child.status;
    return err;
  };
  if (!m) {
    await stop();
    throw new assert.AssertionError({ message: `no ready line in ${JSON.stringify(text)}` });
  }
  return { base: m[1], child, stop };
}
