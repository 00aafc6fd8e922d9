/**
 * Measures the RSS cost of `catalog.download()` of a large document over
 * loopback (not a test; run by hand):
 * `deno run -A tests/catalog/_download_rss.ts [MB]` (default 256).
 * Prints the size, baseline RSS, peak RSS during the download and the rise.
 */
import { CatalogClient } from "../../mod.ts";

const mb = Number(Deno.args[0] ?? 256);
const chunk = new Uint8Array(1 << 20).fill(65);
const ac = new AbortController();
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
  (req) => {
    const url = new URL(req.url);
    if (url.pathname.endsWith("/document")) {
      return Response.json({
        url: `${url.origin}/files/big.bin`,
        format: "pdf",
        artifact: null,
        snapshot: "s",
        filename: "big.bin",
        expires_in_seconds: 60,
      });
    }
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ >= mb) c.close();
          else c.enqueue(chunk.slice());
        },
      }),
      { headers: { "content-length": String(mb << 20) } },
    );
  },
);
const client = new CatalogClient({
  apiKey: "k",
  baseUrl: `http://127.0.0.1:${server.addr.port}/catalog`,
  timeoutMs: 120_000,
});
const dir = await Deno.makeTempDir();
// settle the baseline
for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 50));
const base = Deno.memoryUsage().rss;
let peak = base;
const timer = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 5);
const t0 = performance.now();
const path = await client.download("p1", { dir });
peak = Math.max(peak, Deno.memoryUsage().rss);
clearInterval(timer);
const size = (await Deno.stat(path)).size;
const f = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
console.log(
  `downloaded ${f(size)} in ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS baseline ${
    f(base)
  }, peak ${f(peak)}, rise ${f(peak - base)}`,
);
await Deno.remove(dir, { recursive: true });
ac.abort();
await server.finished;
