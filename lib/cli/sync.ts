/**
 * `deno task sync [--dir data] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
 * [--datasets insider_trades,pitches] [--concurrency 4] [--overlap-days 7]
 * [--lock-timeout-ms 60000]`:
 * brings a local dataset up to date (see `lib/store/sync.ts`). Bad flags or
 * values exit with code 2 and a message naming every one of them; a runtime
 * failure (bad key, unreachable service, `--dir` not writable, disk full)
 * prints one line and exits with code 1 (`--debug` adds the stack).
 *
 * @module
 */
import { plural } from "../shared/plural.ts";
import { connect } from "../connect.ts";
import { sync } from "../store/sync.ts";
import { SYNC_DATASETS } from "../store/state.ts";
import { parseFlags } from "./args.ts";

const HELP = `Usage: deno task sync [options]

Keeps insider trades and pitches as hive-partitioned parquet under DIR,
incrementally (only what is new since the last sync, with an overlap),
crash-safe and resumable.

Options:
  --dir DIR            dataset root (default data)
  --from YYYY-MM-DD    first day to keep (first sync; default 5 years back)
  --to YYYY-MM-DD      last day (default today, the emulator's today offline;
                       a later day is clamped to today)
  --datasets LIST      insider_trades, pitches (default both)
  --concurrency N      month windows pulled at once, 1 to 32 (default 4)
  --overlap-days N     days re-read before the last sync's end (default 7)
  --lock-timeout-ms N  wait at most N ms while another writer holds DIR
                       (default 60000; 0 fails at once, naming the holder)
  --debug              on failure, print the stack too
  --help               show this help

--from must be on or before --to and not in the future. DIR is checked
(a writable directory, not "") before anything is pulled.`;

/**
 * `deno task sync` with `args` (default `Deno.args`): see the help text above.
 */
export async function main(args: string[] = Deno.args): Promise<void> {
  const flags = parseFlags("sync", HELP, {
    dir: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    datasets: { type: "string" },
    concurrency: { type: "string" },
    "overlap-days": { type: "string" },
    "lock-timeout-ms": { type: "string" },
  }, args);
  const v = flags.values;
  flags.dates(v.from, v.to);
  const datasets = flags.list("datasets", v.datasets ?? SYNC_DATASETS.join(","), SYNC_DATASETS);
  const concurrency = flags.int("concurrency", v.concurrency, 4, 1, 32);
  const overlapDays = flags.int("overlap-days", v["overlap-days"], 7, 0, 365);
  const lockTimeoutMs = flags.int("lock-timeout-ms", v["lock-timeout-ms"], 60_000, 0, 86_400_000);
  const dir = flags.dir("dir", v.dir, "data");
  await flags.run(
    async () => {
      const { insider, catalog, offlineToday } = await connect();
      const today = offlineToday ?? new Date().toISOString().slice(0, 10);
      // a --from in the future is an error (it used to be clamped to --to silently)
      if (v.from !== undefined && v.from > today) {
        flags.fail(
          `--from ${v.from} is in the future (today is ${today}${
            offlineToday ? " in the offline emulator" : ""
          }); give a date up to ${today}`,
        );
      }
      flags.done();
      // a day to come is clamped to today, said once (the library clamps to the real today)
      const to = v.to === undefined || v.to > today ? today : v.to;
      if (v.to && v.to > today) {
        console.error(`sync: --to ${v.to} is after today (${today}); syncing up to ${today}`);
      }
      const report = await sync({
        dir,
        from: v.from,
        to,
        insider,
        catalog,
        datasets,
        concurrency,
        overlapDays,
        lockTimeoutMs,
      });
      for (const [name, r] of Object.entries(report.datasets)) {
        console.log(
          `${name}: ${r.rows.toLocaleString("en-US")} rows in ${
            plural(r.months, "month")
          } (${r.skipped} already done), ${plural(r.requests, "request")}, ${r.from} → ${r.to}`,
        );
      }
      console.log(
        `done in ${
          report.seconds.toFixed(1)
        } s; scan with scanInsiderTrades("${dir}") / scanPitches(...)`,
      );
    },
    { "--dir": dir },
  );
}

if (import.meta.main) await main();
