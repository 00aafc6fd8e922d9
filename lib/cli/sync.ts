/**
 * `deno task sync [--dir data] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
 * [--datasets insider_trades,pitches] [--concurrency 4] [--overlap-days 7]`:
 * brings a local dataset up to date (see `lib/store/sync.ts`). A bad flag
 * or value exits with code 2 and a message naming it.
 *
 * @module
 */
import { connect } from "../connect.ts";
import { sync, type SyncDataset } from "../store/sync.ts";
import { isIsoDate } from "../shared/schema.ts";
import { parseFlags, usageError } from "./args.ts";

const HELP = `Usage: deno task sync [options]

Keeps insider trades and pitches as hive-partitioned parquet under DIR,
incrementally (only what is new since the last sync, with an overlap),
crash-safe and resumable.

Options:
  --dir DIR            dataset root (default data)
  --from YYYY-MM-DD    first day to keep (first sync; default 5 years back)
  --to YYYY-MM-DD      last day (default today; the emulator's today offline)
  --datasets LIST      insider_trades, pitches (default both)
  --concurrency N      month windows pulled at once, 1 to 32 (default 4)
  --overlap-days N     days re-read before the last sync's end (default 7)
  --help               show this help`;

if (import.meta.main) {
  const v = parseFlags("sync", HELP, {
    dir: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    datasets: { type: "string" },
    concurrency: { type: "string" },
    "overlap-days": { type: "string" },
    help: { type: "boolean" },
  });
  if (v.help) {
    console.log(HELP);
    Deno.exit(0);
  }
  const fail = (m: string) => usageError("sync", m, HELP);
  for (const k of ["from", "to"] as const) {
    if (v[k] !== undefined && !isIsoDate(v[k]!)) {
      fail(`--${k} ${JSON.stringify(v[k])} is not allowed; allowed: a date YYYY-MM-DD`);
    }
  }
  const datasets = (v.datasets ?? "insider_trades,pitches").split(",").map((s) => s.trim());
  for (const d of datasets) {
    if (d !== "insider_trades" && d !== "pitches") {
      fail(`--datasets: ${JSON.stringify(d)} is not allowed; allowed: insider_trades, pitches`);
    }
  }
  const int = (name: string, raw: string | undefined, def: number, lo: number, hi: number) => {
    const n = Number(raw ?? def);
    if (!Number.isInteger(n) || n < lo || n > hi) {
      fail(
        `--${name} ${JSON.stringify(raw)} is not allowed; allowed: an integer from ${lo} to ${hi}`,
      );
    }
    return n;
  };
  const concurrency = int("concurrency", v.concurrency, 4, 1, 32);
  const overlapDays = int("overlap-days", v["overlap-days"], 7, 0, 365);
  const { insider, catalog, offlineToday } = await connect();
  const to = v.to ?? offlineToday;
  const report = await sync({
    dir: v.dir ?? "data",
    from: v.from,
    to,
    insider,
    catalog,
    datasets: datasets as SyncDataset[],
    concurrency,
    overlapDays,
  });
  for (const [name, r] of Object.entries(report.datasets)) {
    console.log(
      `${name}: ${
        r.rows.toLocaleString("en-US")
      } rows in ${r.months} months (${r.skipped} already done), ${r.requests} requests, ${r.from} → ${r.to}`,
    );
  }
  console.log(
    `done in ${report.seconds.toFixed(1)} s; scan with scanInsiderTrades("${
      v.dir ?? "data"
    }") / scanPitches(...)`,
  );
}
