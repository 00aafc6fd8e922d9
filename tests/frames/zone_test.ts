/**
 * A timestamp sent without a zone means the same instant on every machine:
 * read as UTC (with one notice naming the column), never in the machine's
 * zone. Checked in subprocesses under two zones far apart.
 */
import assert from "node:assert/strict";
import { captureWarnings } from "../_warnings.ts";

async function under(tz: string): Promise<Record<string, unknown>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check=remote", new URL("./_zone_child.ts", import.meta.url).pathname],
    env: { TZ: tz },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("zone-less timestamps read the same under TZ=Asia/Kolkata and TZ=America/Los_Angeles: UTC", async () => {
  const kolkata = await under("Asia/Kolkata");
  const la = await under("America/Los_Angeles");
  // the children did run in those zones
  assert.equal(kolkata.offsetMinutes, -330);
  assert.equal(la.offsetMinutes, 480);
  for (const r of [kolkata, la]) {
    const { naive, plain } = r as Record<string, Record<string, string[]>>;
    assert.ok(plain.frame.length === 30 && plain.feed.length === 5);
    assert.deepEqual(naive.frame, plain.frame, `${r.zone} frame`);
    assert.deepEqual(naive.rows, plain.rows, `${r.zone} take() rows`);
    assert.deepEqual(naive.feed, plain.feed, `${r.zone} feed rows`);
  }
  assert.deepEqual(kolkata.naive, la.naive);
});

Deno.test("a zone-less timestamp column gets one notice naming it", async () => {
  const { buildFrame } = await import("../../mod.ts");
  const captured = captureWarnings();
  const lines = captured.lines;
  try {
    buildFrame([{ name: "filed_at", type: "timestamp" }, { name: "n", type: "decimal" }], [
      { filed_at: "2025-01-02T02:48:00", n: 1 },
      { filed_at: "2025-01-02T03:48:00", n: 2 },
    ]);
  } finally {
    captured.restore();
  }
  const notice = lines.filter((l) => l.includes("without a zone"));
  assert.deepEqual(notice, [
    "signalbook: 1 column coerced from timestamp without a zone (read as UTC): filed_at (2 rows)",
  ]);
});
