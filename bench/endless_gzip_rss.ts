/**
 * Peak RSS of hydrating 40 rows at concurrency 8 from a loopback server
 * whose every answer is a gzip bomb (256 MiB of zeros in ~256 KB) (issue 31, Deliver 5). Prints
 * the peak RSS above the start in MiB, sampled every 5 ms, and the errors.
 *
 * (`endless` as the second argument: endless plain bodies instead). Each
 * run is a fresh process in the README's figures.
 *
 * Run: deno run -A --v8-flags=--max-old-space-size=512 bench/endless_gzip_rss.ts [runs] [gzip|endless]
 */
import { InsiderClient } from "../mod.ts";

/** A gzip body of 256 MiB of zeros (about 256 KB on the wire): endless as far as a 16 MiB cap goes. */
const BOMB = new Uint8Array(
  await new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        const mib = new Uint8Array(2 ** 20);
        for (let i = 0; i < 256; i++) c.enqueue(mib);
        c.close();
      },
    }).pipeThrough(
      new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
    ),
  ).arrayBuffer(),
);

/** An endless plain body of 64 KiB chunks. */
function endless(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(32);
  return new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(chunk.slice()) }, {
    highWaterMark: 0,
  });
}

async function once(
  mode: "gzip" | "endless",
): Promise<{ mode: string; peakMiB: number; failed: number; names: string[] }> {
  const ac = new AbortController();
  const srv = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    () =>
      mode === "gzip"
        ? new Response(BOMB, {
          headers: { "content-type": "application/json", "content-encoding": "gzip" },
        })
        : new Response(endless(), { headers: { "content-type": "application/json" } }),
  );
  const insider = new InsiderClient({
    apiKey: "sk-bench-gzip",
    baseUrl: `http://127.0.0.1:${srv.addr.port}/insider`,
    maxRetries: 0,
  });
  const rows = Array.from({ length: 40 }, (_, i) => ({
    accession_number: `0000000001-24-${String(i).padStart(6, "0")}`,
    transaction_id: 1,
    filed_at: "2024-05-01T15:00:00Z",
  }));
  const start = Deno.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 5);
  const { failed } = await insider.hydrate(rows, { concurrency: 8 });
  clearInterval(timer);
  peak = Math.max(peak, Deno.memoryUsage().rss);
  ac.abort();
  await srv.finished;
  return {
    mode,
    peakMiB: Math.round((peak - start) / 2 ** 20),
    failed: failed.length,
    names: [...new Set(failed.map((f) => (f.error as Error).name))],
  };
}

const runs = Number(Deno.args[0] ?? 3);
const mode = Deno.args[1] === "endless" ? "endless" : "gzip";
for (let i = 0; i < runs; i++) console.log(JSON.stringify(await once(mode)));
