/**
 * `deno task stub [--port 8787] [--hostname 127.0.0.1] [--seed N]
 * [--latency-ms N] [--fail-rate P] [--scale K] [--rate-limit N]
 * [--dialect NAMES]` — serves both emulated services and prints
 * `stub listening on http://HOST:PORT` once ready. `--rate-limit N` allows N
 * requests per second per accepted key (unknown keys get `401` before the
 * limiter sees them; it tracks at most 1,024 keys, least recently used
 * dropped first). `--dialect` takes comma-separated dialect names or
 * `point=choice` pairs (`stub/dialect.ts`); a dialect other than the default
 * is announced on stderr before the ready line. Flags are read as every
 * command reads them (`args.ts`: every bad flag at once, exit 2); a server
 * that cannot listen prints one line and exits 1.
 *
 * @module
 */
import {
  DEFAULT_DIALECT,
  describeDialect,
  DIALECT_POINTS,
  DIALECTS,
  resolveDialect,
  serveStub,
} from "../stub/mod.ts";
import { CliError, parseFlags } from "./args.ts";

const HELP = `Usage: deno task stub [options]

Serves the offline emulator of both services:
  catalog  http://HOST:PORT/catalog   (key demo-catalog-key)
  insider  http://HOST:PORT/insider   (key demo-insider-key)

Options:
  --port N          port to listen on (default 8787; 0 = any free port)
  --hostname H      interface (default 127.0.0.1)
  --seed N          demo data seed (default 1)
  --scale K         multiply the demo counts (default 1)
  --latency-ms N    answer each request N ms after it came in (default 0)
  --fail-rate P     probability 0..1 of a 503 problem per request (default 0)
  --rate-limit N    at most N requests per second per key, then 429 (default off)
  --dialect NAMES   answer the points the specs leave open differently:
                    comma-separated names or point=choice (default: default)
                    names: ${[...Object.keys(DIALECTS), "all"].join(", ")}
                    points: ${Object.keys(DIALECT_POINTS).join(", ")}
  --debug           on failure, print the stack too
  --help            show this help`;

const FLAG_SPECS = {
  port: { type: "string" },
  hostname: { type: "string" },
  seed: { type: "string" },
  scale: { type: "string" },
  "latency-ms": { type: "string" },
  "fail-rate": { type: "string" },
  "rate-limit": { type: "string" },
  dialect: { type: "string" },
} as const;

/** Why the server could not listen on `where`, in one line. */
function listenProblem(e: unknown, where: string, hostname: string | undefined): string {
  const msg = String((e as Error)?.message ?? e).split("\n")[0];
  return e instanceof Deno.errors.AddrInUse
    ? `cannot listen on ${where}: the port is in use; choose another --port (0 = any free port)`
    : e instanceof Deno.errors.AddrNotAvailable || /lookup|resolve|not known|os error 99/i.test(msg)
    ? `cannot listen on ${where}: --hostname ${
      JSON.stringify(hostname)
    } is not an address of this machine (${msg}); use 127.0.0.1 or 0.0.0.0`
    : `cannot listen on ${where}: ${msg}`;
}

/** `deno task stub` with `args` (default `Deno.args`): see the help text above. */
export async function main(args: string[] = Deno.args): Promise<void> {
  const flags = parseFlags("stub", HELP, FLAG_SPECS, args);
  const v = flags.values;
  // a number not given stays undefined: the emulator's own default applies
  const num = (name: keyof typeof FLAG_SPECS, lo: number, hi: number, int = true) =>
    v[name] === undefined ? undefined : flags[int ? "int" : "num"](name, v[name], 0, lo, hi);
  const rate = num("rate-limit", 1, 1e6);
  const dialect = flags.attempt(() => resolveDialect(v.dialect), DEFAULT_DIALECT, "--");
  const opts = {
    port: num("port", 0, 65535),
    hostname: v.hostname,
    seed: num("seed", 0, 2 ** 31),
    scale: num("scale", 0.01, 100, false),
    latencyMs: num("latency-ms", 0, 60_000),
    failRate: num("fail-rate", 0, 1, false),
    rateLimit: rate ? { limit: rate, windowMs: 1000 } : undefined,
    dialect,
  };
  await flags.run(async () => {
    const where = `${opts.hostname ?? "127.0.0.1"}:${opts.port ?? 8787}`;
    const { url } = await Promise.try(serveStub, opts).catch((e) => {
      throw new CliError(listenProblem(e, where, opts.hostname));
    });
    const named = describeDialect(dialect);
    if (named !== "default") console.error(`stub: dialect ${named}`);
    console.log(`stub listening on ${url}`);
  });
}

if (import.meta.main) await main();
