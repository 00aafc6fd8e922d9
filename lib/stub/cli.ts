/**
 * `deno task stub [--port 8787] [--hostname 127.0.0.1] [--seed N]
 * [--latency-ms N] [--fail-rate P] [--scale K] [--rate-limit N]
 * [--dialect NAMES]` — serves both emulated services and prints
 * `stub listening on http://HOST:PORT` once ready. `--rate-limit N` allows N
 * requests per second per accepted key (unknown keys get `401` before the
 * limiter sees them; it tracks at most 1,024 keys, least recently used
 * dropped first). `--dialect` takes comma-separated dialect names or
 * `point=choice` pairs (`dialect.ts`); a dialect other than the default is
 * announced on stderr before the ready line.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { serveStub } from "./serve.ts";
import { closeMatches } from "../shared/suggest.ts";
import {
  describeDialect,
  DIALECT_POINTS,
  DIALECTS,
  isDefaultDialect,
  resolveDialect,
} from "./dialect.ts";

const HELP = `Usage: deno task stub [options]

Serves the offline emulator of both services:
  catalog  http://HOST:PORT/catalog   (key demo-catalog-key)
  insider  http://HOST:PORT/insider   (key demo-insider-key)

Options:
  --port N          port to listen on (default 8787; 0 = any free port)
  --hostname H      interface (default 127.0.0.1)
  --seed N          demo data seed (default 1)
  --scale K         multiply the demo counts (default 1)
  --latency-ms N    added latency per request (default 0)
  --fail-rate P     probability 0..1 of a 503 problem per request (default 0)
  --rate-limit N    at most N requests per second per key, then 429 (default off)
  --dialect NAMES   answer the points the specs leave open differently:
                    comma-separated names or point=choice (default: default)
                    names: ${[...Object.keys(DIALECTS), "all"].join(", ")}
                    points: ${Object.keys(DIALECT_POINTS).join(", ")}
  --help            show this help`;

const OPTIONS = {
  port: { type: "string" },
  hostname: { type: "string" },
  seed: { type: "string" },
  scale: { type: "string" },
  "latency-ms": { type: "string" },
  "fail-rate": { type: "string" },
  "rate-limit": { type: "string" },
  dialect: { type: "string" },
  help: { type: "boolean" },
} as const;

/** The problem, one line naming `--help` (not the help itself), exit 2. */
function fail(msg: string): never {
  // parseArgs says "Unknown option '--prot'"; add the close matches among our flags
  const unknown = /^Unknown option '--([^']+)'/.exec(msg)?.[1];
  const near = unknown ? closeMatches(unknown, Object.keys(OPTIONS), 3) : [];
  const line = unknown
    ? `Unknown option '--${unknown}'${
      near.length ? `; did you mean ${near.map((n) => `--${n}`).join(" or ")}?` : ""
    }`
    : msg;
  console.error(`stub: ${line}\nRun "deno task stub --help" for every flag.`);
  Deno.exit(2);
}

function num(
  name: string,
  v: string | undefined,
  lo: number,
  hi: number,
  int = true,
): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || (int && !Number.isInteger(n)) || n < lo || n > hi) {
    fail(
      `--${name} ${JSON.stringify(v)} is not allowed; allowed: ${
        int ? "an integer" : "a number"
      } from ${lo} to ${hi}`,
    );
  }
  return n;
}

if (import.meta.main) {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    console.log(HELP);
    Deno.exit(0);
  }
  const rate = num("rate-limit", values["rate-limit"], 1, 1e6);
  let dialect;
  try {
    dialect = resolveDialect(values.dialect);
  } catch (e) {
    fail(`--${(e as Error).message}`);
  }
  const port = num("port", values.port, 0, 65535);
  let url: string;
  try {
    ({ url } = await serveStub({
      port,
      hostname: values.hostname,
      seed: num("seed", values.seed, 0, 2 ** 31),
      scale: num("scale", values.scale, 0.01, 100, false),
      latencyMs: num("latency-ms", values["latency-ms"], 0, 60_000),
      failRate: num("fail-rate", values["fail-rate"], 0, 1, false),
      rateLimit: rate ? { limit: rate, windowMs: 1000 } : undefined,
      dialect,
    }));
  } catch (e) {
    // one line and exit 1, no stack: the port is taken or the host name is not ours
    const where = `${values.hostname ?? "127.0.0.1"}:${port ?? 8787}`;
    const msg = String((e as Error)?.message ?? e).split("\n")[0];
    console.error(
      e instanceof Deno.errors.AddrInUse
        ? `stub: cannot listen on ${where}: the port is in use; choose another --port (0 = any free port)`
        : e instanceof Deno.errors.AddrNotAvailable ||
            /lookup|resolve|not known|os error 99/i.test(msg)
        ? `stub: cannot listen on ${where}: --hostname ${
          JSON.stringify(values.hostname)
        } is not an address of this machine (${msg}); use 127.0.0.1 or 0.0.0.0`
        : `stub: cannot listen on ${where}: ${msg}`,
    );
    Deno.exit(1);
  }
  if (!isDefaultDialect(dialect)) console.error(`stub: dialect ${describeDialect(dialect)}`);
  console.log(`stub listening on ${url}`);
}
