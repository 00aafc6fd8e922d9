/**
 * Runs `checkServices()` against the live services at `Deno.args[0]` (both
 * keys set) and prints `{ ok, problems, peakMiB }` as one JSON line: the
 * child of `bounded_test.ts`, run under a memory ceiling.
 */
import { checkServices } from "../../lib/doctor/mod.ts";

const base = Deno.args[0];
const report = await checkServices({
  env: {
    PITCH_API_KEY: "sk-live-bounded-doctor-0001",
    PITCH_BASE_URL: `${base}/catalog`,
    INSIDER_API_KEY: "sk-live-bounded-doctor-0002",
    INSIDER_BASE_URL: `${base}/insider`,
  },
  timeoutMs: 60_000,
});
const status = await Deno.readTextFile("/proc/self/status").catch(() => "");
const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
console.log(JSON.stringify({
  ok: report.ok,
  problems: report.problems,
  statuses: report.services.map((s) => s.calls.map((c) => c.statuses)),
  peakMiB: Math.round(hwm / 1024),
}));
