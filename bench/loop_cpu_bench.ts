/**
 * The loop thread's CPU per page of a search `.frame()`, load-proof: the
 * answers of a 20,000-row search (pages of 100) are recorded once from an
 * in-process emulator, then the same pull is replayed through a fresh
 * client whose `fetch` answers from the record after a 1 ms timer (so the
 * event loop turns between pages, as over a socket). Per replay it prints
 * the CPU time of the process's main thread (`/proc/thread-self/schedstat`,
 * nanoseconds: time other processes take is not counted) divided by the
 * pages: the transport (body, key scrub, parse), the envelope, the row
 * loop, the chunks and their collections.
 *
 * `deno run -A bench/loop_cpu_bench.ts [replays] [rows]`
 *
 * The `feeds` part does the same for the 2,500-row feed pull of the floor
 * check (`bench/parallel_floor_child.ts`: twelve feeds, `limit: 25`,
 * `take(2_500)`), serially and at `parallel: 8`, and prints the loop
 * thread's CPU per answer (request) and the requests of each. Every answer
 * comes after the same 1 ms timer, so the answers of a parallel round come
 * together, as at the floor. Run under `--cpu-prof` to see where it goes.
 *
 * `deno run -A bench/loop_cpu_bench.ts feeds [replays]`
 *
 * @module
 */
import { InsiderClient, useProgressSink } from "../mod.ts";
import { createStub, DEMO_KEYS } from "../lib/stub/mod.ts";
import { releaseNativeNow } from "../lib/frames/_release.ts";

/** CPU ms of the calling thread so far (0 where `/proc` has no schedstat). */
export function threadCpuMs(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
  } catch {
    return 0;
  }
}

/**
 * A fetch that records each answer of `inner`, or answers from the record
 * once `replay()` is called; `sent` counts the requests.
 */
function recorder(
  inner: typeof fetch | null,
): { fetch: typeof fetch; replay(): void; readonly sent: number } {
  const record = new Map<string, { status: number; body: Uint8Array; type: string }>();
  let replaying = false;
  let sent = 0;
  // the client sends a URL string and a string body: keyed without building a Request (whose
  // cost would count as the client's)
  const keyOf = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (typeof input === "string" && (init?.body === undefined || typeof init.body === "string")) {
      return `${init?.method ?? "GET"} ${input} ${init?.body ?? ""}`;
    }
    const req = new Request(input, init);
    return `${req.method} ${req.url} ${await req.clone().text()}`;
  };
  return {
    replay: () => void (replaying = true, inner = null),
    get sent() {
      return sent;
    },
    fetch: async (input, init) => {
      sent++;
      const key = await keyOf(input, init);
      const got = replaying ? record.get(key) : undefined;
      if (got) {
        await new Promise((r) => setTimeout(r, 1));
        return new Response(got.body.slice(), {
          status: got.status,
          headers: { "content-type": got.type },
        });
      }
      if (replaying || !inner) throw new Error(`no recorded answer for ${key}`);
      const res = await inner(new Request(input, init));
      const body = new Uint8Array(await res.arrayBuffer());
      const type = res.headers.get("content-type") ?? "application/json";
      record.set(key, { status: res.status, body, type });
      return new Response(body.slice(), { status: res.status, headers: { "content-type": type } });
    },
  };
}

/** A client pulling `rows` search rows into `.frame()` through `fetch`. */
const pullWith = (fetch: typeof globalThis.fetch, rows: number) =>
  new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://stub/insider", fetch })
    .search({}, { pageSize: 100 }).frame({ maxRows: rows, progress: false });

/** The answers of one pull of `rows` from an in-process emulator, recorded (the emulator is let go). */
async function recorded(rows: number): Promise<typeof fetch> {
  const stub = createStub({ seed: 1, scale: 4, latencyMs: 0 });
  const rec = recorder((input, init) => Promise.resolve(stub.app.fetch(new Request(input, init))));
  await pullWith(rec.fetch, rows);
  rec.replay();
  return rec.fetch;
}

/** CPU ms per page of each replayed pull of `rows` search rows into `.frame()`, and the heap replayed in. */
export async function loopCpuPerPage(
  replays = 5,
  rows = 20_000,
): Promise<{ msPerPage: number[]; heapMb: number }> {
  useProgressSink(null);
  const fetch = await recorded(rows);
  // the emulator's world is not in the heap the replays collect
  await releaseNativeNow();
  const heapMb = Deno.memoryUsage().heapUsed / 2 ** 20;
  const msPerPage: number[] = [];
  for (let k = 0; k < replays; k++) {
    const c0 = threadCpuMs();
    const df = await pullWith(fetch, rows);
    msPerPage.push((threadCpuMs() - c0) / Math.ceil(df.height / 100));
  }
  return { msPerPage, heapMb };
}

/** The median of `xs` (NaN when empty). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
}

/** The feeds of the floor check's feed pull, and its rows. */
const FEEDS = { feedIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as (1 | 2)[], limit: 25 };
const FEED_ROWS = 2_500;

/** The floor check's feed pull through `fetch`, at `parallel` (1: serial). */
const feedPull = (fetch: typeof globalThis.fetch, parallel: number) =>
  new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://stub/insider", fetch })
    .feeds(FEEDS, { parallel: parallel === 1 ? undefined : parallel }).take(FEED_ROWS);

/** Loop-thread CPU ms per answer of each replayed feed pull at `parallel`, and its requests. */
export async function feedCpuPerAnswer(
  parallel: number,
  replays = 5,
): Promise<{ msPerAnswer: number[]; requests: number; rows: number }> {
  useProgressSink(null);
  const stub = createStub({ seed: 1, scale: 4, latencyMs: 0 });
  const rec = recorder((input, init) => Promise.resolve(stub.app.fetch(new Request(input, init))));
  await feedPull(rec.fetch, parallel);
  rec.replay();
  const msPerAnswer: number[] = [];
  let [requests, rows] = [0, 0];
  for (let k = 0; k < replays; k++) {
    const [c0, n0] = [threadCpuMs(), rec.sent];
    rows = (await feedPull(rec.fetch, parallel)).length;
    requests = rec.sent - n0;
    msPerAnswer.push((threadCpuMs() - c0) / requests);
  }
  return { msPerAnswer, requests, rows };
}

if (import.meta.main && Deno.args[0] === "feeds") {
  const replays = Number(Deno.args[1]) || 5;
  for (const parallel of [1, 8]) {
    const { msPerAnswer, requests, rows } = await feedCpuPerAnswer(parallel, replays);
    console.log(
      `feeds take(2,500) ${parallel === 1 ? "serial" : `parallel ${parallel}`} replayed ` +
        `(${rows} rows, ${requests} requests), loop thread CPU ms per answer: ` +
        msPerAnswer.map((x) => x.toFixed(3)).join(" ") +
        ` (first: cold); median of the rest ${median(msPerAnswer.slice(1)).toFixed(3)}`,
    );
  }
} else if (import.meta.main) {
  const [replays, rows] = Deno.args.map(Number);
  const { msPerPage, heapMb } = await loopCpuPerPage(replays || 5, rows || 20_000);
  console.log(
    `search .frame() ${(rows || 20_000) / 1000}k replayed, loop thread CPU ms per page: ` +
      msPerPage.map((x) => x.toFixed(2)).join(" ") +
      ` (first: cold; V8 heap before ${heapMb.toFixed(0)} MiB)`,
  );
}
