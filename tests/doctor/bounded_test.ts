/**
 * A bounded doctor: against a hostile live service on loopback — every
 * catalog answer a gzip bomb (4 MB of gzip that would expand to about
 * 4 GiB), every insider answer an endless JSON body — `checkServices()`, run
 * in its own process under a V8 heap ceiling of 256 MiB and a time limit,
 * ends with findings (the calls' `ResponseTooLargeError`s), never an
 * out-of-memory (its peak RSS is printed and kept under 768 MiB). Each body the doctor reads goes through the client's
 * bounded reader.
 */
import assert from "node:assert/strict";
import { loopback } from "../_loopback.ts";

const MiB = 1024 * 1024;
const CHILD = new URL("./bounded_child.ts", import.meta.url).pathname;

/** Zeros forever, gzip-compressed as they are pulled, at most `maxGzip` bytes of gzip. */
function gzipBomb(maxGzip: number): ReadableStream<Uint8Array> {
  const zeros = new Uint8Array(MiB);
  const source = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(zeros) });
  const gz = source.pipeThrough(
    new CompressionStream("gzip") as unknown as TransformStream<
      Uint8Array,
      Uint8Array
    >,
  );
  let sent = 0;
  const reader = gz.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await reader.read();
      if (r.done || sent >= maxGzip) {
        c.close();
        await reader.cancel().catch(() => {});
        return;
      }
      sent += r.value.length;
      c.enqueue(r.value);
    },
    cancel: () => reader.cancel().catch(() => {}),
  });
}

/** `{"data":[{"a":1},{"a":1},…` without end. */
function endlessJson(): ReadableStream<Uint8Array> {
  const rows = new TextEncoder().encode('{"a":1},'.repeat(8192));
  let first = true;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (first) {
        first = false;
        c.enqueue(new TextEncoder().encode('{"data":['));
      }
      c.enqueue(rows);
    },
  });
}

/** A loopback service: a gzip bomb on every catalog route, an endless JSON body on every insider one. */
function hostile() {
  return loopback((req) => {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/catalog/")) {
      return new Response(gzipBomb(4 * 1000 * 1000), {
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
      });
    }
    return new Response(endlessJson(), { headers: { "content-type": "application/json" } });
  });
}

/** Problems of both services that are the bounded reader's finding. */
function assertTooLarge(problems: string[]) {
  const tooLarge = (service: string) =>
    problems.filter((p) =>
      p.startsWith(`${service} `) && /larger than maxResponseBytes = 16,777,216 bytes/.test(p)
    );
  assert.ok(tooLarge("catalog").length >= 1, problems.join("\n"));
  assert.ok(tooLarge("insider").length >= 1, problems.join("\n"));
}

const CEILING = ["--v8-flags=--max-old-space-size=256"];

Deno.test("checkServices against a gzip bomb and an endless JSON body: findings, no out-of-memory, under a 256 MiB heap", async () => {
  const srv = hostile();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", ...CEILING, CHILD, srv.base],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000), // a hang is killed and fails below
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(
      out.code,
      0,
      `the doctor died (code ${out.code}, signal ${out.signal}):\n${stderr.slice(-2000)}`,
    );
    const r = JSON.parse(stdout.trim().split("\n").at(-1)!);
    console.log(
      `doctor under hostile bodies: peak RSS ${r.peakMiB} MiB, ${r.problems.length} problems`,
    );
    assert.equal(r.ok, false);
    // the unbounded doctor grew past 2 GB on this probe; bounded, the whole process stays far below
    assert.ok(r.peakMiB < 768, `peak RSS ${r.peakMiB} MiB`);
    assertTooLarge(r.problems);
  } finally {
    await srv.close();
  }
});

Deno.test("deno task doctor --json against the same service, as the probe ran it: exit 1 with the findings, not killed", async () => {
  const srv = hostile();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", ...CEILING, "lib/cli/doctor.ts", "--json"],
      cwd: new URL("../../", import.meta.url).pathname,
      env: {
        NO_COLOR: "1",
        PITCH_API_KEY: "sk-live-bounded-doctor-0003",
        PITCH_BASE_URL: `${srv.base}/catalog`,
        INSIDER_API_KEY: "sk-live-bounded-doctor-0004",
        INSIDER_BASE_URL: `${srv.base}/insider`,
      },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, `code ${out.code}, signal ${out.signal}:\n${stderr.slice(-2000)}`);
    const report = JSON.parse(stdout);
    assert.equal(report.ok, false);
    assertTooLarge(report.problems);
    assert.ok(!(stdout + stderr).includes("sk-live-bounded"), "no key in the output");
  } finally {
    await srv.close();
  }
});
