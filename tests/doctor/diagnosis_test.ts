/**
 * The doctor names the cause first (a wrong key, a lapsed membership, a base
 * URL without its service path, a host that does not answer), with the
 * failed calls folded under it, against the emulator over loopback.
 */
import assert from "node:assert/strict";
import { checkServices, formatReport } from "../../lib/doctor/mod.ts";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { serveStub } from "../../lib/stub/serve.ts";

const WRONG = "sk-live-DIAGNOSE-WRONG-KEY-4c1d";

async function withStub(fn: (url: string) => Promise<void>): Promise<void> {
  const ac = new AbortController();
  const { url, server } = await serveStub({
    port: 0,
    hostname: "127.0.0.1",
    signal: ac.signal,
    seed: 1,
    scale: 0.1,
  });
  try {
    await fn(url);
  } finally {
    ac.abort();
    await server.finished;
  }
}

const live = (url: string, insider: { key: string; base: string }) => ({
  PITCH_API_KEY: DEMO_KEYS.catalog,
  PITCH_BASE_URL: `${url}/catalog`,
  INSIDER_API_KEY: insider.key,
  INSIDER_BASE_URL: insider.base,
});

Deno.test("doctor: every insider call 401 is one diagnosis naming INSIDER_API_KEY, symptoms folded", async () => {
  await withStub(async (url) => {
    const r = await checkServices({ env: live(url, { key: WRONG, base: `${url}/insider` }) });
    assert.equal(r.ok, false);
    assert.equal(r.diagnoses.length, 1);
    const d = r.diagnoses[0];
    assert.equal(d.service, "insider");
    assert.equal(d.cause, "key");
    assert.match(d.message, /every call answered 401.*check INSIDER_API_KEY/);
    assert.ok(d.symptoms.length >= 3, d.symptoms.join("\n"));
    // the symptom list holds the 404 probe's complaint; the problems list does not
    assert.ok(d.symptoms.some((x) => /should be a NotFoundError/.test(x)));
    assert.deepEqual(r.problems, [d.message]);
    const lines = formatReport(r);
    assert.match(lines[0], /^diagnosis: insider: every call answered 401/);
    assert.match(lines[1], /^ {2}symptom: insider /);
    const all = lines.join("\n") + JSON.stringify(r);
    assert.ok(!all.includes(WRONG), "the key is never printed");
    assert.ok(!all.includes(WRONG.slice(0, 12)), "no part of the key either");
  });
});

Deno.test("doctor: every insider call 403 is 'Premium lapsed'", async () => {
  await withStub(async (url) => {
    const r = await checkServices({
      env: live(url, { key: DEMO_KEYS.insiderLapsed, base: `${url}/insider` }),
    });
    assert.equal(r.diagnoses.length, 1);
    assert.equal(r.diagnoses[0].cause, "premium");
    assert.match(r.diagnoses[0].message, /^insider: every call answered 403: Premium lapsed/);
    assert.match(formatReport(r)[0], /^diagnosis: insider: .*Premium lapsed/);
  });
});

Deno.test("doctor: a base URL without /insider names INSIDER_BASE_URL and the URL it tried", async () => {
  await withStub(async (url) => {
    const r = await checkServices({ env: live(url, { key: DEMO_KEYS.insider, base: url }) });
    assert.equal(r.diagnoses.length, 1);
    const d = r.diagnoses[0];
    assert.equal(d.cause, "base-url");
    assert.ok(d.message.includes(`tried ${url}/api/v1/`), d.message);
    assert.match(d.message, /check INSIDER_BASE_URL; it should end in \/insider/);
    assert.ok(d.message.includes(`e.g. ${url}/insider`), d.message);
    // the 404 on purpose "passed" before; now it is a symptom under the cause
    assert.deepEqual(r.problems, [d.message]);
  });
});

Deno.test("doctor: a host that refuses connections is named with the error", async () => {
  // a port that was free a moment ago: nothing listens there now
  const l = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  await withStub(async (url) => {
    const r = await checkServices({
      env: live(url, { key: WRONG, base: `http://127.0.0.1:${port}/insider` }),
      timeoutMs: 2000,
    });
    assert.equal(r.diagnoses.length, 1);
    const d = r.diagnoses[0];
    assert.equal(d.cause, "unreachable");
    assert.ok(d.message.includes(`127.0.0.1:${port}`), d.message);
    assert.match(d.message, /check INSIDER_BASE_URL and the network/);
    assert.ok(!JSON.stringify(r).includes(WRONG));
  });
});

Deno.test("doctor: a healthy live service gets no diagnosis", async () => {
  await withStub(async (url) => {
    const r = await checkServices({
      env: live(url, { key: DEMO_KEYS.insider, base: `${url}/insider` }),
    });
    assert.deepEqual(r.diagnoses, []);
    assert.deepEqual(r.problems, []);
    assert.equal(r.ok, true);
  });
});
