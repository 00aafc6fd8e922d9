/**
 * `deno task doctor [--json] [--timeout-ms N] [--dialect NAMES]`: the live
 * contract check (see `lib/doctor/check.ts`). It prints, per service, the
 * choice the service made at each point the specs leave open, field
 * coverage of rows, rate-limit headers seen and latency per call, then
 * exits 0 when the client understood every answer, or 1 with one
 * `problem:` line per problem. Without keys it checks the in-process
 * emulator and says so; `--dialect` picks the emulator's dialect (what
 * `deno task stub --dialect` takes) for a service without a key. It never
 * prints a key. Bad flags exit 2 naming them; a failure before any call
 * (a key without its base URL) prints one line and exits 1.
 *
 * @module
 */
import { checkServices, formatReport } from "../doctor/mod.ts";
import { describeDialect, resolveDialect } from "../stub/mod.ts";
import { parseFlags } from "./args.ts";

const HELP = `Usage: deno task doctor [options]

Checks that signalbook understands the services it talks to: a handful of
cheap calls on each (one small page of each list, one detail, tags, filter
sets, one lookup, one document signing without download, one 404 on
purpose), then a contract report: the form each answer took where the specs
leave it open, field coverage of rows, rate-limit headers, latency per call.
Exit 0: the client understood everything; 1: one "problem:" line each.

Keys: PITCH_API_KEY + PITCH_BASE_URL, INSIDER_API_KEY + INSIDER_BASE_URL.
A service without a key is checked against the in-process emulator.

Options:
  --json            print the report as JSON instead of text
  --timeout-ms N    per-request timeout, 1000 to 120000 (default 15000)
  --dialect NAMES   emulator dialect for a service without a key
                    (as deno task stub --dialect; default: default)
  --debug           on failure, print the stack too
  --help            show this help`;

/** `deno task doctor` with `args` (default `Deno.args`): see the help text above. */
export async function main(args: string[] = Deno.args): Promise<void> {
  const flags = parseFlags("doctor", HELP, {
    json: { type: "boolean" },
    "timeout-ms": { type: "string" },
    dialect: { type: "string" },
  }, args);
  const v = flags.values;
  const timeoutMs = flags.int("timeout-ms", v["timeout-ms"], 15_000, 1_000, 120_000);
  const dialect = v.dialect === undefined
    ? undefined
    : flags.attempt(() => resolveDialect(v.dialect), undefined, "--");
  let ok = false;
  await flags.run(async () => {
    const report = await checkServices({
      timeoutMs,
      stub: dialect ? { dialect } : undefined,
    });
    const offline = report.services.filter((s) => s.offline).map((s) => s.service);
    if (v.json) console.log(JSON.stringify(report, null, 2));
    else {
      console.log(
        offline.length === 2
          ? `signalbook doctor: no keys set; checking the in-process emulator${
            dialect ? ` (dialect ${describeDialect(dialect)})` : ""
          }`
          : `signalbook doctor: checking ${
            report.services.map((s) => s.offline ? `${s.service} (emulator)` : s.service)
              .join(" and ")
          }`,
      );
      for (const line of formatReport(report)) console.log(line);
    }
    if (dialect && offline.length === 0) {
      console.error("doctor: --dialect applies to the emulator only; both services are live");
    }
    ok = report.ok;
  });
  Deno.exit(ok ? 0 : 1);
}

if (import.meta.main) await main();
