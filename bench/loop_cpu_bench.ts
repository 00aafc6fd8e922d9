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

/** A fetch that records each answer of `inner`, or answers from the record once `replay()` is called. */
function recorder(inner: typeof fetch | null): { fetch: typeof fetch; replay(): void } {
  const record = new Map<string, { status: number; body: Uint8Array; type: string }>();
  let replaying = false;
  const keyOf = async (req: Request) => `${req.method} ${req.url} ${await req.clone().text()}`;
  return {
    replay: () => void (replaying = true, inner = null),
    fetch: async (input, init) => {
      const req = new Request(input, init);
      const key = await keyOf(req);
      const got = replaying ? record.get(key) : undefined;
      if (got) {
        await new Promise((r) => setTimeout(r, 1));
        return new Response(got.body.slice(), {
          status: got.status,
          headers: { "content-type": got.type },
        });
      }
      if (replaying || !inner) throw new Error(`no recorded answer for ${key}`);
      const res = await inner(req);
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

if (import.meta.main) {
  const [replays, rows] = Deno.args.map(Number);
  const { msPerPage, heapMb } = await loopCpuPerPage(replays || 5, rows || 20_000);
  console.log(
    `search .frame() ${(rows || 20_000) / 1000}k replayed, loop thread CPU ms per page: ` +
      msPerPage.map((x) => x.toFixed(2)).join(" ") +
      ` (first: cold; V8 heap before ${heapMb.toFixed(0)} MiB)`,
  );
}
